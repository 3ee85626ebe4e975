"""Which of two parts grew faster: each part's line in the year asked and the year before, both changes computed
and compared, each cited; with a part's line missing no verdict is made. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.faster import race_parts
from chat.models.reader.rivals import rival_questions

SEGMENTS = """KESTREL INC. › Note 11—SEGMENT INFORMATION
Information on reportable segments is as follows (in millions):
|  | Year Ended December 31, / 2029 | Year Ended December 31, / 2030 | Year Ended December 31, / 2031 |
|---|---|---|---|
| North America |  |  |  |
| Net sales | $63,708 | $79,785 | $106,110 |
| Operating income | $1,425 | $2,361 | $2,837 |
| International |  |  |  |
| Net sales | $35,418 | $43,983 | $54,297 |
| Operating income (loss) | $(699) | $(1,283) | $(3,062) |"""

ASKED = "Which grew faster for Kestrel in 2031, North America or International net sales?"


def _p(ref: str, text: str) -> Passage:
    return Passage(ref, text, "doc-2031", "KESTREL_2031_10K.pdf", 69, company="Kestrel Inc.",
                   period_end="2031-12-31")


def test_each_part_is_asked_its_own_line() -> None:
    assert race_parts(ASKED) == [("North America", "What were Kestrel's North America net sales in 2031?"),
                                 ("International", "What were Kestrel's International net sales in 2031?")]
    assert race_parts("What were Kestrel's North America net sales in 2031?") is None  # no race asked


def test_the_faster_part_is_said_with_both_changes() -> None:
    answer = read(ASKED, [_p("S1", SEGMENTS)])
    head = answer.text.splitlines()[0]
    # before: North America's change, then "I'm not sure …" for International — no verdict
    assert head.startswith("North America grew faster: North America up 33.0% ($106,110 million vs $79,785 million) "
                           "[S1], International up 23.4% ($54,297 million vs $43,983 million) [S1]"), head
    slower = read(ASKED.replace("faster", "slower"), [_p("S1", SEGMENTS)])
    assert slower.text.startswith("International grew slower:"), slower.text


def test_no_verdict_without_both_parts_lines() -> None:
    one = SEGMENTS.split("| International |")[0]
    answer = read(ASKED, [_p("S1", one)])
    assert "grew faster" not in answer.text, answer.text


def test_which_part_is_larger() -> None:
    asked = "Which was larger for Kestrel in 2031, North America or International operating income?"
    assert rival_questions(asked) == []  # one company's two parts are no rival companies
    head = read(asked, [_p("S1", SEGMENTS)]).text.splitlines()[0]
    # before: the same consolidated line twice, no verdict
    assert head.startswith("North America's operating income was larger: North America $2,837 million [S1], "
                           "International $(3,062) million [S1]"), head
    smaller = read(asked.replace("larger", "smaller"), [_p("S1", SEGMENTS)]).text
    assert smaller.startswith("International's operating income was smaller:"), smaller


#: a segment whose name lists words with commas and "&" ("Defense, Space & Security")
LISTED = """KESTREL COMPANY › Note 21 – Segment Information
(Dollars in millions)
| Years ended December 31, | 2031 | 2030 | 2029 |
|---|---|---|---|
| Revenues: |  |  |  |
| Commercial Airplanes | $25,867 | $19,493 | $16,162 |
| Defense, Space & Security | 23,162 | 26,540 | 26,257 |
| Global Services | 17,611 | 16,328 | 15,543 |
| Total revenues | $66,608 | $62,286 | $58,158 |"""


def test_a_part_named_with_commas_is_one_part() -> None:
    asked = "Which grew faster for Kestrel in 2031, Defense, Space & Security or Commercial Airplanes revenues?"
    assert race_parts(asked) == [
        ("Defense, Space & Security", "What were Kestrel's Defense, Space & Security revenues in 2031?"),
        ("Commercial Airplanes", "What were Kestrel's Commercial Airplanes revenues in 2031?")]
    head = read(asked, [_p("S1", LISTED)]).text.splitlines()[0]
    # before: no split ("Security or Commercial Airplanes" read as the pair), Defense, Space & Security's change only
    assert head.startswith("Commercial Airplanes grew faster: Defense, Space & Security down 12.7% ($23,162 million "
                           "vs $26,540 million) [S1], Commercial Airplanes up 32.7%"), head
    larger = "Which was larger for Kestrel in 2031, Commercial Airplanes or Defense, Space & Security revenues?"
    assert rival_questions(larger) == []  # the same company asked of twice
    head = read(larger, [_p("S1", LISTED)]).text.splitlines()[0]
    assert head.startswith("Commercial Airplanes' revenues were larger: Commercial Airplanes $25,867 million [S1], "
                           "Defense, Space & Security $23,162 million [S1]"), head


BY_PRODUCT = """KESTREL INC. › Note 15 — Revenues
(Dollars in millions)
| | YEAR ENDED DECEMBER 31, / 2031 | YEAR ENDED DECEMBER 31, / 2030 | YEAR ENDED DECEMBER 31, / 2029 |
|---|---|---|---|
| Footwear | $28,021 | $23,305 | $24,222 |
| Apparel | 12,865 | 10,953 | 11,550 |
| Equipment | 1,382 | 1,280 | 1,404 |
| Total Kestrel Brand revenues | $42,268 | $35,538 | $37,176 |"""

OPERATIONS = """KESTREL INC. › CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
| | Year Ended December 31, / 2029 | Year Ended December 31, / 2030 | Year Ended December 31, / 2031 |
|---|---|---|---|
| Total net sales | 107,006 | 135,987 | 177,866 |
| Total operating expenses | 104,773 | 131,801 | 173,760 |
| Operating income | 2,233 | 4,186 | 4,106 |"""


def test_parts_in_lower_case_share_the_item() -> None:
    asked = "Which grew faster for Kestrel in 2031, footwear or apparel revenues?"
    assert race_parts(asked) == [("footwear", "What were Kestrel's footwear revenues in 2031?"),
                                 ("apparel", "What were Kestrel's apparel revenues in 2031?")]
    head = read(asked, [_p("S1", BY_PRODUCT)]).text.splitlines()[0]
    # before: the total's change alone, no verdict
    assert head.startswith("Footwear grew faster: footwear up 20.2% ($28,021 million vs $23,305 million) [S1], "
                           "apparel up 17.5% ($12,865 million vs $10,953 million) [S1]"), head
    larger = read(asked.replace("grew faster", "was larger"), [_p("S1", BY_PRODUCT)]).text.splitlines()[0]
    assert larger.startswith("Footwear's revenues were larger: footwear $28,021 million [S1], apparel"), larger
    assert race_parts("Which grew faster for Kestrel in 2031, footwear or apparel?") is None  # no item named


def test_two_line_items_race() -> None:
    asked = "Which grew faster for Kestrel in 2031, net sales or operating expenses?"
    assert race_parts(asked) == [("net sales", "What were Kestrel's net sales in 2031?"),
                                 ("operating expenses", "What were Kestrel's operating expenses in 2031?")]
    head = read(asked, [_p("S1", OPERATIONS)]).text.splitlines()[0]
    assert head.startswith("Operating expenses grew faster: net sales up 30.8% (177,866 million vs 135,987 "
                           "million) [S1], operating expenses up 31.8%"), head
    larger = read(asked.replace("grew faster", "were larger"), [_p("S1", OPERATIONS)]).text.splitlines()[0]
    assert larger.startswith("Net sales were larger: net sales 177,866 million [S1], operating expenses"), larger
