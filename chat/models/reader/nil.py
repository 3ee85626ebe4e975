"""A statement line printed without an amount for the asked year: none, said as such (pure).

A cash flow statement prints "Dividends paid | — | — | (1,158)" when the company paid none in the later years
(it suspended them). Asked for the dividends of one of those years, the row is the answer — nothing was paid —
not the year before's amount, and not "the documents don't say". The reader answers "none" when:

- nothing answers surely (no evidence scores ``SURE_AT``), and the best cell evidence is a row of a financial
  statement page whose words the question asks (its score without the period at least ``SURE_ROW``), whose cells
  hold no amount for the asked period (the period's score capped it);
- the table has the asked period's column (a header that agrees fully) and that row's cell there is a dash or
  blank, while the row prints an amount in another period's column;
- and most rows with amounts print one in that column too — so the column is real, not a parsing gap.

The sentence says the statement prints no amount ("—") for the period, cites the row, and shows the row with its
header: the asker sees the other years' amounts beside the empty cell.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.compose import period_phrase, table_quote
from chat.models.reader.decline import SURE_AT
from chat.models.reader.evidence import PERIOD_MISSING_CAP, Evidence, column_period_score, gather
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question
from chat.models.reader.statement_titles import is_statement_page

#: the row's words agree with the question's at least this much (its score with no period asked)
SURE_ROW = 0.9
#: the asked period's column: a header that agrees fully
FULL_PERIOD = 0.99
#: the share of the table's rows with amounts that print one in the asked column too
COLUMN_FILLED = 0.5
_NIL = re.compile(r"^\$?\s*[—–\-]*\s*$")
#: how many of the best evidence a nil row may sit below (sentences that name the item, not the year's amount)
LOOK_AT = 4


def _asked_column(q: Question, ev: Evidence) -> int | None:
    table, row = ev.table, ev.row
    assert table is not None and row is not None
    cols = [c for c in range(len(table.columns)) if column_period_score(q, table, c) >= FULL_PERIOD]
    if len(cols) != 1 or row.amount(cols[0]) is not None or not _NIL.match(row.cells[cols[0]]):
        return None
    col = cols[0]
    if not any(row.amount(c) is not None for c in range(len(table.columns)) if c != col):
        return None
    filled = [r for r in table.rows if any(r.amount(c) is not None for c in range(len(table.columns)))]
    if sum(r.amount(col) is not None for r in filled) < COLUMN_FILLED * len(filled):
        return None
    return col


def nil_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer lines and quote of a statement row printed without an amount for the asked period, or None."""
    if q.language != "en" or q.kind != "value" or q.parts or not q.focus or len(q.periods) != 1:
        return None
    ranked = gather(q, passages)
    cells = [ev for ev in ranked[:LOOK_AT] if ev.kind == "cell"]
    if not cells or cells[0].score > PERIOD_MISSING_CAP + 0.05 or ranked[0].score >= SURE_AT:
        return None  # a cell of the asked period answers, or a sentence surely does (or no cell is near the top)
    ev = cells[0]
    if ev.table is None or ev.row is None or not is_statement_page(ev.passage):
        return None
    undated = gather(replace(q, periods=()), [ev.passage])
    own = next((o for o in undated if o.kind == "cell" and o.row == ev.row), None)
    if own is None or own.score < SURE_ROW:
        return None
    col = _asked_column(q, ev)
    if col is None:
        return None
    at = replace(ev, col=col)
    label = " ".join(ev.row.label.split())
    printed = ev.row.cells[col].strip()
    shown = f"“{printed}”" if printed else "an empty cell"
    lead = (f"{label}: none {period_phrase(ev.table, col, 'en')} — the statement prints no amount for that "
            f"period ({shown}) [{ev.passage.ref}].")
    lines = [lead, *(("> " + line).rstrip() for line in table_quote(at))]
    return "\n".join(lines), [(ev.passage.ref, at.quote_text)]
