"""Which documents does a search query name by their owner (pure)?

"What was Boeing's effective tax rate in 2022?" over forty filings: the passages that answer it (a tax note, the
income statement) rarely print "Boeing", so keyword and semantic search rank another company's tax note as
high as Boeing's — and the answer is about the wrong company, or declines because no passage names Boeing. Who a
document belongs to is known apart from its passages: its cover's registrant, former names and tickers
(``ingest.steps.identity``) and, by a common naming habit, the capitalised head of its file name
(``BOEING_2022_10K.pdf``). ``named_documents`` returns the documents a query names that way, so the search tool
can search those first.

A document counts as named when the query holds:

- its company's name without the legal form ("The Boeing Company" → "Boeing", "BEST BUY CO., INC." → "Best
  Buy", "AMAZON.COM, INC." → "Amazon.com"/"Amazon"), or a former name — a one-word name only when the query
  writes it capitalised ("Target's revenue", not "the target price"), a longer one in any case;
- one of its tickers, written as the cover prints it (upper case, two letters or more: "MGM", "JNJ");
- its initials written with "&" or "n" ("J&J", "JnJ", "P&G" for Johnson & Johnson, Procter & Gamble) — only for
  a name written with "&" itself, so "R&D", "G&A" or "S&P" name nobody (not even a "GENERAL_ATOMICS" file);
- a short form in capitals cut from the name's words in order ("AMEX" for American Express, "JPM" for JPMorgan
  Chase) — at least three letters, a part of one word at least two of them (bare initials are left to the
  tickers: "EPS", "ROE" or "GAAP" are a finance word's initials, not a company's);
- a one-word name without the "Co" it glues to itself ("Pepsi" for PepsiCo), capitalised;
- the head of its file name before the first part with a digit, when the file name writes it in capitals
  ("BESTBUY_2023_10K.pdf", "JOHNSON_JOHNSON_2023_8K.pdf", "3M_2018_10K.pdf"), as one to three capitalised
  words of the query run together ("Best Buy", "Johnson & Johnson", "3M").

Nothing else: a query that names no owner (or names one no document belongs to) gives ``[]`` and the search
runs as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

#: legal-form words a company's name ends with (dropped from the end, any number of them)
_LEGAL = frozenset({
    "inc", "incorporated", "corp", "corporation", "co", "company", "companies", "ltd", "limited", "plc", "llc",
    "lp", "l.p", "n.v", "nv", "s.a", "sa", "ag", "se", "the", "holdings", "group",
})
_WORD = re.compile(r"[A-Za-z0-9]+(?:\.[A-Za-z]{2,3}\b)?")
#: initials with "&" or "n" between the letters: "J&J", "JnJ", "P&G", "AT&T"
_AND_INITIALS = re.compile(r"(?<![A-Za-z&])([A-Z]{1,2}(?:\s?(?:&|n)\s?[A-Z]{1,2})+)(?![A-Za-z&])")
_TICKER = re.compile(r"^[A-Z]{1,5}(?:\.[A-Z]{1,2})?$")
#: at most this many query words make up one file-name head
_HEAD_WORDS = 3


def _words(text: str) -> list[str]:
    return _WORD.findall(text.replace("&", " and "))


def core_name(name: str) -> list[str]:
    """The words of a company's name without its legal form and a leading "The" ("The Boeing Company" →
    ["Boeing"]; "AMAZON.COM, INC." → ["AMAZON.COM"])."""
    words = _words(name)
    while words and (words[-1].lower().rstrip(".") in _LEGAL or words[-1].lower() in ("and", "of")):
        words.pop()  # "Merck & Co., Inc." → "Merck"
    while words and words[0].lower() == "the":
        words.pop(0)
    return words


def _spellings(words: list[str]) -> list[list[str]]:
    """A name's word sequences to look for: as written and, for a ``.com`` name, without it."""
    out = [words]
    if words and re.search(r"\.(com|net)$", words[-1], re.I):
        out.append([*words[:-1], re.sub(r"\.(com|net)$", "", words[-1], flags=re.I)])
    return [w for w in out if w]


def _names_in(query_words: Sequence[str], name_words: list[str]) -> bool:
    """``name_words`` appear side by side in the query (case-insensitive); a one-word name only capitalised."""
    n = len(name_words)
    low = [w.lower() for w in name_words]
    for i in range(len(query_words) - n + 1):
        window = query_words[i : i + n]
        if [w.lower() for w in window] != low:
            continue
        if n > 1 or window[0][:1].isupper() or window[0][:1].isdigit():
            return True
    return False


def file_head(file_name: str) -> str:
    """The head of a file name before its first part with a digit, when it is written in capitals
    ("BESTBUY_2023_10K.pdf" → "BESTBUY", "JOHNSON_JOHNSON_2023Q2.pdf" → "JOHNSON_JOHNSON", "3M_2018_10K.pdf" →
    "3M"); "" otherwise ("report_2023.pdf", "Annual Report.pdf")."""
    stem = re.sub(r"\.\w{1,5}$", "", file_name.rsplit("/", 1)[-1])
    parts = [p for p in re.split(r"[_\-\s]+", stem) if p]
    head: list[str] = []
    for i, part in enumerate(parts):
        if re.search(r"\d", part) and not (i == 0 and re.fullmatch(r"\d[A-Z]+", part)):  # "3M" is a name
            break
        head.append(part)
    text = "_".join(head)
    if not head or not re.fullmatch(r"[A-Z0-9&_]+", text) or not re.search(r"[A-Z]", text) or len(text) < 2:
        return ""
    return text


def _head_in(query: str, head: str) -> bool:
    """The file-name head is one to three capitalised query words run together ("Best Buy" for BESTBUY)."""
    target = re.sub(r"[^a-z0-9]", "", head.lower())
    words = [w for w in re.findall(r"[A-Za-z0-9]+", query) if w != "and"]  # "Procter & Gamble", "… and Gamble"
    for i in range(len(words)):
        if not (words[i][:1].isupper() or words[i][:1].isdigit()):
            continue
        joined = ""
        for j in range(i, min(i + _HEAD_WORDS, len(words))):
            joined += words[j].lower()
            if joined == target:
                return True
            if not target.startswith(joined):
                break
    return False


def _initials(words: Iterable[str]) -> str:
    return "".join(w[0].upper() for w in words if w.lower() not in ("and", "of", "the"))


def _initials_in(query: str, names: list[list[str]]) -> bool:
    """The query writes a name's initials with "&"/"n" between them ("J&J", "JnJ" for Johnson & Johnson)."""
    for m in _AND_INITIALS.finditer(query):
        letters = re.sub(r"[^A-Z]", "", m.group(1))
        if len(letters) >= 2 and any(len(_initials(n)) >= 2 and _initials(n) == letters for n in names):
            return True
    return False


#: capital short forms that are finance terms, never a company's short form ("EPS" is no "Epsilon Inc.")
_FINANCE_TERMS = frozenset({
    "EPS", "EBIT", "EBITDA", "EBITA", "GAAP", "IFRS", "ROE", "ROA", "ROIC", "ROCE", "CAPEX", "OPEX", "COGS", "FCF",
    "OCF", "SEC", "USD", "EUR", "GBP", "CEO", "CFO", "COO", "LIFO", "FIFO", "SGA", "IPO", "ESG", "YOY", "TTM", "LTM",
    "NOL", "OCI", "AOCI", "DSO", "DPO", "DIO", "CCC", "WACC", "NPV", "IRR", "CAGR", "MDA", "PPE", "NAV", "AUM",
    "ASC", "ASU", "FASB", "IASB", "IRS", "NYSE", "OTC", "LIBOR", "SOFR", "CET", "RSU", "ESPP", "ARPU", "SKU",
})


def abbreviates(token: str, core: Sequence[str]) -> bool:
    """``token`` (capitals, three to six letters) is a short form of the name ``core``: its letters are the starts
    of the name's words in order, from the first word on, one of them two letters or more ("AMEX" = AMerican
    EXpress, "JPM" = JPMorgan Chase) — bare initials ("AMD") are left to the tickers."""
    if not re.fullmatch(r"[A-Z]{3,6}", token) or token in _FINANCE_TERMS or not core:
        return False
    words = [w.upper() for w in core if w.lower() not in ("and", "of", "the")]

    def split(rest: str, i: int, long_part: bool) -> bool:
        if not rest:
            return long_part
        if i >= len(words):
            return False
        word = words[i]
        return any(split(rest[n:], i + 1, long_part or n >= 2)
                   for n in range(min(len(rest), len(word)), 0, -1) if word.startswith(rest[:n]))

    return split(token, 0, False)


def owner_names(file_name: str, identity: Mapping[str, Any] | None) -> tuple[list[list[str]], list[str], str]:
    """(the names' core words — the company's and its former names', the tickers, the file-name head)."""
    identity = identity or {}
    names = [str(identity.get("company") or ""), *(str(n) for n in identity.get("former_names") or [])]
    cores = [c for n in names if n.strip() for c in _spellings(core_name(n))]
    tickers = [str(t) for t in identity.get("tickers") or [] if _TICKER.match(str(t)) and len(str(t)) >= 2]
    return cores, tickers, file_head(file_name)


def names_document(query: str, file_name: str, identity: Mapping[str, Any] | None) -> bool:
    """``query`` names the document's owner (see the module docstring)."""
    cores, tickers, head = owner_names(file_name, identity)
    query_words = _words(query)
    if any(_names_in(query_words, core) for core in cores):
        return True
    tokens = set(re.findall(r"(?<![\w.])[A-Z]{2,5}(?:\.[A-Z]{1,2})?(?![\w])", query))
    if any(t in tokens for t in tickers):
        return True
    if any(abbreviates(t, core) for t in tokens for core in cores):
        return True
    if _initials_in(query, [c for c in cores if "and" in (w.lower() for w in c[1:-1])]):
        return True
    if _glued_in(query_words, [*(c[0] for c in cores if len(c) == 1), head]):
        return True
    return bool(head) and _head_in(query, head)


#: the legal form some companies glue to their one-word name ("PepsiCo", "SYSCO"): a question may leave it off
_GLUED = ("co", "corp")
#: … leaving at least this many letters
GLUED_STEM = 4


def glued_stems(names: Iterable[str]) -> set[str]:
    """The one-word names without the "Co" glued to them, in lower case ("PepsiCo" → "pepsi")."""
    return {n.lower()[: -len(g)] for n in names for g in _GLUED
            if n.isalpha() and n.lower().endswith(g) and len(n) - len(g) >= GLUED_STEM}


def _glued_in(query_words: Sequence[str], names: Sequence[str]) -> bool:
    """A capitalised query word is a one-word name without the "Co" glued to it ("Pepsi" for PepsiCo)."""
    stems = glued_stems(names)
    return any(w[:1].isupper() and w.lower() in stems for w in query_words)


def named_documents(query: str, docs: Sequence[Mapping[str, Any]]) -> list[str]:
    """The ids of the documents in ``docs`` (``document_id``, ``file_name``, ``identity``) whose owner ``query``
    names, in their order."""
    return [str(d["document_id"]) for d in docs
            if d.get("document_id") and names_document(query, str(d.get("file_name") or ""), d.get("identity"))]


#: a year a query asks about: "2022", "FY2022", "fiscal 2022", "FY22"
_ASKED_YEAR = re.compile(r"(?i)(?<![\w.$])(?:(?P<fiscal>FY\s?'?|fiscal\s+(?:year\s+)?)(?P<short>\d\d)|"
                         r"(?P<fy>FY\s?|fiscal\s+(?:year\s+)?)?(?P<year>(?:19|20)\d\d))(?![\w.,]\d|\d)")
#: a quarter or half asked ("Q2 of FY2023", "the second quarter"): a fiscal year's part, which may end the year before
_PART_OF_YEAR = re.compile(r"(?i)\bQ[1-4]\b|\b[1-4]Q\b|\bquarter|\bhalf\b|\bH[12]\b|\bsix\s+months|\bnine\s+months")


def asked_years(query: str) -> set[int]:
    """The years ``query`` writes ("… in fiscal 2022", "FY21", "as of December 31, 2019")."""
    return {year for year, _ in _years_asked(query)}


def _years_asked(query: str) -> list[tuple[int, bool]]:
    """(year, whether it is a fiscal year's — "FY2023", "fiscal 2023", or a quarter of one) for each year asked."""
    part = bool(_PART_OF_YEAR.search(query))
    out: list[tuple[int, bool]] = []
    for m in _ASKED_YEAR.finditer(query):
        year = int(m.group("year")) if m.group("year") else 2000 + int(m.group("short"))
        out.append((year, bool(m.group("fiscal") or m.group("fy")) or part))
    return out


def _period_of(identity: Mapping[str, Any] | None) -> tuple[int, str] | None:
    """(the year its period ends, its kind — "year", "quarter", "report" …) by the document's cover."""
    end = str((identity or {}).get("period_end") or "")
    if not re.match(r"(?:19|20)\d\d-", end):
        return None
    return int(end[:4]), str((identity or {}).get("period_kind") or "")


def _of_year(period: tuple[int, str] | None, asked: list[tuple[int, bool]]) -> bool:
    """The document's period is a year asked: the same calendar year, or — a fiscal year or its quarter asked — a
    year the company's naming may give it: a fiscal year named for the year it began in ends the next year (a
    retailer's fiscal 2022 ends in January 2023), and a quarter of fiscal 2023 may end in 2022 (a June year's)."""
    if period is None:
        return False
    year, kind = period
    for want, fiscal in asked:
        if year == want or (fiscal and year == want + 1) or (fiscal and kind != "year" and year == want - 1):
            return True
    return False


def dated_documents(query: str, docs: Sequence[Mapping[str, Any]], named: Sequence[str]) -> list[str]:
    """Of the ``named`` documents (``named_documents``), those whose period — the year their cover says they end
    (``identity.period_end``) — is a year ``query`` asks about (``_of_year``): "Corning's Display Technologies net
    sales in 2022" over Corning's 10-Ks for 2020, 2021 and 2022 is the 2022 one's (the older ones print "2022" in
    their outlook, and their segment tables rank as high). Empty when the query asks no year, or every named
    document (or none) is of one."""
    asked = _years_asked(query)
    if not asked:
        return []
    wanted = set(named)
    out = [str(d["document_id"]) for d in docs
           if str(d.get("document_id")) in wanted and _of_year(_period_of(d.get("identity")), asked)]
    return out if len(out) < len(wanted) else []
