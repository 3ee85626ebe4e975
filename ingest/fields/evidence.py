"""Doubts about a field's value that its confidence alone does not carry (pure): each one is a reason the rules
(:func:`ingest.fields.rules.check`) send the field to a person, whatever the confidence says.

Generic properties of how a value was read, none about a particular document set:

- ``ocr_confusable`` — the value is glued to a letter OCR confuses with a digit (``1O.00``, ``9.0O``,
  ``2S/12/2023``): what parsed may be a fragment of the printed value (not a currency prefix, not a tax code
  after the cents);
- ``digit_in_word`` — a company name with a digit inside a word (``SDN 8HD``, ``C0MPANY``): a misread character;
- ``name_split`` — the organisation's row holds only its legal suffix (``SDN BHD``), or the row above reads like
  the name's first part (``CT281 - TEALIVE SHELL`` / ``OTTOGO ENTERPRISE``): the name spans rows;
- ``ambiguous_value`` — the value's row holds more than one different amount with cents after the label;
- ``candidates_disagree`` — the document prints other, different values for the field and no independent check
  (arithmetic, repetition) picks one (a total before cash rounding, or one equal to the subtotal or the cash
  tendered, is explained, no rival);
- ``no_label`` — a date found by its shape only, with no label naming it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

#: letters an OCR engine reads for digits (O/0, I/l/|/1, S/5, B/8, Z/2, g/9, D/Q/0)
CONFUSABLE = frozenset("OoDQIl|SBZg")
_DIGIT_IN_WORD = re.compile(r"(?<=[A-Z])\d(?=[A-Z])|\b\d(?=[A-Z]{2,}\b)")
_SUFFIX = re.compile(r"\bSDN\.?\s*BHD\b|\bBHD\b|\bS/B\b|\bPLT\b|\bLTD\b|\bLIMITED\b|\bINC\b|\bLLC\b|\bCORP\w*|"
                     r"\bCO\b\.?|\bENTERPRISE\b|주식회사|\(주\)|㈜|株式会社|有限会社|合同会社|\(株\)", re.IGNORECASE)


def confusable_neighbour(text: str, start: int, end: int) -> str | None:
    """The confusable letter glued to ``text[start:end]`` (one letter, not part of a word such as a tax code
    ``9.00SR``), else None."""
    if start > 0 and text[start - 1] in CONFUSABLE and (start < 2 or not text[start - 2].isalpha()):
        return text[start - 1]
    if end < len(text) and text[end] in CONFUSABLE and (end + 1 >= len(text) or not text[end + 1].isalpha()):
        return text[end]
    return None


_CURRENCY_PREFIX = re.compile(r"^(?:RM|MYR|US\$|S\$|USD|SGD|KRW|JPY|EUR|GBP|[$₩¥￥€£])", re.IGNORECASE)


def glued_digits(text: str, start: int, end: int, cents: bool) -> bool:
    """An amount whose printed token mixes digits with digit-like letters (``1O.00``, ``9.0O``, ``S9.00``): what
    parsed may be a fragment. A currency prefix is no misread, nor letters after an amount with cents (a tax
    code such as ``9.00SR`` or ``9.00S``: a third decimal would be no amount)."""
    left = start
    while left > 0 and not text[left - 1].isspace():
        left -= 1
    right = end
    while right < len(text) and not text[right].isspace():
        right += 1
    head = _CURRENCY_PREFIX.sub("", text[left:start])
    tail = text[end:right]
    if cents and tail.isalpha():
        tail = ""
    return any(ch in CONFUSABLE for ch in head + tail) or bool(re.match(r"[.,]\d?[A-Za-z|]", tail))


def digit_in_word(text: str) -> bool:
    return bool(_DIGIT_IN_WORD.search(text.upper()))


def suffix_only(text: str) -> bool:
    """The row is (almost) only a legal suffix: fewer than three letters of a name are left without it."""
    rest = _SUFFIX.sub("", text)
    return sum(ch.isalpha() for ch in rest) < 3


_TITLE = re.compile(r"invoice|receipt|\bbill\b|\btax\b|\border\b|statement|quotation|welcome|"
                    r"영수증|계산서|領収|請求|レシート", re.IGNORECASE)


def name_continues(above: str, name: str) -> bool:
    """The row above an organisation's name row reads like the first part of the name: two or more words in
    capitals or title case, no document title (``TAX INVOICE``), no number or address, and not the same name
    again (a logo line repeating it). An all-lowercase row is a note, not a registered name."""
    words = re.findall(r"[^\W\d_]{2,}", above)
    if len(words) < 2 or above.lower() == above or _TITLE.search(above):
        return False
    if sum(ch.isdigit() for ch in above) > 5 or re.search(r",\s*$|\bno\.?\s*\d|\d{5}", above, re.IGNORECASE):
        return False
    own = [w.upper() for w in re.findall(r"[^\W\d_]{2,}", name)]
    same = sum(any(SequenceMatcher(None, w.upper(), o).ratio() >= 0.8 for o in own) for w in words)
    return same < len(words) / 2  # mostly the name's own words (OCR-garbled or not): the logo line


def other_amounts(values: Sequence[tuple[str, bool]], chosen: str) -> list[str]:
    """Amounts with cents on the row besides the chosen one (``values``: normalised value, has cents)."""
    return sorted({v for v, cents in values if cents and v != chosen})
