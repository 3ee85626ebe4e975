"""Ratios computed from two cited cells: an explicit formula in the question or its instructions, and the
textbook ratios filings do not print. Made-up statements, questions written here (none from an evaluation set)."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.ratios import ratio_sides

OPERATIONS = """HALDEN FOODS CORPORATION
CONSOLIDATED STATEMENTS OF INCOME
(In millions)
| | Year Ended June 30, / 2022 | Year Ended June 30, / 2021 |
|---|---|---|
| Net sales | $ 5,200 | $ 4,800 |
| Cost of sales | 3,120 | 2,976 |
| Gross profit | 2,080 | 1,824 |
| Operating income | 780 | 624 |
| Net income | $ 520 | $ 408 |"""

BALANCE = """HALDEN FOODS CORPORATION
CONSOLIDATED BALANCE SHEETS
(In millions)
| | June 30, 2022 | June 30, 2021 |
|---|---|---|
| Total current assets | 1,850 | 1,610 |
| Total assets | 6,400 | 6,020 |
| Total current liabilities | 1,250 | 1,400 |"""

PASSAGES = [Passage("S1", OPERATIONS, "h", "HALDEN_10K.pdf", 44), Passage("S2", BALANCE, "h", "HALDEN_10K.pdf", 46)]


def _first(question: str) -> str:
    answer = read(question, PASSAGES)
    assert not answer.declined, answer.text
    return answer.text.split("\n")[0]


def test_ratio_sides_from_formulas_and_names() -> None:
    assert ratio_sides("What is it? Calculate it as operating income divided by net sales.") == (
        "operating income", "net sales", False)
    assert ratio_sides("What was the ratio of total current assets to total current liabilities in 2022?") == (
        "total current assets", "total current liabilities", False)
    assert ratio_sides("What was net income as a percentage of net sales in FY2022?") == (
        "net income", "net sales", True)
    assert ratio_sides("What is the FY2022 gross margin (gross profit / net sales)?") == (
        "gross profit", "net sales", True)
    assert ratio_sides("What is Halden's current ratio?") == ("total current assets", "total current liabilities",
                                                             False)
    assert ratio_sides("What was Halden's net income in 2022?") is None
    assert ratio_sides("What was the gross margin in the second quarter, in dollars?") is None


def test_the_current_ratio_is_computed_from_two_cited_cells() -> None:
    first = _first("What is Halden Foods' current ratio as of June 30, 2022? Round to two decimal places.")
    assert "1.48" in first and "computed" in first and "1,850" in first and "1,250" in first and "[S2]" in first


def test_a_margin_in_percent_over_the_asked_year() -> None:
    first = _first("Assume you are an analyst. What was Halden Foods' FY2021 operating margin?")
    assert "13.0%" in first and "624" in first and "4,800" in first and "[S1]" in first


def test_an_explicit_formula_in_the_instructions() -> None:
    first = _first("What is Halden Foods' gross margin percentage for the year ended June 30, 2022? Calculate it "
                   "as gross profit divided by net sales.")
    assert "40.0%" in first and "[S1]" in first


def test_a_side_that_no_table_holds_computes_nothing() -> None:
    answer = read("What is Halden's inventory turnover? Calculate it as cost of sales divided by average "
                  "inventory.", PASSAGES)
    assert "÷" not in answer.text


def test_a_ratio_of_a_company_no_passage_names_is_declined() -> None:
    answer = read("What is Tamarind Brewing's current ratio as of June 30, 2022?", PASSAGES)
    assert answer.declined and "÷" not in answer.text


def test_a_table_of_percentages_is_no_side_of_a_ratio() -> None:
    """"Operating income 50.3" in a table of items as a percentage of revenue is a share already: the margin is
    computed from the amounts, never by dividing that share by revenue in dollars."""
    shares = Passage("S1", "The following table sets forth certain items of our income statement expressed as a "
                           "percentage of revenue.\n| | Three Months Ended / July 30, 2031 |\n|---|---|\n"
                           "| Revenue | 100.0 % |\n| Operating income | 50.3 |", "d", "q2.pdf", 28,
                     company="KESTREL CORP")
    amounts = Passage("S2", "CONDENSED CONSOLIDATED STATEMENTS OF INCOME\n(In millions)\n"
                            "| | Three Months Ended / July 30, 2031 |\n|---|---|\n| Revenue | $ 13,507 |\n"
                            "| Operating income | 6,800 |", "d", "q2.pdf", 3, company="KESTREL CORP")
    question = "What is Kestrel's operating margin for the three months ended July 30, 2031?"
    first = read(question, [shares, amounts]).text.splitlines()[0]
    assert "50.3%" in first and "6,800" in first and "50.3 ÷" not in first, first
