"""A change computed from one sentence that states a figure for two years (pure): "Our effective income tax rate was
14.2% for 2022 and 16.4% for 2021." for "How much has the effective tax rate changed between FY2021 and FY2022?".

A results discussion often states a rate or an amount for this year and last in one sentence, each figure beside its
year ("14.2% for 2022 and 16.4% for 2021", "$1.2 billion in 2022 compared with $0.9 billion in 2021") or in a
"respectively" list ("14.2% and 16.4% for 2022 and 2021, respectively"). When the question asks the change (or a
comparison) between two years and the lead sentence pairs a figure with each, the answer computes the change — in
percentage points for rates, in percent for amounts — says so, and quotes the sentence. Written from the usual
wording of an MD&A, not from any evaluation set.
"""

from __future__ import annotations

import re

from chat.models.reader.question import Question

_FIGURE = r"(?P<v{n}>\(?-?\$?\d[\d,]*(?:\.\d+)?\)?)\s?(?P<u{n}>%|percent\b|(?:million|billion|thousand)\b)?"
_YEAR = r"(?:fiscal\s+(?:year\s+)?)?(?P<y{n}>(?:19|20)\d\d)"
#: "14.2% for 2022", "$1.2 billion in fiscal 2022"
_PAIR = re.compile(_FIGURE.format(n=1) + r"\s+(?:for|in|during|of)\s+(?:the\s+)?(?:year\s+)?" + _YEAR.format(n=1),
                   re.IGNORECASE)
#: "14.2% and 16.4% for 2022 and 2021, respectively"
_RESPECTIVELY = re.compile(_FIGURE.format(n=1) + r"\s+and\s+" + _FIGURE.format(n=2) + r"\s+(?:for|in|during)\s+"
                           r"(?:the\s+)?(?:years?\s+)?" + _YEAR.format(n=1) + r"\s+and\s+" + _YEAR.format(n=2)
                           + r",?\s+respectively", re.IGNORECASE)


def _number(text: str) -> float | None:
    negative = (text.startswith("(") and text.endswith(")")) or "-" in text
    digits = re.sub(r"[^\d.]", "", text)
    try:
        value = float(digits)
    except ValueError:
        return None
    return -value if negative else value


def figures_by_year(sentence: str) -> dict[int, tuple[float, str, str]]:
    """Each year the sentence pairs a figure with: (value, unit word, the figure as written)."""
    out: dict[int, tuple[float, str, str]] = {}
    for m in _RESPECTIVELY.finditer(sentence):
        for n in (1, 2):
            value = _number(m.group(f"v{n}"))
            unit = m.group(f"u{n}") or m.group("u2") or ""
            if value is not None:
                out.setdefault(int(m.group(f"y{n}")), (value, unit, f"{m.group(f'v{n}')}{_spaced(unit)}"))
    for m in _PAIR.finditer(sentence):
        value = _number(m.group("v1"))
        if value is not None and not (1900 <= value <= 2100 and not m.group("u1")):
            unit = m.group("u1") or ""
            out.setdefault(int(m.group("y1")), (value, unit, f"{m.group('v1')}{_spaced(unit)}"))
    return out


def _spaced(unit: str) -> str:
    return "%" if unit == "%" else f" {unit}" if unit else ""


def sentence_change(q: Question, sentence: str, ref: str) -> str:
    """The lead line stating the change the sentence's two years show, or '' when it does not pair a figure with
    each year asked (a change or a comparison between two years, in English)."""
    if q.language != "en" or q.kind not in ("change", "comparison"):
        return ""
    years = sorted({p.year for p in q.periods if p.year}, reverse=True)
    if len(years) != 2:
        return ""
    found = figures_by_year(" ".join(sentence.split()))
    if not all(y in found for y in years):
        return ""
    (now, unit, now_said), (before, before_unit, before_said) = found[years[0]], found[years[1]]
    rate = unit in ("%", "percent")
    if rate != (before_unit in ("%", "percent")) or (not rate and unit.lower() != before_unit.lower()):
        return ""  # a rate beside an amount, or two scales ("$1.2 billion" vs "$900 million")
    subject = q.focus.split(" of ")[0] if q.focus else "The figure"
    subject = subject[:1].upper() + subject[1:]
    if rate:
        delta = now - before
        moved = "up" if delta > 0 else "down" if delta < 0 else "unchanged"
        size = f" {abs(delta):.1f} percentage points" if delta else ""
    else:
        if before == 0:
            return ""
        delta = (now - before) / abs(before) * 100
        moved = "up" if delta > 0 else "down" if delta < 0 else "unchanged"
        size = f" {abs(delta):.1f}%" if delta else ""
    return (f"{subject} was {moved}{size}: {now_said} for {years[0]} vs {before_said} for {years[1]} [{ref}] "
            f"(computed from the sentence).")
