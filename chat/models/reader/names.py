"""Is a company named in the passages (pure)?

A name counts as present when a passage's text, file name or document identity (the company its cover names,
its former names and tickers) holds it, or when the file name carries its stock
ticker — an all-caps token whose first three letters are the name's letters in order (``AAPL`` for Apple,
``MSFT`` for Microsoft); a name of several words also when most of its distinct words (not the joining "of",
"and", "the") are there side by side (OCR garbles receipts' shop names) — not scattered over a passage, where
the common words of a name ("Best", "Buy", "Bank") say nothing of the company. A company the question names
that no passage mentions means the documents are about someone else: the reader declines (retrieval would have
found the company's own passages by its name).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence

from chat.models.reader.passage import Passage
from retrieval.owners import abbreviates, core_name, glued_stems

#: share of a several-word name's words a passage must hold to mention it
NAME_WORDS_PRESENT = 0.6
#: slack beyond the name's own length within which its words must lie (OCR noise, a dropped word)
NAME_GAP_CHARS = 12
#: words that join a name's words and say nothing of which company it is
_JOINING = frozenset({"of", "the", "and", "de", "la", "du", "der", "von", "et"})
_TICKER = re.compile(r"(?<![A-Za-z])[A-Z]{2,5}(?![A-Za-z])")
#: a name written as its initials: "J&J", "JnJ", "P&G", "GE" ("n" and "&" stand for "and")
_INITIALISM = re.compile(r"[A-Z](?:\s?(?:&|n)?\s?[A-Z]){1,3}")
#: legal-form and joining words that a company's initials leave out ("Johnson & Johnson" is J&J, "General
#: Electric Company" GE)
_NOT_INITIALLED = frozenset({
    "inc", "incorporated", "corp", "corporation", "co", "company", "ltd", "limited", "plc", "llc", "lp", "sa", "nv",
    "ag", "se", "the", "and", "of", "dated", "formerly",
})


def _initials(name: str) -> str:
    words = [w for w in re.findall(r"[A-Za-z]+", name) if w.lower() not in _NOT_INITIALLED]
    return "".join(w[0].upper() for w in words)


def _owners(passage: Passage, identity: bool) -> list[str]:
    """Who the passage's document belongs to: its file name's words before the first one with a digit
    ("JOHNSON_JOHNSON_2023_8K.pdf" → "JOHNSON JOHNSON") and, with ``identity``, the identity's names."""
    stem = re.split(r"[_\-\s](?=[^_\-\s]*\d)", re.sub(r"\.\w{1,5}$", "", passage.file_name), maxsplit=1)[0]
    owners = [stem.replace("_", " ")] + (passage.company.splitlines() if identity else [])
    return [owner for owner in owners if owner.strip()]


def owner_words(passages: Sequence[Passage]) -> set[str]:
    """The words, in lower case, of the companies the passages' documents belong to (file names and identities)."""
    return {w.lower() for p in passages for owner in _owners(p, True) for w in re.findall(r"[A-Za-z][\w&-]*", owner)}


def _initialism_of(name: str, passage: Passage, identity: bool) -> bool:
    """``name`` is an initialism ("J&J", "JnJ") of the company the file name or the document's identity names,
    or a short form cut from its words ("AMEX" for American Express, ``owners.abbreviates``)."""
    owners = _owners(passage, identity)
    if any(abbreviates(name, core_name(owner)) for owner in owners):
        return True
    if not _INITIALISM.fullmatch(name):
        return False
    letters = re.sub(r"[^A-Z]", "", name)
    return any(len(_initials(owner)) >= 2 and _initials(owner) == letters for owner in owners)


def _glued_co(needle: str, passage: Passage, identity: bool) -> bool:
    """The company's name with "Co" glued to it ("PepsiCo", file "PEPSICO_…") asked without it ("Pepsi")."""
    return needle in glued_stems("".join(core_name(owner)) for owner in _owners(passage, identity))


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


def mentions(name: str, passage: Passage, *, identity: bool = True) -> bool:
    """``name`` is in the passage's text, file name or document identity (``Passage.company``) — written out
    (spaces, hyphens and "&"/"and" aside: "Wal-Mart" is Walmart), as its ticker, as its initials ("J&J", "JnJ" for
    the file or the identity's "Johnson & Johnson"), or (a name of several words, maybe garbled by OCR) with most
    of its words; a name with its legal form ("3M Co") as one without it, and one without the "Co" the company
    glues to it ("Pepsi" for PepsiCo)."""
    needle = name.lower()
    haystack = passage.text.lower() + "\n" + passage.file_name.lower()
    if identity:
        haystack += "\n" + passage.company.lower()
    if needle.isascii() and re.match(r"\w", needle):  # a Latin name is a whole word: "Intel" is not in "intellectual"
        if re.search(r"(?<![a-z0-9])" + re.escape(needle) + r"(?![a-z0-9])", haystack):
            return True
    elif needle in haystack:
        return True
    if needle.isascii() and _spaced(needle).search(haystack.replace("&", " and ")):
        return True  # "Wal-Mart" / "Walmart", "Footlocker" / "Foot Locker", "Johnson and Johnson" / "… & …"
    if any(_ticker_of(name, t) for t in _TICKER.findall(passage.file_name)):
        return True
    if _initialism_of(name, passage, identity):
        return True
    if _glued_co(needle, passage, identity):
        return True
    core = " ".join(core_name(name))
    if core and core.lower() != needle:  # "3M Co", "Acme Corp." as "3M", "Acme"
        return mentions(core, passage, identity=identity)
    words = list(dict.fromkeys(w for w in re.findall(r"[^\W_]{2,}", needle) if w not in _JOINING))
    if len(words) < 2:
        return False
    return _words_near(words, haystack)


@functools.lru_cache(maxsize=512)
def _spaced(needle: str) -> re.Pattern[str]:
    """``needle`` as a whole word whatever its spaces, hyphens, dots and apostrophes, "&" read as "and"."""
    letters = re.sub(r"[^a-z0-9]", "", needle.replace("&", "and"))
    return re.compile(r"(?<![a-z0-9])" + r"[\s\-.'’]{0,2}".join(re.escape(c) for c in letters) + r"(?![a-z0-9])")


def _words_near(words: list[str], haystack: str) -> bool:
    """At least ``NAME_WORDS_PRESENT`` of ``words`` (distinct) lie together in ``haystack``: within a stretch
    about as long as the name written out — a garbled name keeps its other words beside each other, while
    common words of a name ("best", "buy", "bank") scattered over a passage do not name it."""
    need = max(2, math.ceil(NAME_WORDS_PRESENT * len(words) - 1e-9))
    reach = sum(len(w) + 1 for w in words) + NAME_GAP_CHARS
    hits = [(m.start(), m.group(0)) for m in re.finditer(r"[^\W_]{2,}", haystack) if m.group(0) in words]
    for i, (start, _) in enumerate(hits):
        seen = {w for at, w in hits[i:] if at - start <= reach}
        if len(seen) >= need:
            return True
    return False
