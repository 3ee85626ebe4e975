"""Ratios computed from two cited table cells (pure): "Calculate it as gross profit divided by revenue", "the
ratio of X to Y", "X as a percentage of Y", "(X / Y)", and the textbook ratios a filing does not print (the
current ratio; gross, operating and net margin asked as a percentage).

Each side is looked up like a value question — its own line item, the question's period and company — and the
answer says it is computed and cites both cells: ``The current ratio was 0.95 as of June 30, 2023 (computed from
the table: Total current assets 140,482 million ÷ Total current liabilities 148,238 million) [S1].`` A side that is
not found in a table means no computed answer (the reader then answers or declines as for any other question). The
named ratios are the standard definitions of financial analysis, not taken from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.compose import period_phrase, spoken_value, table_quote
from chat.models.reader.decline import DECLINE_BELOW
from chat.models.reader.evidence import Evidence, column_period_score, gather, period_keys
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question
from chat.models.reader.text import match_terms
from chat.models.reader.units import row_unit

_SIDE = r"(?:the\s+)?(?P<{}>[a-z][\w,&'’\- ]{{2,80}}?)"
#: "what percentage of total net sales came from Services": the part (a) of the whole (b)
_SHARE_FORMULA = re.compile(
    r"\bwhat\s+(?:percentage|percent|share|proportion|portion|fraction)\s+of\s+(?:the\s+)?(?:[A-Z][\w&.\-]*['’]s?\s+)?"
    + _SIDE.format("b") + r"\s+(?:came|comes|come|was|were|is|are|did)\s+(?:from|generated\s+by|contributed\s+by|"
    r"attributable\s+to|accounted\s+for\s+by|made\s+up\s+(?:of|by))\s+" + _SIDE.format("a")
    + r"(?=\s*(?:[.?;)]|,|\bfor\b|\bin\b|\bduring\b|\bas of\b|$))", re.IGNORECASE)
_FORMULAS = (
    re.compile(r"\b(?:calculat\w*|comput\w*|defin\w*|measur\w*|determin\w*)\s+(?:it\s+|this\s+|the\s+\w+\s+)?"
               r"(?:as|by|using)\s+" + _SIDE.format("a") + r"\s+(?:divided\s+by|over|÷|/)\s+" + _SIDE.format("b")
               + r"(?=\s*(?:[.?;)]|,|\band\b|$))", re.IGNORECASE),
    re.compile(r"\bratio\s+of\s+" + _SIDE.format("a") + r"\s+to\s+" + _SIDE.format("b")
               + r"(?=\s*(?:[.?;)]|,|\bfor\b|\bin\b|\bas of\b|$))", re.IGNORECASE),
    re.compile(_SIDE.format("a") + r"\s+as\s+a\s+(?:percentage|percent|share|proportion)\s+of\s+"
               + _SIDE.format("b") + r"(?=\s*(?:[.?;)]|,|\bfor\b|\bin\b|\bas of\b|$))", re.IGNORECASE),
    _SHARE_FORMULA,
    re.compile(r"\((?:the\s+)?(?P<a>[a-z][\w,&'’\- ]{2,60}?)\s*(?:/|÷|divided\s+by)\s*(?:the\s+)?"
               r"(?P<b>[a-z][\w,&'’\- ]{2,60}?)\)", re.IGNORECASE),
)
_TOTAL_WORD = re.compile(r"(?i)^total\s+")
#: what opens a side that is no part of its line item: "What was", "the company's"
_LEAD = re.compile(r"^(?:(?:what|how much|which)\s+(?:is|was|were|are)\s+)?(?:the\s+)?(?:[A-Z][\w&.\-]*(?:\s+[A-Z]"
                   r"[\w&.\-]*)*['’]s?\s+)?(?:the\s+)?", re.IGNORECASE)
_PERCENT_CUE = re.compile(r"\bpercent(?:age)?\b|%|\bmargin\b|\bas a (?:percentage|share)\b|"
                          r"\bwhat\s+(?:share|proportion|portion|fraction)\s+of\b", re.IGNORECASE)
#: (how the question names it, numerator, denominator, as a percentage)
NAMED_RATIOS: tuple[tuple[re.Pattern[str], str, str, bool], ...] = (
    (re.compile(r"\bcurrent ratio\b", re.IGNORECASE), "total current assets", "total current liabilities", False),
    (re.compile(r"\bgross (?:profit )?margin (?:percentage|ratio|%|in percent)|\bgross (?:profit )?margin\b(?=.*"
                r"\b(?:percent|percentage|%)\b)", re.IGNORECASE), "gross profit", "revenue", True),
    (re.compile(r"\boperating (?:profit )?margin\b", re.IGNORECASE), "operating income", "revenue", True),
    (re.compile(r"\bnet (?:profit )?margin\b|\bnet income margin\b", re.IGNORECASE), "net income", "revenue", True),
)


def ratio_sides(text: str) -> tuple[str, str, bool] | None:
    """(numerator, denominator, as a percentage) that ``text`` (the whole question) asks to divide, or None."""
    for pattern in _FORMULAS:
        m = pattern.search(text)
        if m:
            a, b = (_LEAD.sub("", " ".join(m.group(k).split())).strip(" ,") for k in ("a", "b"))
            if not any(t.startswith("§") and t != "§1" for t in match_terms(a)):
                # "what percentage of total net sales came from Services": the part is the whole's item
                a = a + " " + _TOTAL_WORD.sub("", b)
            if match_terms(a) and match_terms(b):
                return a, b, bool(_PERCENT_CUE.search(text))
    for pattern, a, b, percent in NAMED_RATIOS:
        if pattern.search(text):
            return a, b, percent
    return None


#: a table or column whose figures are shares of something already ("expressed as a percentage of revenue",
#: "% of net sales"): no side of a ratio
_SHARE_OF = re.compile(r"\bas\s+a\s+(?:percent|percentage)\s+of\b|%\s+of\b|\bpercent(?:age)?\s+of\b",
                       re.IGNORECASE)


def _in_shares(ev: Evidence) -> bool:
    assert ev.table is not None
    header = ev.table.columns[ev.col].header if 0 <= ev.col < len(ev.table.columns) else ""
    label = ev.row.label if ev.row is not None else ""
    return bool(_SHARE_OF.search(ev.table.caption) or _SHARE_OF.search(header) or _SHARE_OF.search(label))


def _cell(q: Question, item: str, passages: Sequence[Passage]) -> Evidence | None:
    """The amount cell of ``item`` — not a cell of a table of percentages (its "Operating income 50.3" is a
    share of revenue already, and dividing it by revenue in dollars means nothing)."""
    asked = replace(q, kind="value", focus=item, focus_terms=frozenset(match_terms(item)), parts=())
    for ev in gather(asked, passages):
        if ev.score < DECLINE_BELOW:
            return None
        if ev.kind == "cell" and ev.row is not None and ev.table is not None and ev.row.amount(ev.col) is not None \
                and not _in_shares(ev):
            return ev
    return None


def _one_period(q: Question, top: Evidence, bottom: Evidence) -> bool:
    """Both sides are of one period — the asked one when the question names one (``column_period_score``): two
    dated columns of different periods are never divided (a field either column leaves open agrees)."""
    assert top.table is not None and bottom.table is not None
    if q.periods and (column_period_score(q, top.table, top.col) == 0
                      or column_period_score(q, bottom.table, bottom.col) == 0):
        return False
    a, b = period_keys(top.table, top.col), period_keys(bottom.table, bottom.col)
    if len(a) != 1 or len(b) != 1:
        return True
    fields = [*zip(a.pop(), b.pop(), strict=True),
              (top.table.columns[top.col].span, bottom.table.columns[bottom.col].span)]
    return all(x is None or y is None or x == y for x, y in fields)


def ratio_answer(text: str, q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The computed ratio's answer lines and quotes, or None (not a ratio question, or a side not found)."""
    if q.language != "en":
        return None
    sides = ratio_sides(text)
    if sides is None:
        return None
    top_item, bottom_item, percent = sides
    top, bottom = _cell(q, top_item, passages), _cell(q, bottom_item, passages)
    if top is None or bottom is None or (top.quote == bottom.quote and top.passage.ref == bottom.passage.ref):
        return None
    assert top.row is not None and bottom.row is not None and top.table is not None and bottom.table is not None
    if not _one_period(q, top, bottom):
        return None  # a quarter's net earnings over another quarter's sales is no ratio of either
    a, b = top.row.amount(top.col), bottom.row.amount(bottom.col)
    if a is None or b is None or b.value == 0:
        return None
    value = a.value / b.value
    stated = f"{value * 100:.1f}%" if percent else f"{value:.2f}"
    a_text = spoken_value(a, row_unit(top.table, top.col, f"{top.row.section} {top.row.label}", top.row.label), "en")
    b_text = spoken_value(b, row_unit(bottom.table, bottom.col, f"{bottom.row.section} {bottom.row.label}",
                                        bottom.row.label), "en")
    refs = "".join(dict.fromkeys(f"[{ev.passage.ref}]" for ev in (top, bottom)))
    name = q.focus or f"{top_item} to {bottom_item}"
    if _SHARE_FORMULA.search(text):  # "what percentage of total net sales came from Services"
        name = f"{top_item} share of {bottom_item}"
    period = period_phrase(top.table, top.col, "en")
    lead = (f"The {name} was {stated} {period} (computed from the table: {top.label} {a_text} "
            f"÷ {bottom.label} {b_text}) {refs}.")
    lines = [" ".join(lead.split()), *(("> " + line).rstrip() for line in table_quote(top))]
    if bottom.passage.ref == top.passage.ref and bottom.table is top.table:
        lines.append(("> " + bottom.quote_text).rstrip())
    else:
        lines += [("> " + line).rstrip() for line in table_quote(bottom)]
    return "\n".join(lines), [(top.passage.ref, top.quote_text), (bottom.passage.ref, bottom.quote_text)]
