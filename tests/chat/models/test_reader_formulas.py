"""Metrics a question defines for itself (``reader.formulas``): a division whose side may be an average of two
periods, a sum or difference, a CAGR — each operand a cited cell at its own period, in one document, read in
ones. Made-up statements and questions written here (none from an evaluation set)."""

# ruff: noqa: E501  (the fixtures are table rows as ingest writes them, one line each)
from __future__ import annotations

import pytest

from chat.models.reader import Passage, read

INCOME = """ORRERY TOOLS, INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 | Year Ended December 31, / 2029 |
|---|---|---|---|
| Net revenues | $ 6,600 | $ 6,000 | $ 5,000 |
| Cost of revenues | 3,300 | 3,100 | 2,600 |
| Operating income | 1,320 | 1,080 | 800 |
| Interest expense | 110 | 120 | 100 |"""

BALANCE = """ORRERY TOOLS, INC.
CONSOLIDATED BALANCE SHEETS
(In thousands)
| | December 31, 2031 | December 31, 2030 |
|---|---|---|
| Inventories | 700,000 | 400,000 |
| Total current assets | 2,900,000 | 2,500,000 |
| Property and equipment, net | 260,000 | 290,000 |
| Total current liabilities | 1,700,000 | 1,600,000 |"""


def _passages() -> list[Passage]:
    return [Passage("S1", INCOME, "o", "ORRERY_10K.pdf", 50), Passage("S2", BALANCE, "o", "ORRERY_10K.pdf", 48)]


def _first(question: str, passages: list[Passage] | None = None) -> str:
    answer = read(question, passages or _passages())
    assert not answer.declined, answer.text
    return answer.text.splitlines()[0]


def test_a_defined_division_with_an_averaged_side() -> None:
    """Revenue $6,600 million ÷ the mean of $260,000 and $290,000 thousand (= $275 million) = 24.00: the two
    tables' scales agree before dividing."""
    first = _first("What is the FY2031 fixed asset turnover ratio for Orrery? Fixed asset turnover ratio is defined "
                   "as: FY2031 revenue / (average PP&E between FY2030 and FY2031). Round your answer to two decimal "
                   "places.")
    assert first.startswith("The fixed asset turnover ratio was 24.00 (computed:"), first
    assert "6,600" in first and "260,000" in first and "290,000" in first and "[S1][S2]" in first
    first = _first("What is Orrery's FY2031 inventory turnover ratio? Inventory turnover ratio is defined as: "
                   "(FY2031 COGS) / (average inventory between FY2030 and FY2031).")
    assert "6.00" in first and "3,300" in first and "700,000" in first and "400,000" in first, first


def test_a_numerator_and_a_denominator_named_in_words() -> None:
    first = _first("What was Orrery's interest coverage ratio using FY2031 operating income as the numerator and "
                   "annual interest expense as the denominator?")
    assert "12.00" in first and "1,320" in first and "110" in first, first


def test_a_defined_difference_in_the_asked_scale() -> None:
    first = _first("What is Orrery's FY2030 net working capital? Define net working capital as total current "
                   "assets less total current liabilities. Answer in USD millions.")
    assert first.startswith("The net working capital was $900 million (computed:"), first
    assert "2,500,000" in first and "1,600,000" in first and "[S2]" in first


def test_a_cagr_over_the_asked_years() -> None:
    first = _first("What is Orrery's 2 year total revenue CAGR from FY2029 to FY2031 (in units of percents and "
                   "round to one decimal place)?")
    assert "14.9%" in first and "6,600" in first and "5,000" in first, first  # (6600/5000)^(1/2) - 1


@pytest.mark.parametrize("question", [
    # more than one operation: never answered with a part of it
    "What is Orrery's FY2031 DPO? DPO is defined as: 365 * (average accounts payable between FY2030 and FY2031) / "
    "(FY2031 COGS + change in inventory between FY2030 and FY2031).",
    # a year the table does not hold
    "What is Orrery's 3 year total revenue CAGR from FY2028 to FY2031?",
    # the years do not make the N asked
    "What is Orrery's 3 year total revenue CAGR from FY2029 to FY2031?",
])
def test_what_cannot_be_computed_as_written_is_not(question: str) -> None:
    answer = read(question, _passages())
    assert "computed:" not in answer.text, answer.text


def test_operands_from_two_documents_compute_nothing() -> None:
    other = Passage("S2", BALANCE.replace("ORRERY TOOLS, INC.", "ORRERY TOOLS, INC. (Q1 report)"), "o2",
                    "ORRERY_Q1.pdf", 4)
    answer = read("What is the FY2031 fixed asset turnover ratio for Orrery? Fixed asset turnover ratio is defined "
                  "as: FY2031 revenue / (average PP&E between FY2030 and FY2031).",
                  [Passage("S1", INCOME, "o", "ORRERY_10K.pdf", 50), other])
    assert "computed:" not in answer.text


MIXED = """Consolidated Statements of Operations Data
The following table sets forth consolidated statements of operations data for the periods indicated (amounts in millions) and as a percentage of total net revenues:
| | For the Years Ended December 31, / 2031 | For the Years Ended December 31, | For the Years Ended December 31, / 2030 | |
|---|---|---|---|---|
| Total net revenues | 6,500 | 100 | 7,500 | 100 |
| Operating income | 1,625 | 25 % | 1,875 | 25% |"""


def test_amount_columns_of_a_table_that_also_prints_shares_are_amounts() -> None:
    """"(amounts in millions) and as a percentage of total net revenues": the dated columns are amounts, the
    undated ones beside them shares — a margin divides the amounts (before: the whole table was a table of
    shares and no side was found)."""
    page = Passage("P1", MIXED, "o", "ORRERY_10K.pdf", 37, company="ORRERY TOOLS, INC.")
    first = read("What was Orrery's operating margin in FY2031?", [page]).text.splitlines()[0]
    assert "25.0%" in first and "1,625" in first and "6,500" in first, first


def test_a_page_read_whole_is_of_the_company_its_identity_names() -> None:
    """A statement page read for the question has no heading path naming the company; its document's identity
    does. It is not halved against a search chunk whose heading names the company (a part of the revenue)."""
    segment = Passage("S1", "ORRERY TOOLS, INC. › Disaggregation of revenue\n(In millions)\n"
                            "| | Year Ended December 31, / 2031 |\n|---|---|\n| Net revenues from licensing | 1,719 |",
                      "o", "annual-report-2031.pdf", 40, company="ORRERY TOOLS, INC.")
    statement = Passage("P1", "CONSOLIDATED STATEMENTS OF OPERATIONS\n(In millions)\n"
                              "| | Year Ended December 31, / 2031 |\n|---|---|\n| Total net revenues | 6,600 |\n"
                              "| Operating income | 1,320 |", "o", "annual-report-2031.pdf", 50, company="ORRERY TOOLS, INC.")
    first = read("What was Orrery's revenue in FY2031?", [segment, statement]).text.splitlines()[0]
    assert "6,600" in first and "[P1]" in first, first


def test_a_formulas_and_is_no_second_line_item() -> None:
    """"X as the numerator and Y as the denominator", "average inventory between FY2030 and FY2031": one metric,
    not two questions (before: two declines, one per half)."""
    from chat.models.reader.items import item_questions

    for question in ("What was Orrery's interest coverage ratio using FY2031 adjusted EBIT as the numerator and "
                     "annual interest expense as the denominator?",
                     "What is Orrery's average inventory between FY2030 and FY2031?"):
        assert item_questions(question) == [question]


def test_deferred_revenue_and_sales_and_marketing_are_not_the_revenue() -> None:
    """A liability ("Deferred revenues", and its change in the cash flows) and an expense ("Sales and marketing")
    hold the revenue group's words; neither is the revenue (their own synonym groups)."""
    from chat.models.reader.text import match_terms

    revenue = match_terms("revenue")
    assert not revenue & match_terms("Deferred revenues") and not revenue & match_terms("Sales and marketing")
    assert revenue <= match_terms("Total net revenues") and revenue <= match_terms("Net sales")
    flows = Passage("S1", "ORRERY TOOLS, INC. › Cash flows\n(In millions)\n| | Year Ended December 31, / 2031 |\n"
                          "|---|---|\n| Deferred revenues | (154) |\n| Sales and marketing | 926 |", "o", "ORRERY_10K.pdf", 70)
    first = _first("What is the FY2031 revenue to PP&E ratio for Orrery? Define it as FY2031 revenue divided by "
                   "FY2031 PP&E.", [flows, *_passages()])
    assert "6,600" in first and "154" not in first and "926" not in first, first


def test_a_lead_clause_or_a_preamble_does_not_change_what_is_asked() -> None:
    """"When primarily referencing the income statement, what is …" asks a figure, not a date; "the statement of
    income and the statement of cash flows" names statements, not a document from "income and …"; a clause before
    "what is" is no part of a ratio's side."""
    first = _first("When primarily referencing the income statement and the balance sheet, what is the FY2031 "
                   "inventory turnover ratio for Orrery? Inventory turnover ratio is defined as: (FY2031 COGS) / "
                   "(average inventory between FY2030 and FY2031). Round your answer to two decimal places.")
    assert "6.00" in first and "3,300" in first, first
    first = _first("We want to calculate a financial metric. Please help us by basing your answers off of the "
                   "statement of income and the statement of cash flows. Here's the question: what is the FY2031 "
                   "operating margin for Orrery?")
    assert "20.0%" in first and "1,320" in first, first
    first = _first("We need an approximation of a financial metric. Basing your judgment by information provided in "
                   "the statement of operations, what is Orrery's three year average of cost of revenues as a % of "
                   "net revenues from FY2029 to FY2031? Round to one decimal place.")
    # (52.0% + 51.7% + 50.0%) / 3
    assert first.startswith("The 3-year average cost of revenues as a percentage of net revenues"), first
    assert "51.2%" in first, first
