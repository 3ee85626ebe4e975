"""The shapes of money and dates on receipts and forms (pure), wherever they are on a line.

Money: two decimals (``9.00``, OCR's decimal comma ``9,00``), a currency mark (``RM 9``, ``¥1,200``,
``12,000원``) or thousands groups (``12,000``); a bare small integer (a count), a clock time (``19:32:35``),
a percentage, a date's digits or a long digit run (phone, card, invoice numbers) is not money. Dates: every
full date ``periods.find_periods`` reads, plus what ingest's receipt-date parser reads (``ingest.fields.parse.
dates``, one parser for both): ``12-JAN-18`` / ``12JAN2018`` / ``JAN 12, 2018``, Malay and Indonesian month
names and abbreviations (``12 Mac 2018``, ``3 OGO 2019``: given with the ISO date as well), numeric dates
glued to a label or a time (``DATE12/03/2018``, ``12/03/201810:22``) and OCR-garbled ones (``12/O3/2018``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chat.models.reader.periods import Period, find_periods
from ingest.fields.parse import ENGLISH_MONTHS
from ingest.fields.parse import dates as receipt_dates

_CUR = r"(?:RM|MYR|USD|SGD|US\$|S\$|\$|€|£|¥|￥|₩)"
_MONEY = re.compile(
    r"(?<![\w.,:/])(?P<neg>-\s?)?(?:(?P<cur>" + _CUR + r")\s?)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+[.,]\d{2}|\d+)(?![\d:/%])(?![.,]\d)"
    r"(?:\s?(?P<suf>원|円|元|RM\b))?",
    re.IGNORECASE,
)

@dataclass(frozen=True, slots=True)
class Money:
    value: float
    raw: str
    start: int
    end: int
    currency: str = ""


def monies(line: str, offset: int = 0) -> list[Money]:
    """The money values of ``line`` (counts, times, percentages, dates and phone numbers left out)."""
    out: list[Money] = []
    blocked = [(p.start, p.end) for p in find_periods(line) if p.day or p.month]
    for m in _MONEY.finditer(line):
        if any(s <= m.start("num") < e for s, e in blocked):
            continue
        num, cur, suf = m.group("num"), m.group("cur") or "", m.group("suf") or ""
        decimal = re.fullmatch(r"\d+[.,]\d{2}|\d{1,3}(?:,\d{3})+\.\d{1,2}", num) is not None
        grouped = re.fullmatch(r"\d{1,3}(?:,\d{3})+", num) is not None
        if not (decimal or cur or suf or grouped):
            continue
        if len(re.sub(r"\D", "", num)) > 9:
            continue  # a phone, card or invoice number
        text = num
        if re.fullmatch(r"\d+,\d{2}", num):
            text = num.replace(",", ".")  # OCR's decimal comma
        value = float(text.replace(",", ""))
        if m.group("neg"):
            value = -value
        out.append(Money(value, m.group(0).strip(), offset + m.start(), offset + m.end(), (cur or suf).upper()))
    return out



def find_dates(text: str) -> list[Period]:
    """Every full date (day, month, year) in ``text`` by its shape, in order: what ``periods.find_periods``
    reads, then what the one receipt-date parser (``ingest.fields.parse.dates``, shared with ingest) reads —
    OCR-garbled numeric dates given as repaired (``12/O3/2018`` → ``12/03/2018``), a month name other than
    English (or an ordinal day) with its ISO date too (``12 Mac 2018 (2018-03-12)``)."""
    found = [p for p in find_periods(text) if p.day and p.month and p.year]
    taken = [(p.start, p.end) for p in found]
    for d in receipt_dates(text):
        if any(d.start < e and s < d.end for s, e in taken):
            continue
        shown = d.text or d.raw
        odd = re.search(r"\d(?:st|nd|rd|th)|[^\W\d_],", d.raw, re.IGNORECASE)  # "12th March", "12 Mar, 2018"
        if d.era or (d.month_name and (d.month_name.lower() not in ENGLISH_MONTHS or odd)):
            shown = f"{d.raw} ({d.value.isoformat()})"  # "12 Mac 2018": say it unambiguously too
        found.append(Period(year=d.value.year, month=d.value.month, day=d.value.day, text=shown, start=d.start,
                            end=d.end))
        taken.append((d.start, d.end))
    found.sort(key=lambda p: p.start)
    return found


def readings(p: Period) -> set[tuple[int, int, int]]:
    """The (year, month, day) a numeric date may mean: day-first and month-first when both are possible."""
    if p.year is None or p.month is None or p.day is None:
        return set()
    out = {(p.year, p.month, p.day)}
    if re.match(r"\d{1,2}[/.-]\d{1,2}[/.-]", p.text) and p.day <= 12:
        out.add((p.year, p.day, p.month))
    return out


