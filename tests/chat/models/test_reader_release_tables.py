"""An earnings release's summary grid (issue 12): the period word on a line of its own above the years
("|  |  | Q2 |  |" over "| ($ in Millions, except EPS) | 2023 | 2022 | % Change |") heads each year's column, and
the change column beside the years does not keep that line from being the header. Made-up release; no evaluation
set's question or wording.
"""

# ruff: noqa: E501  (the fixtures are table rows as ingest writes them, one line each)
from __future__ import annotations

import pytest

from chat.models.reader import Passage, read
from chat.models.reader.tables import find_tables

RESULTS = """OVERALL FINANCIAL RESULTS
|  |  | Q2 |  |
|---|---|---|---|
| ($ in Millions, except EPS) | 2023 | 2022 | % Change |
| Reported Sales | $25,530 | $24,020 | 6.3% |
| Net Earnings/(Loss) | $5,144 | $4,814 | 6.9% |
| EPS (diluted) | $1.96 | $1.80 | 8.9% |
"""


def _release() -> list[Passage]:
    return [Passage("S1", RESULTS, "h1", "HARLOW_FINCH_2023Q2_EARNINGS.pdf", 1)]


def test_the_years_under_a_period_word_are_that_periods_columns() -> None:
    table = find_tables(RESULTS)[0]
    assert [(c.header, c.span) for c in table.columns[:2]] == [("Q2 2023", 3), ("Q2 2022", 3)]
    assert table.columns[2].is_change
    assert table.unit.word == "million"


@pytest.mark.parametrize(("question", "lead"), [
    ("What were Harlow & Finch's net earnings in the second quarter of 2023?",
     "Net Earnings/(Loss) were $5,144 million in Q2 2023 [S1]."),
    ("What were Harlow & Finch's reported sales in Q2 2022?", "Reported Sales were $24,020 million in Q2 2022 [S1]."),
])
def test_a_release_summary_answers_its_quarter(question: str, lead: str) -> None:
    assert read(question, _release()).text.split("\n")[0] == lead


def test_two_period_words_over_the_years_are_left_alone() -> None:
    """"Q2" and "Six Months" over four years: which word heads which year is not known from the cells alone."""
    grid = RESULTS.replace("|  |  | Q2 |  |", "|  | Q2 |  | Six Months |").replace(
        "| 2023 | 2022 | % Change |", "| 2023 | 2022 | 2023 |")
    headers = [c.header for c in find_tables(grid)[0].columns]
    assert not any("Q2" in h or "Six" in h for h in headers)


EARNINGS_Q2 = """Consolidated Statement of Earnings
| (in millions) | Q2 2023 | Q2 2022 |
|---|---|---|
| Net earnings | $5,144 | $4,814 |
"""
SALES_Q1 = """Sales by segment
| (in millions) | Q1 2023 | Q1 2022 |
|---|---|---|
| Sales to customers | $24,746 | $23,426 |
"""
SALES_Q2 = """Sales by segment
| (in millions) | Q2 2023 | Q2 2022 |
|---|---|---|
| Sales to customers | $25,530 | $24,020 |
"""


def test_a_ratio_divides_cells_of_one_period_only() -> None:
    """Net earnings of Q2 over sales of Q1 is no ratio: with only Q1's sales found, no figure is computed."""
    question = "What were Harlow & Finch's net earnings as a percent of sales to customers in Q2 2023?"
    q1 = read(question, [Passage("S1", EARNINGS_Q2, "h1", "HARLOW_FINCH_2023Q2_EARNINGS.pdf", 4),
                         Passage("S2", SALES_Q1, "h1", "HARLOW_FINCH_2023Q2_EARNINGS.pdf", 7)])
    assert "computed" not in q1.why and "24,746" not in q1.text
    q2 = read(question, [Passage("S1", EARNINGS_Q2, "h1", "HARLOW_FINCH_2023Q2_EARNINGS.pdf", 4),
                         Passage("S2", SALES_Q2, "h1", "HARLOW_FINCH_2023Q2_EARNINGS.pdf", 7)])
    assert q2.why == "computed"
    assert "20.1%" in q2.text.split("\n")[0]  # 5,144 / 25,530


def test_a_ratio_is_not_computed_across_quarters_the_question_did_not_ask() -> None:
    """Asked Q2 of two years, found Q3/Q4 2022 earnings and Q1/Q2 2023 sales: no "Q3 2022 ÷ Q1 2023" figure."""
    earnings = """Consolidated Statement of Earnings
| (in millions) | 2022 / Q3 / Amount | 2022 / Q4 / Amount |
|---|---|---|
| Net earnings | $4,458 | $3,520 |
"""
    sales = """Sales by segment
| (in millions) | 2023 / Q1 / Amount | 2023 / Q2 / Amount |
|---|---|---|
| Sales to customers | $20,894 | $21,519 |
"""
    answer = read("Did Harlow & Finch's net earnings as a percent of sales to customers increase in Q2 of FY2023 "
                  "compared to Q2 of FY2022?",
                  [Passage("S1", earnings, "h1", "HARLOW_FINCH_2023Q2_EARNINGS.pdf", 4),
                   Passage("S2", sales, "h1", "HARLOW_FINCH_2023Q2_EARNINGS.pdf", 7)])
    assert answer.why != "computed"
    assert "21.3%" not in answer.text


@pytest.mark.parametrize(("label", "caption", "adjusted"), [
    ("Adjusted Net Earnings, after tax", "", True),
    ("Core operating profit", "", True),
    ("Non-GAAP net income", "", True),
    ("Organic revenue growth", "", True),
    ("Net Earnings, after tax- as reported", "Reconciliation of Non-GAAP Financial Measures", False),
    ("Net income (GAAP)", "", False),
    ("Net earnings", "", False),
    ("Net earnings", "Reconciliation of Non-GAAP Financial Measures", True),
])
def test_an_adjusted_figure_is_told_from_the_reported_one(label: str, caption: str, adjusted: bool) -> None:
    from chat.models.reader.evidence import adjusted_row

    assert adjusted_row(label, caption) is adjusted


def test_the_reported_figure_answers_unless_the_adjusted_one_is_asked() -> None:
    reconciliation = """Reconciliation of Non-GAAP Financial Measures
| (Dollars in Millions) | Second Quarter / 2023 | Second Quarter / 2022 |
|---|---|---|
| Adjusted Net Earnings, after tax | $7,358 | $6,902 |
"""
    statement = """Condensed Consolidated Statement of Earnings
| (Dollars in Millions) | Second Quarter / 2023 | Second Quarter / 2022 |
|---|---|---|
| Net income | $5,144 | $4,814 |
"""
    passages = [Passage("S1", reconciliation, "h1", "HARLOW_FINCH_2023Q2_EARNINGS.pdf", 9),
                Passage("S2", statement, "h1", "HARLOW_FINCH_2023Q2_EARNINGS.pdf", 4)]
    reported = read("What were Harlow & Finch's net earnings in the second quarter of 2023?", passages)
    assert reported.text.startswith("Net income was $5,144 million")
    adjusted = read("What were Harlow & Finch's adjusted net earnings in the second quarter of 2023?", passages)
    assert adjusted.text.startswith("Adjusted Net Earnings, after tax were $7,358 million")


#: a release's statement: "SECOND QUARTER" centred over the four value columns landed in the third one's header,
#: and each year has an amount and a percent-to-sales column
STATEMENT = """Harlow & Finch and Subsidiaries
Condensed Consolidated Statement of Earnings
| (Unaudited; in Millions Except Per Share Figures) | 2023 / Percent / Amount | 2023 / Percent / to Sales | SECOND QUARTER / 2022 / Percent / Amount | 2022 / Percent to Sales | Percent Increase (Decrease) |
|---|---|---|---|---|---|
| Sales to customers | $25,530 | 100.0 | $24,020 | 100.0 | 6.3 |
| Net earnings | $5,144 | 20.1 | $4,814 | 20.0 | 6.9 |
| Net earnings per share (Diluted) | $1.96 |  | $1.80 |  | 8.9 |
"""


def _statement() -> list[Passage]:
    return [Passage("S1", STATEMENT, "h1", "HARLOW_FINCH_2023Q2_EARNINGS.pdf", 10)]


def test_a_period_word_centred_over_the_columns_heads_each_dated_column() -> None:
    columns = find_tables(STATEMENT)[0].columns
    assert [c.span for c in columns[:4]] == [3, 3, 3, 3]
    assert all(any(p.quarter == 2 for p in c.periods) for c in columns[:4])


@pytest.mark.parametrize(("question", "lead"), [
    ("What were Harlow & Finch's net earnings in the second quarter of 2023?",
     "Net earnings were $5,144 million in the second quarter of 2023 [S1]."),
    ("How much did Harlow & Finch's sales to customers change in Q2 2023 year over year?",
     "Sales to customers were up 6.3%: $25,530 million in the second quarter of 2023 vs $24,020 million in the "
     "second quarter of 2022 [S1]"),
])
def test_the_statement_answers_its_quarter_against_the_other_years_amount(question: str, lead: str) -> None:
    """The change is computed against 2022's amount, not against 2023's percent-to-sales column beside it."""
    assert read(question, _statement()).text.split("\n")[0].startswith(lead)


def test_a_year_over_its_quarter_in_the_header_levels_is_that_quarter() -> None:
    """"2023 / Q1 | 2023 / Q2 | 2023 / SIX MONTHS": a question for Q2 2023 is the Q2 column, not the first 2023 one."""
    grid = """Reconciliation of Non-GAAP Financial Measures
| (Dollars in Millions Except Per Share Data) | 2023 / Q1 | 2023 / Q2 | 2023 / SIX MONTHS |
|---|---|---|---|
| Net earnings per share (Diluted) - as reported | $(0.19) | $2.05 | $1.86 |
"""
    columns = find_tables(grid)[0].columns
    assert [[(p.year, p.quarter) for p in c.periods] for c in columns[:2]] == [[(2023, 1)], [(2023, 2)]]
    answer = read("What was Harlow & Finch's diluted net earnings per share in Q2 2023?",
                  [Passage("S1", grid, "h1", "HARLOW_FINCH_2023_8K.pdf", 15)])
    assert "$2.05" in answer.text.split("\n")[0]


def test_a_unit_in_the_singular_in_brackets_is_the_tables_scale() -> None:
    from chat.models.reader.numbers import caption_unit

    assert caption_unit("Year Ended December 31, 2020 (In thousand)").word == "thousand"
    assert caption_unit("a thousand ways to grow").word == ""


def test_the_guarantor_subsidiaries_summary_is_not_the_groups_figure() -> None:
    """A 10-K's summarized financial information of the issuer and its guarantor subsidiaries prints "Net revenues"
    too: the consolidated statement's line answers, unless the question asks for the guarantors."""
    guarantors = """The summarized financial information of us and our guarantor subsidiaries, on a combined basis, is presented below.
| Income Statement | Year Ended December 31, 2020 (In thousands) |
|---|---|
| Net revenues | $3,586,846 |
| Net loss | (310,705) |
"""
    consolidated = """Results of operations
| (In thousands) | Year Ended December 31, / 2020 | Year Ended December 31, / 2019 |
|---|---|---|
| Net revenues | $ 5,162,082 | $ 12,899,672 |
| Net loss | (1,032,724) | 2,214,320 |
"""
    passages = [Passage("S1", guarantors, "m1", "HARLOW_2020_10K.pdf", 51),
                Passage("S2", consolidated, "m1", "HARLOW_2020_10K.pdf", 60)]
    answer = read("What were Harlow's net revenues in 2020?", passages)
    assert answer.text.startswith("Net revenues were $5,162,082 thousand")
    asked = read("What were the net revenues of Harlow's guarantor subsidiaries in 2020?", passages)
    assert "$3,586,846 thousand" in asked.text.split("\n")[0]


def test_a_guarantor_financial_information_heading_is_part_of_the_group_too() -> None:
    """The summary under a "Guarantor Financial Information" heading (no sentence about guarantor subsidiaries)
    is the guarantors' too (before: its "Net revenues" answered for the group)."""
    guarantors = """HARLOW RESORTS › Guarantor Financial Information
| Income Statement | Year Ended December 31, 2020 (In thousands) |
|---|---|
| Net revenues | $3,586,846 |
| Net loss | (310,705) |
"""
    consolidated = """HARLOW RESORTS › Results of Operations
The following table summarizes our operating results:
(In thousands)
| | Year Ended December 31, / 2020 | Year Ended December 31, / 2019 2018 (In thousands) |
|---|---|---|
| Net revenues | $5,162,082 | $12,899,672 $11,763,096 |
| Net loss | (1,032,724) | 2,214,320 583,894 |
"""
    passages = [Passage("S1", guarantors, "m1", "HARLOW_2020_10K.pdf", 51),
                Passage("S2", consolidated, "m1", "HARLOW_2020_10K.pdf", 42)]
    answer = read("What were Harlow's FY2020 total net revenues in USD thousands?", passages)
    assert answer.text.startswith("Net revenues were $5,162,082 thousand"), answer.text


#: a release's highlights grid: the quarter in words over one column, its year only in the caption above
HIGHLIGHTS = """Wrenmoor Reports First-Quarter 2023 Results
Reported (GAAP) First-Quarter 2023 Results
|  | First-Quarter |
|---|---|
| Net revenue growth | 10.2% |
| Earnings per share (EPS) | $1.40 |
| Organic revenue growth | 14.3% |
"""

OUTLOOK = ("Our 2023 organic revenue growth guidance excludes the impact of acquisitions and divestitures and the "
           "impact of a 53rd reporting week in 2022.")


def test_a_quarter_in_words_takes_its_year_from_the_caption() -> None:
    column = find_tables(HIGHLIGHTS)[0].columns[0]
    assert [(p.quarter, p.year) for p in column.periods] == [(1, 2023)]
    a = read("What was Wrenmoor's organic revenue growth in Q1 2023?",
             [Passage("S1", HIGHLIGHTS, "w1", "WRENMOOR_2023Q1_EARNINGS.pdf", 1),
              Passage("S2", OUTLOOK, "w1", "WRENMOOR_2023Q1_EARNINGS.pdf", 10)])
    assert a.text.startswith("Organic revenue growth was 14.3% in First-Quarter 2023 [S1].")


def test_an_ordinal_is_no_amount_to_state() -> None:
    a = read("What was Wrenmoor's organic revenue growth guidance for 2023?",
             [Passage("S2", OUTLOOK, "w1", "WRENMOOR_2023Q1_EARNINGS.pdf", 10)])
    assert "53" not in a.text.split("“")[0]  # the lead states no "53" (of "53rd")


def test_a_cell_close_behind_a_lead_sentence_without_an_amount_answers() -> None:
    """"reported EPS": a guidance sentence that names "reported" and "EPS" but states no amount ranks first; the
    highlights grid's EPS cell, close behind it, is the answer rather than a decline."""
    guidance = "Wrenmoor, Inc. › Guidance We cannot reconcile our first quarter 2023 reported EPS to core EPS."
    a = read("What was Wrenmoor's reported EPS in the first quarter of 2023?",
             [Passage("S1", guidance, "w1", "WRENMOOR_2023Q1_EARNINGS.pdf", 10),
              Passage("S2", HIGHLIGHTS, "w1", "WRENMOOR_2023Q1_EARNINGS.pdf", 1)])
    assert not a.declined
    assert a.text.startswith("Earnings per share (EPS) was $1.40"), a.text


#: a header cut in two by the text layer: the period words over a first row of years, a stub column beside
PRODUCTS = """WRENMOOR INC. › Note 13. Other Revenue Information
(MILLIONS)
| (MILLIONS) |  | Three Months Ended / July 2, | Three Months Ended / July 3, | Six Months Ended / July 2, | Six Months Ended / July 3, |
|---|---|---|---|---|---|
| PRODUCT | PRIMARY INDICATION OR CLASS | 2031 | 2030 | 2031 | 2030 |
| TOTAL REVENUES |  | $12,734 | $27,742 | $31,015 | $53,402 |
| Primary Care |  | $5,810 | $20,979 | $17,315 | $39,830 |
"""


def test_a_row_of_years_under_a_cut_header_completes_each_columns_period() -> None:
    """"Three Months Ended / July 2," over "| … | 2031 | 2030 |": each column is its quarter of its year and the
    years' row is no data row (before: no column had a year, and a sentence's "1%" answered)."""
    table = find_tables(PRODUCTS)[0]
    assert [c.header for c in table.columns][1:3] == ["Three Months Ended / July 2, 2031",
                                                     "Three Months Ended / July 3, 2030"]
    assert table.rows[0].label == "TOTAL REVENUES"
    share = ("WRENMOOR INC. › Revenues\nAdditionally, revenues from the U.S. government represented 1% and 9% of total "
             "revenues for the three and six months ended July 2, 2031, respectively.")
    first = read("What were Wrenmoor's total revenues for the three months ended July 2, 2031?",
                 [Passage("S1", share, "w", "WRENMOOR_2031Q2_10Q.pdf", 38),
                  Passage("S2", PRODUCTS, "w", "WRENMOOR_2031Q2_10Q.pdf", 39)]).text.splitlines()[0]
    assert "$12,734 million" in first, first


def test_a_deed_of_cross_guarantees_closed_group_is_no_statement_of_the_company() -> None:
    """A note's "Deed of Cross Guarantee / Consolidated Statements of Income" is the closed group's: not the
    company's net sales, and no page of its statement (the statement is still searched for)."""
    from chat.models.reader.statement_pages import is_statement_page

    deed = Passage("S1", "WRENMOOR PLC › Note 22 - Deed of Cross Guarantee\nDeed of Cross Guarantee\nConsolidated "
                         "Statements of Income\n($ in millions)\n| | For the years ended June 30, / 2031 | For the years "
                         "ended June 30, / 2030 |\n|---|---|---|\n| Net sales | $377 | $391 |", "w", "WRENMOOR_10K.pdf",
                   105)
    assert not is_statement_page(deed)
    release = Passage("S2", "Wrenmoor reports fiscal 2031 results\n($ million)\n| | Fiscal year / 2031 | Fiscal year / "
                            "2030 |\n|---|---|---|\n| Net sales | 14,694 | 14,544 |", "w", "WRENMOOR_2031Q4_EARNINGS.pdf", 10)
    first = read("What were Wrenmoor's net sales in fiscal year 2031 in USD millions?", [deed, release]).text
    assert "14,694" in first.splitlines()[0], first


RESTATED = """HARLOW & FINCH AND SUBSIDIARIES
Condensed Consolidated Statement of Earnings
(Unaudited; in Millions Except Per Share Figures)
| (in Millions) | Q1 / Amount | Q1 / Percent to Sales | 2032 Q2 / Amount | 2032 Q2 / Percent to Sales | SIX MONTHS Amount |
|---|---|---|---|---|---|
| Sales to customers | $19,880 | 100.0 % | $20,310 | 100.0 % | $40,190 |
| Net earnings | $5,149 | 25.9 % | $4,814 | 23.7 % | $9,963 |
"""


@pytest.mark.parametrize(("question", "value", "not_value"), [
    ("What were Harlow & Finch's net earnings in Q2 2032?", "$4,814 million", "5,149"),
    ("What were Harlow & Finch's net earnings in the first quarter of 2032?", "$5,149 million", "4,814"),
])
def test_a_quarter_printed_without_its_year_keeps_its_own_quarter(question: str, value: str, not_value: str) -> None:
    """"Q1 / Amount" beside "2032 Q2 / Amount": the year printed once over both quarters is the first quarter's
    too, but the column stays the first quarter's — the second quarter's figure is the "2032 Q2" column's."""
    lead = read(question, [Passage("S1", RESTATED, "h2", "HARLOW_FINCH_2032_8K.pdf", 13)]).text.split("\n")[0]
    assert value in lead and not_value not in lead, lead


def test_a_quarter_column_is_said_as_its_quarter_and_year() -> None:
    """Not "in 2032 Q2 Amount vs … in Q1 Amount": the header's "Amount" is no part of the period."""
    lead = read("Did Harlow & Finch's net earnings increase in Q2 2032 compared to Q1 2032?",
                [Passage("S1", RESTATED, "h2", "HARLOW_FINCH_2032_8K.pdf", 13)]).text.split("\n")[0]
    assert lead.startswith("No — net earnings were down 6.5%: $4,814 million in Q2 2032 vs $5,149 million in Q1 "
                           "2032 [S1]"), lead
