"""Two line items asked in one question (pure): "basic and diluted earnings per share", "cash and cash equivalents
and short-term investments" — one question per item, so the reader states both.

An "and" inside a line item's own name ("research and development", "cash and cash equivalents", "property,
plant and equipment" — any phrase of ``lexicon.SYNONYM_GROUPS`` with "and" in it) does not split; nor does one
that joins two words of a single name ("selling and marketing" is not in the lexicon, but "X and Y expense"
splits only when each side names a row of its own: two qualifiers of one noun, "basic and diluted EPS"). English
only; written from the general shape of statement questions, not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chat.models.reader.lexicon import SYNONYM_GROUPS
from chat.models.reader.passage import Passage
from chat.models.reader.question import analyze, per_name_questions
from chat.models.reader.tables import find_tables

_AND_PHRASES: tuple[str, ...] = tuple(sorted({p for g in SYNONYM_GROUPS for p in g if " and " in p}, key=len,
                                            reverse=True))
#: qualifiers that, joined by "and", ask two rows of one noun ("basic and diluted", "current and non-current")
_PAIRED = re.compile(
    r"\b(?P<a>basic|diluted|current|non-?current|long-term|short-term|domestic|international|gross|net|"
    r"operating|non-?operating)\s+and\s+(?P<b>basic|diluted|current|non-?current|long-term|short-term|domestic|"
    r"international|gross|net|operating|non-?operating)\s+(?P<noun>[a-z][\w&'’ -]*?)(?=\s+(?:of|for|in|at|as|"
    r"during|from|per)\b|[?,.]|$)",
    re.IGNORECASE,
)


def _masked(text: str) -> str:
    """``text`` with every "and" inside a known line-item phrase blanked (as ``&&&``), so it is not a split."""
    low = text.lower()
    # "… and related expenses", "… and other assets": one line item that gathers the rest, not a second one
    low = re.sub(r"\band(?=\s+(?:related|other|similar|associated|allied)\b)", "&&&", low)
    for phrase in _AND_PHRASES:
        pattern = r"\b" + r"[\s,]+".join(re.escape(w) for w in phrase.split()) + r"\b"
        for m in re.finditer(pattern, low):
            low = low[: m.start()] + m.group(0).replace("and", "&&&") + low[m.end() :]
    return low


_AUXILIARY = re.compile(r"(?i)\s+(?:did|does|do|has|have|had|is|was|were|will|would)\s+")


def _a_row(phrase: str, passages: Sequence[Passage]) -> bool:
    """The joined phrase is itself a row's label ("Total liabilities and stockholders' equity"), or names an amount
    or a count a sentence states."""
    phrase = _AUXILIARY.split(phrase)[0]  # "cash and short-term investments did Acme hold": the items
    want = re.sub(r"[^a-z0-9]+", " ", phrase.lower()).strip()
    if not want:
        return False
    # … or an amount's name in a sentence: "we had $3.9 billion of cash and short-term investments"
    words = r"[^a-z0-9]+".join(re.escape(w) for w in want.split())
    stated = re.compile(rf"(?i)\$\s?[\d.,]+\s*(?:million|billion|thousand)?\s+(?:of|in)\s+(?:our\s+|total\s+)?"
                        rf"{words}\b|\b{words}\s+(?:of|was|were|totaled|totalled|totaling|totalling|amounted\s+to)\s+"
                        rf"(?:approximately\s+)?\$|"
                        # … or a count of it: "we employed approximately 566,000 full-time and part-time employees"
                        rf"\b\d[\d,.]*\s+(?:(?:million|thousand)\s+)?{words}\b")
    for p in passages:
        if stated.search(p.text):
            return True
        for table in find_tables(p.text):
            for row in table.rows:
                if want and want in re.sub(r"[^a-z0-9]+", " ", row.label.lower()):
                    return True
    return False


def _in_brackets(text: str, at: int) -> bool:
    return text.count("(", 0, at) > text.count(")", 0, at)


#: a hyphenated qualifier ("full-time", "part-time", "fixed-rate"): no item of its own
_COMPOUND = re.compile(r"[A-Za-z]+-[A-Za-z]+")

_FORMULA_JOIN = re.compile(r"(?i)\bas\s+the\s+numerator\s+and\b|\bas\s+the\s+denominator\s+and\b|\bbetween\s+"
                           r"(?:FY|fiscal\s+)?'?\d{2,4}\s+and\s+(?:FY|fiscal\s+)?'?\d{2,4}\b")


def item_questions(question: str, passages: Sequence[Passage] = ()) -> list[str]:
    """``question`` itself, or one question per line item when it asks two joined by "and" (and the joined
    phrase is no row label of ``passages``)."""
    q = analyze(question)
    if q.language != "en" or q.kind != "value" or q.parts or not q.focus or len(per_name_questions(question)) > 1:
        return [question]
    if _FORMULA_JOIN.search(question):  # "using X as the numerator and Y as the denominator": one ratio
        return [question]
    m = _PAIRED.search(question)
    if m and m.group("a").lower() != m.group("b").lower() and not _a_row(m.group(0), passages):
        noun = m.group("noun")
        head, tail = question[: m.start()], question[m.end() :]
        return [f"{head}{m.group(side)} {noun}{tail}" for side in ("a", "b")]
    masked = _masked(question)
    focus_at = masked.find(q.focus.lower().split()[0]) if q.focus.split() else -1
    if focus_at < 0:
        return [question]
    # only an "and" of the ask itself: not one in brackets ("(in units of percents and round to …)"), nor in the
    # instructions after it ("…? If X is not useful, state that and explain why.")
    ask_end = masked.find("?", focus_at)
    joins = [j for j in re.finditer(r",?\s+and\s+(?:its\s+|their\s+|the\s+)?", masked)
             if focus_at < j.start() and (ask_end < 0 or j.start() < ask_end) and not _in_brackets(masked, j.start())]
    if len(joins) != 1:
        return [question]
    join = joins[0]
    left_start = focus_at
    # (the item ends before its period or its verb: "… short-term investments did Acme hold at …")
    right_end = re.search(r"(?=\s+(?:as\s+of|at|for|in|during|of|from|did|does|do|has|have|had|is|was|were|will)\b|"
                          r"[?]|$)", masked[join.end() :])
    end = join.end() + (right_end.start() if right_end else len(masked) - join.end())
    left, right = question[left_start : join.start()], question[join.end() : end]
    if not left.strip() or not right.strip() or right.strip()[:1].isupper():
        return [question]  # "… of Apple and Amazon": names, not line items
    if not analyze(f"What was {right}?").focus_terms:
        return [question]
    if _a_row(question[left_start:end], passages):
        return [question]
    head, tail = question[:left_start], question[end:]
    words = right.split()
    if _COMPOUND.fullmatch(left.strip()) and len(words) > 1 and _COMPOUND.fullmatch(words[0]):
        # "full-time and part-time employees": two qualifiers of one noun, each asked with it
        return [f"{head}{left.strip()} {' '.join(words[1:])}{tail}", f"{head}{right}{tail}"]
    return [f"{head}{left}{tail}", f"{head}{right}{tail}"]
