"""A value question is answered by the item's row, not by a row that states its change ("Revenues
increase/(decrease)", rows under "Operational growth/(decline)"); a change question may use one. Made-up filing."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.balances import OTHER_END, balance_row_factor

CHANGES = """ORBIT FOODS, INC. › Analysis of Revenue Changes
(MILLIONS)
| (MILLIONS) | Three Months Ended June 28, 2031 / Worldwide | Three Months Ended June 28, 2031 / U.S. |
|---|---|---|
| Operational growth/(decline) |  |  |
| Revenues increase/(decrease) | $(1,508) | $(537) |"""
INCOME = """ORBIT FOODS, INC. › Condensed Consolidated Statements of Income
(MILLIONS, EXCEPT PER SHARE DATA)
| (MILLIONS, EXCEPT PER SHARE DATA) | Three Months Ended / June 28, 2031 | Three Months Ended / June 29, 2030 |
|---|---|---|
| Revenues | $12,734 | $14,242 |
| Cost of sales | 3,871 | 4,580 |"""


def test_change_rows_count_less_for_a_value_question() -> None:
    assert balance_row_factor("What were revenues?", False, "Revenues increase/(decrease)") == OTHER_END
    assert balance_row_factor("What were revenues?", False, "Revenues",
                              "Operational growth/(decline)") == OTHER_END
    assert balance_row_factor("What were revenues?", False, "Net sales change") == OTHER_END
    assert balance_row_factor("How did revenues change?", True, "Revenues increase/(decrease)") == 1.0
    assert balance_row_factor("What were revenues?", False, "Revenues") == 1.0


def test_the_revenues_row_answers_not_its_change() -> None:
    passages = [Passage("S1", CHANGES, "o", "orbit-10q.pdf", 45), Passage("S2", INCOME, "o", "orbit-10q.pdf", 5)]
    first = read("What were Orbit Foods' revenues for the three months ended June 28, 2031 (in USD millions)?",
                 passages).text.splitlines()[0]
    assert "$12,734 million" in first and "[S2]" in first, first
