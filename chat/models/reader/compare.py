"""Comparisons of two line items (pure): "Which was higher, Mac or iPad net sales?", "영업이익과 당기순이익 중 …",
"売上高と営業利益を比較…" — each option is looked up like a value question, and the two cited cells compared.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.compose import josa, period_phrase, spoken_value, subject_of, table_quote
from chat.models.reader.decline import DECLINE_BELOW
from chat.models.reader.evidence import Evidence, gather
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question
from chat.models.reader.text import match_terms
from chat.models.reader.units import table_unit

_COMPARE_WORDS = re.compile(
    r"\b(?:which|what|was|were|is|are|higher|lower|larger|smaller|greater|bigger|more|less|compare[ds]?|comparison|"
    r"between|the|of)\b|중에?|어느|것이|더|큰가요|작은가요|많은가요|높은가요|비교(?:해\s?주세요|하면)?|比較|して|ください|"
    r"どちら|大きい|多い|が|を|は",
    re.IGNORECASE,
)
_KO_TAIL = re.compile(r"(?:은|는|이|가|을|를|의)$")
_SPLIT = re.compile(r"\s+(?:or|and|vs\.?|versus)\s+|,\s*|(?<=\S)(?:와|과)\s+|と|の", re.IGNORECASE)


def options(q: Question) -> list[str]:
    """The two things compared, each with the shared head noun (``Mac or iPad net sales`` → Mac/iPad net sales)."""
    source = q.focus
    if q.language != "en":  # the focus lost the particles (와/과/と) that separate the options
        source = q.text
        for period in sorted(q.periods, key=lambda p: p.start, reverse=True):
            source = source[: period.start] + " " + source[period.end :]
    body = _COMPARE_WORDS.sub(" ", source)
    parts = [" ".join(p.split()) for p in _SPLIT.split(body) if p and p.strip(" .?？。")]
    parts = [_KO_TAIL.sub("", p.strip(" .?？。")) for p in parts]
    parts = [p for p in parts if match_terms(p)]
    if len(parts) != 2:
        return []
    first, second = parts
    if len(first.split()) == 1 and len(second.split()) > 1 and q.language == "en":
        first = f"{first} {' '.join(second.split()[1:])}"
    return [first, second]


def _best_cell(q: Question, option: str, other: str, passages: Sequence[Passage]) -> Evidence | None:
    """The best table cell for ``option`` whose row names what sets it apart from ``other`` ("iPad", not "sales")."""
    asked = replace(q, kind="value", focus=option, focus_terms=frozenset(match_terms(option)), parts=())
    own = match_terms(option) - match_terms(other)
    for ev in gather(asked, passages):
        if ev.kind == "cell" and ev.score >= DECLINE_BELOW and ev.row is not None:
            if own and not own & match_terms(f"{ev.row.section} {ev.row.label}"):
                continue
            return ev
        if ev.score < DECLINE_BELOW:
            return None
    return None


def compare(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The comparison text and its quotes, or None when the two options are not both found in tables."""
    opts = options(q)
    if not opts:
        return None
    found = [_best_cell(q, opts[0], opts[1], passages), _best_cell(q, opts[1], opts[0], passages)]
    a, b = found
    if a is None or b is None or a.row is None or b.row is None or a.table is None or b.table is None:
        return None
    amount_a, amount_b = a.row.amount(a.col), b.row.amount(b.col)
    if amount_a is None or amount_b is None or a.quote == b.quote:
        return None
    lang = q.language
    hi, lo = (a, b) if amount_a.value >= amount_b.value else (b, a)
    hi_amount, lo_amount = (amount_a, amount_b) if hi is a else (amount_b, amount_a)
    hi_text = spoken_value(hi_amount, table_unit(hi.table, hi.col), lang)  # type: ignore[arg-type]
    lo_text = spoken_value(lo_amount, table_unit(lo.table, lo.col), lang)  # type: ignore[arg-type]
    hi_name, lo_name = subject_of(replace(q, focus=""), hi), subject_of(replace(q, focus=""), lo)
    refs = "".join(dict.fromkeys(f"[{ev.passage.ref}]" for ev in (hi, lo)))
    period = period_phrase(hi.table, hi.col, lang)  # type: ignore[arg-type]
    equal = hi_amount.value == lo_amount.value
    if lang == "ko":
        verb = "같습니다" if equal else "큽니다"
        lead = f"{period} {hi_name}({hi_text}){josa(hi_text, '이가')} {lo_name}({lo_text})보다 {verb} {refs}."
    elif lang in ("ja", "zh"):
        verb = "同じです" if equal else "大きいです"
        lead = f"{period}の{hi_name}（{hi_text}）は{lo_name}（{lo_text}）より{verb} {refs}。"
    else:
        verb = "the same as" if equal else "higher than"
        lead = (
            f"{hi_name} ({hi_text}) {'were' if hi_name.endswith('s') else 'was'} {verb} {lo_name} ({lo_text}) "
            f"{period} {refs} (compared from the table)."
        )
    lines = [" ".join(lead.split()), *(("> " + line).rstrip() for line in table_quote(hi))]
    lines.append(("> " + (lo.quote_text if lo.table is hi.table else table_quote(lo)[-1])).rstrip())
    return "\n".join(lines), [(hi.passage.ref, hi.quote_text), (lo.passage.ref, lo.quote_text)]
