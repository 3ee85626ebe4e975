"""Which of two parts of one company grew faster, or is larger (pure): "Which grew faster for Acme in 2031, North
America or International net sales?", "Which was larger for Acme in 2031, AWS or North America operating income?" —
the parts named as ``question.per_name_questions`` splits names (capitalised, "Defense, Space & Security" one of
them), the company named once for both; or two things in lower case at the question's end ("…, footwear or apparel
revenues?": two parts of one item; "…, net sales or operating expenses?": two line items).

Each part's line is its own question ("What were Acme's North America net sales in 2031?"), read by the reader's
cell path (``ratios.cell``: the row of the part's item in the year asked, the company's documents only) together
with the same row's year before (the cell's prior column). With both parts' growth computed, the answer says which
grew faster — or, asked which grew less or slower, which did — with each part's two figures and citations. With
either part's line or its year before missing, ``None``: the reader answers each part on its own, and no verdict is
made up. Which is larger (``part_sizes``) compares the two cited cells of the year asked the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.compose import plural, with_cell_quotes
from chat.models.reader.evidence import Evidence, of_named
from chat.models.reader.passage import Passage
from chat.models.reader.question import analyze, item_without, per_name_questions
from chat.models.reader.ratios import cell, cell_value
from chat.models.reader.text import match_terms

#: a question that asks which of two grew more: "grew faster", "grow more", "increased the most", "faster growth"
_RACE = re.compile(
    r"(?i)\b(?:grew|grow|growing|increased?|rose|rise)\s+(?P<dir>faster|more|the\s+most|quicker|more\s+quickly|"
    r"slower|less|the\s+least|more\s+slowly)\b|\b(?P<adj>faster|stronger|slower|weaker)\s+growth\b")
_SLOWER = re.compile(r"(?i)slow|less|least|weaker")
#: a question that asks which of two is larger: "Which was larger, AWS or North America operating income?"
_SIZE = re.compile(r"(?i)\b(?P<dir>higher|larger|greater|bigger|lower|smaller)\b")
_SMALLER = re.compile(r"(?i)lower|smaller")
#: the question's framing words, not the item's
_FRAMING = re.compile(r"(?i)\b(?:which|what|did|does|do|had|has|have|was|were|is|are|grew|grow|growing|increased?|"
                      r"rose|rise|faster|more|most|quicker|quickly|slower|slowly|less|least|stronger|weaker|growth|"
                      r"higher|larger|greater|bigger|lower|smaller|the|or|segment|segments|region|regions)\b")


#: two things written in lower case at the question's end: "…, footwear or apparel revenues?", "…, net sales or
#: operating expenses?"
_LOWER_PAIR = re.compile(r",\s+(?P<a>[a-z][a-z&\-]*(?:\s+[a-z&\-]+)*?)\s+or\s+(?P<b>[a-z][a-z&\-]*(?:\s+[a-z&\-]+)*)"
                         r"\s*\??\s*$")


def _lower_pair(question: str) -> list[tuple[str, str]] | None:
    """``[(part, plain question), …]`` for a race between two things in lower case after the company and period
    ("Which grew faster for Acme in 2031, footwear or apparel revenues?"): a first thing that is no line item
    itself ("footwear") shares the second's item ("apparel revenues" → "footwear revenues"); two line items
    ("net sales or operating expenses") are each their own."""
    m = _LOWER_PAIR.search(question)
    if m is None:
        return None
    head = analyze(question[: m.start()] + "?")
    if len(head.names) != 1 or not head.periods:
        return None
    a, b = m.group("a"), m.group("b")
    b_words = b.split()
    if not any(t.startswith("§") for t in match_terms(a)) and len(a.split()) == 1 and len(b_words) > 1:
        parts = [(a, f"{a} {' '.join(b_words[1:])}"), (b_words[0], b)]  # footwear (revenues), apparel revenues
    else:
        parts = [(a, a), (b, b)]
    if any(not any(t.startswith("§") for t in match_terms(item)) for _, item in parts):
        return None  # no line item asked ("…, footwear or apparel?")
    period = head.periods[-1].text
    return [(part, f"What were {head.names[0]}'s {item} in {period}?") for part, item in parts]


def _name_pattern(part: str) -> re.Pattern[str]:
    """A part's name in an item's words, which lost the name's commas ("Defense Space & Security")."""
    return re.compile(r"(?i)\b" + r"[\s,]+".join(map(re.escape, part.replace(",", " ").split())) + r"\b")


def race_parts(question: str, asks: re.Pattern[str] = _RACE) -> list[tuple[str, str]] | None:
    """``[(part, plain question), (part, plain question)]`` for a which-grew-faster question (``asks``: or
    another comparison's words) naming two parts of one company ("North America", "International"), each plain
    question asking that part's item in the period asked; None when ``question`` asks no such thing."""
    if not asks.search(question):
        return None
    per_name = per_name_questions(question)
    if len(per_name) != 2:
        return _lower_pair(question)
    asked = [analyze(one) for one in per_name]
    if not all(q.periods for q in asked):
        return None
    common = [n for n in asked[0].names if n in asked[1].names]
    parts = [[n for n in q.names if n not in common] for q in asked]
    if len(common) != 1 or any(len(p) != 1 for p in parts):
        return None
    period = asked[0].periods[-1].text
    out = []
    for q, (part,) in zip(asked, parts, strict=True):
        item = item_without(q, _FRAMING)
        item = _name_pattern(part).sub(" ", item)
        item = " ".join(re.sub(r"(?i)^(?:(?:in|of|for|at|and)\s+)+|(?:\s+(?:in|of|for|at|and))+$", "",
                               " ".join(item.split())).split())
        if not item:
            return None
        out.append((part, f"What were {common[0]}'s {part} {item} in {period}?"))
    return out


def _growth(ev: Evidence) -> tuple[float, str, str] | None:
    """The change of the cell's row from its prior column: (fraction, now as said, before as said)."""
    if ev.prior_col < 0:
        return None
    now, before = cell_value(ev), cell_value(replace(ev, col=ev.prior_col))
    if now is None or before is None or before[0] == 0:
        return None
    return (now[0] - before[0]) / abs(before[0]), now[1], before[1]


def _part_cells(parts: list[tuple[str, str]], passages: Sequence[Passage]) -> list[tuple[str, Evidence]] | None:
    """Each part's cell of its plain question, read from the named company's passages; None when one is missing."""
    found = []
    for part, plain in parts:
        q = analyze(plain)
        own = of_named(q, passages)
        ev = cell(q, q.focus, own) if own else None
        if ev is None:
            return None
        found.append((part, ev))
    return found


def _owning(name: str) -> str:
    """"AWS's", "Commercial Airplanes'"."""
    return f"{name}'" if name.endswith("s") and not name.endswith("ss") else f"{name}'s"


def part_sizes(question: str, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """Which of two parts of one company is larger ("Which was larger for Acme in 2031, AWS or North America
    operating income?"): each part's line read as in ``growth_race``, the two cited cells compared; None when
    either is missing."""
    parts = None if _RACE.search(question) else race_parts(question, _SIZE)
    m = _SIZE.search(question)
    cells = _part_cells(parts, passages) if parts is not None and m is not None else None
    values = [cell_value(ev) for _, ev in cells] if cells is not None else []
    if m is None or cells is None or parts is None or any(v is None for v in values):
        return None
    (a, a_ev), (b, b_ev) = cells
    (a_v, a_said), (b_v, b_said) = (v for v in values if v is not None)
    if a_ev.row is b_ev.row and a_ev.col == b_ev.col:
        return None  # one cell read for both: not two parts' figures
    smaller = bool(_SMALLER.search(m.group("dir")))
    first = a if (a_v < b_v if smaller else a_v > b_v) else b
    item = " ".join(_name_pattern(a).sub(" ", analyze(parts[0][1]).focus).split())
    if a_v == b_v:
        both = f"{_owning(a)} and {_owning(b)} {item}" if item else f"{a} and {b}"
        lead = f"{both} were the same: {a_said} [{a_ev.passage.ref}] and {b_said} [{b_ev.passage.ref}]."
    else:
        # two parts' item ("Footwear's revenues were larger"), or two items ("Net sales were larger")
        subject = f"{_owning(first)} {item}" if item else first
        verb = "were" if plural(item or first) else "was"
        lead = (f"{subject} {verb} {m.group('dir').lower()}: {a} {a_said} [{a_ev.passage.ref}], {b} "
                f"{b_said} [{b_ev.passage.ref}] (compared from the tables).")
    return with_cell_quotes(lead[:1].upper() + lead[1:], a_ev, b_ev)


def growth_race(question: str, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer lines and quotes for which of two parts grew faster, or None (see the module docstring)."""
    parts = race_parts(question)
    m = _RACE.search(question)
    cells = _part_cells(parts, passages) if parts is not None and m is not None else None
    grown = [_growth(ev) for _, ev in cells] if cells is not None else []
    if m is None or cells is None or any(g is None for g in grown):
        return None
    (a, a_ev), (b, b_ev) = cells
    (a_g, a_now, a_before), (b_g, b_now, b_before) = (g for g in grown if g is not None)
    if a_ev.row is b_ev.row:
        return None  # one line read for both: not two parts' figures
    slower = bool(_SLOWER.search(m.group("dir") or m.group("adj") or ""))
    first = a if (a_g < b_g if slower else a_g > b_g) else b

    def said(part: str, g: float, now: str, before: str, ref: str) -> str:
        return f"{part} {'up' if g >= 0 else 'down'} {abs(g) * 100:.1f}% ({now} vs {before}) [{ref}]"

    both = f"{said(a, a_g, a_now, a_before, a_ev.passage.ref)}, {said(b, b_g, b_now, b_before, b_ev.passage.ref)}"
    if round(a_g, 3) == round(b_g, 3):
        lead = f"{a} and {b} grew at the same rate: {both}."
    else:
        lead = f"{first} grew {'slower' if slower else 'faster'}: {both} (computed from the table)."
    return with_cell_quotes(lead[:1].upper() + lead[1:], a_ev, b_ev)  # "Footwear grew faster: footwear up …"
