"""A table read across (pure): the row the question names, the column its measure heads. "How many votes against did
Ann Carter receive?" over "| Nominee | For | Against | Abstain |" / "| Ann B. Carter | 59,657,810 | 294,935 | … |";
"What was the fair value of the corporate bonds?" over "| | Amortized Cost | Fair Value |" / "| Corporate bonds | … |".

The ordinary reading finds a row by its label and a column by its period. Some tables name their measure in the
column headers and their rows by who or what is measured (directors, securities, plans): the row is the one whose
label holds a name the question says (each of its words — a middle initial in the row is no mismatch), the column
the one whose header holds the measure's words (the caption's and the heading's words may complete them: "Against"
under "Submission of Matters to a Vote"); with periods in the headers, those of the period asked. Written from the
general shape of such tables, not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chat.models.reader.compose import header_lines, spoken_value
from chat.models.reader.evidence import column_period_score, of_company, passage_tables
from chat.models.reader.passage import Passage
from chat.models.reader.periods import find_periods
from chat.models.reader.question import Question
from chat.models.reader.tables import Row, Table
from chat.models.reader.text import coverage, match_terms
from chat.models.reader.units import table_unit

#: the share of the measure's words a column's header (with the caption's and heading's words) must hold
MEASURE_COVERED = 1.0


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'’-]+", text)}


def _named_row(table: Table, names: Sequence[str]) -> Row | None:
    """The one row whose label holds every word of one of ``names`` (a name of two words at least)."""
    found = [row for name in names if len(words := _words(name)) >= 2
             for row in table.rows if words <= _words(row.label)]
    return found[0] if len({id(row) for row in found}) == 1 else None


def _header_measure(header: str) -> set[str]:
    """The header's words without its periods ("December 31, 2031 / Fair Value" → fair value)."""
    parts = [part for part in header.split("/") if part.strip() and not find_periods(part)]
    return match_terms(" ".join(parts)) if parts else set()


def crossed_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """"<row> — <column>: <value> [S1]." with the table's header and the row quoted, or None when no table of the
    company's has a row the question names and a column of its measure."""
    if q.language != "en" or q.kind not in ("value", "other") or q.parts:
        return None
    own = of_company(q, passages) or list(passages)
    company = {w for p in own for w in _words(p.company)}
    names = [n for n in q.names if not _words(n) <= company]  # a name of the row, not the filer's
    if not names:
        return None
    name_terms = set().union(*(match_terms(n) for n in names))
    measure = set(q.focus_terms) - name_terms
    if not measure:
        return None
    for p, tables in zip(own, passage_tables(own), strict=True):
        for table in tables:
            row = _named_row(table, names)
            if row is None:
                continue
            context = match_terms(f"{table.caption} {p.text[: p.text.find(chr(10))]}")
            cols = [(c, _header_measure(col.header)) for c, col in enumerate(table.columns) if not col.is_change]
            # (a header of other words beside the measure's — "Broker Non-Votes" for the votes — is another measure)
            cols = [(c, h) for c, h in cols if h & measure and not h - measure - context
                    and row.amount(c) is not None and coverage(measure, h | context) >= MEASURE_COVERED]
            if not cols:
                continue
            best = max(cols, key=lambda ch: (coverage(measure, ch[1]), column_period_score(q, table, ch[0])
                                             if q.periods else 0.0, -ch[0]))
            col = best[0]
            if q.periods and column_period_score(q, table, col) <= 0 and any(c.periods for c in table.columns):
                continue  # another period's column
            amount = row.amount(col)
            assert amount is not None
            header = " ".join(table.columns[col].header.replace(" / ", " ").split())
            label = " ".join(row.label.split())
            value = spoken_value(amount, table_unit(table, col), "en")
            lead = f"{label} — {header}: {value} [{p.ref}] (the row of {label}, the column “{header}”)."
            quote = p.text[row.line[0] : row.line[1]]
            lines = [lead, *("> " + line for line in header_lines(table, p.text)), "> " + quote]
            return "\n".join(lines), [(p.ref, quote)]
    return None
