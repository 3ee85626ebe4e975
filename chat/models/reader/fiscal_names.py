"""Which calendar year a company's own "fiscal 2022" ends in (pure).

Retailers whose year ends late in January name it two ways. Walmart's "fiscal 2020" and Best Buy's "fiscal 2023"
are the years that ended on January 31, 2020 and January 28, 2023 — named by the year they end in. Ulta Beauty's
"fiscal 2022" is the year that ended on January 28, 2023 — named by the year it began in. A question that says
"fiscal 2022" in the company's own words means the company's year; the statements' columns are headed by the dates
the years ended ("52 weeks ended January 28, 2023").

``names_by_start`` reads a document's habit from its own pages: the latest January or February date its tables'
columns end on, and its text saying "fiscal <the year before>" more often than "fiscal <that year>" (its current
year is the one it talks about most; an end-year company talks of "fiscal 2023" in the report on the year that ended
in January 2023).
``by_start`` is the question as such a document's columns read it: "fiscal 2022" → the year ending in 2023. An
analyst's "FY2023" is the year that ended in 2023 whatever the company calls it, and stays as asked.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from chat.models.reader.periods import Period
from chat.models.reader.question import Question

_FISCAL = re.compile(r"(?i)\bfiscal\s+(?:year\s+)?((?:19|20)\d\d)\b")
#: the months a year that is named by the year it began in ends in
_EARLY_MONTHS = (1, 2)
#: a date in those months ("January 28, 2023", "Feb. 3, 2024"): its year
_EARLY_DATE = re.compile(r"\b(?:January|February|Jan\.|Feb\.)\s+\d{1,2},\s+((?:19|20)\d\d)\b")
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z])|\n\s*\n|\n(?=\|)")


def _ties(texts: Iterable[str]) -> Counter[str]:
    """How the texts tie a fiscal year to the date it ended: "fiscal 2023" and "January 28, 2023" in one sentence
    name the year by its end, "fiscal 2022" beside "January 28, 2023" by its start — each "fiscal N" read with the
    January/February date nearest it in its sentence."""
    votes: Counter[str] = Counter()
    for text in texts:
        for sentence in _SENTENCE.split(text):
            dates = [(m.start(), int(m.group(1))) for m in _EARLY_DATE.finditer(sentence)]
            if not dates:
                continue
            for m in _FISCAL.finditer(sentence):
                year = min(dates, key=lambda d: abs(d[0] - m.start()))[1]
                named = int(m.group(1))
                votes["end" if year == named else "start" if year == named + 1 else ""] += 1
    del votes[""]
    return votes


def names_by_start(texts: Iterable[str], ends: Iterable[Period]) -> bool:
    """The document (its ``texts``, the periods its tables' columns end on, ``ends``) names its fiscal years by the
    calendar year they began in (see the module docstring): by what its sentences tie to their end dates where
    they do, else by the year it talks about most."""
    years = [p.year for p in ends if p.year is not None and p.month in _EARLY_MONTHS]
    if not years:
        return False
    texts = list(texts)
    ties = _ties(texts)
    if ties["end"] != ties["start"]:
        return ties["start"] > ties["end"]
    year = max(years)
    said = Counter(int(y) for text in texts for y in _FISCAL.findall(text))
    return said[year - 1] > said[year]


def _company_worded(p: Period) -> bool:
    """"fiscal 2022", "the fourth quarter of fiscal 2022" — a fiscal year in a company's words, not an analyst's
    "FY2022" — whose period ends where the fiscal year ends (the year, its fourth quarter, its second half)."""
    text = p.text.strip()
    return (p.year is not None and p.month is None and p.day is None and bool(re.search(r"(?i)\bfiscal\b", text))
            and not re.search(r"(?i)\bFY", text) and p.quarter in (None, 4) and p.half in (None, 2))


def by_start(q: Question) -> Question:
    """``q`` with each fiscal year it asks in the company's words as the calendar year that year ended in, for a
    document that names its years by the year they began in."""
    periods = tuple(replace(p, year=p.year + 1) if _company_worded(p) and p.year is not None else p
                    for p in q.periods)
    return q if periods == q.periods else replace(q, periods=periods)
