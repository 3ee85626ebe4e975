"""Metrics a question defines for itself (``reader.formulas``): a division whose side may be an average of two
periods, a sum or difference, a CAGR — each operand a cited cell at its own period, in one document, read in
ones. Made-up statements and questions written here (none from an evaluation set)."""

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
