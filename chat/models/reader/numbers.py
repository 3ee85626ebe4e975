"""Numbers, amounts and units as written in English, Korean and Japanese documents (pure).

Conventions kept to en/ko/ja: ``,`` groups thousands and ``.`` is the decimal point; ``(8)%`` and ``(1,234)``
are negatives (accounting), as are a leading ``△``/``▲`` (Japanese statements) and ``-``/``−``. Korean and
Japanese myriads (``조/억/만``, ``兆/億/万``) multiply what precedes them: ``1조 2,345억원`` is 1.2345e12.
A table caption's unit (``(in millions)``, ``(단위: 억원)``, ``（単位：百万円）``) scales every cell under it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: a currency before the amount; a code in letters only as a word of its own ("FORM 10-K" holds no "RM 10")
_CURRENCY_PREFIX = r"(?:US\$|\$|€|£|¥|￥|₩|(?<![A-Za-z])(?:RM|USD|KRW|JPY|EUR)|(?<![A-Za-z])S\$)"
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+"
#: one amount: optional sign/paren/currency, digits, optional myriad groups, percent or currency suffix
AMOUNT_RE = re.compile(
    r"(?P<neg>(?<![−\-–—])[△▲−\-–]\s?)?(?P<open>\()?\s?(?P<cur>" + _CURRENCY_PREFIX + r")?\s?"
    r"(?P<num>(?:" + _NUM + r")(?:\s?[조억만兆億万]\s?(?:" + _NUM + r")?)*)"
    r"\s?(?P<close>\))?\s?(?P<suffix>%|퍼센트|percent\b|원|円|달러|ドル|억\s?원|백만\s?원|천\s?원|百万円|千円|"
    r"million\b|billion\b|thousand\b|bn\b|mn\b)?",
    re.IGNORECASE,
)
_MYRIAD = {"조": 1e12, "兆": 1e12, "억": 1e8, "億": 1e8, "만": 1e4, "万": 1e4}
_SCALE_WORDS = {
    "thousand": 1e3,
    "million": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "mn": 1e6,
    "천": 1e3,
    "백만": 1e6,
    "십억": 1e9,
    "억": 1e8,
    "千": 1e3,
    "百万": 1e6,
    "億": 1e8,
    "十億": 1e9,
}
_UNIT_RE = re.compile(
    r"(?:in|dollars in|amounts in|\$ in|USD in)\s+(?P<en>thousands|millions|billions|"
    r"(?:thousand|million|billion)(?=\s*\)))|"  # "(In thousand)" in the singular too
    r"\(\s*(?:\$|US\$|dollars|USD)?\s*(?P<en2>thousands|millions|billions)\b|"
    # "($ million)", "($ million, except per share amounts)"
    r"\(\s*(?:\$|US\$|dollars|USD)\s*(?P<en4>thousand|million|billion)\s*[),]|"
    r"\b(?P<en3>thousands|millions|billions)\s+of\s+(?:U\.?S\.?\s+)?dollars\b|"
    r"단위\s*[:：]?\s*(?P<ko>천원|백만원|십억원|억원|원|천\s?달러|백만\s?달러|%)|"
    r"単位\s*[:：]?\s*(?P<ja>千円|百万円|億円|円|千ドル|百万ドル|%)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Amount:
    value: float  # as written (before any caption scale)
    raw: str  # the exact matched text
    percent: bool = False
    currency: str = ""  # "$", "원", "円", "RM", …
    scale_word: str = ""  # "million" written next to the number


@dataclass(frozen=True, slots=True)
class Unit:
    """A caption's unit: how to read the cells below it."""

    scale: float = 1.0
    word: str = ""  # "million", "백만원", "百万円"
    currency: str = ""  # "$", "원", "円"


def _number(text: str) -> float:
    total = 0.0
    current = 0.0
    for token in re.findall(r"[\d.,]+|[조억만兆億万]", text):
        if token in _MYRIAD:
            total += (current or 1.0) * _MYRIAD[token]
            current = 0.0
        else:
            current = float(token.replace(",", ""))
    return total + current


def parse_amount(text: str) -> Amount | None:
    """The first amount in ``text`` (None if it holds no number)."""
    for m in AMOUNT_RE.finditer(text):
        if not m.group("num") or not re.search(r"\d", m.group("num")):
            continue
        value = _number(m.group("num"))
        negative = bool(m.group("neg")) or (bool(m.group("open")) and bool(m.group("close")))
        suffix = (m.group("suffix") or "").replace(" ", "")
        percent = suffix.lower() in ("%", "퍼센트", "percent")
        currency = m.group("cur") or ""
        scale_word = ""
        if suffix in ("원", "円", "달러", "ドル"):
            currency = suffix
        elif suffix in ("억원", "백만원", "천원"):
            currency, scale_word = "원", suffix[:-1]
        elif suffix in ("百万円", "千円"):
            currency, scale_word = "円", suffix[:-1]
        elif suffix.lower() in ("million", "billion", "thousand", "bn", "mn"):
            scale_word = suffix.lower()
        raw = m.group(0).strip()
        if m.group("open") and not m.group("close"):
            raw = raw.lstrip("(").strip()
        return Amount(-value if negative else value, raw, percent, currency, scale_word)
    return None


def all_amounts(text: str) -> list[tuple[int, int, Amount]]:
    """Every amount in ``text`` as ``(start, end, amount)``."""
    out: list[tuple[int, int, Amount]] = []
    for m in AMOUNT_RE.finditer(text):
        if m.group("num") and re.search(r"\d", m.group("num")):
            amount = parse_amount(m.group(0))
            if amount is not None:
                raw = m.group(0)
                start = m.start() + (len(raw) - len(raw.lstrip()))
                out.append((start, start + len(raw.strip()), amount))
    return out


def caption_unit(text: str) -> Unit:
    """The unit a caption/heading states ("(in millions)", "(단위: 백만원)", "（単位：百万円）")."""
    m = _UNIT_RE.search(text)
    if not m:
        return Unit()
    en = m.group("en") or m.group("en2") or m.group("en3") or m.group("en4")
    if en:
        word = en.lower().rstrip("s")
        currency = "$" if re.search(r"\$|dollar|usd", text, re.IGNORECASE) else ""
        return Unit(_SCALE_WORDS[word], word, currency)
    ko = (m.group("ko") or "").replace(" ", "")
    if ko:
        if ko == "%":
            return Unit(1.0, "%", "")
        cur = "달러" if "달러" in ko else "원"
        prefix = ko[: -len(cur)]
        return Unit(_SCALE_WORDS.get(prefix, 1.0), ko, cur)
    ja = m.group("ja") or ""
    if ja == "%":
        return Unit(1.0, "%", "")
    cur = "ドル" if "ドル" in ja else "円"
    prefix = ja[: -len(cur)]
    return Unit(_SCALE_WORDS.get(prefix, 1.0), ja, cur)


def _group(value: float, decimals: int) -> str:
    return f"{value:,.{decimals}f}"


def decimals_of(raw: str) -> int:
    m = re.search(r"\.(\d+)", raw)
    return len(m.group(1)) if m else 0


def bracketed(amount: Amount) -> bool:
    """A negative written in accounting brackets (``(1,577)``, ``$ (0.38)``): an outflow, a loss, a deduction."""
    return amount.value < 0 and "(" in amount.raw and ")" in amount.raw and not amount.percent


def format_amount(amount: Amount, unit: Unit, lang: str, *, signed: bool = False) -> str:
    """``$65,775 million`` / ``12,345억원`` / ``1,200百万円`` / ``-8%`` — the written value with its unit. An English
    statement's bracketed negative keeps its brackets (``$(1,577) million``): in a cash-flow statement it is an
    amount paid out, which a bare minus would misstate as a negative spending."""
    if lang == "en" and not signed and bracketed(amount):
        positive = Amount(-amount.value, amount.raw.replace("(", "").replace(")", ""), amount.percent,
                          amount.currency, amount.scale_word)
        text = format_amount(positive, unit, lang)
        m = re.search(r"\d[\d,]*(?:\.\d+)?", text)
        return text[: m.start()] + "(" + m.group(0) + ")" + text[m.end():] if m else "-" + text
    dec = decimals_of(amount.raw)
    magnitude = abs(amount.value)
    sign = "-" if amount.value < 0 else ("+" if signed and amount.value > 0 else "")
    if amount.percent:
        return f"{sign}{_group(magnitude, dec)}%"
    number = _group(magnitude, dec) if magnitude >= 1000 or dec else _group(magnitude, 0)
    if re.search(r"[조억만兆億万]", amount.raw):
        number = re.sub(r"^[△▲−\-–(\s]+|[)\s]+$", "", amount.raw)
        number = re.sub(r"\s*(원|円)$", "", number)
    currency = amount.currency or unit.currency
    word = amount.scale_word or (unit.word if unit.word != "%" else "")
    if currency in ("원", "円", "달러", "ドル") or (lang in ("ko", "ja") and word and word[-1:] in ("원", "円")):
        suffix = word if word.endswith(currency or "\0") else (word + currency if word else currency)
        if unit.word and not amount.scale_word and unit.word.endswith(("원", "円", "달러", "ドル")):
            suffix = unit.word
        return f"{sign}{number}{suffix}"
    prefix = currency if currency and not currency.isalpha() else (currency + " " if currency else "")
    return f"{sign}{prefix}{number}" + (f" {word}" if word else "")


#: the scale a question asks its answer in: "in USD millions", "(in thousands)", "in $ billions"
_ASKED_SCALE = re.compile(
    r"\b(?:in|as)\s+(?:(?:usd|us\$|\$|u\.s\.\s+dollars?|dollars)\s+)?(?P<a>thousands|millions|billions)\b|"
    r"\b(?:usd|us\$|\$)\s?(?P<b>thousands?|millions?|billions?|mm|mn|bn|k)\b",
    re.IGNORECASE,
)
_ASKED_WORDS = {"thousands": "thousand", "k": "thousand", "millions": "million", "mm": "million", "mn": "million",
                "billions": "billion", "bn": "billion", "thousand": "thousand", "million": "million",
                "billion": "billion"}


def asked_scale(question: str) -> str:
    """The scale word an English question wants its amount in ("million"), or ``""``."""
    m = _ASKED_SCALE.search(question)
    return _ASKED_WORDS[(m.group("a") or m.group("b")).lower()] if m else ""


def rescaled(amount: Amount, unit: Unit, word: str, *, whole: bool = False) -> str:
    """``amount`` (read with ``unit``) in the scale ``word`` — ``$321,000 thousand`` → ``$321 million`` — or
    ``""`` when it already is in that scale, is a percentage, or has no scale to convert from. The value is
    exact (trailing zeros dropped), so no rounding is added to what the table says — unless ``whole``: then a
    value of 100 or more in that scale is given in whole units, as statements print them, marked "≈" when that
    rounded it ("$381,603 thousand" asked in millions: "≈$382 million"; the exact figure is said beside it)."""
    if not word or amount.percent:
        return ""
    have = amount.scale_word or (unit.word if unit.word in ("thousand", "million", "billion") else "")
    if not have or have == word:
        return ""
    value = abs(amount.value) * _SCALE_WORDS[have] / _SCALE_WORDS[word]
    digits = max(0, min(6, decimals_of(amount.raw) + len(str(int(_SCALE_WORDS[word] / _SCALE_WORDS[have])))
                        - 1)) if _SCALE_WORDS[word] > _SCALE_WORDS[have] else decimals_of(amount.raw)
    approx = ""
    if whole and value >= 100 and round(value) != value:
        digits, approx = 0, "≈"
    number = f"{value:,.{digits}f}"
    if "." in number:
        number = number.rstrip("0").rstrip(".")
    currency = amount.currency or unit.currency
    prefix = currency if currency and not currency.isalpha() else (currency + " " if currency else "")
    sign = "-" if amount.value < 0 else ""
    return f"{approx}{sign}{prefix}{number} {word}"


def absolute(amount: Amount, unit: Unit) -> float:
    """``amount``'s value in ones: its own scale word ("$1.2 billion"), else the caption's ("in thousands")."""
    if amount.percent:
        return amount.value
    return amount.value * (_SCALE_WORDS.get(amount.scale_word, 0.0) or unit.scale or 1.0)


def korean_won(value_won: float) -> str:
    """Won in 조/억 units when exact at the 억 level (``1조 2,345억원``), else grouped digits."""
    if value_won >= 1e8 and value_won % 1e8 == 0:
        jo, eok = divmod(int(value_won // 1e8), 10_000)
        parts = ([f"{jo:,}조"] if jo else []) + ([f"{eok:,}억"] if eok else [])
        return " ".join(parts) + "원"
    return f"{value_won:,.0f}원"


def percent_change(current: float, prior: float) -> float | None:
    if prior == 0:
        return None
    return (current - prior) / abs(prior) * 100.0
