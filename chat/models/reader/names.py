"""Is a company named in the passages, and do the passages name anybody (pure)?

A name counts as present when a passage's text or file name holds it, or when the file name carries its stock
ticker — an all-caps token whose first three letters are the name's letters in order (``AAPL`` for Apple,
``MSFT`` for Microsoft). Passages "name someone" when their text has an organisation (``X Inc.``, ``X Corp``,
``주식회사 X``, ``X株式会社``) or their file names a ticker-like token or a proper-name word. Only then does
a company missing from every passage mean the documents are about someone else; a table chunk that names no
one cannot tell, and the answer says the passages don't name the company instead of declining.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chat.models.reader.lexicon import EN_CAPS_GENERIC, GENERIC_DOCUMENT
from chat.models.reader.passage import Passage

_ORG = re.compile(
    r"\b[A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*)*,?\s+(?:Inc|Corp|Corporation|Co|Ltd|LLC|plc|Group|Holdings|Company|AG|SE|"
    r"N\.V|S\.A)\b|주식회사|㈜|\(주\)|株式会社|有限会社|\(株\)|㈱"
)
_TICKER = re.compile(r"(?<![A-Za-z])[A-Z]{2,5}(?![A-Za-z])")
_FILE_WORD = re.compile(r"[\uac00-\ud7af\u3040-\u30ff\u4e00-\u9fff]{2,}|[A-Z][a-z]{2,}")
_FILE_GENERIC = re.compile(
    r"(?i)^(?:annual|quarterly|report|form|filing|statement|financial|results|receipt|"
    r"invoice|document|draft|final|copy|scan|page|part|q[1-4]|fy\d*)$"
)


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
    needle = name.lower()
    if needle in passage.text.lower() or needle in passage.file_name.lower():
        return True
    return any(_ticker_of(name, t) for t in _TICKER.findall(passage.file_name))


def names_someone(passages: Sequence[Passage]) -> bool:
    """The passages name an organisation (text or file name), so an absent company is really absent."""
    for p in passages:
        if _ORG.search(p.text):
            return True
        stem = re.sub(r"\.[A-Za-z0-9]{1,5}$", "", p.file_name)
        if any(t.lower() not in EN_CAPS_GENERIC for t in _TICKER.findall(stem)):
            return True
        for word in _FILE_WORD.findall(stem):
            if not _FILE_GENERIC.match(word) and not GENERIC_DOCUMENT.search(word.lower()):
                return True
    return False
