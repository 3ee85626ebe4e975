"""Which of the three activities brought in the most cash (pure): "Among operations, investing, and financing
activities, which brought in the most (or lost the least) cash flow for Acme in FY2023?".

The statement of cash flows ends each of its three sections on a result line — "Net cash provided by operating
activities", "Total cash used in investing activities", "Net cash (used)/provided by financing activities" —
often in different chunks of the statement. The answer compares those three lines in the period asked (else the
latest): the largest figure brought in the most cash (or, all of them negative, lost the least); "lost the most"
or "the least" alone asks the smallest. Each figure is cited and shown; nothing is answered unless all three
lines of one document are found in the same period.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.compose import header_lines, period_phrase, spoken_value
from chat.models.reader.evidence import asked_column
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question, analyze
from chat.models.reader.tables import Row, Table, find_tables
from chat.models.reader.units import table_unit

_ASKED = re.compile(
    r"(?is)^(?=.*\boperat(?:ions|ing)\b)(?=.*\binvesting\b)(?=.*\bfinancing\b)"
    r"(?=.*\b(?:most|least|highest|lowest|largest|smallest|biggest)\b)(?=.*\b(?:which|what)\b)")
_LOW = re.compile(r"(?i)\b(?:lost|used|burn(?:ed|t)?|spent)\s+the\s+most\b|\b(?:lowest|smallest)\b")
#: a section's result line: "Net cash provided by operating activities", "Total cash used in investing activities",
#: "Cash provided (used) by financing activities" — not "Other operating activities" nor a part of one
_RESULT = re.compile(
    r"(?i)^\s*(?:net\s+|total\s+)?cash\b(?![^|]*\b(?:continuing|discontinued)\b)[^|]*?\b(?P<kind>operating|"
    r"investing|financing)\s+activities\b")
KINDS = ("operating", "investing", "financing")
_SPOKEN = {"operating": "Operating activities", "investing": "Investing activities",
           "financing": "Financing activities"}


def asks_activities(question: str) -> bool:
    """The question compares the three activities of the cash flow statement by the cash each brought in."""
    return bool(_ASKED.search(question))


def activities_query(question: str) -> str:
    """The search for the statement's three result lines, with the company and the period the question names."""
    if not asks_activities(question):
        return ""
    q = analyze(question)
    years = [str(p.year) for p in q.periods if p.year]
    parts = [*q.names, "consolidated statements of cash flows net cash provided by used in operating activities "
             "investing activities financing activities", *years]
    return " ".join(" ".join(parts).split())



def activities_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer text and its quotes, or None when the three result lines of one document are not all found."""
    if q.language != "en" or not asks_activities(q.text):
        return None
    # per document: kind → (passage, table, row, column), the first found (passages come best first)
    found: dict[str, dict[str, tuple[Passage, Table, Row, int]]] = {}
    for p in passages:
        for table in find_tables(p.text):
            col = asked_column(q, table)
            if col is None:
                continue
            for row in table.rows:
                m = _RESULT.match(row.label)
                if m and row.amount(col) is not None:
                    found.setdefault(p.document_id or p.file_name or p.ref, {}).setdefault(
                        m.group("kind").lower(), (p, table, row, col))
    complete = [lines for lines in found.values() if all(k in lines for k in KINDS)]
    if not complete:
        return None
    lines = complete[0]
    low = bool(_LOW.search(q.text)) and not re.search(r"(?i)\bbrought\s+in\s+the\s+most\b", q.text)

    def value(kind: str) -> float:
        _, _, row, col = lines[kind]
        amount = row.amount(col)
        return amount.value if amount is not None else 0.0

    # one statement's three lines in one currency: a chunk whose cells print no "$" is the statement's dollars too
    currency = next((u.currency for k in KINDS if (u := table_unit(lines[k][1], lines[k][3])).currency), "")

    def said(kind: str) -> str:
        p, table, row, col = lines[kind]
        amount = row.amount(col)
        assert amount is not None
        unit = table_unit(table, col)
        if not unit.currency and currency and unit.word:
            unit = replace(unit, currency=currency)
        return f"{spoken_value(amount, unit, 'en')} [{p.ref}]"

    top, second, third = sorted(KINDS, key=value, reverse=not low)
    ordered = (top, second, third)
    top_p, top_table, _, top_col = lines[top]
    verb = "used the most cash" if low else "brought in the most cash" if value(top) > 0 else "lost the least cash"
    lead = (f"{_SPOKEN[top]} {verb} {period_phrase(top_table, top_col, 'en')}: {said(top)} (compared with "
            f"{_SPOKEN[second].lower()} {said(second)} and {_SPOKEN[third].lower()} {said(third)}).")
    quotes = [(lines[k][0].ref, lines[k][0].text[lines[k][2].line[0] : lines[k][2].line[1]]) for k in ordered]
    out = [" ".join(lead.split()), *("> " + h for h in header_lines(top_table, top_p.text))]
    out += ["> " + text for _, text in quotes]
    return "\n".join(out), quotes
