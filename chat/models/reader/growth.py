"""Whether a company's figures are a growth company's (pure): "Are Acme's FY2022 financials that of a high growth
company?", "Is Acme a high-growth business?".

Filings give no verdict on it; an analyst reads the growth of the top and bottom lines. The answer computes, from
the income statement's cited cells, the year-over-year growth of revenue and of net income for the year asked (else
the latest the statement prints) against the year before, says what each was and leaves the verdict to the reader
(no threshold is the filing's word). None when the year's or the year before's revenue is not found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.compose import period_phrase, table_quote
from chat.models.reader.formulas import Operand, operand
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question, subject_of
from chat.models.reader.ratios import asked_and_prior

_ASKED = re.compile(r"(?i)\b(?:high|fast|rapid)[- ]growth\b|\bgrowth\s+(?:company|business|stock|profile)\b|"
                    r"\bgrowing\s+(?:fast|quickly|rapidly)\b")
#: the lines whose growth is read, as the answer names them
_LINES = (("revenue", "revenue"), ("net income", "net income"))


def asks_growth(question: str) -> bool:
    return bool(_ASKED.search(question))


def _growth(q: Question, item: str, passages: Sequence[Passage]) -> tuple[Operand, Operand] | None:
    pair = asked_and_prior(q)
    if pair is None:
        return None
    now, before = (operand(replace(q, periods=(p,)), item, passages) for p in pair)
    if now is None or before is None or not now.cells or not before.cells or before.value == 0:
        return None
    a, b = now.cells[0], before.cells[0]
    if (a.passage.ref, a.quote, a.col) == (b.passage.ref, b.quote, b.col) or a.passage.document_id != \
            b.passage.document_id:
        return None  # one cell read for both years, or two filings' figures
    return now, before


def growth_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """Revenue and net income growth for the year asked against the year before, each from its cited cells; None
    when revenue's two years are not found."""
    if q.language != "en" or not asks_growth(q.text):
        return None
    found = [(said, g) for item, said in _LINES if (g := _growth(q, item, passages)) is not None]
    if not found or found[0][0] != "revenue":
        return None
    parts = []
    for said, (now, before) in found:
        first, second = now.cells[0], before.cells[0]
        assert first.table is not None and second.table is not None
        rate = (now.value - before.value) / abs(before.value) * 100
        verb = "grew" if rate > 0 else "fell" if rate < 0 else "was unchanged"
        amount = f" {abs(rate):.1f}%" if rate else ""
        parts.append(f"{said} {verb}{amount} {period_phrase(first.table, first.col, 'en')} ({now.text} vs "
                     f"{before.text})")
    refs = "".join(dict.fromkeys(f"[{ev.passage.ref}]" for _, g in found for o in g for ev in o.cells))
    lead = (f"The growth the statements show: {'; '.join(parts)} {refs}. The filings themselves give no verdict: the "
            f"faster and steadier these grow, the more the figures are a growth company's.")
    first_cell = found[0][1][0].cells[0]
    lines = [lead, *(("> " + line).rstrip() for line in table_quote(first_cell))]
    quotes = [(ev.passage.ref, ev.quote_text) for _, g in found for o in g for ev in o.cells]
    return "\n".join(lines), list(dict.fromkeys(quotes))


def growth_query(question: str) -> str:
    """The income statement's top and bottom lines, searched for."""
    if not asks_growth(question):
        return ""
    name = subject_of(question)
    return f"{name} consolidated statements of income total revenue net income".strip()
