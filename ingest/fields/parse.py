"""Amounts, dates and currencies as written (pure): ``RM 9.00``, ``12,000원``, ``¥1,200``, ``25/12/2018``,
``2018-03-23``, ``05 MAR 2018``, ``2023년 5월 1일``, ``2023年5月1日``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

_CURRENCY_WORDS: tuple[tuple[str, str], ...] = (
    (r"RM|MYR", "MYR"), (r"US\$|USD", "USD"), (r"S\$|SGD", "SGD"), (r"KRW|₩|원", "KRW"),
    (r"JPY|円|¥|￥", "JPY"), (r"EUR|€", "EUR"), (r"GBP|£", "GBP"), (r"\$", "USD"),
)
_CURRENCY = re.compile("|".join(f"(?P<c{i}>{p})" for i, (p, _) in enumerate(_CURRENCY_WORDS)))
# 1,234.56 | 1234.56 | 12,000 | 1.234,56 is not supported (no such documents here)
_AMOUNT = re.compile(r"(?<![\w.,/:-])(?P<neg>-)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+\.\d{2}|\d+)(?![\d/:-])")


@dataclass(frozen=True, slots=True)
class Money:
    raw: str
    value: Decimal
    currency: str | None
    start: int
    end: int
    decimals: bool  # written with cents ("9.00"): a stronger pattern than a bare integer


def currency_of(text: str) -> str | None:
    m = _CURRENCY.search(text)
    if not m:
        return None
    for i, (_, code) in enumerate(_CURRENCY_WORDS):
        if m.group(f"c{i}"):
            return code
    return None


def amounts(text: str) -> list[Money]:
    """Every amount in ``text``, left to right, with the currency written next to it (if any)."""
    out: list[Money] = []
    for m in _AMOUNT.finditer(text):
        num = m.group("num")
        try:
            value = Decimal(num.replace(",", ""))
        except InvalidOperation:
            continue
        if m.group("neg"):
            value = -value
        around = text[max(0, m.start() - 4): m.end() + 2]
        out.append(Money(m.group(0), value, currency_of(around), m.start(), m.end(), "." in num))
    return out


_MONTHS = {m: i + 1 for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))}
_Y4 = r"(?P<y>(?:19|20)\d{2})"
_DATE_PATTERNS: tuple[tuple[re.Pattern[str], str, float], ...] = (
    # (pattern, order, strength): strength = how sure the digits are a date in that order
    (re.compile(r"(?<!\d)" + _Y4 + r"\s*[년年]\s*(?P<m>\d{1,2})\s*[월月]\s*(?P<d>\d{1,2})\s*[일日]?"), "ymd", 1.0),
    (re.compile(r"(?<!\d)(?P<y>(?:19|20)\d{2})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?!\d)"), "ymd", 1.0),
    (re.compile(r"(?<!\d)(?P<d>\d{1,2})[-/.](?P<m>\d{1,2})[-/.]" + _Y4 + r"(?:(?!\d)|(?=\d{1,2}:\d{2}))"),
     "dmy", 1.0),  # "16-03-201812:07:10": a time glued to the year
    (re.compile(r"(?<!\d)(?P<d>\d{1,2})[\s-]*(?P<mon>[A-Za-z]{3})[A-Za-z]*[\s,-]*" + _Y4 + r"(?!\d)"), "dmy", 1.0),
    (re.compile(r"(?<![\w])(?P<mon>[A-Za-z]{3})[A-Za-z]*\.?\s+(?P<d>\d{1,2}),?\s+" + _Y4 + r"(?!\d)"), "mdy", 1.0),
    (re.compile(r"(?<![\d.])(?P<d>\d{1,2})[-/.](?P<m>\d{1,2})[-/.](?P<y>\d{2})(?![\d.])"), "dmy", 0.85),
)


#: a day-month order the digits alone cannot settle (``03/04``): read as the project's convention, a bit weaker
AMBIGUOUS = 0.97


@dataclass(frozen=True, slots=True)
class FoundDate:
    raw: str
    value: date
    start: int
    end: int
    strength: float


def dates(text: str, *, day_first: bool = True) -> list[FoundDate]:
    """Calendar dates in ``text`` (left to right, no overlaps). ``dd/mm`` vs ``mm/dd``: day first unless
    ``day_first`` is off or the day-first reading is impossible (and then the pattern is weaker)."""
    found: list[FoundDate] = []
    taken: list[tuple[int, int]] = []
    for pattern, order, strength in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            parsed = _to_date(m.groupdict(), order, day_first)
            if parsed is None:
                continue
            when, ambiguous = parsed
            found.append(FoundDate(m.group(0).strip(), when, m.start(), m.end(),
                                   strength * (AMBIGUOUS if ambiguous else 1.0)))
            taken.append((m.start(), m.end()))
    return sorted(found, key=lambda f: f.start)


def _to_date(g: dict[str, str | None], order: str, day_first: bool) -> tuple[date, bool] | None:
    y = int(g["y"] or 0)
    if y < 100:
        y += 2000
    if g.get("mon"):
        month = _MONTHS.get(str(g["mon"]).lower()[:3])
        if month is None:
            return None
        candidates = [(month, int(g["d"] or 0))]
    else:
        a, b = int(g["m"] or 0), int(g["d"] or 0)  # as the pattern names them
        if order == "dmy" and not day_first:
            a, b = b, a
        candidates = [(a, b), (b, a)]
    for i, (month, day) in enumerate(candidates):
        try:
            return date(y, month, day), i > 0 or (not g.get("mon") and order != "ymd" and month <= 12 and day <= 12)
        except ValueError:
            continue
    return None
