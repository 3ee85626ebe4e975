"""A quarter asked, a sentence of another quarter offered: "the fourth quarter of 2031" is never "the three months
ended June 30, 2032" (a fiscal quarter may end in the calendar year before its number — never the fourth — or, the
fourth only, early in the year after). A release's bullet takes its period from the heading stacked above its list's
own heading ("Fourth Quarter 2031 Financial Highlights:" over "Consolidated Results"). A measure named by its
abbreviation ("Adjusted Property EBITDAR") is an amount asked. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.periods import Period, agreement, find_periods
from chat.models.reader.question import analyze
from chat.models.reader.text import headings_above, sentence_spans

TEN_Q = """KESTREL RESORTS › Key Performance Indicators
Consolidated net revenues increased 21% for the three months ended June 30, 2032 compared to the prior year quarter.
The decrease was due to a $2.3 billion gain in the prior year quarter related to the Vega transaction, partially offset
by the increase in net revenues, and new leases which commenced in April 2031 and May 2031, respectively.
Kestrel Macau Adjusted Property EBITDAR was $209 million for the three months ended June 30, 2032 compared to
Adjusted Property EBITDAR loss of $52 million in the prior year quarter."""

RELEASE = """KESTREL RESORTS REPORTS FOURTH QUARTER AND FULL YEAR 2031 FINANCIAL AND OPERATING RESULTS
Fourth Quarter 2031 Financial Highlights:
Consolidated Results
• Consolidated net revenues of $3.6 billion, an increase of 18% compared to the prior year quarter.
• Net loss attributable to Kestrel Resorts of $240 million."""


def _p(ref: str, text: str, name: str, page: int) -> Passage:
    return Passage(ref, text, name, name + ".pdf", page, company="Kestrel Resorts International")


def _period(text: str) -> Period:
    (p,) = [p for p in find_periods(text) if p.year]
    return p


def test_a_quarter_ends_in_its_own_year_or_a_neighbours_only_as_fiscal_calendars_allow() -> None:
    fourth = _period("the fourth quarter of 2031")
    assert agreement(fourth, _period("the three months ended June 30, 2032")) == 0.0
    assert agreement(fourth, _period("the quarter ended January 28, 2032")) > 0  # a retailer's fiscal fourth quarter
    second = _period("Q2 FY2032")
    assert agreement(second, _period("the quarter ended July 29, 2031")) > 0  # fiscal 2032 began in early 2031
    assert agreement(fourth, _period("the three months ended December 31, 2030")) == 0.0


def test_another_quarters_sentence_is_never_stated_as_the_answer() -> None:
    answer = read("What was Kestrel Macau's Adjusted Property EBITDAR in the fourth quarter of 2031?",
                  [_p("S1", TEN_Q, "KESTREL_2032Q2_10Q", 31)])
    assert analyze("What was Kestrel Macau's Adjusted Property EBITDAR in the fourth quarter of 2031?").kind == "value"
    assert answer.declined or answer.why == "unsure"
    assert not answer.text.startswith("The documents say")


def test_a_releases_bullet_takes_its_period_from_the_heading_above_its_lists_heading() -> None:
    assert headings_above(RELEASE, RELEASE.index("• Consolidated")) == ["Fourth Quarter 2031 Financial Highlights:"]
    answer = read("What were Kestrel Resorts' consolidated net revenues for the fourth quarter of 2031?",
                  [_p("S1", TEN_Q, "KESTREL_2032Q2_10Q", 28), _p("S2", RELEASE, "KESTREL_2031Q4_EARNINGS", 1)])
    first = answer.text.split("\n")[0]
    assert "$3.6 billion" in first and "[S2]" in first and not answer.declined


def test_a_dotted_abbreviation_before_a_word_that_only_starts_a_sentence_ends_the_sentence() -> None:
    text = ("Our total workforce was approximately 156,000 with 13% located outside of the U.S. As of December 31, "
            "2031, our workforce included approximately 50,000 union members. The U.S. Government is a customer.")
    spans = [text[s:e] for s, e in sentence_spans(text)]
    assert spans[0].endswith("outside of the U.S.") and spans[1].startswith("As of December 31")
    assert spans[2] == "The U.S. Government is a customer."


def _release(ref: str, text: str, page: int = 1) -> Passage:
    return _p(ref, text, "KESTREL_2031Q4_EARNINGS", page)


def test_a_sentence_of_whole_years_does_not_answer_a_half_asked() -> None:
    text = ("KESTREL RESORTS › Note 6 - Restructuring\nThe Company's restructuring charges related to these plans were "
            "$17 million, $59 million, and $6 million for the fiscal years ended June 30, 2031, 2030, and 2029, "
            "respectively.")
    answer = read("What were Kestrel's restructuring costs in the first half of fiscal 2031?",
                  [_p("S1", text, "KESTREL_2031_10K", 68)])
    assert answer.declined or answer.why == "unsure"


def test_a_halfs_column_or_sentence_is_no_years_figure() -> None:
    """"in 2031" asked: the six months ended June 30, 2031 are part of that year — never a sure answer."""
    cash_flows = """KESTREL RESORTS › Condensed Consolidated Statements of Cash Flows
(In thousands)
|  | Six Months Ended June 30, / 2032 | Six Months Ended June 30, / 2031 |
|---|---|---|
| Repurchases of common stock | (1,103,219) | (2,116,055) |"""
    said = ("During the six months ended June 30, 2031, the Company repurchased approximately 56 million shares of its "
            "common stock for an aggregate amount of $2.1 billion, which included the February 2031 repurchase of 4.5 "
            "million shares.")
    for texts in ([cash_flows], [said]):
        answer = read("How much stock did Kestrel repurchase in 2031?",
                      [_p(f"S{i}", t, "KESTREL_2032Q2_10Q", 6) for i, t in enumerate(texts, 1)])
        assert answer.declined or answer.why == "unsure", answer.text


def test_of_amounts_each_with_its_period_the_asked_periods_is_stated() -> None:
    text = ("Our effective tax rate for continuing operations was (3.1)% for the second quarter of 2031, compared "
            "to 13.7% for the second quarter of 2030, and was 7.5% for the first six months of 2031, compared to "
            "13.4% for the first six months of 2030.")
    answer = read("What was Kestrel's effective tax rate in the first six months of 2031?",
                  [_p("S1", text, "KESTREL_2031Q2_10Q", 40)])
    assert answer.text.startswith("The documents say 7.5%")


def test_a_quarters_figure_in_a_heading_path_is_not_the_years() -> None:
    """A release's subtitle made a heading: the chunks after it carry "… › June 2031 quarter: GAAP diluted EPS of
    12.3 cps; …" in their heading path — the quarter's figure, not fiscal 2031's."""
    later_chunk = ("Kestrel reports fiscal 2031 results › June 2031 quarter: GAAP diluted EPS of 12.3 cps; Adjusted "
                   "EPS of 19.3 cps › Fiscal 2031 Full Year Highlights › • Fiscal 2032 outlook: Adjusted EPS of 67-71 "
                   "cents per share.\nWe expect adjusted free cash flow of $900 million to $1,000 million.")
    first_chunk = ("Kestrel reports fiscal 2031 results\nJune 2031 quarter:\nGAAP diluted EPS of 12.3 cps; Adjusted "
                   "EPS of 19.3 cps\nFiscal 2031 Full Year Highlights\n• Net sales of $14,694 million;\n• GAAP Net "
                   "Income of $1,048 million; GAAP diluted earnings per share (EPS) of 70.5 cps;")
    answer = read("What was Kestrel's GAAP diluted EPS for fiscal 2031?",
                  [_release("S1", later_chunk), _release("S2", first_chunk)])
    first = answer.text.split("\n")[0]
    assert first.startswith("The documents say 70.5 cps")


def test_a_years_column_is_no_halfs_figure_but_a_quarters_table_of_years_is_the_quarters() -> None:
    years = """KESTREL RESORTS › Repurchase of Common Stock
(In millions)
|  | 2031 | 2030 | 2029 |
|---|---|---|---|
| Total cost of shares repurchased | $1,001 | $3,504 | $318 |"""
    half = read("How much did Kestrel spend on share repurchases in the first six months of fiscal 2032?",
                [_p("S1", years, "KESTREL_2031_10K", 70)])
    assert half.declined or half.why == "unsure"
    quarter_table = """KESTREL RESORTS › Sales by Segment
| Q2 ($ in Millions) | 2031 | 2030 | % Change / Reported |
|---|---|---|---|
| Pharmaceutical | 13,731 | 13,317 | 3.1 |"""
    second = read("What were Kestrel's Pharmaceutical segment sales in Q2 2031?",
                  [_p("S1", quarter_table, "KESTREL_2031Q2_EARNINGS", 9)])
    assert "$13,731 million" in second.text.split("\n")[0] and second.why == "sure"


def test_an_event_of_a_month_is_of_its_year_but_a_months_amount_is_no_years() -> None:
    settled = ("KESTREL RESORTS › Note 21 – Legal Proceedings\nIn October 2031, Kestrel settled the lawsuits brought "
               "by its former distributors and consented to a civil penalty.")
    answer = read("Did Kestrel settle any lawsuits in FY2031?", [_p("S1", settled, "KESTREL_2031_10K", 47)])
    assert not answer.declined and "October 2031" in answer.text


def test_a_metric_named_by_its_abbreviation_is_an_amount_and_a_words_modifier_is_none() -> None:
    """"RevPAR" asked is an amount: "a new 10-year gaming concession" states none, nor does a sentence of another
    measure of the same resorts."""
    release = ("KESTREL RESORTS › Fourth Quarter 2031 Financial Highlights\n• Awarded new 10-year gaming concession "
               "in Macau Las Vegas, Nevada, February 8, 2032 – Kestrel Resorts International (NYSE: KRI).\n“We "
               "achieved our fifth consecutive quarter of record-breaking Las Vegas Strip Resorts Adjusted Property "
               "EBITDAR in the fourth quarter,” said the Chief Executive Officer.")
    question = "What was Kestrel's Las Vegas Strip RevPAR in Q4 2031?"
    assert analyze(question).kind == "value"
    answer = read(question, [_release("S1", release)])
    assert answer.declined or answer.why == "unsure"
    assert "say 10" not in answer.text


def test_a_verb_closing_the_question_is_no_word_of_the_item() -> None:
    """"What dividend per share did Acme declare …?" asks the dividend per share: "declare" is no word a row must
    hold (the 10-Q's "Regular quarterly cash dividend per share" row answers, sure)."""
    assert analyze("What dividend per share did Kestrel declare in Q2 FY2032?").focus == "dividend per share"
    table = "\n".join([
        "KESTREL RESORTS › Liquidity and Capital Resources › Share Repurchases and Dividends",
        "|  | Three Months Ended / July 29, 2031 | Three Months Ended / July 30, 2030 "
        "| Six Months Ended / July 29, 2031 | Six Months Ended / July 30, 2030 |",
        "|---|---|---|---|---|",
        "| Total cost of shares repurchased | $69 | $10 | $150 | $452 |",
        "| Regular quarterly cash dividend per share | $0.92 | $0.88 | $1.84 | $1.76 |"])
    answer = read("What dividend per share did Kestrel declare in Q2 FY2032?",
                  [_p("S1", table, "KESTREL_2032Q2_10Q", 22)])
    assert answer.text.startswith("Regular quarterly cash dividend per share was $0.92") and answer.why == "sure"
