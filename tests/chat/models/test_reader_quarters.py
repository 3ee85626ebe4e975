"""Which quarter a three-month column is (issue 12): told by the year-to-date column beside it.

Made-up filings of a fictitious "Orion Gadgets" (calendar year) and "Vega Chips" (fiscal year ending in late
January), written for these tests; no question comes from an evaluation set.
"""

# ruff: noqa: E501  (the statement fixtures are Markdown table lines, as ingest writes them)

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.periods import Period, find_periods
from chat.models.reader.quarters import number_quarters
from chat.models.reader.tables import find_tables

ORION_Q1 = """ORION GADGETS, INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions, except per share data)
| | Three Months Ended March 31, / 2022 | Three Months Ended March 31, / 2023 |
|---|---|---|
| Total net sales | 96,100 | 101,250 |
| Operating income | 3,410 | 4,520 |"""

ORION_Q2 = """ORION GADGETS, INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions, except per share data)
| | Three Months Ended June 30, / 2022 | Three Months Ended June 30, / 2023 | Six Months Ended June 30, / 2022 | Six Months Ended June 30, / 2023 |
|---|---|---|---|---|
| Total net sales | 98,200 | 104,730 | 194,300 | 205,980 |
| Operating income | 3,120 | 7,310 | 6,530 | 11,830 |"""

VEGA_Q2 = """VEGA CHIPS CORPORATION
CONDENSED CONSOLIDATED STATEMENTS OF INCOME
(In millions)
| | Three Months Ended / July 30, 2023 | Three Months Ended / July 31, 2022 | Six Months Ended / July 30, 2023 | Six Months Ended / July 31, 2022 |
|---|---|---|---|---|
| Revenue | $ 11,210 | $ 5,480 | $ 17,900 | $ 12,700 |"""

VEGA_Q3 = """VEGA CHIPS CORPORATION
CONDENSED CONSOLIDATED STATEMENTS OF INCOME
(In millions)
| | Three Months Ended / October 29, 2023 | Three Months Ended / October 30, 2022 | Nine Months Ended / October 29, 2023 | Nine Months Ended / October 30, 2022 |
|---|---|---|---|---|
| Revenue | $ 15,020 | $ 4,910 | $ 32,920 | $ 17,610 |"""


def test_a_three_month_column_beside_a_year_to_date_one_ending_the_same_day_is_that_quarter() -> None:
    june = Period(year=2023, month=6, day=30)
    march = Period(year=2023, month=3, day=31)
    out = number_quarters([(3, (june,)), (6, (june,)), (3, (march,))])
    assert [p.quarter for ps in out for p in ps] == [2, None, None]  # the March column has no sibling
    assert [p.quarter for ps in number_quarters([(3, (june,)), (9, (Period(2023, 9, 30),))]) for p in ps] == \
        [None, None]  # a nine-month column ending in another month says nothing of June
    (q3,) = [t for t in find_tables(VEGA_Q3)]
    assert [next((p.quarter for p in c.periods), None) for c in q3.columns] == [3, 3, None, None]


def _first_line(question: str, a: Passage, b: Passage) -> list[str]:
    """The answer's first line with the two filings' passages in either order (search may rank either first)."""
    return [read(question, [x, y]).text.split("\n")[0] for x, y in ((a, b), (b, a))]


def test_a_quarter_asked_is_read_from_the_filing_whose_column_is_that_quarter() -> None:
    # both filings print "Operating income" for three months of 2023; only the first-quarter report's is Q1
    q1, q2 = Passage("S1", ORION_Q1, "d1", "ORION_2023Q1.pdf", 4), Passage("S2", ORION_Q2, "d2", "ORION_2023Q2.pdf", 4)
    for first in _first_line("What was Orion Gadgets' operating income for the first quarter of 2023?", q1, q2):
        assert "4,520 million" in first and "7,310" not in first, first
    for first in _first_line("What was Orion Gadgets' operating income in Q2 2023?", q1, q2):
        assert "7,310 million" in first, first


def test_a_fiscal_quarter_is_the_column_its_year_to_date_sibling_numbers() -> None:
    q2, q3 = Passage("S1", VEGA_Q2, "d2", "VEGA_Q2.pdf", 3), Passage("S2", VEGA_Q3, "d3", "VEGA_Q3.pdf", 3)
    for first in _first_line("What was Vega Chips' Q2 FY2024 revenue in USD millions?", q2, q3):
        assert "$11,210 million" in first, first
    for first in _first_line("What was Vega Chips' third quarter fiscal 2024 revenue?", q2, q3):
        assert "$15,020 million" in first, first


def test_find_periods_is_unchanged_for_a_plain_date() -> None:
    assert [p.quarter for p in find_periods("Three Months Ended June 30, 2023")] == [None]
