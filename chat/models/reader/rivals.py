"""Two companies compared (pure): "Which had higher net income in 2022, Boeing or Lockheed Martin?", "Did Adobe or
Corning have more cash at the end of 2022?", "Compare Boeing's and Lockheed Martin's total revenues in 2022."

Each company's figure is its own question ("What was Boeing's net income in 2022?"), read from its own passages by
the reader's cell path (``ratios.cell``: the statement's line of the period asked, the company's documents only);
with both found, the answer says which is higher or lower, as asked, and shows both cells with their citations.
With either missing, ``None``: the reader answers each company's question on its own (``per_name_questions``), so
the user sees what was found for each and no verdict is made up.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chat.models.reader.compose import plural, with_cell_quotes
from chat.models.reader.evidence import Evidence, of_named
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question, analyze, item_without, per_name_questions
from chat.models.reader.ratios import cell, cell_value

#: what a comparison between two companies asks: which is higher or lower, or a comparison
_COMPARED = re.compile(r"(?i)\b(?P<dir>higher|more|larger|greater|bigger|lower|less|fewer|smaller)\b|\bcompare\b")
_LOWER = frozenset({"lower", "less", "fewer", "smaller"})
#: the comparative words and the question's own framing, not words of the item
_NOT_ITEM = re.compile(r"(?i)\b(?:higher|more|larger|greater|bigger|lower|less|fewer|smaller|company|companies|"
                       r"which|had|have|has|did|does|compare)\b")


def _item(q: Question) -> str:
    """The item asked, without the question's comparative (``question.item_without``)."""
    return item_without(q, _NOT_ITEM)


#: where the question puts its period ("at the end of 2022", "in fiscal 2021", "as of June 30, 2023")
_WHEN = re.compile(r"(?i)\b(?:in|at\s+the\s+end\s+of|at|as\s+of|for|during)\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|"
                   r"FY\s?)?[^,?.]{0,30}?\b\d{4}\b")


def rival_questions(question: str) -> list[str]:
    """One plain question per company a comparison names ("Which had higher net income in 2022, Boeing or
    Lockheed Martin?" → "What was Boeing's net income in 2022?", "What was Lockheed Martin's net income in
    2022?"); [] when it compares no two companies or names no item or period."""
    if _COMPARED.search(question) is None:
        return []
    per_name = per_name_questions(question)
    when = _WHEN.search(question)
    if len(per_name) != 2 or when is None:
        return []
    out, whose = [], []
    for asked in per_name:
        q = analyze(asked)
        names = q.strong_names or q.names
        item = _item(q)
        if not names or not item:
            return []
        out.append(f"What was {names[0]}'s {item} {when.group(0)}?")
        whose.append(names[0])
    # one company's two parts ("AWS or North America", "Commercial Airplanes or Defense, Space & Security"): the
    # same company is asked of twice, no rivals
    return out if out[0] != out[1] and whose[0] != whose[1] else []


def company_comparison(question: str, asked: Sequence[str], passages: Sequence[Passage]
                       ) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer lines and quotes for a comparison of two companies' figure — ``asked``: its
    ``rival_questions`` —, or None (see the module docstring)."""
    m = _COMPARED.search(question)
    if m is None or len(asked) != 2:
        return None
    found: list[tuple[str, Evidence, float, str]] = []
    item = analyze(asked[0]).focus
    for one in asked:
        q = analyze(one)
        own = of_named(q, passages)
        ev = cell(q, q.focus, own) if own and q.strong_names else None
        value = cell_value(ev) if ev is not None else None
        if ev is None or value is None:
            return None
        found.append((q.strong_names[0], ev, *value))
    (a_name, a_ev, a, a_said), (b_name, b_ev, b, b_said) = found
    if (a_ev.passage.document_id, a_ev.passage.file_name) == (b_ev.passage.document_id, b_ev.passage.file_name):
        return None  # one filing's two lines: not two companies' figures
    lower = (m.group("dir") or "").lower() in _LOWER
    first = a_name if (a < b if lower else a > b) else b_name
    word = "lower" if lower else "higher"
    verb = "were" if plural(item) else "was"
    if a == b:
        lead = (f"{a_name}'s and {b_name}'s {item} were the same: {a_said} [{a_ev.passage.ref}] and {b_said} "
                f"[{b_ev.passage.ref}].")
    else:
        lead = (f"{first}'s {item} {verb} {word}: {a_name}'s {verb} {a_said} [{a_ev.passage.ref}], {b_name}'s "
                f"{b_said} [{b_ev.passage.ref}] (compared from the two companies' tables).")
    return with_cell_quotes(lead, a_ev, b_ev)
