"""Analysts' phrasings of a statement line item: an abbreviation for the item ("net PPNE", "COGS", "D&A"), a
"what is" that asks a figure of a year, "what amount of … did X report", "did X have in …", "as of the end of
FY2021", "total D&A" where the statement's one line has no "Total". Made-up filings."""

from __future__ import annotations

import pytest

from chat.models.reader import Passage, read
from chat.models.reader.evidence import PERCENT_FOR_MONEY, gather
from chat.models.reader.question import analyze
from chat.models.reader.tables import column_text, find_tables

BALANCE = """Harrowgate Instruments Corporation
CONSOLIDATED BALANCE SHEETS
(In millions)
|  | December 31, / 2021 | December 31, / 2020 |
|---|---|---|
| Assets: |  |  |
| Cash and cash equivalents | $ 3,604 | $ 3,160 |
| Receivables, net | 1,963 | 1,978 |
| Inventories | 2,981 | 3,545 |
| Total current assets | 19,815 | 19,378 |
| Property, plant and equipment, net | 7,597 | 7,213 |
| Goodwill | 10,813 | 10,806 |
| Total assets | $ 50,873 | $ 50,710 |"""

CASH_FLOWS = """Harrowgate Instruments Corporation
CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
|  | For the Years Ended December 31, / 2021 | For the Years Ended December 31, / 2020 |
|---|---|---|
| Operating activities: |  |  |
| Net earnings | $ 6,315 | $ 6,833 |
| Adjustments to reconcile net earnings to net cash provided by operating activities: |  |  |
| Depreciation and amortization | 1,364 | 1,290 |
| Stock-based compensation | 227 | 221 |"""

INCOME = """Harrowgate Instruments Corporation
CONSOLIDATED STATEMENTS OF EARNINGS
(In millions)
|  | Years Ended December 31, / 2021 | 2020 |
|---|---|---|
| Net sales | $ 67,044 | $ 65,398 |
| Cost of sales | (57,983) | (56,744) |
| Gross profit | 9,061 | 8,654 |
| Net income | 6,315 | 6,833 |"""


@pytest.mark.parametrize(
    ("question", "focus_terms_at_least"),
    [
        ("What is the FY2021 net PPNE (in USD millions) for Harrowgate? Answer based on the balance sheet.", 1),
        ("What is the FY2021 COGS for Harrowgate Instruments in USD millions? Please rely on the P&L statement.", 1),
        ("What amount of goodwill did Harrowgate report at year end 2021?", 1),
    ],
)
def test_a_what_is_of_a_year_asks_a_figure_not_a_definition(question: str, focus_terms_at_least: int) -> None:
    q = analyze(question)
    assert q.kind == "value", q.kind
    assert len(q.focus_terms) >= focus_terms_at_least
    # an item's abbreviation or "FY2021 COGS" is no company's name
    assert not any(n in ("PPNE", "COGS", "FY2021 COGS", "P&L") for n in q.names), q.names


def test_a_definition_without_a_period_stays_one() -> None:
    assert analyze("What is Harrowgate's strategy?").kind == "definition"


@pytest.mark.parametrize(
    ("question", "focus"),
    [
        ("How much (in USD millions) did Harrowgate have in cash and cash equivalents at the end of FY2021?",
         "cash and cash equivalents"),
        ("What is the value of Harrowgate's total assets as of the end of FY2021?", "total assets"),
        ("What is the year end FY2021 net AR (in USD millions) for Harrowgate?", "net AR"),
        ("What was the total of Harrowgate's liabilities at the end of fiscal year 2021?", "total liabilities"),
        ("What was the sum of Harrowgate's current liabilities at December 31, 2021?", "total current liabilities"),
        ("How much net income attributable to Harrowgate did the company report in FY2021?",
         "net income attributable to Harrowgate"),
        ("How much revenue did the company generate in 2021?", "revenue"),
        ("How much did Harrowgate spend buying back its own shares in 2021?", "buying back shares"),
    ],
)
def test_the_words_around_the_item_are_not_the_item(question: str, focus: str) -> None:
    assert analyze(question).focus == focus


def test_net_ppne_and_cogs_read_their_rows() -> None:
    passages = [Passage("S1", BALANCE, "doc-1", "harrowgate-10k.pdf", 60),
                Passage("S2", INCOME, "doc-1", "harrowgate-10k.pdf", 58)]
    ppne = read("What is the FY2021 net PPNE (in USD millions) for Harrowgate? Answer based on the balance sheet.",
                passages).text.splitlines()[0]
    assert ppne.startswith("Property, plant and equipment, net was $7,597 million as of December 31, 2021 [S1]"), ppne
    cogs = read("What is the FY2021 COGS for Harrowgate in USD millions? Please rely on the P&L statement.",
                passages).text.splitlines()[0]
    assert cogs.startswith("Cost of sales was $57,983 million in the year ended December 31, 2021 (printed in "
                           "brackets) [S2]"), cogs


def test_total_d_and_a_is_the_statements_one_line() -> None:
    passages = [Passage("S1", CASH_FLOWS, "doc-1", "harrowgate-10k.pdf", 62)]
    answer = read("What is the FY2021 total D&A (depreciation and amortization) for Harrowgate? Answer in USD "
                  "millions. Use the cash flow statement.", passages).text
    assert answer.startswith("Depreciation and amortization was $1,364 million in the year ended December 31, "
                             "2021 [S1]"), answer


def test_a_heading_the_label_repeats_is_not_prepended() -> None:
    passages = [Passage("S1", BALANCE, "doc-1", "harrowgate-10k.pdf", 60)]
    answer = read("What were Harrowgate's total current assets as of December 31, 2021?", passages).text
    assert answer.startswith("Total current assets were $19,815 million as of December 31, 2021 [S1]"), answer


@pytest.mark.parametrize(
    ("header", "spoken"),
    [
        ("For the Years Ended December 31, / 2021", "the year ended December 31, 2021"),
        ("Years Ended December 31, / 2021", "the year ended December 31, 2021"),
        ("Fiscal Years Ended January 31, / 2019", "the fiscal year ended January 31, 2019"),
        ("Three Months Ended / July 1, 2023", "the three months ended July 1, 2023"),
    ],
)
def test_a_columns_period_is_said_one_way(header: str, spoken: str) -> None:
    text = f"(In millions)\n|  | {header} | Other |\n|---|---|---|\n| Net sales | 10 | 9 |"
    table = find_tables(text)[0]
    assert column_text(table, 0) == spoken


EARNINGS_3Y = """Harrowgate Instruments Corporation
CONSOLIDATED STATEMENTS OF EARNINGS
(In millions)
|  | Fiscal Year / 2022 | Fiscal Year / 2021 | Fiscal Year / 2020 |
|---|---|---|---|
| Revenues: |  |  |  |
| Net sales | $ 19,010.0 | $ 18,120.0 | $ 17,600.0 |
| Membership and other income | 410.0 | 388.0 | 371.0 |
| Total revenues | $ 19,420.0 | $ 18,508.0 | $ 17,971.0 |"""


@pytest.mark.parametrize(
    "question",
    [
        "What was the percentage change in Harrowgate's total revenues between FY2020 and FY2021?",
        "What were Harrowgate's total revenues in FY2021 and FY2020?",
        "How did Harrowgate's total revenues in fiscal 2021 compare with fiscal 2020?",
    ],
)
def test_two_years_asked_are_the_two_columns_compared(question: str) -> None:
    """The two years named are the two cells, whichever order they are said in — not the table's third column,
    and "FY2020 and FY2021" are no two companies to answer one by one."""
    passages = [Passage("S1", EARNINGS_3Y, "doc-1", "harrowgate-10k.pdf", 45)]
    answer = read(question, passages).text
    head = answer.splitlines()[0]
    assert "$18,508.0 million" in head and "$17,971.0 million" in head and "19,420" not in head, head
    assert "up 3.0%" in head, head
    assert answer.count("[S1]") == 1, answer  # one answer, not one per "name"


def test_total_revenue_asked_is_the_total_row_not_a_part() -> None:
    """"total revenue" keeps its "total": "Total revenues", not the "Net sales" above it."""
    passages = [Passage("S1", EARNINGS_3Y, "doc-1", "harrowgate-10k.pdf", 45)]
    head = read("What was Harrowgate's total revenue in its most recent fiscal year?", passages).text.splitlines()[0]
    assert head.startswith("Total revenues were $19,420.0 million"), head


@pytest.mark.parametrize(
    ("question", "focus"),
    [
        ("What was Harrowgate's year-over-year revenue growth in FY2022?", "revenue"),
        ("What was the percentage change in Harrowgate's net sales between FY2020 and FY2021?", "net sales"),
        ("How did Harrowgate's revenue in fiscal 2022 compare with fiscal 2021?", "revenue"),
        ("How much cash did Harrowgate return to shareholders through dividends in the first six months of 2023?",
         "dividends"),
        ("By how much did Harrowgate's net sales change in the three months ended March 31, 2023 compared with the "
         "same quarter of 2022?", "net sales"),
    ],
)
def test_change_words_are_not_the_item(question: str, focus: str) -> None:
    assert analyze(question).focus == focus


INTERIM_BALANCE = """Harrowgate Instruments Corporation
CONDENSED CONSOLIDATED BALANCE SHEETS (Unaudited)
(In millions)
|  | September 30, 2022 | June 30, 2022 |
|---|---|---|
| Total current liabilities | $ 87,389 | $ 95,082 |
| Long-term debt | 45,374 | 47,032 |"""


def test_the_end_of_a_fiscal_year_is_its_year_end_column_not_a_later_interim_one() -> None:
    """A fiscal year ending June 30: the 10-Q's "September 30, 2022" is in calendar 2022 too, but "the end of FY2022"
    is June 30, 2022 — the earlier balance date of that year. A date asked exactly still reads its column."""
    passages = [Passage("S1", INTERIM_BALANCE, "doc-1", "harrowgate-10q.pdf", 4)]
    head = read("How much long-term debt did Harrowgate have at the end of FY2022?", passages).text.splitlines()[0]
    assert head.startswith("Long-term debt was $47,032 million as of June 30, 2022"), head
    exact = read("What was Harrowgate's long-term debt as of September 30, 2022?", passages).text.splitlines()[0]
    assert exact.startswith("Long-term debt was $45,374 million as of September 30, 2022"), exact




MARGINS = """Harrowgate Instruments Corporation
Results of Operations
The following table sets forth, for the periods indicated, certain items as a percentage of net sales:
|  | Years Ended December 31, / 2021 | 2020 |
|---|---|---|
| Net sales | 100.0 % | 100.0 % |
| Gross profit | 13.5 % | 13.2 % |
| Net income | 9.4 % | 10.4 % |"""



def test_how_much_of_a_line_item_is_money_not_its_share_of_sales() -> None:
    passages = [Passage("S1", MARGINS, "doc-1", "harrowgate-10k.pdf", 40),
                Passage("S2", INCOME, "doc-1", "harrowgate-10k.pdf", 58)]
    question = "How much net income did Harrowgate earn in 2021?"
    answer = read(question, passages).text
    assert answer.startswith("Net income was $6,315 million in the year ended December 31, 2021 [S2]"), answer
    # the "% of net sales" cell counts as a percentage for money, not as a near tie
    scores = {ev.passage.ref: ev.score for ev in gather(analyze(question), passages) if ev.kind == "cell"}
    assert scores["S1"] <= PERCENT_FOR_MONEY * scores["S2"], scores
