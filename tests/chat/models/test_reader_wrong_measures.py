"""Figures of another measure or another period are no answer: a segment superlative reads the rows under its
measure's heading, not another's the caption also names; a change asked of a table's earliest year has no year
before it there; a share that is 100% because its whole is the part's own line is no share; a count asked
("deliveries count") is no amount of money; shares of a whole are no growth. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read

SEGMENTS = """KESTREL CORPORATION › Selected Financial Data by Business Segment
Sales and operating profit for each of our business segments were as follows (in millions):
|  | 2031 | 2030 | 2029 |
|---|---|---|---|
| Net sales |  |  |  |
| Aeronautics | $ 26,987 | $ 26,748 | $ 26,266 |
| Missiles and Fire Control | 11,317 | 11,693 | 11,257 |
| Rotary and Mission Systems | 16,148 | 16,789 | 15,995 |
| Total net sales | $ 65,984 | $ 67,044 | $ 65,398 |
| Operating profit |  |  |  |
| Aeronautics | $2,866 | $2,799 | $2,843 |
| Missiles and Fire Control | 1,635 | 1,648 | 1,545 |
| Rotary and Mission Systems | 1,673 | 1,798 | 1,615 |
| Total business segment operating profit | 6,174 | 6,245 | 6,003 |"""

INCOME = """KESTREL CORPORATION › Consolidated Statements of Income
(In millions)
| (In millions) | YEAR ENDED MAY 31, / 2031 | YEAR ENDED MAY 31, / 2030 | YEAR ENDED MAY 31, / 2029 |
|---|---|---|---|
| Revenues | $44,538 | $37,403 | $39,117 |
| Cost of sales | 24,576 | 21,162 | 21,643 |"""

SHARES = """KESTREL CORPORATION › Revenues
For fiscal 2031, Kestrel sales in the United States accounted for approximately 39% of total revenues, compared to \
39% and 41% for fiscal 2030 and fiscal 2029, respectively."""


def _p(ref: str, text: str, page: int = 60, period_end: str = "2031-12-31") -> Passage:
    return Passage(ref, text, "doc-2031", "KESTREL_2031_10K.pdf", page, company="Kestrel Corporation",
                   period_end=period_end)


def test_a_superlative_reads_its_measures_rows() -> None:
    head = read("Which Kestrel segment had the highest operating profit in 2031?", [_p("S1", SEGMENTS)]).text
    # before: "Aeronautics had the highest operating profit: $26,987 million …" — the net sales rows
    assert head.startswith("Aeronautics had the highest operating profit: $2,866 million in 2031 [S1]"), head
    assert "$26,987" not in head.splitlines()[0]


def test_no_change_from_a_later_year() -> None:
    passages = [_p("S1", INCOME, 61, "2031-05-31"), _p("S2", SHARES, 30, "2031-05-31")]
    answer = read("How much did Kestrel's revenues grow in fiscal 2029?", passages)
    # before: "Revenues were down 12.2%: $39,117 million … 2029 vs $44,538 million … 2031" — sure
    assert "vs $44,538" not in answer.text and answer.why != "sure", answer.text


def test_shares_are_no_growth() -> None:
    answer = read("How much did Kestrel's revenues grow in fiscal 2029?", [_p("S2", SHARES, 30, "2031-05-31")])
    assert answer.why != "sure", answer.text  # "41% … for fiscal 2029" is the United States' share


def test_a_count_is_no_money() -> None:
    table = """KESTREL CORPORATION › Segment results
| Years ended December 31, | 2031 | 2030 |
|---|---|---|
| Commercial Airplanes | $25,867 | $19,493 |
| Defense | 23,162 | 26,540 |"""
    answer = read("What was Kestrel's commercial airplanes deliveries count in 2031?", [_p("S1", table)])
    # before: "Commercial Airplanes deliveries count was $25,867 million …" — sure
    assert answer.why != "sure", answer.text


def test_a_part_over_its_own_line_is_no_share() -> None:
    by_segment = """KESTREL CORPORATION › Segment Information
| | Year Ended December 31, / 2030 | Year Ended December 31, / 2031 |
|---|---|---|
| Net Sales: |  |  |
| North America | 79,785 | 106,110 |
| Cloud | 12,219 | 17,459 |"""
    cloud = """KESTREL CORPORATION › Segment Information › Cloud
| | Year Ended December 31, / 2030 | Year Ended December 31, / 2031 |
|---|---|---|
| Net sales | $12,219 | $17,459 |
| Operating expenses | 9,111 | 13,128 |"""
    answer = read("What percentage of Kestrel's 2031 net sales came from Cloud?", [_p("S1", by_segment),
                                                                                   _p("S2", cloud, 68)])
    assert "100.0%" not in answer.text, answer.text
