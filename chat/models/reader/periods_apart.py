"""A line item's change between two periods that no one table prints together (pure): "How did General Mills' net
sales change from fiscal 2019 to fiscal 2022?", "What were Nike's revenues in FY2018 and FY2021?".

A 10-K's income statement prints three years and its balance sheet two: years further apart are in two filings.
Each period's figure is its own question ("What was General Mills' net sales in fiscal 2019?"), read by the
reader's cell path (``ratios.cell``: the statement's line of that period, the company's documents only); with both
found in two tables, neither of which prints the other period, the answer states both, each with its citation, and
the change computed from them. Otherwise ``None``: the ordinary reading of one table's two columns answers (or,
with one period missing, says what was found).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chat.models.reader.compose import plural, table_quote, yes_or_no
from chat.models.reader.evidence import Evidence, change_ends, column_period_score, of_named
from chat.models.reader.numbers import percent_change
from chat.models.reader.passage import Passage
from chat.models.reader.periods import Period
from chat.models.reader.question import Question, analyze, item_without
from chat.models.reader.ratios import cell, cell_value, said_label

#: years apart from which the two periods are searched for each on its own: a 10-K's balance sheet prints two years
SEARCH_APART_YEARS = 2
#: the question's own framing around the item, not words of it
_FRAMING = re.compile(r"(?i)\b(?:change|changed|grow|grew|growth|increase|increased|decrease|decreased|decline|"
                      r"declined|move|moved|compare|compared|between|from|to|and|how|did|does|do)\b")


def _item(q: Question) -> str:
    """The item asked, without the question's change words (``question.item_without``)."""
    return item_without(q, _FRAMING)


def _when(period: Period) -> str:
    return f"as of {period.text}" if period.day else f"in {period.text}"


def period_questions(q: Question) -> list[str]:
    """One plain question per period of a change or comparison between two dated periods of one company's line
    item, the earlier first ("What was General Mills' net sales in fiscal 2019?", "… in fiscal 2022?"); [] for
    any other question."""
    ends = change_ends(q)
    if q.language != "en" or ends is None or q.parts or len(q.strong_names) > 1 or len(q.periods) != 2:
        return []
    item = _item(q)
    if not item or not analyze(f"What was {item}?").focus_terms:
        return []
    name = q.strong_names[0] if q.strong_names else ""
    whose = (f"{name}' " if name.endswith("s") else f"{name}'s ") if name else ""  # "General Mills' net sales"
    return [f"What was {whose}{item} {_when(period)}?" for period in (ends[1], ends[0])]


def search_apart(q: Question) -> list[str]:
    """``period_questions`` where the periods are years apart enough to be in two filings, else []."""
    ends = change_ends(q)
    if ends is None or ends[0].year is None or ends[1].year is None or \
            ends[0].year - ends[1].year < SEARCH_APART_YEARS:
        return []
    return period_questions(q)


def _holds(ev: Evidence, asked: Question) -> bool:
    """The evidence's table has a column of ``asked``'s period."""
    assert ev.table is not None
    return any(column_period_score(asked, ev.table, c) >= 1.0 for c in range(len(ev.table.columns))
               if not ev.table.columns[c].is_change)


def periods_apart_answer(q: Question, asked: Sequence[str], passages: Sequence[Passage]
                         ) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer lines and quotes of a change between two periods read from two tables — ``asked``: its
    ``period_questions``, the earlier first —, or None (see the module docstring)."""
    if len(asked) != 2:
        return None
    questions = [analyze(one) for one in asked]
    found: list[tuple[Evidence, float, str]] = []
    for one in questions:
        own = of_named(one, passages)
        ev = cell(one, one.focus, own) if own else None
        value = cell_value(ev) if ev is not None else None
        if ev is None or value is None or ev.table is None or column_period_score(one, ev.table, ev.col) < 1.0:
            return None
        found.append((ev, *value))
    (before_ev, before, before_said), (now_ev, now, now_said) = found
    if _holds(now_ev, questions[0]) or _holds(before_ev, questions[1]):
        return None  # one table prints both periods: its two columns are the ordinary answer
    if said_label(before_ev).lower() != said_label(now_ev).lower():
        return None  # two lines of different names: not one item's figures
    diff = now - before
    pct = percent_change(now, before)
    subject = said_label(now_ev)
    verb = "were" if plural(subject) else "was"
    direction = "up" if diff > 0 else "down" if diff < 0 else "unchanged"
    change = f"{direction} {abs(pct):.1f}%" if diff and pct is not None else direction
    answer = yes_or_no(q.text, diff)
    lead = f"{answer} — {subject[:1].lower() + subject[1:]}" if answer else subject
    ends = change_ends(q)
    assert ends is not None
    lead = (f"{lead} {verb} {change}: {now_said} {_when(ends[0])} [{now_ev.passage.ref}] vs {before_said} "
            f"{_when(ends[1])} [{before_ev.passage.ref}] (computed from the two periods' tables: no one table "
            f"prints both).")
    lines = [lead]
    for ev in (now_ev, before_ev):
        lines += [("> " + line).rstrip() for line in table_quote(ev)]
    return "\n".join(lines), [(now_ev.passage.ref, now_ev.quote_text), (before_ev.passage.ref, before_ev.quote_text)]
