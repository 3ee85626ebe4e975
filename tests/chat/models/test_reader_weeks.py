"""A 52/53-week calendar's columns (issue 12): "12 Weeks Ended / 3/25/2023" is a quarter ended March 25, 2023 —
its numeric date read whole, its weeks standing for a quarter, a half or three quarters — and said as the header
says it. Made-up filings; no evaluation set's question or wording.
"""


from __future__ import annotations

import pytest

from chat.models.reader import Passage, read
from chat.models.reader.periods import span_months, spans_in
from chat.models.reader.tables import find_tables

INCOME = """Tarn Foods, Inc. and Subsidiaries
Condensed Consolidated Statement of Income
(in millions except per share amounts, unaudited)
|  | 12 Weeks Ended / 3/25/2023 | 12 Weeks Ended / 3/19/2022 |
|---|---|---|
| Net Revenue | $17,846 | $16,200 |
| Cost of sales | 7,988 | 7,433 |
| Operating Profit | 2,629 | 5,267 |
| Net income | 1,944 | 4,273 |
"""

#: a heading of another table of the release, with the weeks in it
HEADING = ("Operating Profit by Division 12 Weeks Ended March 25, 2023 and March 19, 2022 (in millions, unaudited) "
           "Reported GAAP Measure Restructuring charges Core Non-GAAP Measure")


@pytest.mark.parametrize(("text", "months"), [
    ("12 Weeks Ended", 3), ("Thirteen Weeks Ended", 3), ("16 weeks ended", 3), ("Twenty-Six Weeks Ended", 6),
    ("24 Weeks Ended", 6), ("39 Weeks Ended", 9), ("36 weeks ended", 9), ("52 Weeks Ended", 12),
])
def test_weeks_stand_for_the_months_of_a_fiscal_calendar(text: str, months: int) -> None:
    assert span_months(text) == months


def test_weeks_that_are_no_fiscal_period_are_no_span() -> None:
    assert span_months("employees get 10 weeks of leave") is None
    assert spans_in("13 Weeks Ended 39 Weeks Ended") == [3, 9]


def test_a_numeric_date_under_a_weeks_header_is_read_whole() -> None:
    table = find_tables(INCOME)[0]
    first = table.columns[0]
    assert [(p.year, p.month, p.day) for p in first.periods] == [(2023, 3, 25)]
    assert first.span == 3


@pytest.mark.parametrize(("question", "lead"), [
    ("What was Tarn Foods' net revenue in the first quarter of 2023?",
     "Net Revenue was $17,846 million in the 12 weeks ended March 25, 2023 [S1]."),
    ("What was Tarn Foods' net revenue in the 12 weeks ended March 25, 2023?",
     "Net Revenue was $17,846 million in the 12 weeks ended March 25, 2023 [S1]."),
    ("What was Tarn Foods' net income in Q1 2022?",
     "Net income was $4,273 million in the 12 weeks ended March 19, 2022 [S1]."),
])
def test_a_quarter_of_a_weeks_calendar_is_answered_from_its_column(question: str, lead: str) -> None:
    answer = read(question, [Passage("S1", INCOME, "t1", "TARNFOODS_2023Q1_EARNINGS.pdf", 4),
                             Passage("S2", HEADING, "t1", "TARNFOODS_2023Q1_EARNINGS.pdf", 12)])
    assert answer.text.split("\n")[0] == lead


def test_the_weeks_of_a_heading_are_no_amount() -> None:
    """Only the heading came back: it names the item and the period but states no amount — not "12"."""
    answer = read("What was Tarn Foods' operating profit in Q1 2023?",
                  [Passage("S2", HEADING, "t1", "TARNFOODS_2023Q1_EARNINGS.pdf", 12)])
    assert "say 12" not in answer.text and not answer.text.startswith("12")
