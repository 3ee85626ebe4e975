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


#: month names and their three-letter abbreviations: English, and Malay / Indonesian as receipts from Malaysia,
#: Singapore and Indonesia print them (``12 Mac 2018``, ``3 OGO 2019``, ``5 Dis 2017``, ``17 Agu 2020``)
MONTHS: dict[str, int] = {
    **{m: i + 1 for i, m in enumerate(
        ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
         "november", "december"))},
    **{m: i + 1 for i, m in enumerate(
        ("januari", "februari", "mac", "april", "mei", "jun", "julai", "ogos", "september", "oktober", "november",
         "disember"))},
    "maret": 3, "juni": 6, "juli": 7, "agustus": 8, "desember": 12,
}
for _name, _n in list(MONTHS.items()):
    MONTHS.setdefault(_name[:3], _n)  # jan feb mar apr may jun jul aug sep oct nov dec, mac mei ogo okt dis agu des
MONTHS["sept"] = 9
#: the month names in English (any other is given with its ISO date by the chat reader)
ENGLISH_MONTHS = frozenset(
    "jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july august september "
    "october november december".split())
_MON = r"(?P<mon>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")"
_Y4 = r"(?P<y>(?:19|20)\d{2})"
_SEP = r"\s?[-/.,]\s?"  # OCR puts a space beside a separator ("12 / 03 / 2018") or reads "." as ","
#: letters an OCR engine reads for digits inside a numeric date (O/D/Q → 0, I/l/| → 1, S → 5, B → 8, Z → 2)
_LIKE_DIGIT = str.maketrans("ODQoIl|SsBZ", "00001115582")
_D = r"[\dODQoIl|SsBZ]"
_DATE_PATTERNS: tuple[tuple[re.Pattern[str], str, float], ...] = (
    # (pattern, order, strength): strength = how sure the digits are a date in that order
    (re.compile(r"(?<!\d)" + _Y4 + r"\s*[년年]\s*(?P<m>\d{1,2})\s*[월月]\s*(?P<d>\d{1,2})\s*[일日]?"), "ymd", 1.0),
    # a Japanese era year: 令和2年3月12日, R2.3.12, 平成30年12月1日, H30/12/01 (令和1 = 2019, 平成1 = 1989)
    (re.compile(r"(?:(?P<era>令和|平成)\s*(?P<ey>\d{1,2}|元)\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*日?|"
                r"(?<![A-Za-z])(?P<era2>[RH])\s?(?P<ey2>\d{1,2})[./-](?P<m2>\d{1,2})[./-](?P<d2>\d{1,2})(?![\d.]))"),
     "era", 1.0),
    # a numeric date OCR garbled (a letter read for a digit): tried first, so "l2/03/2018" is not read "2/03/2018"
    (re.compile(r"(?<![\w.,/-])(?P<d>" + _D + r"{1,2})" + _SEP + r"(?P<m>" + _D + r"{1,2})" + _SEP +
                r"(?P<y>(?:19|20|2O|2o|l9|I9)" + _D + r"{2}|" + _D + r"{2})(?![\w/])"), "ocr", 1.0),
    (re.compile(r"(?<!\d)(?P<y>(?:19|20)\d{2})\s?[-/.]\s?(?P<m>\d{1,2})\s?[-/.]\s?(?P<d>\d{1,2})(?!\d)"), "ymd", 1.0),
    (re.compile(r"(?<!\d)(?P<d>\d{1,2})" + _SEP + r"(?P<m>\d{1,2})" + _SEP + _Y4 + r"(?:(?!\d)|(?=\d{1,2}:\d{2}))"),
     "dmy", 1.0),  # "16-03-201812:07:10": a time glued to the year
    (re.compile(r"(?<!\d)(?P<d>\d{1,2})(?:st|nd|rd|th)?[\s./-]*" + _MON + r"[a-z]*\.?[\s./,-]*"
                r"(?P<y>(?:19|20)\d{2}|\d{2})(?![\d:])", re.IGNORECASE), "dmy", 1.0),
    (re.compile(r"(?<![^\W\d_])" + _MON + r"[a-z]*\.?[\s./-]+(?P<d>\d{1,2})(?:st|nd|rd|th)?,?[\s./-]+" + _Y4
                + r"(?!\d)", re.IGNORECASE), "mdy", 1.0),
    (re.compile(r"(?<![\d.])(?P<d>\d{1,2})[-/.](?P<m>\d{1,2})[-/.](?P<y>\d{2})(?![\d.])"), "dmy", 0.85),
)


#: a day-month order the digits alone cannot settle (``03/04``): read as the project's convention, a bit weaker
AMBIGUOUS = 0.97
#: a two-digit year beside a month name (``12-JAN-18``): the year is short, the order is not in doubt
SHORT_YEAR = 0.95


@dataclass(frozen=True, slots=True)
class FoundDate:
    raw: str  # as printed
    value: date
    start: int
    end: int
    strength: float
    text: str = ""  # as read: letters OCR put for digits repaired, spaces beside the separators dropped
    repaired: bool = False  # a letter was read as a digit (``12/O3/2018``)
    month_name: str = ""  # the month as a word, when it is written as one (``Mac``, ``JAN``)
    era: bool = False  # a Japanese era year (令和2年, R2): the Western year is not printed


def dates(text: str, *, day_first: bool = True) -> list[FoundDate]:
    """Calendar dates in ``text`` (left to right, no overlaps), the one date parser of ingest and the chat
    reader: numeric (``25/12/2018``, ``2018-03-23``, ``12/03/18``, ``12 / 03 / 2018``, ``12,03,2018``, a time
    glued to the year), OCR-garbled numeric (``1O/O3/2O18``, ``l2/03/2018``, ``1S/03/2018``), with month names
    in English, Malay or Indonesian (``05 MAR 2018``, ``12-JAN-18``, ``12th March 2018``, ``March 12, 2018``,
    ``3 OGO 2019``), Korean and Japanese (``2023년 5월 1일``, ``2023年5月1日``). ``dd/mm`` vs ``mm/dd``: day
    first unless ``day_first`` is off or the day-first reading is impossible (and then the pattern is weaker)."""
    found: list[FoundDate] = []
    taken: list[tuple[int, int]] = []
    for pattern, shape, strength in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            order = shape
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            g = m.groupdict()
            repaired = False
            if order == "era":
                era = g.get("era") or g.get("era2")
                n = str(g.get("ey") or g.get("ey2"))
                base = 2018 if era in ("令和", "R") else 1988
                g = {"y": str(base + (1 if n == "元" else int(n))), "m": g.get("m") or g.get("m2"),
                     "d": g.get("d") or g.get("d2")}
                order = "ymd"
            if order == "ocr":
                digits = {k: str(g[k]).translate(_LIKE_DIGIT) for k in ("d", "m", "y")}
                repaired = any(digits[k] != g[k] for k in digits)
                if not repaired or not all(re.search(r"\d", str(g[k])) for k in ("d", "m")):
                    continue  # a clean date is read by its own pattern; "S/O/..." alone is no date
                g = {**g, **digits}
                order = "dmy"
            parsed = _to_date(g, order, day_first)
            if parsed is None:
                continue
            when, ambiguous = parsed
            weight = strength * (AMBIGUOUS if ambiguous else 1.0)
            if g.get("mon") and len(str(g.get("y") or "")) == 2:
                weight *= SHORT_YEAR
            raw = m.group(0).strip()
            clean = raw
            if not g.get("mon") and not re.search(r"[년年]|^[RH]\s?\d", raw):  # "12 / O3 / 2018" → "12/03/2018"
                clean = re.sub(r"\s*([-/.,])\s*", r"\1", raw).replace(",", ".")
                clean = clean.translate(_LIKE_DIGIT) if repaired else clean
            found.append(FoundDate(raw, when, m.start(), m.end(), weight, clean, repaired,
                                   str(g.get("mon") or ""), era=shape == "era"))
            taken.append((m.start(), m.end()))
    return sorted(found, key=lambda f: f.start)


def _to_date(g: dict[str, str | None], order: str, day_first: bool) -> tuple[date, bool] | None:
    y = int(g["y"] or 0)
    if y < 100:
        y += 2000
    if not 1900 <= y <= 2099:
        return None
    if g.get("mon"):
        month = MONTHS.get(str(g["mon"]).lower())
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
