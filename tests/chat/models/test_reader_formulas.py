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
    # more than one operation, an operand (accounts payable) not printed: never answered with a part of it
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


WORKING = """ORRERY TOOLS, INC.
CONSOLIDATED BALANCE SHEETS
(In thousands)
| | December 31, 2031 | December 31, 2030 |
|---|---|---|
| Accounts receivable, net | 900,000 | 700,000 |
| Inventories | 700,000 | 400,000 |
| Accounts payable | 500,000 | 300,000 |"""

FLOWS = """ORRERY TOOLS, INC.
CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Net income | 900 | 700 |
| Depreciation and amortization | 180 | 150 |"""


def _working() -> list[Passage]:
    return [Passage("S1", INCOME, "o", "ORRERY_10K.pdf", 50), Passage("S2", WORKING, "o", "ORRERY_10K.pdf", 48),
            Passage("S3", FLOWS, "o", "ORRERY_10K.pdf", 53)]


def test_a_formula_of_several_operations_is_computed_whole() -> None:
    """365 × the mean of $300,000 and $500,000 thousand ÷ ($3,300 million + the inventories' change, $300
    million) = 365 × 400 ÷ 3,600 = 40.56 days; every operand shown and cited (before: left to the ordinary
    reader)."""
    first = _first("What is Orrery's FY2031 days payable outstanding (DPO)? DPO is defined as: 365 * (average "
                   "accounts payable between FY2030 and FY2031) / (FY2031 COGS + change in inventory between FY2030 "
                   "and FY2031). Round your answer to two decimal places.", _working())
    assert first.startswith("The DPO was 40.56 (computed: 365 × the average of"), first
    assert "300,000" in first and "500,000" in first and "3,300" in first and "400,000" in first, first
    assert "[S2][S1]" in first, first


def test_names_defined_in_terms_of_each_other() -> None:
    """CCC = DIO + DSO − DPO, each defined after it: 365 × 550 ÷ 3,300 + 365 × 800 ÷ 6,600 − 40.56 = 64.52."""
    first = _first("What is the FY2031 cash conversion cycle (CCC) for Orrery? CCC is defined as: DIO + DSO - DPO. "
                   "DIO is defined as: 365 * (average inventory between FY2030 and FY2031) / (FY2031 COGS). DSO is "
                   "defined as: 365 * (average accounts receivable between FY2030 and FY2031) / (FY2031 Revenue). DPO "
                   "is defined as: 365 * (average accounts payable between FY2030 and FY2031) / (FY2031 COGS + change "
                   "in inventory between FY2030 and FY2031). Round your answer to two decimal places.", _working())
    assert first.startswith("The CCC was 64.52 (computed: DIO (365 ×"), first
    assert "+ DSO (365 ×" in first and "− DPO (365 ×" in first, first


def test_a_defined_amount_over_revenue_as_a_margin_averaged_over_years() -> None:
    """"Define unadjusted EBITDA as …", asked as an "N year average … % margin": each year's (operating income +
    D&A) ÷ revenue, then their mean: (1,230 ÷ 6,000 = 20.5%, 1,500 ÷ 6,600 = 22.7%) → 21.6%."""
    first = _first("What is the FY2030 - FY2031 2 year average unadjusted EBITDA % margin for Orrery? Define "
                   "unadjusted EBITDA as unadjusted operating income + depreciation and amortization from the cash "
                   "flow statement. Answer in units of percents and round to one decimal place.", _working())
    assert first.startswith("The 2-year average unadjusted EBITDA % margin for FY2030–FY2031 was 21.6%"), first
    assert "1,080" in first and "150" in first and "1,320" in first and "180" in first, first


def test_a_textbook_ebitda_when_asked_to_compute_it_and_never_a_company_adjusted_one() -> None:
    first = _first("What is the FY2031 unadjusted EBITDA % margin for Orrery? Calculate unadjusted EBITDA using "
                   "unadjusted operating income and D&A (from cash flow statement).", _working())
    assert "22.7%" in first and "EBITDA taken as operating income + depreciation and amortization" in first, first
    answer = read("What was Orrery's Adjusted EBITDA margin in FY2031? Calculate it from the filing.", _working())
    assert "computed:" not in answer.text, answer.text


def test_textbook_retention_and_payout_ratios_when_asked_to_compute_them() -> None:
    """Net income 900, dividends paid (360): retention (900 − 360) ÷ 900 = 0.60, payout 360 ÷ 900 = 0.40, the
    definition said (before: declined, the question names no formula)."""
    flows = [Passage("S3", FLOWS.replace("| Depreciation and amortization | 180 | 150 |",
                                         "| Dividends paid | (360) | (330) |"), "o", "ORRERY_10K.pdf", 53)]
    first = _first("We want to calculate a financial metric. What is the FY2031 retention ratio (using total cash "
                   "dividends paid and net income) for Orrery? Round answer to two decimal places.", flows)
    assert first.startswith("The retention ratio was 0.60 (retention ratio taken as (net income - cash dividends "
                            "paid) / net income;"), first
    payout = _first("What is Orrery's FY2030 dividend payout ratio? Calculate it from the cash flows.", flows)
    assert payout.startswith("The dividend payout ratio was 0.47"), payout


SPENDING = """ORRERY TOOLS, INC.
CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Net cash provided by operating activities | 2,411 | 2,250 |
| Purchases of property and equipment | (1,086) | (905) |"""


def test_an_amount_a_textbook_formula_adds_up_is_said_as_money() -> None:
    """Free cash flow 2,411 − 1,086 = $1,325 million; EBITDA $1,320 + $180 = $1,500 million (before: "1,500,000,000.00",
    the sum in ones said as a bare number) — and an imperative's verb is no part of the company's name ("Compute
    Orrery's …" was declined: "None of the passages found mentions Compute Orrery")."""
    flows = [Passage("S1", SPENDING, "o", "ORRERY_10K.pdf", 53)]
    fcf = _first("Compute Orrery's free cash flow in FY2031 from the cash flow statement.", flows)
    assert fcf.startswith("The free cash flow was 1,325 million (free cash flow taken as cash from operations - "
                          "capital expenditure;"), fcf
    ebitda = _first("What is the FY2031 unadjusted EBITDA for Orrery? Calculate unadjusted EBITDA using unadjusted "
                    "operating income and D&A (from cash flow statement).", _working())
    assert ebitda.startswith("The EBITDA was $1,500 million (EBITDA taken as"), ebitda


def test_operands_in_two_filings_are_read_from_the_one_that_holds_them_all() -> None:
    """The next year's 10-K prints FY2031's income statement as a comparative, but not FY2030's balances: the
    formula is computed from the FY2031 filing alone, not declined for mixing two documents."""
    later = Passage("S0", INCOME.replace("2031 | Year Ended December 31, / 2030 | Year Ended December 31, / 2029",
                                         "2032 | Year Ended December 31, / 2031 | Year Ended December 31, / 2030"),
                    "n", "ORRERY_2032_10K.pdf", 50)
    first = _first("What is Orrery's FY2031 days payable outstanding (DPO)? DPO is defined as: 365 * (average "
                   "accounts payable between FY2030 and FY2031) / (FY2031 COGS + change in inventory between FY2030 "
                   "and FY2031).", [later, *_working()])
    assert first.startswith("The DPO was 40.56"), first
    assert "[S0]" not in first, first


NOTE_TABLE = """ORRERY TOOLS, INC. › RESTRUCTURING INITIATIVES
Restructuring charges are classified in our Consolidated Statements of Earnings as follows:
| In Millions | Fiscal / 2031 | Fiscal / 2030 |
|---|---|---|
| Cost of sales | 9.9 | 14.0 |
| Restructuring, impairment, and other exit costs | 275.1 | 165.6 |"""

EARNINGS = """Consolidated Statements of Earnings
ORRERY TOOLS, INC. AND SUBSIDIARIES
(In Millions)
| | Fiscal Year / 2031 | Fiscal Year / 2030 |
|---|---|---|
| Product sales | $5,000.0 | $4,600.0 |
| Service sales | 1,600.0 | 1,400.0 |
| Net sales | 6,600.0 | 6,000.0 |
| Cost of sales | 3,300.0 | 3,100.0 |"""


def test_a_statement_line_is_read_before_a_notes_row_of_the_same_name() -> None:
    """A note's "Cost of sales" (the restructuring charges classified there) scores as well as the statement's
    own line: a formula's operand is the statement's — 3,300 ÷ 550 = 6.00, not 9.9 ÷ 550 (before: the note's,
    its row nearer the top of its passage)."""
    first = _first("What is the FY2031 inventory turnover ratio for Orrery? Inventory turnover ratio is defined as: "
                   "(FY2031 COGS) / (average inventory between FY2030 and FY2031).",
                   [Passage("S0", NOTE_TABLE, "o", "ORRERY_10K.pdf", 66),
                    Passage("S1", EARNINGS, "o", "ORRERY_10K.pdf", 53),
                    Passage("S2", WORKING, "o", "ORRERY_10K.pdf", 48)])
    assert "6.00" in first and "3,300" in first and "9.9" not in first, first


def test_a_textbook_metric_no_line_prints_is_computed_and_said_so() -> None:
    """"free cash flow" asked plainly: no line prints it, so the textbook formula, saying so (before: declined); a
    company the documents don't hold is still declined, and a printed free cash flow line is read as printed."""
    flows = [Passage("S1", SPENDING, "o", "ORRERY_10K.pdf", 53)]
    answer = read("What was Orrery's free cash flow in FY2031?", flows)
    first = answer.text.splitlines()[0]
    assert first.startswith("The free cash flow was 1,325 million (no line of it was found; free cash flow taken as"), \
        first
    assert not answer.declined and "[S1]" in first
    assert read("What was Tesla's free cash flow in 2031?", flows).declined
    printed = [Passage("S1", SPENDING + "\n| Free cash flow | 1,300 | 1,320 |", "o", "ORRERY_10K.pdf", 53)]
    first = read("What was Orrery's free cash flow in FY2031?", printed).text.splitlines()[0]
    assert "1,300" in first and "computed" not in first, first


def test_an_operand_is_a_row_of_its_own_item_not_one_sharing_its_other_words() -> None:
    """No dividends paid: "Cash paid for interest" (the words "cash" and "paid" in common) is no "cash dividends
    paid" operand (before: "The dividend payout ratio was 0.12 … Cash paid for interest $110 million ÷ …")."""
    flows = [Passage("S3", FLOWS.replace("| Depreciation and amortization | 180 | 150 |",
                                         "| Supplemental disclosures: | | |\n| Cash paid for interest | 110 | 95 |"),
                     "o", "ORRERY_10K.pdf", 53)]
    answer = read("What is Orrery's FY2031 dividend payout ratio? Calculate it using total cash dividends paid and "
                  "net income.", flows)
    assert "Cash paid for interest" not in answer.text.splitlines()[0], answer.text
    assert "0.12" not in answer.text.splitlines()[0], answer.text


def test_depreciation_and_amortization_printed_apart_is_one_operand() -> None:
    """EBITDA = operating income + D&A, the cash flow statement printing "Depreciation" 170 and "Amortization of
    intangibles" 10 apart: 1,320 + 170 + 10 = $1,500 million, both cells cited (before: declined, no D&A line)."""
    apart = FLOWS.replace("| Depreciation and amortization | 180 | 150 |",
                          "| Depreciation | 170 | 140 |\n| Amortization of intangibles | 10 | 10 |")
    passages = [Passage("S1", INCOME, "o", "ORRERY_10K.pdf", 50), Passage("S3", apart, "o", "ORRERY_10K.pdf", 53)]
    first = _first("What is the FY2031 unadjusted EBITDA for Orrery? Calculate unadjusted EBITDA using unadjusted "
                   "operating income and D&A (from cash flow statement).", passages)
    assert first.startswith("The EBITDA was $1,500 million"), first
    assert "(Depreciation $170 million + Amortization of intangibles $10 million)" in first, first


def test_a_part_named_in_its_row_is_the_operand_of_its_share() -> None:
    """"footwear revenue" is the "Footwear" row of the revenue table (the part the row names), not "Revenues"
    because the row lacks the word "revenue" (the operand rule above must not make it 100%)."""
    table = """ORRERY SHOES › REVENUES BY PRODUCT
(In millions)
| | Year Ended May 31, / 2031 | Year Ended May 31, / 2030 |
|---|---|---|
| Footwear | 22,268 | 21,081 |
| Apparel | 9,654 | 9,067 |
| Revenues | 36,397 | 34,350 |"""
    first = _first("What was Orrery's footwear revenue as a percentage of total revenues in FY2031?",
                   [Passage("S1", table, "o", "ORRERY_10K.pdf", 40)])
    assert "61.2%" in first and "Footwear 22,268 million ÷ Revenues 36,397 million" in first, first


def test_a_total_row_under_an_items_section_is_no_operand_of_that_item() -> None:
    """"Total costs and expenses" printed under the "Cost of revenues" lines totals more than the cost of revenues:
    it is no "cost of goods sold" operand (before: revenue − total costs, the operating income, said as a ratio's
    operand)."""
    income = """ORRERY GAMES › CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Net revenues | 6,489 | 7,500 |
| Cost of revenues—product sales: | | |
| Product costs | 656 | 719 |
| Total costs and expenses | 4,882 | 5,506 |
| Operating income | 1,607 | 1,994 |"""
    answer = read("What is Orrery's FY2031 cost of goods sold as a percentage of revenue? Calculate it.",
                  [Passage("S1", income, "o", "ORRERY_10K.pdf", 50)])
    assert "4,882" not in answer.text.splitlines()[0], answer.text


def test_the_quick_ratio_from_the_textbook_and_whether_it_improved() -> None:
    """"quick ratio": (total current assets − inventories) ÷ total current liabilities, said as the definition
    taken — (2,900,000 − 700,000) ÷ 1,700,000 = 1.29; asked whether it improved between two years, each year's from
    its own cells: 1.29 vs (2,500,000 − 400,000) ÷ 1,600,000 = 1.31, so no, it fell (before: declined, both)."""
    first = _first("What was Orrery's quick ratio as of December 31, 2031?")
    assert first.startswith("The quick ratio was 1.29 (no line of it was found; quick ratio taken as (total current "
                            "assets - inventories) / total current liabilities"), first
    first = _first("Has Orrery's quick ratio improved between FY2030 and FY2031?")
    assert first.startswith("No — the quick ratio fell: 1.29 as of December 31, 2031 vs 1.31 as of December 31, "
                            "2030"), first
    assert "[S2]" in first


def test_the_parts_printed_under_an_item_without_a_total_are_its_sum() -> None:
    """A balance sheet prints "Inventories, net" as a heading over its parts, without a total: the inventories
    operand is the parts' sum — (2,900,000 − (300,000 + 400,000)) ÷ 1,700,000 = 1.29 — never one part alone
    ((2,900,000 − 300,000) ÷ 1,700,000 = 1.53, stop 49), nor nothing (declined, stop 50). A note's "Inventories,
    net" (a business held for sale) is no operand either, when the statement prints the parts."""
    parts = BALANCE.replace("| Inventories | 700,000 | 400,000 |",
                            "| Inventories, net | | |\n| Raw materials and supplies | 300,000 | 150,000 |\n"
                            "| Work in process and finished goods | 400,000 | 250,000 |")
    note = ("Note 6 - Held for Sale\nMajor classes of assets of the business classified as held for sale:\n"
            "| (in thousands) | December 31, 2031 | December 31, 2030 |\n|---|---|---|\n"
            "| Inventories, net | — | 40,000 |\n| Total assets held for sale | — | 90,000 |")
    question = ("What was Orrery's acid-test ratio as of December 31, 2031? Acid-test ratio is defined as: (total "
                "current assets - inventories) / total current liabilities.")
    for passages in ([Passage("S2", parts, "o", "ORRERY_10K.pdf", 48)],
                     [Passage("S2", parts, "o", "ORRERY_10K.pdf", 48), Passage("S3", note, "o", "ORRERY_10K.pdf", 66)]):
        first = read(question, passages).text.splitlines()[0]
        assert first.startswith("The acid-test ratio was 1.29 (computed: (Total current assets 2,900,000 thousand (as "
                                "of December 31, 2031) − (Raw materials and supplies 300,000 thousand + Work in process "
                                "and finished goods 400,000 thousand)"), first
    first = read("Has Orrery's quick ratio improved between FY2030 and FY2031?",
                 [Passage("S2", parts, "o", "ORRERY_10K.pdf", 48), Passage("S3", note, "o", "ORRERY_10K.pdf", 66)]
                 ).text.splitlines()[0]
    # 2030: (2,500,000 − (150,000 + 250,000)) ÷ 1,600,000 = 1.31 — the note's 40,000 is not 2030's inventories
    assert first.startswith("No — the quick ratio fell: 1.29 as of December 31, 2031 vs 1.31 as of December 31, "
                            "2030"), first


def test_an_unlabelled_total_under_its_heading_is_the_headings_item() -> None:
    """"Revenues" printed as a heading over its parts and an unlabelled total row: the total is the revenue operand
    (1,320 ÷ 6,600 = 20.0%), never a part ("Casino" 4,000)."""
    income = INCOME.replace("| Net revenues | $ 6,600 | $ 6,000 | $ 5,000 |",
                            "| Revenues | | | |\n| Casino | 4,000 | 3,600 | 3,000 |\n| Rooms | 2,600 | 2,400 | 2,000 |\n"
                            "| | 6,600 | 6,000 | 5,000 |")
    first = _first("What is Orrery's FY2031 operating margin? Calculate it as operating income divided by revenue.",
                   [Passage("S1", income, "o", "ORRERY_10K.pdf", 50)])
    assert "20.0%" in first and "6,600" in first, first


def test_a_broad_item_under_a_heading_is_still_its_row() -> None:
    """"cash" (a word many rows share) under "Current assets:": the "Cash" row is the operand — a heading's row
    naming the item is never taken for one of its parts (850,000 ÷ 1,700,000 = 0.50)."""
    balance = BALANCE.replace("| Inventories | 700,000 | 400,000 |",
                              "| Current assets: | | |\n| Cash | 850,000 | 400,000 |\n| Inventories | 700,000 | 400,000 |")
    first = _first("What was Orrery's cash ratio as of December 31, 2031? Calculate it as cash divided by total "
                   "current liabilities.", [Passage("S2", balance, "o", "ORRERY_10K.pdf", 48)])
    assert "0.50" in first and "850,000" in first, first


def test_free_cash_flow_conversion_from_the_textbook_spelled_as_one_word_too() -> None:
    """"free cashflow conversion" (the question runs "cash flow" together): (operating cash flow − capital
    expenditure) ÷ net income, each year's, as a percentage — (2,411 − 1,086) ÷ 900 = 147.2% against
    (2,250 − 905) ÷ 700 = 192.1% (before: no such metric; only unsure sentences were offered)."""
    flows = [Passage("S1", SPENDING, "o", "ORRERY_10K.pdf", 53), Passage("S2", FLOWS, "o", "ORRERY_10K.pdf", 53)]
    first = _first("Does Orrery have an improving free cashflow conversion as of FY2031?", flows)
    assert first.startswith("No — the free cash flow conversion fell: 147.2% in the year ended December 31, 2031 vs "
                            "192.1% in the year ended December 31, 2030 (no line of it was found;"), first


@pytest.mark.parametrize(("question", "lead"), [
    ("What was Orrery's inventory turnover in FY2031?",
     "The inventory turnover was 4.71 (no line of it was found; inventory turnover taken as cost of sales / "
     "inventories; computed: Cost of revenues $3,300 million (in the year ended December 31, 2031) ÷ Inventories "
     "$700,000 thousand (as of December 31, 2031))"),
    ("What is Orrery's interest coverage ratio for FY2031?",
     "The interest coverage ratio was 12.00 (no line of it was found; interest coverage ratio taken as operating "
     "income / interest expense;"),
    ("Compute Orrery's days payable outstanding for FY2031.",
     "The days payable outstanding was 55.3 days (days payable outstanding taken as accounts payable / cost of sales "
     "* 365;"),
])
def test_textbook_turnovers_days_and_coverage_are_computed_not_read_as_another_line(question: str, lead: str) -> None:
    """A ratio filings seldom print is computed from its textbook definition, saying so — "inventory turnover" is
    not the revenue line ("turnover" names revenue in British usage; before: "Net revenues were $6,600 million",
    sure); days are said in days."""
    passages = [*_passages(), Passage("S3", WORKING, "o", "ORRERY_10K.pdf", 48)]
    first = _first(question, passages)
    assert first.startswith(lead), first


def test_a_balance_operand_is_never_the_cash_flow_statements_change_of_it() -> None:
    """The cash flow statement's "Inventories | (300)" under "Changes in operating assets" is the year's change, no
    inventories balance: with no balance sheet among the results there is no turnover (before: 3,300 ÷ 300 = 11.00)."""
    changes = Passage("S0", "ORRERY TOOLS, INC.\nCONSOLIDATED STATEMENTS OF CASH FLOWS\n(In millions)\n| | Year Ended "
                            "December 31, / 2031 | Year Ended December 31, / 2030 |\n|---|---|---|\n| Changes in "
                            "operating assets and liabilities: | | |\n| Inventories | (300) | 45 |", "o", "ORRERY_10K.pdf", 53)
    answer = read("What was Orrery's inventory turnover in FY2031?", [changes, Passage("S1", INCOME, "o",
                                                                                      "ORRERY_10K.pdf", 50)])
    assert "11.00" not in answer.text and "turnover was" not in answer.text, answer.text


def test_capital_intensity_is_the_usual_measures_computed_without_a_verdict_the_filing_does_not_give() -> None:
    """"Is Acme capital-intensive?": capital expenditure ÷ revenue and net PP&E ÷ total assets, each cited (before:
    an unsure sentence)."""
    balance = BALANCE + "\n| Total assets | 9,100,000 | 8,400,000 |"
    passages = [Passage("S1", INCOME, "o", "ORRERY_10K.pdf", 50), Passage("S2", balance, "o", "ORRERY_10K.pdf", 48),
                Passage("S3", SPENDING, "o", "ORRERY_10K.pdf", 53)]
    first = _first("Is Orrery a capital-intensive business based on FY2031 data?", passages)
    assert first.startswith("The usual measures of capital intensity, computed from the statements: capital "
                            "expenditure was 16.5% of revenue in the year ended December 31, 2031 (Purchases of "
                            "property and equipment $(1,086) million ÷ Net revenues $6,600 million); net property, "
                            "plant and equipment was 2.9% of total assets as of December 31, 2031"), first


CASH_FLOWS = """ORRERY TOOLS, INC.
CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 | Year Ended December 31, / 2029 |
|---|---|---|---|
| Depreciation and amortization | 240 | 220 | 200 |
| Net cash provided by operating activities | 1,500 | 1,300 | 1,000 |
| Payments to acquire property, plant and equipment | (410) | (380) | (300) |"""


def _with_cash() -> list[Passage]:
    return [*_passages(), Passage("S3", CASH_FLOWS, "o", "ORRERY_10K.pdf", 53)]


def test_a_line_items_percent_margin_is_that_line_over_revenue() -> None:
    """"COGS % margin" (no definition given) is cost of revenues ÷ revenue: 3,300 / 6,600 = 50.0% (before: the cost
    row alone, "not sure"); "unadjusted operating income % margin" is the operating income as printed: 20.0%."""
    first = _first("What is Orrery's FY2031 COGS % margin? Calculate what was asked by utilizing the line items "
                   "clearly shown in the income statement.")
    assert first.startswith("The COGS % margin was 50.0% (computed: Cost of revenues $3,300 million"), first
    first = _first("What is Orrery's FY2031 unadjusted operating income % margin?")
    assert "20.0%" in first and "1,320" in first and "6,600" in first, first


def test_the_change_in_a_margin_between_two_years_is_in_percentage_points() -> None:
    """FY2030 18.0% → FY2031 20.0%: +2.0 percentage points, both years' cells shown (before: FY2031's margin alone)."""
    first = _first("Based on the information provided primarily in the statement of income, what is the FY2030 - "
                   "FY2031 change in unadjusted operating income % margin for Orrery? Answer in units of percents and "
                   "round to one decimal place.")
    assert first.startswith("The change in the operating income % margin was +2.0 percentage points: 20.0% "), first
    assert "18.0%" in first and "1,080" in first and "6,000" in first, first


def test_a_defined_sum_less_one_more_item_asked() -> None:
    """"EBITDA less capex", EBITDA defined as operating income + D&A: 1,320 + 240 − 410 = $1,150 million (before:
    EBITDA alone, $1,560 million); capex is the US GAAP caption "Payments to acquire property, plant and equipment"."""
    first = _first("What is the FY2031 unadjusted EBITDA less capex for Orrery? Define unadjusted EBITDA as unadjusted "
                   "operating income + depreciation and amortization [from cash flow statement]. Answer in USD "
                   "millions.", _with_cash())
    assert first.startswith("The unadjusted EBITDA less capex was $1,150 million"), first
    assert "Payments to acquire property, plant and equipment $(410) million" in first, first
    assert "taken as" not in first  # the question's own definition, not the textbook's, was used


def test_a_margins_revenue_is_an_operand_to_find_and_unadjusted_is_the_line_as_printed() -> None:
    """The pages read for "EBITDA % margin" include revenue's statement (before: operating income and D&A only, so
    a chunk of the income statement without its sales rows left the margin unanswered); "unadjusted operating
    income" asks the printed line (before: "unadjusted" was a word the row lacked, and the change was not sure)."""
    from chat.models.reader.formulas import formula_items
    from chat.models.reader.question import analyze

    assert "revenue" in formula_items("What is the FY2031 unadjusted EBITDA % margin for Orrery? Calculate unadjusted "
                                      "EBITDA using unadjusted operating income and D&A (from cash flow statement).")
    q = analyze("What is Orrery's year-over-year change in unadjusted operating income from FY2030 to FY2031?")
    assert q.focus == "operating income"
    first = _first("What is Orrery's year-over-year change in unadjusted operating income from FY2030 to FY2031 (in "
                   "units of percents and round to one decimal place)?")
    assert first.startswith("Operating income was up 22.2%: $1,320 million"), first


def test_a_question_in_plain_words_computes_the_metric_its_instructions_name() -> None:
    """"Roughly how many times has Orrery sold its inventory in FY2031? Calculate inventory turnover ratio …": the
    instruction names the metric (before: the asking sentence named none, and it declined): 3,300 / 700 = 4.71."""
    first = _first("Roughly how many times has Orrery sold its inventory in FY2031? Calculate inventory turnover ratio "
                   "for the FY2031; if conventional inventory management is not meaningful for the company then state "
                   "that and explain why.")
    assert first.startswith("The inventory turnover was 4.71 (inventory turnover taken as cost of sales / "
                            "inventories;"), first
