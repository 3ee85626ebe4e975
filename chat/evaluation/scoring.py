"""Scoring an answer (pure): gold numbers, dates and spans in the answer, citations on the gold page, declines.

- **Numbers** are compared as values, not strings: commas, currency symbols and scale words are normalised
  (``"$117,154 million"`` == ``"117.154 billion"`` == ``"117154"`` — a bare number may be a table cell "in
  thousands / millions"), ``"(8)%"`` == ``"-8%"``, and a number rounded to fewer decimals still matches
  (``"36%"`` for 35.6 %) when it keeps at least two significant digits. Signs must agree, except that an
  accounting bracket (``"(1,577)"``, an outflow in a statement) also matches the unsigned magnitude. Years
  (``2022``, ``FY2022``) and the parts of dates and times are not numbers here.
- **KorQuAD spans** are compared the way the official KorQuAD 1.0 scorer normalises them (quotes, brackets and
  ASCII punctuation removed, lower-cased, whitespace collapsed), and must appear in the answer's *first*
  sentence.
- **Dates** are normalised to (year, month, day): ``25/12/2018``, ``2018-12-25``, ``25 DEC 2018``,
  ``December 25, 2018``, ``2018년 12월 25일``, ``2018年12月25日``; two-digit years are 20xx; numeric dates are
  read day first (receipts), month first only when the day-first reading is impossible.
- **Declined** is decided by :func:`is_declined` only — use it everywhere.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# --------------------------------------------------------------------------- declines

#: phrases that say the documents do not answer the question (en, ko, ja, zh)
_DECLINE = re.compile(
    r"(?:documents?|sources?|files?|filings?|receipts?|reports?|context|pages?|passages?)\b[^.?!]{0,60}?"
    r"\b(?:do|does|did)\s*(?:n't|not)\s+(?:say|mention|contain|state|include|provide|show|specify|cover|give)"
    r"|\b(?:found|find)\s+nothing\b"
    r"|\b(?:could|can|did|was|were)\s*(?:n't|not|no)\s+(?:find|locate|able to find)\b"
    r"|\bcannot\s+(?:find|locate|determine|answer)\b|\bunable\s+to\s+(?:find|locate|determine|answer)\b"
    r"|\bno\s+(?:information|mention|data|answer|record)\s+(?:about|on|of|regarding|for|in)\b"
    r"|\bis\s+not\s+(?:mentioned|stated|given|provided|specified|available)\b"
    r"|\bnot\s+(?:mentioned|stated|found)\s+in\s+the\b"
    r"|찾을\s*수\s*(?:없|가\s*없)|찾지\s*못|나와\s*있지\s*않|언급(?:되어|돼)?\s*있지\s*않|언급이\s*없"
    r"|(?:정보|내용|답|기록)(?:이|은|는)?\s*없습니다|확인(?:할\s*수\s*없|되지\s*않)"
    r"|見つかりません|見つかりませんでした|見当たりません|記載(?:が|は)?(?:ありません|されていません)"
    r"|書かれていません|分かりません|わかりません"
    r"|没有找到|未找到|没有提到|没有提及|未提及|找不到",
    re.IGNORECASE,
)


def is_declined(text: str, citations: int) -> bool:
    """The answer declined: it cites nothing and says the documents do not answer the question.

    An answer that cites a source is never a decline (it claims an answer), and an uncited answer without a
    decline phrase is not one either (it answered without evidence).
    """
    return citations == 0 and bool(_DECLINE.search(" ".join(text.split())))


# --------------------------------------------------------------------------- numbers

_SCALES = {
    "thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "mm": 1e6, "billion": 1e9, "bn": 1e9,
    "b": 1e9, "trillion": 1e12, "tn": 1e12, "천": 1e3, "만": 1e4, "억": 1e8, "조": 1e12,
}
_LETTER_SCALES = frozenset({"k", "m", "mm", "b", "tn"})  # only right after a currency amount: "$20M", "$1.8b"
_NUMBER = re.compile(
    r"(?<![A-Za-z0-9.,/:])(?<!\d[-/:])"
    r"(?P<open>\(\s*)?(?P<sign>[-+]\s*)?(?P<cur>US\$|A\$|C\$|\$|€|£|¥|₩|RM|USD|EUR|GBP|KRW|JPY)?\s*(?P<sign2>-\s*)?"
    r"(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<frac>\d+))?(?![-/:]\d)(?![.,]\d)"
    r"(?P<close>\s*\))?"
    r"(?:\s*(?P<pct>%|percent\b|per\s+cent\b|퍼센트|포인트))?"
    r"(?:\s*(?P<scale>thousand|million|billion|trillion|mn|bn|tn|천|만|억|조)(?![A-Za-z])"
    r"|(?P<lscale>mm|[kmb])(?![A-Za-z]))?"
    r"(?![A-Za-z0-9])",
    re.IGNORECASE,
)
_IMPLIED_SCALES = (1.0, 1e3, 1e6, 1e9)


@dataclass(frozen=True, slots=True)
class Number:
    value: float  # signed, before the scale word
    decimals: int  # digits after the decimal point as written
    scale: float = 1.0  # from a scale word ("million"); 1 when there is none
    explicit_scale: bool = False
    percent: bool = False
    currency: bool = False
    year: bool = False  # a bare 4-digit integer 1900..2100 (a year, not an amount)
    parenthesised: bool = False  # negative by accounting brackets: "(1,577)" — often a magnitude shown as outflow

    @property
    def significant(self) -> int:
        digits = f"{abs(self.value):.{self.decimals}f}".replace(".", "").lstrip("0")
        return max(1, len(digits))

    @property
    def specific(self) -> bool:
        """Says something on its own: two significant digits, or a percentage, amount or scale ("1" does not)."""
        return self.significant >= 2 or self.percent or self.currency or self.explicit_scale

    @property
    def unit(self) -> float:
        """One unit in the last written place, in absolute terms."""
        return 10.0 ** -self.decimals * self.scale


def _normalise_text(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return text.replace("\u2212", "-").replace("\u2013", "-").replace("\u2014", "-").replace("\u00a0", " ")


def _mask_dates(text: str) -> str:
    for pattern, _ in _DATE_PATTERNS:
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    return text


def parse_numbers(text: str) -> list[Number]:
    """Every number mentioned in ``text``, in order (years flagged, dates and times skipped)."""
    out: list[Number] = []
    text = _mask_dates(_normalise_text(text))
    for m in _NUMBER.finditer(text):
        integer, frac = m.group("int"), m.group("frac") or ""
        value = float(integer.replace(",", "") + ("." + frac if frac else ""))
        paren = bool(m.group("open") and m.group("close"))
        sign = "sign" if m.group("sign") else "sign2"
        minus = "-" in (m.group(sign) or "")
        if minus and text[: m.start(sign)].rstrip(" \t").endswith("\n"):
            minus = False  # "\n- 100% of …" is a list item, not a negative number
        negative = paren or minus
        currency = bool(m.group("cur"))
        scale_word = (m.group("scale") or "").lower()
        letter = (m.group("lscale") or "").lower()
        if letter and not currency:
            letter = ""  # "5m" (metres?), "10K" (a filing): a scale letter counts only on a currency amount
        word = scale_word or letter
        scale = _SCALES.get(word, 1.0)
        percent = bool(m.group("pct"))
        year = (not frac and "," not in integer and len(integer) == 4 and 1900 <= value <= 2100 and not percent
                and not currency and not word)
        out.append(Number(-value if negative else value, len(frac), scale, bool(word), percent, currency, year,
                          paren and value != 0))
    return out


def primary_number(text: str) -> Number | None:
    """The gold value of an answer: its first specific number that is not a year (None for a text answer)."""
    return next((n for n in parse_numbers(text) if not n.year and n.specific), None)


def _close(a: float, b: float, tolerance: float) -> bool:
    return abs(a - b) <= tolerance + 1e-9 * max(abs(a), abs(b))


def numbers_match(gold: Number, candidate: Number, *, rounding: bool = True) -> bool:
    """``candidate`` states ``gold`` (same sign; scale words and implied table scales resolved; see module doc)."""
    if candidate.year and not gold.year:
        return False
    gv, cv = gold.value, candidate.value
    if (gv < 0) != (cv < 0) and gv != 0 and cv != 0:
        negative = gold if gv < 0 else candidate
        if not negative.parenthesised:  # "-8%" is not "8%"; "(1,577)" in a cash-flow statement is 1,577 spent
            return False
        gv, cv = abs(gv), abs(cv)
    if (gold.percent and candidate.currency) or (candidate.percent and gold.currency):
        return False

    def scales(n: Number, other: Number) -> tuple[float, ...]:
        if n.percent or n.explicit_scale or not other.explicit_scale or other.percent:
            return (n.scale,)
        return _IMPLIED_SCALES  # a bare table figure "in thousands/millions" against a stated scale

    for gs in scales(gold, candidate):
        for cs in scales(candidate, gold):
            g, c = gv * gs, cv * cs
            if _close(g, c, 0.0):
                return True
            if rounding:
                g_unit, c_unit = 10.0 ** -gold.decimals * gs, 10.0 ** -candidate.decimals * cs
                coarser = candidate if c_unit >= g_unit else gold
                if coarser.significant >= 2 and _close(g, c, 0.5 * max(g_unit, c_unit)):
                    return True
    return False


def number_in(gold: Number, text: str, *, rounding: bool = True) -> bool:
    return any(numbers_match(gold, n, rounding=rounding) for n in parse_numbers(text))


# --------------------------------------------------------------------------- text answers

_STOP = frozenset(
    "a an the and or of to in on for by with from at as is are was were be been has have had it its this that "
    "these those there their than then so yes no not did does do which what who whom how also about into over "
    "per vs via".split()
)
_WORDS = re.compile(r"\w+")


def _content_words(text: str) -> list[str]:
    return [w for w in _WORDS.findall(_normalise_text(text).lower()) if w not in _STOP and len(w) > 1]


def text_in(gold: str, answer: str, *, recall: float = 0.7) -> bool:
    """A text gold (no number): at least ``recall`` of its content words appear in the answer."""
    words = _content_words(gold)
    if not words:
        return False
    have = set(_content_words(answer))
    return sum(1 for w in words if w in have) / len(words) >= recall


# --------------------------------------------------------------------------- KorQuAD spans

_KORQUAD_REMOVE = re.compile("['\"《》<>〈〉()‘’]")
_PUNCT = frozenset(string.punctuation)
_CITATION = re.compile(r"\[(?:[SP]\d+(?:\s*,\s*[SP]?\d+)*)\]")
_FIRST_END = re.compile(r"(?<=[.!?。！？])(?=\s)|\n")
_LEAD = re.compile(r"^\s*(?:[-*•>#]+\s*|\d+[.)]\s+)*")


def normalize_answer(text: str) -> str:
    """The KorQuAD 1.0 official scorer's ``normalize_answer`` (``evaluate-v1.0.py``)."""
    text = _KORQUAD_REMOVE.sub(" ", text).lower()
    text = "".join(ch for ch in text if ch not in _PUNCT)
    return " ".join(text.split())


def strip_citations(text: str) -> str:
    return _CITATION.sub("", text)


def first_sentence(text: str) -> str:
    """The answer's first sentence (citation marks and a leading bullet removed); '' for an empty answer."""
    body = strip_citations(text).replace("**", "").strip()
    for part in _FIRST_END.split(body):
        part = _LEAD.sub("", part).strip()
        if part:
            return part
    return ""


def span_in_first_sentence(golds: Iterable[str], answer: str) -> bool:
    first = normalize_answer(first_sentence(answer))
    return any((g := normalize_answer(gold)) and g in first for gold in golds)


# --------------------------------------------------------------------------- dates

_MONTHS = {m: i + 1 for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split())}
_MON = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<!\d)(\d{4})\s*[-/.년年]\s*(\d{1,2})\s*[-/.월月]\s*(\d{1,2})(?!\d)"), "ymd"),
    (re.compile(r"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(?!\d)"), "dmy"),
    (re.compile(_MON + r"\s*(\d{1,2})(?:st|nd|rd|th)?,?\s*(\d{4})(?!\d)", re.I), "Mdy"),  # before dMy
    (re.compile(r"(?<!\d)(\d{1,2})(?:st|nd|rd|th)?[\s-]*" + _MON + r"[\s,-]*(\d{4}|\d{2})(?![\d:])", re.I), "dMy"),
)


def _valid(y: int, m: int, d: int) -> bool:
    return 1 <= m <= 12 and 1 <= d <= 31 and 1900 <= y <= 2100


def parse_dates(text: str) -> list[tuple[int, int, int]]:
    """Every date in ``text`` as (year, month, day), in order of the patterns above."""
    text = _normalise_text(text)
    out: list[tuple[int, int, int]] = []
    for pattern, order in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            g = m.groups()
            if order == "ymd":
                y, mo, d = int(g[0]), int(g[1]), int(g[2])
            elif order == "dmy":
                d, mo, y = int(g[0]), int(g[1]), int(g[2])
                if mo > 12 and d <= 12:
                    d, mo = mo, d  # only month-first can be right
            elif order == "dMy":
                d, mo, y = int(g[0]), _MONTHS[g[1].lower()[:3]], int(g[2])
            else:
                mo, d, y = _MONTHS[g[0].lower()[:3]], int(g[1]), int(g[2])
            if y < 100:
                y += 2000
            if _valid(y, mo, d) and (y, mo, d) not in out:
                out.append((y, mo, d))
    return out


def date_in(gold: str, answer: str) -> bool:
    want = parse_dates(gold)
    return bool(want) and want[0] in parse_dates(answer)


# --------------------------------------------------------------------------- citations and times


def cited_on(citations: Iterable[tuple[str, int]], pages: Iterable[tuple[str, int]]) -> bool:
    """A citation (document key, page) is on one of the gold pages."""
    gold = set(pages)
    return any(c in gold for c in citations)


def percentile(values: Sequence[float], p: float) -> float | None:
    """The nearest-rank ``p``-th percentile (None for no values)."""
    if not values:
        return None
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]
