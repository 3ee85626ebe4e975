"""A balance's change over a period, read off a cash-flow statement split across chunks (pure).

"How much did cash and cash equivalents change in the nine months ended July 1, 2023?" — the best cell is often the
"…, ending balances" row of a chunk that holds only the statement's last rows; its two columns are two years'
ending balances, and their difference is no change in the nine months. The statement prints the change itself
("Increase/(Decrease) in cash …") or the period's beginning balance, in another chunk of the same statement (same
document, same column header): that row answers, or ending − beginning of the same column.
"""

from __future__ import annotations

from collections.abc import Sequence

from chat.models.reader.balances import balance_end, balance_item, change_row
from chat.models.reader.compose import period_phrase, spoken_value, table_quote
from chat.models.reader.decline import DECLINE_BELOW
from chat.models.reader.evidence import Evidence, change_ends, gather, since_asked
from chat.models.reader.numbers import Amount, decimals_of
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question
from chat.models.reader.text import match_terms
from chat.models.reader.units import row_unit


def _item(label: str) -> frozenset[str]:
    """The terms of the item a balance or change row is of (``balances.balance_item``)."""
    return frozenset(match_terms(balance_item(label)))


def _same_column(ev: Evidence, other: Evidence) -> int:
    """The column of ``other``'s table headed as ``ev``'s column, or -1."""
    assert ev.table is not None and other.table is not None
    header = ev.table.columns[ev.col].header
    return next((c for c, col in enumerate(other.table.columns) if col.header == header), -1)


def period_change_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer lines and quotes of a balance's change over the asked period, or None where this does not
    apply (not an English change question over a span, or the best cell is not an ending balance)."""
    if q.language != "en" or q.kind != "change" or q.span is None or since_asked(q) or change_ends(q):
        return None
    ranked = gather(q, passages)
    best = ranked[0] if ranked else None
    if (best is None or best.score < DECLINE_BELOW or best.kind != "cell" or best.row is None or best.table is None
            or balance_end(best.row.label) != "end"):
        return None
    item = _item(best.row.label)
    end = best.row.amount(best.col)
    if end is None or not item:
        return None
    found: dict[str, tuple[Evidence, int]] = {}
    for ev in ranked:
        if (ev.kind != "cell" or ev.row is None or ev.table is None or ev is best
                or ev.passage.document_id != best.passage.document_id or _item(ev.row.label) != item):
            continue
        col = _same_column(best, ev)
        if col < 0 or ev.row.amount(col) is None:
            continue
        kind = "change" if change_row(ev.row.label) else balance_end(ev.row.label)
        if kind in ("change", "begin") and kind not in found:
            found[kind] = (ev, col)
    unit = row_unit(best.table, best.col, best.row.label)
    period = period_phrase(best.table, best.col, "en")
    if "change" in found:
        ev, col = found["change"]
        assert ev.row is not None and ev.table is not None
        amount = ev.row.amount(col)
        assert amount is not None
        lead = (f"{ev.row.label} was {spoken_value(amount, unit, 'en')} {period} [{ev.passage.ref}] (the statement's "
                f"own change row; the ending balance was {spoken_value(end, unit, 'en')} [{best.passage.ref}]).")
    elif "begin" in found:
        ev, col = found["begin"]
        assert ev.row is not None
        begin = ev.row.amount(col)
        assert begin is not None
        diff = end.value - begin.value
        direction = "up" if diff > 0 else "down" if diff < 0 else "unchanged"
        decimals = max(decimals_of(end.raw), decimals_of(begin.raw))
        diff_text = spoken_value(Amount(abs(diff), f"{abs(diff):,.{decimals}f}", False, end.currency or begin.currency,
                                        end.scale_word), unit, "en")
        subject = balance_item(best.row.label)
        lead = (f"{subject} was {direction} {diff_text} {period}: from {spoken_value(begin, unit, 'en')} at the "
                f"beginning [{ev.passage.ref}] to {spoken_value(end, unit, 'en')} at the end [{best.passage.ref}] "
                f"(computed from the statement's beginning and ending balances).")
    else:
        return None
    lines = [" ".join(lead.split())]
    quotes: list[tuple[str, str]] = []
    for shown in (ev, best):
        lines += [("> " + line).rstrip() for line in table_quote(shown)]
        quotes.append((shown.passage.ref, shown.quote_text))
    return "\n".join(lines), quotes
