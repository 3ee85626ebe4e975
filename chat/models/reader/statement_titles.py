"""Which financial statement heads a passage (pure): its own title as a heading line.

``is_statement_page`` tells a passage headed by a statement's own title (a heading line that is the title —
``Consolidated Statements of Operations:`` with a colon is a sub-heading of a summary table, ``… recognized in the
Consolidated Statement of Income consist of the following:`` is prose, ``Consolidated Statements of Operations
Data`` MD&A's summary of it, a deed of cross guarantee's statements the closed group's); ``statement_pages`` uses
it to prefer, read and search for the statement, ``ratios`` to read a formula's operand from it.
Written from the standard statement titles (US GAAP / IFRS), not from any evaluation set.
"""

from __future__ import annotations

import re

from chat.models.reader.evidence import PART_OF_GROUP_WORDS
from chat.models.reader.passage import Passage
from chat.models.reader.statements import StatementKind
from chat.models.reader.text import join_split_letters

#: where a statement's title heads a passage (its chunk's heading lines)
HEAD_CHARS = 400
#: a cell of the statement replaces the best one when it scores at least this much of the best
SAME_FIGURE_SHARE = 0.85
#: how many of the ranked evidence are looked through for the same figure
LOOK_AT = 24

_TITLES: dict[StatementKind, str] = {
    "income": r"statements?\s+of\s+(?:consolidated\s+)?(?:income|operations|earnings|comprehensive\s+income)|"
              r"income\s+statements?",
    "balance": r"balance\s+sheets?|statements?\s+of\s+(?:consolidated\s+)?financial\s+(?:position|condition)",
    "cash": r"statements?\s+of\s+(?:consolidated\s+)?cash\s+flows?",
}
_ANY = "|".join(f"(?:{t})" for t in _TITLES.values())
#: a title line: at most a name before it — capitalised words, "and"/"of"/"the" between them ("3M Company and
#: Subsidiaries", "ADOBE INC.") — not prose ("Gross Amounts not Offset in the Consolidated Balance Sheet …")
_HEADING = re.compile(
    r"^(?:(?:[A-Z]|\d+[A-Z])[\w.,&'’\-]*\s+(?:(?:and|of|the|&)\s+)*)*(?i:(?:(?:consolidated|combined|condensed)\s+)*)"
    rf"(?P<title>(?i:{_ANY}))\b(?P<rest>.*)$"
)
#: what may follow the title on its line: a remark in brackets, "(continued)", a name ("… AND SUBSIDIARIES",
#: "… Acme Incorporated and Subsidiary Companies"), or the period it covers ("for the years ended December 31,
#: 2031 and 2030")
_REST = re.compile(r"(?i:[(\[].*[)\]]|\(?continued\)?)|(?:[A-Z][\w.,&'’\-]*(?:\s+(?:and|of|the|&))*\s*)+|"
                   r"(?i:(?:for|as\s+of|at|years?|fiscal|three|six|nine|twelve|quarters?|periods?)\b.*"
                   r"(?:\b(?:19|20)\d\d\b|\b(?:january|february|march|april|may|june|july|august|september|"
                   r"october|november|december)\b).*)")
def _kind_of(title: str) -> StatementKind:
    for kind, pattern in _TITLES.items():
        if re.fullmatch(pattern, title, re.IGNORECASE):
            return kind
    return ""


def statement_kind_of(p: Passage) -> StatementKind:
    """The statement whose title heads the passage (``income``, ``balance``, ``cash``), or ``""`` — also for a
    part of the group's statement (a deed of cross guarantee's closed group, the guarantors): not the company's."""
    if PART_OF_GROUP_WORDS.search(p.text[:HEAD_CHARS]):
        return ""
    for raw in p.text[:HEAD_CHARS].splitlines():
        line = raw.split("›")[-1].strip()  # a chunk's heading path: "ACME INC. › CONSOLIDATED BALANCE SHEETS"
        if not line or len(line) > 120 or line.endswith((":", "：")):
            continue
        line = join_split_letters(line)  # a text layer's kerning: "Statement of Incom e"
        m = _HEADING.match(line)
        if m is None:
            continue
        rest = m.group("rest").strip()
        if re.match(r"(?i)(?:data|summary|highlights|information|items|components|classification)\b", rest):
            continue  # "Consolidated Statements of Operations Data": MD&A's summary of it, a year or two short
        if rest and not _REST.fullmatch(rest):
            continue  # "… of Income consist of the following": a sentence that names the statement
        kind = _kind_of(" ".join(m.group("title").split()))
        if kind:
            return kind
    return ""


def is_statement_page(p: Passage, kind: StatementKind = "") -> bool:
    found = statement_kind_of(p)
    return bool(found) and (not kind or found == kind)
