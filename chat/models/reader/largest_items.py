"""Which line of the balance sheet is largest (pure): "What is Acme's largest liability as of FY2022?", "What was the
biggest current asset on Acme's balance sheet at the end of 2018?".

The statement of financial position lists assets, then liabilities (current ones under "Current liabilities:",
closed by "Total current liabilities", then the long-term ones, closed by "Total liabilities" — or, where no such
total is printed, by the equity section). The answer is the line with the largest (or smallest) amount among
those lines in the period asked (else the latest), totals and contra lines ("Less: accumulated depreciation")
left out; a line printed in both parts ("Deferred revenue" current and long-term) is named with its part. The
next lines are shown beside it, each row quoted under the statement's header.

A search hit may hold only part of the statement (the grid is cut into chunks): the answer reads only a table
that holds the whole asked part — its closing total and, before it, the lines it adds up — and
``pages_to_read`` asks for the statement's page when the hits hold a part of it only.
Written from the standard layout of a balance sheet (US GAAP / IFRS), not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from chat.models.reader.compose import header_lines, period_phrase, spoken_value
from chat.models.reader.evidence import asked_column, of_named, passage_tables
from chat.models.reader.numbers import all_amounts
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question, analyze
from chat.models.reader.tables import Row, Table, find_tables
from chat.models.reader.units import table_unit

_ASKED = re.compile(
    r"(?i)^\s*(?:what|which)\b.*?\b(?P<dir>largest|biggest|greatest|highest|smallest|lowest)\s+(?:single\s+)?"
    r"(?:(?P<part>current|non-?current|long-term)\s+)?(?P<kind>liabilit(?:y|ies)|assets?)\b")
_LOW = {"smallest", "lowest"}
#: how much of a passage's start may hold the statement's title (its heading path, the caption above the grid)
HEAD = 400
_TOTAL = re.compile(r"(?i)^\s*total\b")
_CONTRA = re.compile(r"(?i)^\s*(?:less\b|accumulated\s+(?:depreciation|amortization))")
#: where the liabilities begin, and where they end without a total of their own
_LIABILITIES = re.compile(r"(?i)\bliabilit")
_EQUITY = re.compile(r"(?i)\b(?:equity|stockholders|shareholders|commitments\s+and\s+contingencies|"
                     r"redeemable\s+noncontrolling)\b")
#: a table whose caption ends on the liabilities' heading ("LIABILITIES AND EQUITY Current liabilities:"): its
#: first row is the first liability
_HEADED = re.compile(r"(?i)\bliabilities(?:\s+and\s+(?:stockholders['’]?|shareholders['’]?)?\s*equity)?\s*:?\s*$")
#: the statement's own title, in a chunk's heading path or caption
_TITLE = re.compile(r"(?i)\bbalance\s+sheets?\b|\bstatements?\s+of\s+financial\s+(?:position|condition)\b")
_CURRENT = re.compile(r"(?i)(?<!non)(?<!non-)\bcurrent\b")


@dataclass(frozen=True, slots=True)
class Asked:
    kind: str  # "liability" / "asset"
    part: str  # "current" / "noncurrent" / ""
    low: bool


def asked_item(question: str) -> Asked | None:
    """The parts of a "largest liability / current asset" question (English), or None."""
    m = _ASKED.search(question)
    if m is None:
        return None
    kind = "liability" if m.group("kind").lower().startswith("liabilit") else "asset"
    part = (m.group("part") or "").lower().replace("-", "")
    return Asked(kind, "noncurrent" if part in ("noncurrent", "longterm") else part, m.group("dir").lower() in _LOW)


def largest_item_query(question: str) -> str:
    """The search for the balance sheet's lines, with the company and the years the question names."""
    asked = asked_item(question)
    if asked is None:
        return ""
    q = analyze(question)
    words = ("consolidated balance sheets current liabilities total current liabilities long-term debt total "
             "liabilities" if asked.kind == "liability" else
             "consolidated balance sheets current assets total current assets property and equipment total assets")
    years = [str(p.year) for p in q.periods if p.year]
    return " ".join(" ".join([*q.names, words, *years]).split())


def _equity_row(r: Row) -> bool:
    """The row opens (or sits in) the equity section, not the "Liabilities and equity" heading's liabilities."""
    return bool(_EQUITY.search(r.section) and not _LIABILITIES.search(r.section)) or bool(
        _EQUITY.search(r.label) and not _LIABILITIES.search(r.label))


def _lines(table: Table, asked: Asked) -> list[Row] | None:
    """The lines of the asked part, in order, or None when the table does not hold the whole part (its closing
    total, with the lines before it)."""
    rows = list(table.rows)
    side = "assets" if asked.kind == "asset" else "liabilities"
    if asked.kind == "asset":
        start = next((i for i, r in enumerate(rows) if re.search(r"(?i)\bassets\b", r.section)
                      or re.match(r"(?i)\s*cash\b", r.label)), None)
        closing = next((i for i, r in enumerate(rows) if re.match(r"(?i)^\s*total\s+assets\b", r.label)), None)
        equity = None
    else:
        if not any(re.match(r"(?i)^\s*total\s+(?:current\s+)?liabilities\s*$", r.label) for r in rows):
            return None  # no classified balance sheet's total (a subsidiary's "Financial Position" summary)
        start = 0 if _HEADED.search(table.caption) else next(
            (i for i, r in enumerate(rows) if (_LIABILITIES.search(r.section) or _LIABILITIES.search(r.label))
             and not _equity_row(r)), None)
        closing = next((i for i, r in enumerate(rows) if re.match(r"(?i)^\s*total\s+liabilities\s*$", r.label)),
                       None)
        equity = next((i for i, r in enumerate(rows) if start is not None and i > start and _equity_row(r)), None)
    if start is None:
        return None  # the chunk begins inside the list: its first lines are on another chunk
    current_total = next((i for i, r in enumerate(rows) if i >= start and _TOTAL.match(r.label)
                          and _CURRENT.search(r.label) and side in r.label.lower()), None)
    end = closing if closing is not None and closing > start else equity
    if asked.part == "current":
        if current_total is None:
            return None
        part = rows[start:current_total]
    else:
        if end is None:
            return None
        part = rows[start:end]
        if current_total is not None and current_total < end:
            if asked.part == "noncurrent":
                part = rows[current_total + 1:end]
            elif not any(not _TOTAL.match(r.label) for r in rows[start:current_total]):
                return None  # the chunk begins at the current part's total: its lines are on another chunk
        elif asked.part == "noncurrent":
            return None
    lines = [r for r in part if r.label.strip() and not _TOTAL.match(r.label) and not _CONTRA.match(r.label)]
    return lines if len(lines) >= 2 else None



@dataclass(frozen=True, slots=True)
class _Found:
    passage: Passage
    table: Table
    col: int
    lines: list[Row]



def _find(q: Question, asked: Asked, passages: Sequence[Passage]) -> _Found | None:
    own = of_named(q, passages)
    for p, tables in zip(own, passage_tables(own), strict=True):
        for table in tables:
            lines = _lines(table, asked)
            col = asked_column(q, table) if lines else None
            if lines is None or col is None:
                continue
            priced = [r for r in lines if (a := r.amount(col)) is not None and a.value > 0 and not a.percent
                      and len(all_amounts(r.cells[col])) == 1]  # not two columns run together
            if len(priced) >= 2:
                return _Found(p, table, col, priced)
    return None


def _statement_part(table: Table, asked: Asked) -> bool:
    """The table is a piece of the balance sheet's asked side: a total of it, or a section of it."""
    word = r"liabilit" if asked.kind == "liability" else r"assets"
    return any(re.search(rf"(?i)\b{word}", f"{r.section} {r.label}") and (_TOTAL.match(r.label) or r.section)
               for r in table.rows)


def pages_to_read(question: str, passages: Sequence[Passage]) -> list[tuple[str, int]]:
    """The balance sheet's page when the results hold a part of it but no table of the whole asked part (a page
    read already is not asked for again)."""
    asked = asked_item(question)
    if asked is None:
        return []
    q = analyze(question)
    if _find(q, asked, passages) is not None:
        return []
    read = {(p.document_id, p.page) for p in passages if p.ref.startswith("P")}
    for p in of_named(q, passages):
        if p.document_id and p.page and (p.document_id, p.page) not in read and _TITLE.search(p.text[:HEAD]) \
                and any(_statement_part(t, asked) for t in find_tables(p.text)):
            return [(p.document_id, p.page)]
    return []


def _name(row: Row, lines: Sequence[Row]) -> str:
    """The line's label, with its part where another line bears the same label ("Debt (long-term liabilities)")."""
    label = " ".join(row.label.split()).rstrip(":")
    twins = [r for r in lines if r is not row and r.label.strip().lower() == row.label.strip().lower()]
    section = " ".join(row.section.split()).rstrip(":")
    return f"{label} ({section.lower()})" if twins and section else label


def largest_item_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer text and its quotes, or None when no table holds the whole asked part of a balance sheet."""
    asked = asked_item(q.text) if q.language == "en" else None
    if asked is None:
        return None
    found = _find(q, asked, passages)
    if found is None:
        return None
    p, table, col = found.passage, found.table, found.col

    def value(row: Row) -> float:
        amount = row.amount(col)
        return amount.value if amount is not None else 0.0

    ordered = sorted(found.lines, key=value, reverse=not asked.low)
    unit = table_unit(table, col)

    def said(row: Row) -> str:
        amount = row.amount(col)
        assert amount is not None
        return spoken_value(amount, unit, "en")

    part = {"current": "current ", "noncurrent": "non-current "}[asked.part] if asked.part else ""
    kind = {"liability": "liability", "asset": "asset"}[asked.kind]
    word = "smallest" if asked.low else "largest"
    top = ordered[0]
    shown = ordered[1:4]
    others = "; ".join(f"{_name(r, found.lines)} {said(r)}" for r in shown)
    lead = (f"{_name(top, found.lines)} was the {word} {part}{kind} on the balance sheet: {said(top)} "
            f"{period_phrase(table, col, 'en')} [{p.ref}] (compared across the {len(ordered)} {part}{kind} lines of "
            f"the statement; next: {others}).")
    quotes = [(p.ref, p.text[r.line[0] : r.line[1]]) for r in (top, *shown)]
    out = [" ".join(lead.split()), *("> " + h for h in header_lines(table, p.text))]
    out += ["> " + text for _, text in quotes]
    return "\n".join(out), quotes
