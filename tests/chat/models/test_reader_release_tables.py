"""An earnings release's summary grid (issue 12): the period word on a line of its own above the years
("|  |  | Q2 |  |" over "| ($ in Millions, except EPS) | 2023 | 2022 | % Change |") heads each year's column, and
the change column beside the years does not keep that line from being the header. Made-up release; no evaluation
set's question or wording.
"""

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
