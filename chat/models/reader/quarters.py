"""Which quarter a three-month column is, from the table it is in (pure).

A quarterly report's statement prints "Three Months Ended July 30, 2023" beside "Six Months Ended July 30, 2023":
a three-month period ending on the day a six-month (nine-month) year-to-date period ends is the second (third)
quarter of its fiscal year, whatever month the fiscal year starts in. The column's period then carries that
quarter number, so "Q2 FY2024" or "the second quarter" fits the July column of the Q2 report and not the October
column of the Q3 report, and "Q1 2023" does not fit a column known to be a second quarter. A three-month column
without such a sibling keeps no quarter number (a first quarter has no year-to-date column to tell it by, and a
segment table may print three months only): it fits any quarter by its span, as before.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from chat.models.reader.periods import Period

#: year-to-date spans (months) that tell a three-month column's quarter: 6 → Q2, 9 → Q3, 12 → Q4
YEAR_TO_DATE = (6, 9, 12)


def _end(p: Period) -> tuple[int, int, int | None] | None:
    if p.year is None or p.month is None:
        return None
    return (p.year, p.month, p.day)


def number_quarters(columns: Sequence[tuple[int | None, Sequence[Period]]]) -> list[tuple[Period, ...]]:
    """Each column's periods, with ``quarter`` set on the end date of a three-month column whose end date a
    year-to-date column of the same table shares. ``columns``: (span in months, periods) per column."""
    ytd: dict[tuple[int, int], int] = {}  # (year, month) the year-to-date column ends → its span
    for span, periods in columns:
        if span in YEAR_TO_DATE:
            for p in periods:
                end = _end(p)
                if end is not None:
                    ytd[end[:2]] = max(ytd.get(end[:2], 0), span)
    out: list[tuple[Period, ...]] = []
    for span, periods in columns:
        if span != 3 or not ytd:
            out.append(tuple(periods))
            continue
        numbered: list[Period] = []
        for p in periods:
            end = _end(p)
            months = ytd.get(end[:2]) if end is not None else None
            if months is not None and p.quarter is None:
                p = dataclasses.replace(p, quarter=months // 3)
            numbered.append(p)
        out.append(tuple(numbered))
    return out
