"""Do the named company's documents reach the year asked? (pure)

A project holds Best Buy's 10-K for fiscal 2017; a user asks about Best Buy's fiscal 2023. Every passage found
is Best Buy's, the line item is there, so the best evidence scores well — and an answer from 2017 is wrong. What
a document can report is bounded by its own date, which ingest reads off its first page
(``ingest.steps.identity``: the cover's "For the fiscal year ended …", an 8-K's date of report, a release's
date; ``Passage.period_end``): nothing after it, and — in a filing's statements, selected data and performance
graph — nothing more than ``LOOKBACK_YEARS`` before it.

``beyond_documents`` is the decline test: an English question naming a company and at least one year; the
documents among the passages that belong to or mention that company all carry their date; and not one of them
reaches any year asked. A fiscal year may begin the calendar year before its number (a fiscal 2024 that ends in
January 2024; its third quarter ended in October 2023), and a question need not say "fiscal", so a document
reaches the year after its date's too: only a gap of two years or more declines. A question about what is
expected ("guidance", "outlook", "expects", "will") is about a later year by nature and is never declined here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from chat.models.reader.names import mentions
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question

#: a filing reports this many years before its own date at most (five-year selected data, performance graph)
LOOKBACK_YEARS = 5
_FORWARD = re.compile(r"(?i)\b(guidance|outlook|forecasts?|projections?|projected|expect\w*|anticipat\w*|plans?|"
                      r"planned|targets?|will|would|going\s+to|next\s+year|future)\b")


def _end(p: Passage) -> date | None:
    try:
        return date.fromisoformat(p.period_end) if p.period_end else None
    except ValueError:
        return None


def reaches(end: date, year: int) -> bool:
    """A document dated ``end`` can report ``year`` — a year numbered one after its date's too: a fiscal year may
    be named for the calendar year it ends in, and a quarter of it end the year before (a fiscal 2024 whose
    third quarter ended in October 2023); "Q3 2024" need not say "fiscal"."""
    return end.year - LOOKBACK_YEARS <= year <= end.year + 1


def company_documents(q: Question, passages: Sequence[Passage]) -> dict[str, list[Passage]]:
    """The passages by document of the documents that belong to (file name, identity) or mention a company
    ``q`` names."""
    docs: dict[str, list[Passage]] = {}
    for p in passages:
        if any(mentions(name, p) for name in q.strong_names):
            docs.setdefault(p.document_id or p.file_name, []).append(p)
    return docs


def beyond_documents(q: Question, passages: Sequence[Passage]) -> list[Passage]:
    """One passage per document of the named company's documents (latest first) when none of them reaches a
    year ``q`` asks (see the module docstring); ``[]`` when the reader should answer as usual."""
    years = [p.year for p in q.periods if p.year is not None]
    if q.language != "en" or not q.strong_names or not years or _FORWARD.search(q.text):
        return []
    docs = company_documents(q, passages)
    ends = {doc: _end(ps[0]) for doc, ps in docs.items()}
    if not docs or any(end is None for end in ends.values()):
        return []
    if any(reaches(end, year) for end in ends.values() if end for year in years):
        return []
    order = sorted(docs, key=lambda doc: ends[doc] or date.min, reverse=True)
    return [docs[doc][0] for doc in order]


def _spoken(d: date) -> str:
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def coverage_note(q: Question, passages: Sequence[Passage]) -> str:
    """"The documents found for Best Buy are dated January 28, 2017 (BESTBUY_2017_10K.pdf) and do not cover
    FY2023." for ``beyond_documents``' passages."""
    dated = [f"{_spoken(end)} ({p.file_name or p.document_id})" for p in passages if (end := _end(p)) is not None]
    if not dated:
        return ""
    asked = " or ".join(dict.fromkeys(p.text for p in q.periods if p.year is not None))
    name = q.strong_names[0]
    if not any(mentions(name, p.owner_only()) for p in passages):
        # none is the company's own (its file name, its cover's identity): they only mention it
        return (f"No document of {name}'s was found; those that mention it are dated {'; '.join(dated)} and do "
                f"not cover {asked or 'the period asked'}.")
    return (f"The documents found for {name} are dated {'; '.join(dated)} and do not cover "
            f"{asked or 'the period asked'}.")
