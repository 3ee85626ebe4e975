"""Statement questions (issue 12): a line item × period read from annual and quarterly statement tables.

Every fixture is made up for these tests — a fictitious "Acme Widgets" 10-K (income statement, balance sheet,
cash-flow statement with year columns ``2019 2018 2017``) and 10-Q tables in the Markdown ingest writes and in
the flattened form of a text layer — and every question is written here, in the shape analysts ask them
(instruction lead-ins, "FY2018", "in USD millions", "relying on the cash flow statement"). None comes from an
evaluation set.
"""

from __future__ import annotations

import pytest

from chat.models.reader import Passage, analyze, read
from chat.models.reader.numbers import Amount, Unit, format_amount
from chat.models.reader.statements import statement_kind

INCOME = """ACME WIDGETS CORPORATION
CONSOLIDATED STATEMENTS OF INCOME
(In millions, except per share amounts)
| Year Ended December 31, | 2019 | 2018 | 2017 |
|---|---|---|---|
| Net sales | $ 32,136 | $ 31,657 | $ 30,109 |
| Cost of sales | 16,782 | 16,450 | 15,710 |
| Selling, general and administrative expenses | 6,929 | 6,827 | 6,572 |
| Operating income | 6,174 | 7,207 | 7,820 |
| Provision for income taxes | 1,130 | 1,637 | 2,679 |
| Net income including noncontrolling interest | $ 4,582 | $ 5,363 | $ 4,869 |
| Less: Net income attributable to noncontrolling interest | 12 | 14 | 11 |
| Net income attributable to Acme Widgets | $ 4,570 | $ 5,349 | $ 4,858 |"""

CASH_FLOWS = """ACME WIDGETS CORPORATION
CONSOLIDATED STATEMENTS OF CASH FLOWS
(Dollars in millions)
| Years ended December 31 | 2019 | 2018 | 2017 |
|---|---|---|---|
| Cash Flows from Operating Activities | | | |
| Net income including noncontrolling interest | $ 4,582 | $ 5,363 | $ 4,869 |
| Depreciation and amortization | 1,593 | 1,488 | 1,544 |
| Net cash provided by operating activities | 7,070 | 6,439 | 6,240 |
| Cash Flows from Investing Activities | | | |
| Purchases of property, plant and equipment (PP&E) | (1,699) | (1,577) | (1,373) |
| Net cash used in investing activities | (6,444) | (222) | (3,086) |"""

BALANCE = """ACME WIDGETS CORPORATION
CONSOLIDATED BALANCE SHEET
(Dollars in millions)
| At December 31 | 2019 | 2018 |
|---|---|---|
| Cash and cash equivalents | $ 2,353 | $ 2,853 |
| Inventories | 4,134 | 4,366 |
| Total current assets | 12,971 | 13,709 |
| Property, plant and equipment — net | 9,333 | 8,738 |
| Total assets | $ 44,659 | $ 36,500 |
| Long-term debt | 17,518 | 13,411 |
| Total liabilities | $ 34,533 | $ 26,652 |"""

#: a quarterly statement as a text layer without table structure (the form older chunks have)
QUARTER_FLAT = """ZETA DEVICES, INC.
CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions, except per share data)
Three Months Ended Six Months Ended
Jun 29, 2024 Jul 1, 2023 Jun 29, 2024 Jul 1, 2023
Net revenue $ 8,412 $ 7,905 $ 16,230 $ 15,118
Cost of sales 4,100 3,980 8,020 7,711
Gross margin 4,312 3,925 8,210 7,407
Operating income (loss) (212) 415 (380) 906
Net income (loss) $ (150) $ 301 $ (290) $ 655"""


def _passages() -> list[Passage]:
    return [
        Passage("S1", INCOME, "d1", "ACME_2019_10K.pdf", 48),
        Passage("S2", CASH_FLOWS, "d1", "ACME_2019_10K.pdf", 51),
        Passage("S3", BALANCE, "d1", "ACME_2019_10K.pdf", 50),
    ]


def _first_line(text: str) -> str:
    return text.split("\n", 1)[0]


def test_the_ask_is_found_inside_an_analysts_instructions() -> None:
    q = analyze("Assume you are an equities analyst covering industrials. What were Acme Widgets' FY2017 net "
                "sales in USD millions? Answer by relying on the details shown in the income statement.")
    assert q.focus == "net sales"
    assert q.strong_names == ("Acme Widgets",)  # a plural possessive ("Widgets'") names the company
    assert [(p.year, p.fiscal) for p in q.periods] == [(2017, True)]
    assert q.statement == "income" and q.kind == "value"
    capex = analyze("What is the FY2018 capital expenditure amount (in USD millions) for Acme Widgets? Respond "
                    "to the question by assuming the perspective of an investment analyst who can only use the "
                    "details shown within the cash flow statement.")
    assert capex.focus == "capital expenditure" and capex.kind == "value" and capex.statement == "cash"


@pytest.mark.parametrize(("text", "kind"), [
    ("relying on the statement of cash flows", "cash"), ("using the balance sheet", "balance"),
    ("from the consolidated statements of operations", "income"), ("in the P&L statement", "income"),
    ("what was revenue?", ""),
])
def test_the_statement_named_in_a_question(text: str, kind: str) -> None:
    assert statement_kind(text) == kind


@pytest.mark.parametrize(("question", "first"), [
    ("Assume you are an equities analyst. What were Acme Widgets' FY2017 net sales in USD millions?",
     "Net sales were $30,109 million in the year ended December 31, 2017 [S1]."),
    ("What is Acme Widgets's FY2019 net income attributable to shareholders (in USD millions)? Answer by "
     "relying on the income statement.", "$4,570 million"),
    ("What is Acme Widgets' year end FY2019 operating income?", "Operating income was $6,174 million"),
    ("What is the FY2018 capital expenditure amount (in USD millions) for Acme Widgets? Respond to the question "
     "by assuming the perspective of an investment analyst who can only use the details shown within the cash "
     "flow statement.", "$1,577 million in the year ended December 31, 2018 (printed in brackets) [S2]"),
    ("How much cash did Acme Widgets generate from operations in FY2018 according to its cash flow statement?",
     "$6,439 million"),
    ("What was Acme Widgets' total assets at the end of FY2018 (in USD millions)? Base the answer on the balance "
     "sheet.", "$36,500 million"),
    ("What were Acme Widgets' income tax expenses in fiscal 2018?", "$1,637 million"),
])
def test_a_line_item_for_a_fiscal_year_is_read_off_the_year_columns(question: str, first: str) -> None:
    answer = read(question, _passages())
    assert not answer.declined
    assert first in _first_line(answer.text), answer.text
    assert "I'm not sure" not in answer.text


def test_net_sales_is_not_taken_from_the_row_that_names_the_company() -> None:
    """"Net income attributable to Acme Widgets" carries the company's name; the net sales row is still the
    answer to "Acme Widgets' net sales" (the name is the company, not a qualifier of the row)."""
    answer = read("What were Acme Widgets' net sales in FY2019?", _passages())
    assert _first_line(answer.text).startswith("Net sales were $32,136 million"), answer.text


def test_a_bracketed_statement_figure_keeps_its_brackets() -> None:
    """An outflow shown as (1,577) is stated as $(1,577) million — not as a negative spending of -$1,577."""
    assert format_amount(Amount(-1577.0, "(1,577)"), Unit(1e6, "million", "$"), "en") == "$(1,577) million"
    assert format_amount(Amount(-0.38, "$ (0.38)", currency="$"), Unit(), "en") == "$(0.38)"
    assert format_amount(Amount(-8.0, "-8", percent=True), Unit(), "en") == "-8%"


@pytest.mark.parametrize(("question", "first"), [
    ("What was Zeta Devices' net revenue for the six months ended June 29, 2024 (in millions)?", "$16,230 million"),
    ("What was Zeta Devices' gross margin in the second quarter of 2023, in dollars?", "$3,925 million"),
    ("What was Zeta Devices' operating income in the first half of 2024?", "$(380) million"),
    ("Using the income statement, what was Zeta Devices' net income for the three months ended Jul 1, 2023?",
     "$301 million"),
])
def test_quarter_and_half_year_columns_of_a_flattened_statement(question: str, first: str) -> None:
    answer = read(question, [Passage("S1", QUARTER_FLAT, "d2", "ZETA_2024Q2_10Q.pdf", 4)])
    assert first in _first_line(answer.text), answer.text


def test_another_companys_statement_is_declined() -> None:
    answer = read("What was Tesla's FY2018 capital expenditure in USD millions?", _passages())
    assert answer.declined and not answer.quotes


#: a balance-sheet grid whose header row is the page's running heading; the real header is the first body row
BALANCE_HEADER_IN_BODY = """|  |  | Table of Contents |
|---|---|---|
| Consolidated Condensed Balance Sheets |  |  |
| (In Millions; Unaudited) | Jun 29, 2024 | Dec 30, 2023 |
| Current assets: |  |  |
| Cash and cash equivalents | $4,120 | $5,031 |
| Total current assets | 21,388 | 24,977 |
| Current liabilities: |  |  |
| Accounts payable | 3,050 | 3,411 |
| Total current liabilities | 9,874 | 10,265 |"""

#: a grid whose period header stayed a text line above it
BALANCE_HEADER_ABOVE = """CONSOLIDATED BALANCE SHEETS
(in millions)
December 30, 2023 June 29, 2024
|  |  | (unaudited) |
|---|---|---|
| Retained earnings | 51,920 | 53,004 |
| Total stockholders’ equity | 88,140 | 90,377 |"""

NOTE_TABLE = """Note 9 — Fair Value
(In millions)
| | Jun 29, 2024 / Level 1 | Jun 29, 2024 / Level 2 |
|---|---|---|
| Total assets measured at fair value | $1,204 | $3,310 |"""


def test_a_header_row_in_the_body_or_a_text_line_above_names_the_columns() -> None:
    passages = [Passage("S1", BALANCE_HEADER_IN_BODY, "d2", "ZETA_2024Q2_10Q.pdf", 6),
                Passage("S2", BALANCE_HEADER_ABOVE, "d2", "ZETA_2024Q2_10Q.pdf", 7)]
    answer = read("What were Zeta Devices' total current liabilities as of Dec 30, 2023?", passages)
    assert _first_line(answer.text) == "Total current liabilities were $10,265 million as of Dec 30, 2023 [S1].", \
        answer.text
    equity = read("What was Zeta Devices' total stockholders' equity as of June 29, 2024?", passages)
    assert "90,377 million as of June 29, 2024 [S2]" in _first_line(equity.text), equity.text


def test_a_row_under_a_section_heading_is_not_the_heading_itself() -> None:
    """"Accounts payable" below "Current liabilities:" does not answer "total current liabilities"."""
    answer = read("What were total current liabilities at Jun 29, 2024?",
                  [Passage("S1", BALANCE_HEADER_IN_BODY, "d2", "ZETA_2024Q2_10Q.pdf", 6)])
    assert "9,874 million" in _first_line(answer.text), answer.text


def test_the_statement_the_question_names_is_preferred_over_a_note() -> None:
    passages = [Passage("S1", NOTE_TABLE, "d2", "ZETA_2024Q2_10Q.pdf", 19),
                Passage("S2", BALANCE_HEADER_IN_BODY.replace("| Total current liabilities | 9,874 | 10,265 |",
                                                             "| Total assets | $52,410 | $55,006 |"),
                        "d2", "ZETA_2024Q2_10Q.pdf", 6)]
    answer = read("Based on the balance sheet, what were Zeta Devices' total assets as of Jun 29, 2024?", passages)
    assert "$52,410 million" in _first_line(answer.text) and "[S2]" in _first_line(answer.text), answer.text


def test_an_ask_that_points_back_reads_the_sentence_before() -> None:
    q = analyze("As a financial analyst I need Zeta Devices' net cash from operations for the quarter ended "
                "June 29, 2024. What was it (USD millions)?")
    assert q.focus == "net cash from operations" and q.strong_names == ("Zeta Devices",)
    assert q.periods and q.periods[0].day == 29 and q.span == 3


def test_a_company_name_is_a_whole_word() -> None:
    """"Intel" is not mentioned by a passage about intellectual property: the question is declined."""
    other = Passage("S1", "We rely on intellectual property laws.\n" + INCOME, "d1", "ACME_2019_10K.pdf", 48)
    answer = read("What was Intel's FY2019 net sales?", [other])
    assert answer.declined and not answer.quotes


#: a retailer's annual statement as flattened text, its fiscal years ending in late summer ("52 Weeks Ended")
RETAIL_FLAT = """OMEGA STORES CORPORATION
CONSOLIDATED STATEMENTS OF INCOME
(amounts in millions, except per share data)
52 Weeks Ended 53 Weeks Ended 52 Weeks Ended
August 29, 2021 August 30, 2020 September 1, 2019
Total revenue $ 19,216 $ 16,650 $ 15,208
Merchandise costs 16,920 14,680 13,411
Operating income 842 701 655
Net income $ 611 $ 494 $ 462"""


def test_fiscal_years_of_52_and_53_weeks_are_years() -> None:
    passages = [Passage("S1", RETAIL_FLAT, "d3", "OMEGA_2021_10K.pdf", 37)]
    answer = read("What is Omega Stores' FY2020 operating income (in USD millions)? Use the income statement.",
                  passages)
    assert "$701 million" in _first_line(answer.text) or "701 million" in _first_line(answer.text), answer.text
    assert "I'm not sure" not in answer.text
    revenue = read("What was Omega Stores' total revenue for the fiscal year ended August 29, 2021?", passages)
    assert "19,216 million" in _first_line(revenue.text), revenue.text
