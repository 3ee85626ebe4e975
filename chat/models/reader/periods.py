"""Periods and dates in questions and table headers (pure): parse them, and say how well two agree.

Recognised: full dates (``December 31, 2022``, ``Dec. 31, 2022``, ``31 December 2022``, ``2022-12-31``,
``12/31/2022``, ``2020.3.30.``, ``2020년 3월 30일``, ``2020年3月30日``), month-years, quarters (``Q1``,
``Q1 2023``, ``first quarter``, ``2020년 3분기``, ``第3四半期``), halves (``H1``, ``상반기``, ``上期``), fiscal
years (``FY2023``, ``fiscal 2023``, ``2023 회계연도``, ``2023年度``, ``2023年3月期``), spans (``three months
ended``, ``nine months``, ``year ended``) and bare years (``2022``, ``2022년``, ``2022年``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chat.models.reader.lexicon import MONTHS, NUMBER_WORDS, ORDINALS

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_YEAR = r"(?:19|20)\d{2}"
DATE_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(rf"\b(?P<mon>{_MONTH})\s+(?P<day>\d{{1,2}}),?\s+(?P<year>{_YEAR})\b", re.IGNORECASE),
    re.compile(rf"\b(?P<day>\d{{1,2}})\s+(?P<mon>{_MONTH})\s+(?P<year>{_YEAR})\b", re.IGNORECASE),
    re.compile(rf"\b(?P<year>{_YEAR})[-/.](?P<month>\d{{1,2}})[-/.](?P<day>\d{{1,2}})\b\.?"),
    re.compile(rf"(?P<year>{_YEAR})\.\s?(?P<month>\d{{1,2}})\.\s?(?P<day>\d{{1,2}})\.?"),
    re.compile(rf"\b(?P<a>\d{{1,2}})[/.-](?P<b>\d{{1,2}})[/.-](?P<year>{_YEAR}|\d{{2}})\b"),
    re.compile(rf"(?P<year>{_YEAR})\s?[년年]\s?(?P<month>\d{{1,2}})\s?[월月]\s?(?P<day>\d{{1,2}})\s?[일日]"),
)
_MONTH_YEAR = (
    re.compile(rf"\b(?P<mon>{_MONTH})\s+(?P<year>{_YEAR})\b", re.IGNORECASE),
    re.compile(
        rf"(?P<year>{_YEAR})\s?[년年]\s?(?P<month>\d{{1,2}})\s?[월月](?!\s?\d{{1,2}}\s?[일日])(?P<end>말|期|末)?"
    ),
)
_QUARTER = (
    # a fiscal year's quarter said either way round: "FY2023Q1", "FY23 Q1", "Q2 of FY2024", "Q2 of fiscal 2024",
    # "Q22023" (quarter and year run together), "Q2FY23", "Q2-2023", "fiscal 2023 fourth quarter"
    re.compile(rf"\bFY\s?'?(?P<year>{_YEAR}|\d{{2}})\s?[Qq](?P<q>[1-4])\b"),
    re.compile(rf"\b[Qq](?P<q>[1-4])\s+of\s+(?:the\s+)?(?:FY\s?'?|fiscal\s+(?:year\s+)?)(?P<year>{_YEAR}|\d{{2}})\b",
               re.IGNORECASE),
    re.compile(rf"\b[Qq](?P<q>[1-4])(?P<year>{_YEAR})\b"),
    # "Q2FY23", "Q2-2023", "Q3/23": the quarter and its year joined by a fiscal mark or a dash
    re.compile(rf"\b[Qq](?P<q>[1-4])(?:\s?FY\s?'?|\s?[-/]\s?)(?P<year>{_YEAR}|\d{{2}})\b"),
    re.compile(rf"\b(?:FY\s?'?|fiscal\s+(?:year\s+)?)(?P<year>{_YEAR}|\d{{2}})\s+(?P<word>first|second|third|fourth|1st|"
               rf"2nd|3rd|4th)[\s\-]+(?:fiscal\s+)?quarter\b", re.IGNORECASE),
    re.compile(rf"\b[Qq](?P<q>[1-4])\b(?:\s*(?:FY|fiscal)?\s*'?(?P<year>{_YEAR}|\d{{2}})\b)?"),
    re.compile(rf"\b(?P<q>[1-4])Q\s?'?(?P<year>{_YEAR}|\d{{2}})?\b"),
    re.compile(
        rf"\b(?P<word>first|second|third|fourth|1st|2nd|3rd|4th)[\s\-]+(?:fiscal\s+)?quarter(?:\s+(?:of\s+)?"
        rf"(?:fiscal\s+(?:year\s+)?)?(?P<year>{_YEAR}))?",
        re.IGNORECASE,
    ),
    re.compile(rf"(?:(?P<year>{_YEAR})\s?(?:년|年度?)?\s?)?(?:제\s?)?(?P<q>[1-4])\s?(?:분기|/4\s?분기)"),
    re.compile(rf"(?:(?P<year>{_YEAR})\s?年度?\s?)?第?\s?(?P<q>[1-4])\s?四半期"),
)
_HALF = re.compile(
    rf"(?:(?P<year>{_YEAR})\s?(?:년|年度?)?\s?)?(?P<h>상반기|하반기|上期|下期|上半期|下半期)|"
    rf"\b(?P<hw>first|second)\s+half(?:\s+of\s+(?:(?:the\s+)?(?:FY\s?'?|fiscal\s+(?:year\s+)?))?(?P<year2>{_YEAR}))?|"
    rf"\bH(?P<hn>[12])\b(?:\s+(?:of\s+)?(?:(?:the\s+)?(?:FY\s?'?|fiscal\s+(?:year\s+)?))?(?P<year3>{_YEAR})\b)?",
    re.IGNORECASE,
)
_FISCAL = re.compile(
    rf"\bFY\s?'?(?P<a>{_YEAR}|\d{{2}})\b|\bfiscal\s+(?:year\s+)?(?P<b>{_YEAR}\b|'\d{{2}}\b)|"
    rf"(?P<c>{_YEAR})\s?(?:회계\s?연도|사업\s?연도|年度)",
    re.IGNORECASE,
)
_SPAN = re.compile(
    r"\b(?P<n>three|six|nine|twelve|3|6|9|12)[\s-]+months?\b|"
    r"\b(?P<y>years?|fiscal\s+years?|(?:52|53|fifty-two|fifty-three)[\s-]+weeks?)\s+end(?:ed|ing)\b|"
    r"\b(?P<q>(?:fiscal\s+)?quarters?)\s+end(?:ed|ing)\b|\b(?P<fy>full[\s-]years?)\b|"
    r"\b(?P<w>\d{2}|twelve|thirteen|fourteen|sixteen|seventeen|twenty[\s-](?:four|six|seven|eight)|"
    r"thirty[\s-](?:six|nine)|forty)[\s-]+weeks?\b|"
    r"(?P<ko>[369]|12)\s?개월|(?P<ja>[369]|12)\s?[か카ヶヵ]月",
    re.IGNORECASE,
)
_YEAR_ALONE = re.compile(rf"(?<![\d.,/-])(?P<year>{_YEAR})(?![\d/]|,\d|\.\d)(?:\s?[년年](?!\s?\d{{1,2}}\s?[월月]))?")
_RELATIVE = re.compile(
    r"year[- ]over[- ]year|\byoy\b|compared (?:to|with) (?:the )?(?:prior|previous|last)|"
    r"전년\s?(?:대비|동기)|前年(?:同期)?比?|前期比",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Period:
    year: int | None = None
    month: int | None = None
    day: int | None = None
    quarter: int | None = None
    half: int | None = None
    fiscal: bool = False
    span_months: int | None = None
    text: str = ""  # as written
    start: int = -1
    end: int = -1

    def describe(self) -> str:
        return self.text


def _year(raw: str | None) -> int | None:
    if not raw:
        return None
    value = int(raw.lstrip("'"))
    return value + 2000 if value < 100 else value


def find_periods(text: str) -> list[Period]:
    """The periods ``text`` mentions, in order, longest reading first (a date's year is not repeated)."""
    found: list[Period] = []
    taken: list[tuple[int, int]] = []

    def free(s: int, e: int) -> bool:
        return all(e <= a or s >= b for a, b in taken)

    def add(p: Period) -> None:
        if free(p.start, p.end):
            found.append(p)
            taken.append((p.start, p.end))

    for pattern in DATE_PATTERNS:
        for m in pattern.finditer(text):
            g = m.groupdict()
            if g.get("mon"):
                month = MONTHS.get(g["mon"].lower().rstrip("."))
            elif g.get("a"):
                a, b = int(g["a"]), int(g["b"])
                month = a if a <= 12 else b  # US m/d/y unless the first cannot be a month
                g["day"] = str(b if a <= 12 else a)
            else:
                month = int(g["month"])
            day = int(g["day"])
            if month and 1 <= month <= 12 and 1 <= day <= 31:
                add(
                    Period(
                        year=_year(g["year"]),
                        month=month,
                        day=day,
                        text=m.group(0).strip(),
                        start=m.start(),
                        end=m.end(),
                    )
                )
    for pattern in _MONTH_YEAR:
        for m in pattern.finditer(text):
            g = m.groupdict()
            month = MONTHS.get(g["mon"].lower().rstrip(".")) if g.get("mon") else int(g["month"])
            if month and 1 <= month <= 12:
                add(
                    Period(
                        year=_year(g["year"]),
                        month=month,
                        fiscal=bool(g.get("end")),
                        text=m.group(0).strip(),
                        start=m.start(),
                        end=m.end(),
                    )
                )
    for pattern in _QUARTER:
        for m in pattern.finditer(text):
            g = m.groupdict()
            q = ORDINALS[g["word"].lower()] if g.get("word") else int(g["q"])
            add(Period(year=_year(g.get("year")), quarter=q, text=m.group(0).strip(), start=m.start(), end=m.end()))
    for m in _HALF.finditer(text):
        h = m.group("h") or ""
        half = (
            1
            if h in ("상반기", "上期", "上半期") or (m.group("hw") or "").lower() == "first" or m.group("hn") == "1"
            else 2
        )
        add(
            Period(
                year=_year(m.group("year") or m.group("year2") or m.group("year3")),
                half=half,
                text=m.group(0).strip(),
                start=m.start(),
                end=m.end(),
            )
        )
    for m in _FISCAL.finditer(text):
        add(
            Period(
                year=_year(m.group("a") or m.group("b") or m.group("c")),
                fiscal=True,
                text=m.group(0).strip(),
                start=m.start(),
                end=m.end(),
            )
        )
    for m in _YEAR_ALONE.finditer(text):
        add(Period(year=int(m.group("year")), text=m.group(0).strip(), start=m.start(), end=m.end()))
    found.sort(key=lambda p: p.start)
    return found


#: a 52/53-week year's periods in weeks ("12 Weeks Ended", "Thirteen Weeks Ended", "39 Weeks Ended") as the months
#: they stand for: a quarter (12–17 weeks: 4-4-5 and 12-12-12-16 calendars), a half (24–28), three quarters (36–40)
_WEEK_WORDS = {"twelve": 12, "thirteen": 13, "fourteen": 14, "sixteen": 16, "seventeen": 17, "twenty four": 24,
               "twenty six": 26, "twenty seven": 27, "twenty eight": 28, "thirty six": 36, "thirty nine": 39,
               "forty": 40}


def _weeks_as_months(raw: str) -> int | None:
    weeks = _WEEK_WORDS.get(re.sub(r"[\s-]+", " ", raw.lower())) or (int(raw) if raw.isdigit() else 0)
    for low, high, months in ((12, 17, 3), (24, 28, 6), (36, 40, 9), (52, 53, 12)):
        if low <= weeks <= high:
            return months
    return None


def _months(m: re.Match[str]) -> int | None:
    """The months one ``_SPAN`` match stands for (None: weeks of no fiscal period, "10 weeks")."""
    if m.group("y") or m.group("fy"):  # "year ended", "full year 2022", "2022 Full-Year"
        return 12
    if m.group("q"):
        return 3
    if m.group("w"):
        return _weeks_as_months(m.group("w"))
    raw = (m.group("n") or m.group("ko") or m.group("ja") or "").lower()
    return NUMBER_WORDS.get(raw) or int(raw)


#: "Years ended December 31", "For the Three Months Ended March 31": the day a table's periods end, its years
#: printed in the columns below
_ENDED_ON = re.compile(rf"(?i)\bended\s+(?P<mon>{_MONTH})\s+(?P<day>\d{{1,2}})\b(?!,?\s*(?:{_YEAR}|\d))")


def ended_on(text: str) -> tuple[int, int] | None:
    """The month and day ``text`` (a table's caption) says its periods end on without a year ("Years ended
    December 31" → (12, 31)); None when it says none, or more than one."""
    found = {(MONTHS.get(m.group("mon").lower().rstrip(".")), int(m.group("day"))) for m in _ENDED_ON.finditer(text)}
    if len(found) != 1:
        return None
    month, day = found.pop()
    return (month, day) if month and 1 <= day <= 31 else None


def span_months(text: str) -> int | None:
    """``three months ended`` → 3, ``year ended`` → 12, ``13 weeks ended`` → 3 (None when no span is stated)."""
    spans = spans_in(text)
    return spans[0] if spans else None


def spans_in(text: str) -> list[int]:
    """Every span ``text`` states, in order: ``Three Months Ended Six Months Ended`` → ``[3, 6]``."""
    return [months for m in _SPAN.finditer(text) if (months := _months(m)) is not None]


def quarter_span(text: str) -> bool:
    """The text speaks of a quarter (a three-month period) in words."""
    return bool(re.search(r"\bquarter|분기|四半期", text, re.IGNORECASE))


def is_relative(text: str) -> bool:
    """Year over year / 전년 대비 / 前年比: a change against the prior period, no absolute period named."""
    return bool(_RELATIVE.search(text))


def _same_label(asked: Period, offered: Period) -> bool:
    """Both are fiscal years written the same way ("fiscal 2019" and "fiscal 2020", "FY2019" and "FY2020"): their
    numbers are of one convention, and a different number is a different year."""
    if not (asked.fiscal and offered.fiscal) or asked.quarter is not None or offered.quarter is not None:
        return False
    return asked.text[:2].lower() == offered.text[:2].lower()


def _fiscal_neighbour(year: int, offered: Period) -> bool:
    """A date of the year after ``year`` in its first quarter (a retailer's fiscal year "2022" ends in January
    2023); a year or a label without a month may be the year before too (an analyst's "FY2023" is that retailer's
    "fiscal 2022"). A year ended May 31, 2019 is no fiscal 2018, and none ends in the year before its number."""
    if offered.month is None or offered.year is None:
        return True
    return offered.year > year and offered.month <= 3


def _quarter_neighbour(quarter: int, year: int, offered: Period) -> bool:
    """A fiscal quarter may end in the calendar year before its year's number (Best Buy's second quarter of fiscal
    2024 ended July 29, 2023; Apple's first quarter of fiscal 2023, December 31, 2022) — the fourth only early in a
    calendar year, where a retailer's year ends; or, the fourth only, early in the year after (a retailer's fourth
    quarter of fiscal 2022 ended January 28, 2023). "The three months ended June 30, 2023" is no fourth quarter of
    2022, "the three months ended December 31, 2021" none either."""
    if offered.month is None or offered.year is None:
        return True
    if offered.year > year:
        return quarter == 4 and offered.month <= 3
    # the year before: any quarter but the fourth — or the fourth of a year ending early in the calendar year, which
    # an analyst and the company may number apart (Ulta's "fiscal 2022" is an analyst's "FY2023")
    return offered.month >= 4 if quarter != 4 else offered.month <= 3


def agreement(
    asked: Period, offered: Period, *, asked_span: int | None = None, offered_span: int | None = None
) -> float:
    """How well a period offered by a header fits the asked one: 1 exact, 0 contradicted, between for partial."""
    score = 0.0
    checks = 0.0
    if asked.year is not None:
        checks += 1
        if offered.year == asked.year:
            score += 1
        elif (asked.quarter or asked.fiscal) and offered.year is not None and abs(offered.year - asked.year) == 1 \
                and not _same_label(asked, offered) and (_quarter_neighbour(asked.quarter, asked.year, offered)
                                                         if asked.quarter else _fiscal_neighbour(asked.year, offered)):
            score += 0.4  # a fiscal year/quarter may end in the calendar year before or after its number (a date
            # may: "fiscal 2020" ended January 31, 2020 or 2021; an analyst's "FY2023" may be the company's "fiscal
            # 2022") — but "fiscal 2019" is no "fiscal 2020"
        elif offered.year is not None:
            return 0.0
    for field in ("month", "day"):
        a, o = getattr(asked, field), getattr(offered, field)
        if a is not None:
            checks += 1
            if o == a:
                score += 1
            elif o is not None:
                return 0.0
    if asked.quarter is not None:
        checks += 1
        if offered.quarter == asked.quarter:
            score += 1
        elif offered.quarter is not None:
            return 0.0
        elif offered_span == 3:
            score += 0.5  # a three-month column: the quarter number is not written, the span fits
    if asked.half is not None:
        checks += 1
        if offered.half == asked.half:
            score += 1
        elif offered.half is not None:
            return 0.0
        elif offered_span == 6:
            score += 0.5  # a six-month column: "the first half" is not written, the span fits
    if asked_span is not None:
        checks += 0.5
        if offered_span == asked_span:
            score += 0.5
        elif offered_span is not None:
            return 0.0
    return score / checks if checks else 0.0
