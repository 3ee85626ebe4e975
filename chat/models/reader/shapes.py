"""The shapes of money and dates on receipts and forms (pure), wherever they are on a line.

Money: two decimals (``9.00``, OCR's decimal comma ``9,00``), a currency mark (``RM 9``, ``¥1,200``,
``12,000원``) or thousands groups (``12,000``); a bare small integer (a count), a clock time (``19:32:35``),
a percentage, a date's digits or a long digit run (phone, card, invoice numbers) is not money. Dates: every
full date ``periods.find_periods`` reads, plus ``12-JAN-18`` / ``12JAN2018`` / ``JAN 12, 2018``, Malay and
Indonesian month names (``12 Mac 2018``, ``3 Ogos 2019``: given with the ISO date as well), numeric dates
glued to a label (``DATE12/03/2018``) and OCR-garbled numeric dates (``12/O3/2018``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chat.models.reader.lexicon import MONTHS
from chat.models.reader.periods import Period, find_periods

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



_MON = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|" \
       r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|" + \
       r"januari|februari|mac|mei|julai|ogos|okt(?:ober)?|dis(?:ember)?|maret|agu(?:stus)?|des(?:ember)?)"
#: Malay / Indonesian month names and abbreviations (receipts from Malaysia, Singapore, Indonesia)
_MS_MONTHS = {"januari": 1, "februari": 2, "mac": 3, "maret": 3, "mei": 5, "julai": 7, "ogos": 8, "agu": 8,
              "agustus": 8, "okt": 10, "oktober": 10, "dis": 12, "disember": 12, "des": 12, "desember": 12}
_EXTRA_DATES = (
    # 12-JAN-18, 12JAN2018, 12 Jan 18, 12.Jan.2018
    re.compile(rf"(?<!\d)(?P<day>\d{{1,2}})[\s./-]?(?P<mon>{_MON})\.?[\s./,-]?(?P<year>(?:19|20)\d{{2}}|\d{{2}})(?![\d:])",
               re.IGNORECASE),
    # Jan 12, 18 / JAN-12-2018
    re.compile(rf"\b(?P<mon>{_MON})\.?[\s./-](?P<day>\d{{1,2}})[\s,./-]+(?P<year>(?:19|20)\d{{2}})(?!\d)",
               re.IGNORECASE),
    # 2018/1/12 without word boundaries, 12/03/2018 glued to a label ("DATE12/03/2018")
    re.compile(r"(?<!\d)(?P<a>\d{1,2})[/.-](?P<b>\d{1,2})[/.-](?P<year>(?:19|20)\d{2}|\d{2})(?![\d/])"),
)


#: OCR's numeric date: a letter read for a digit (``12/O3/2018``, ``l2/03/2018``) or a space by a separator
_OCR_DATE = re.compile(
    r"(?<![\w/.-])(?P<a>[\dOoIl|]{1,2})\s?[/.-]\s?(?P<b>[\dOoIl|]{1,2})\s?[/.-]\s?(?P<year>(?:19|20|2O)[\dOoIl|]{2}|"
    r"[\dOoIl|]{2})(?![\w/])"
)
_AS_DIGIT = str.maketrans({"O": "0", "o": "0", "I": "1", "l": "1", "|": "1"})


def _ocr_dates(text: str, taken: list[tuple[int, int]]) -> list[Period]:
    out: list[Period] = []
    for m in _OCR_DATE.finditer(text):
        if any(m.start() < e and s < m.end() for s, e in taken) or not re.search(r"\d", m.group("a") + m.group("b")):
            continue
        a, b, y = (int(m.group(k).translate(_AS_DIGIT)) for k in ("a", "b", "year"))
        month, day = (a, b) if a <= 12 else (b, a)
        year = y + 2000 if y < 100 else y
        if 1 <= month <= 12 and 1 <= day <= 31 and 1990 <= year <= 2099:
            clean = re.sub(r"\s", "", m.group(0)).translate(_AS_DIGIT)
            out.append(Period(year=year, month=month, day=day, text=clean, start=m.start(), end=m.end()))
    return out


def find_dates(text: str) -> list[Period]:
    """Every full date (day, month, year) in ``text`` by its shape, in order (an OCR-garbled numeric date
    is given as read: ``12/O3/2018`` → ``12/03/2018``)."""
    found = [p for p in find_periods(text) if p.day and p.month and p.year]
    taken = [(p.start, p.end) for p in found]
    for pattern in _EXTRA_DATES:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            g = m.groupdict()
            if g.get("mon"):
                mon = g["mon"].lower()
                month = _MS_MONTHS.get(mon) or MONTHS.get(mon[:3] if mon[:4] != "sept" else "sep")
                day = int(g["day"])
            else:
                a, b = int(g["a"]), int(g["b"])
                month, day = (a, b) if a <= 12 else (b, a)
            year = int(g["year"])
            year = year + 2000 if year < 100 else year
            if month and 1 <= month <= 12 and 1 <= day <= 31:
                text_as_read = m.group(0).strip()
                if g.get("mon") and g["mon"].lower() in _MS_MONTHS:  # "12 Mac 2018": say it unambiguously too
                    text_as_read = f"{text_as_read} ({year:04d}-{month:02d}-{day:02d})"
                found.append(Period(year=year, month=month, day=day, text=text_as_read, start=m.start(),
                                    end=m.end()))
                taken.append((m.start(), m.end()))
    found.extend(_ocr_dates(text, taken))
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


