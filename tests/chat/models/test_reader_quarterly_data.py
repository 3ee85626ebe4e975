"""An annual report's "Selected Quarterly Financial Data" (issue 12): quarter-end dates without a year as the column
headers, each year a row heading over its own rows. Each year's rows are a table of their own whose columns are the
three months ended on those dates in that year — numbered as quarters when they end three months apart within one
calendar year. Made-up figures; no evaluation set's question or wording."""

from __future__ import annotations

import pytest

from chat.models.reader import Passage, read
from chat.models.reader.tables import find_tables

QUARTERLY = """Orrery Media, Inc. › 12. Selected Quarterly Financial Data (Unaudited)
(in thousands, except for per share data)
|  | December 31 | September 30 | June 30 | March 31 |
|---|---|---|---|---|
| 2031 |  |  |  |  |
| Total revenues | $3,300,100 | $2,900,200 | $2,700,300 | $2,600,400 |
| Net income | 185,500 | 129,600 | 65,700 | 178,800 |
| 2030 |  |  |  |  |
| Total revenues | $2,400,500 | $2,200,600 | $2,100,700 | $2,000,800 |
| Net income | 66,900 | 52,000 | 40,100 | 178,200 |
"""


def _passages(text: str = QUARTERLY) -> list[Passage]:
    return [Passage("S1", text, "o", "ORRERY_2031_10K.pdf", 63)]


def test_each_years_rows_are_a_table_of_that_years_quarters() -> None:
    tables = find_tables(QUARTERLY)
    assert len(tables) == 2
    assert [[(p.year, p.month, p.quarter) for p in c.periods] for c in tables[1].columns] == [
        [(2030, 12, 4)], [(2030, 9, 3)], [(2030, 6, 2)], [(2030, 3, 1)]]
    assert {c.span for c in tables[0].columns} == {3}
    assert [r.label for r in tables[1].rows] == ["Total revenues", "Net income"]


@pytest.mark.parametrize(("question", "lead"), [
    ("What were Orrery Media's total revenues in Q4 2031?",
     "Total revenues were $3,300,100 thousand in the three months ended December 31, 2031 [S1]."),
    ("What was Orrery Media's net income in the third quarter of 2030?",
     "Net income was $52,000 thousand in the three months ended September 30, 2030 [S1]."),
    ("What was Orrery Media's net income in the three months ended March 31, 2031?",
     "Net income was $178,800 thousand in the three months ended March 31, 2031 [S1]."),
])
def test_a_quarter_is_read_from_its_years_rows_and_its_column(question: str, lead: str) -> None:
    """Before: one table whose columns had no year — every quarter's question got the first column (December) of
    the first year's rows, or no answer."""
    assert read(question, _passages()).text.split("\n")[0] == lead


def test_a_fiscal_year_across_two_calendar_years_is_left_as_printed() -> None:
    """"April 30 | July 31 | October 31 | January 31" under "2031": the January quarter ends in 2032 if 2031 is
    the fiscal year, in 2031 if it is the calendar year — not known, so no year is given to any date."""
    shifted = QUARTERLY.replace("|  | December 31 | September 30 | June 30 | March 31 |",
                                "|  | January 31 | October 31 | July 31 | April 30 |")
    tables = find_tables(shifted)
    assert len(tables) == 1
    assert not any(p.year for c in tables[0].columns for p in c.periods)
