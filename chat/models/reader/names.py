"""Is a company named in the passages (pure)?

A name counts as present when a passage's text or file name holds it, or when the file name carries its stock
ticker — an all-caps token whose first three letters are the name's letters in order (``AAPL`` for Apple,
``MSFT`` for Microsoft); a name of several words also when most of its words are there (OCR garbles
receipts' shop names). A company the question names that no passage mentions means the documents are about
someone else: the reader declines (retrieval would have found the company's own passages by its name).
"""

from __future__ import annotations

import re

from chat.models.reader.passage import Passage

#: share of a several-word name's words a passage must hold to mention it
NAME_WORDS_PRESENT = 0.6
_TICKER = re.compile(r"(?<![A-Za-z])[A-Z]{2,5}(?![A-Za-z])")


def _ticker_of(name: str, token: str) -> bool:
    letters = re.sub(r"[^A-Z]", "", name.upper())
    if not letters or token[0] != letters[0]:
        return False
    at = 0
    for ch in token[:3]:
        found = letters.find(ch, at)
        if found < 0:
            return False
        at = found  # a letter may be used twice (AAPL: A, A, P in APPLE)
    return True


def mentions(name: str, passage: Passage) -> bool:
    """``name`` is in the passage's text or file name — written out, as its ticker, or (a name of several
    words, maybe garbled by OCR) with most of its words."""
    needle = name.lower()
    haystack = passage.text.lower() + "\n" + passage.file_name.lower()
    if needle.isascii() and re.match(r"\w", needle):  # a Latin name is a whole word: "Intel" is not in "intellectual"
        if re.search(r"(?<![a-z0-9])" + re.escape(needle) + r"(?![a-z0-9])", haystack):
            return True
    elif needle in haystack:
        return True
    if any(_ticker_of(name, t) for t in _TICKER.findall(passage.file_name)):
        return True
    words = re.findall(r"[^\W_]{2,}", needle)
    if len(words) < 2:
        return False
    present = set(re.findall(r"[^\W_]{2,}", haystack))
    return sum(1 for w in words if w in present) / len(words) >= NAME_WORDS_PRESENT
