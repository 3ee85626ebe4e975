"""Which securities are registered on an exchange (pure): "Which debt securities are registered to trade on a
national securities exchange under Acme's name?", "What notes does Acme have listed on the New York Stock Exchange?".

A filing's cover page lists every class registered under Section 12(b) of the Exchange Act — its title, trading
symbol and exchange — one class a line, under "Title of each class / Trading Symbol(s) / Name of each exchange on
which registered" (a grid, or plain lines): "1.000% Notes due 2027 PFE27 New York Stock Exchange". The answer lists
the classes found on those lines (a class's line names an exchange — a debt note's "1.000% Notes due 2027" alone is
not a registration), the debt classes only when debt, notes or bonds are asked, each with its symbol and exchange,
and cites the cover page. ``pages_to_read`` asks for the named company's cover page when no result holds one.
Written from the SEC cover-page form, not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from chat.models.reader.covers import COVER_PAGE
from chat.models.reader.evidence import of_named
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question
from chat.models.reader.text import lines_with_offsets

_ASKED = re.compile(r"(?is)^(?=.*\b(?:which|what|list|name)\b)(?=.*\b(?:securities|notes|bonds|debentures|debt)\b)"
                    r"(?=.*\b(?:registered|listed|trade[sd]?|trading|exchange)\b)")
_DEBT_ASKED = re.compile(r"(?i)\b(?:debt|notes|bonds|debentures)\b")
_EXCHANGE = re.compile(r"(?i)\b(?:New\s+York\s+Stock\s+Exchange|NYSE(?:\s+\w+)?|Nasdaq(?:\s+(?:Global|Stock|Capital)"
                       r"(?:\s+(?:Select|Market))*)?|Chicago\s+Stock\s+Exchange|London\s+Stock\s+Exchange|"
                       r"Euronext\s+\w+|Cboe\s+\w+|Boston\s+Stock\s+Exchange)\b(?:,?\s+(?:Inc|LLC)\.?)?")
_DEBT = re.compile(r"(?i)(?:\d+(?:\.\d+)?\s*%|floating\s+rate)\s+(?:[\w-]+\s+){0,4}?(?:notes|debentures|bonds)\b"
                   r"(?:\s+due\s+(?:\w+\s+)?(?:\d{1,2},\s+)?\d{4})?")
_EQUITY = re.compile(r"(?i)\b(?:class\s+[a-c]\s+)?(?:common|ordinary|preferred|class\s+[a-c])\s+(?:stock|shares)\b"
                     r"[^|]*?"
                     r"(?=\s+(?-i:[A-Z][A-Z0-9.]{0,6})\s|\s*\||\s+(?:New\s+York|NYSE|Nasdaq|Chicago)|$)")
_SYMBOL = re.compile(r"^\s*\|?\s*([A-Z][A-Z0-9.]{0,7})(?=\s|\|)")


@dataclass(frozen=True, slots=True)
class Listed:
    title: str
    symbol: str
    exchange: str
    passage: Passage
    line: tuple[int, int]


def asks_registered(question: str) -> bool:
    """The question asks which securities (or debt securities) are registered or listed on an exchange."""
    return bool(_ASKED.search(question)) and not re.search(
        r"(?i)\bhow\s+(?:many|much)\b|\bexchange\s+rates?\b|\bforeign\s+exchange\b|\bcurrenc|\bexchanged\b|"
        r"\bexchange\s+offers?\b", question)


def listed_classes(passages: Sequence[Passage], *, debt_only: bool) -> list[Listed]:
    """Each class registered on an exchange, as the cover's lines list it (first seen kept)."""
    found: dict[str, Listed] = {}
    first_document = ""
    for p in passages:
        if (p.page and p.page > COVER_PAGE + 1) or (first_document and p.document_id != first_document):
            continue  # one filing's cover (the first that lists any): another year's may list other classes
        for s, e in lines_with_offsets(p.text):
            line = p.text[s:e]
            exchange = _EXCHANGE.search(line)
            if exchange is None:
                continue
            title_m = _DEBT.search(line[: exchange.start()]) or (
                None if debt_only else _EQUITY.search(line[: exchange.start()]))
            if title_m is None:
                continue
            title = " ".join(title_m.group(0).split()).rstrip(" |,")
            after = line[title_m.end() : exchange.start()]
            symbol = _SYMBOL.match(after)
            key = title.lower()
            first_document = first_document or p.document_id
            if key not in found:
                found[key] = Listed(title, symbol.group(1) if symbol else "", " ".join(exchange.group(0).split()),
                                    p, (s, e))
    return list(found.values())



def registered_query(question: str, names: Sequence[str]) -> str:
    """The search for the cover's Section 12(b) list."""
    if not asks_registered(question):
        return ""
    return " ".join([*names, "securities registered pursuant to Section 12(b) of the Act title of each class "
                     "trading symbol name of each exchange on which registered notes due"])


def pages_to_read(question: str, q: Question, passages: Sequence[Passage]) -> list[tuple[str, int]]:
    """The named company's cover page, when no result lists a registered class or only a search hit does (a chunk
    may hold part of the list; pages read already aside)."""
    if not asks_registered(question):
        return []
    classes = listed_classes(of_named(q, passages), debt_only=False)
    if any(c.passage.ref.startswith("P") for c in classes):
        return []
    read = {(p.document_id, p.page) for p in passages if p.ref.startswith("P")}
    docs = [classes[0].passage.document_id] if classes else list(
        dict.fromkeys(p.document_id for p in of_named(q, passages) if p.document_id))
    return [(doc, COVER_PAGE) for doc in docs if doc and (doc, COVER_PAGE) not in read][:2]


def registered_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer text and its quotes, or None when no result lists a registered class."""
    if q.language != "en" or not asks_registered(q.text):
        return None
    debt_only = bool(_DEBT_ASKED.search(q.text))
    classes = listed_classes(of_named(q, passages), debt_only=debt_only)
    if not classes:
        # the covers read whole (a search hit of the same cover may come first: its classes are the read page's)
        covers = [p for p in of_named(q, passages) if p.ref.startswith("P")]
        every = listed_classes(covers, debt_only=False) if debt_only else []
        if not every:
            return None
        # the whole cover read, and no debt class on it: none is registered
        said = "; ".join(f"{c.title} ({', '.join(x for x in (c.symbol, c.exchange) if x)}) [{c.passage.ref}]"
                         for c in every)
        quotes = [(c.passage.ref, c.passage.text[c.line[0] : c.line[1]]) for c in every]
        lead = f"None — the filing's cover lists no debt security under Section 12(b), only: {said}."
        return "\n".join([lead, *("> " + text.strip() for _, text in quotes)]), quotes
    count = len(classes)
    one = count == 1
    kind = ("debt security" if one else "debt securities") if debt_only else (
        "class of securities" if one else "classes of securities")
    said = "; ".join(f"{c.title} ({', '.join(x for x in (c.symbol, c.exchange) if x)}) [{c.passage.ref}]"
                     for c in classes)
    lead = (f"{count} {kind} {'is' if one else 'are'} registered on an exchange under Section 12(b), as the "
            f"filing's cover lists: {said}.")
    quotes = [(c.passage.ref, c.passage.text[c.line[0] : c.line[1]]) for c in classes]
    return "\n".join([lead, *("> " + text.strip() for _, text in quotes)]), quotes
