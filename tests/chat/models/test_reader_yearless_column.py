"""A column whose header names no year beside columns that do (issue 12, absent-year negatives): the share-of-total
column under a year's column ("For the Years Ended December 31, / 2024 | For the Years Ended December 31, | …")
is that year's, so a question for a year the table does not print is declined instead of answered from the
yearless column, whose span alone ("Years Ended") used to fit any year. Made-up filing; no evaluation set's
question or wording."""

# ruff: noqa: E501  (the fixture is table rows as ingest writes them, one line each)
from __future__ import annotations

from chat.models.reader import Passage, read

TABLE = """Consolidated Statements of Operations Data
| | For the Years Ended December 31, / 2024 | For the Years Ended December 31, | For the Years Ended December 31, / 2023 (1) | |
|---|---|---|---|---|
| Total net revenues | 6,210 | 100 | 7,040 | 100 |
| Net income | 1,408 | 23 | 1,602 | 23 |
"""


def _p() -> list[Passage]:
    return [Passage("S1", TABLE, "v1", "VELTRO_2024_10K.pdf", 37)]


def test_a_year_the_table_does_not_print_is_declined() -> None:
    a = read("What were Veltro's total net revenues in fiscal 2016?", _p())
    assert a.declined
    assert "[S1]" not in a.text


def test_the_years_it_prints_are_read_from_their_own_columns() -> None:
    a = read("What were Veltro's total net revenues in fiscal 2024?", _p())
    assert not a.declined and "6,210" in a.text.splitlines()[0]
    b = read("What were Veltro's total net revenues in 2023?", _p())
    assert not b.declined and "7,040" in b.text.splitlines()[0]
