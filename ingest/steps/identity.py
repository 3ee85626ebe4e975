"""Whose document is it? The company a filing or a press release is about, read from its first pages (pure).

A question names a company ("What was Pfizer's total current assets in 2021?"); the pages that answer it often
do not (a balance sheet's caption says "(MILLIONS, EXCEPT PER COMMON SHARE DATA)"). Who the document is about is
written once, on its cover, in forms that filings share by regulation, not by wording:

- the registrant line of an SEC cover page — the line above "(Exact name of registrant as specified in its
  charter)"; on covers without that marker (older 10-Ks) the line below "Commission file number …";
- the trading symbols of the Section 12(b) table (the "Trading Symbol(s)" column, as a Markdown table or as
  text rows: the all-capitals token beside the class title and the exchange);
- the line above "(Former name, former address and former fiscal year, if changed since last report)" unless it
  says there is none;
- a press release's dateline: "Acme Widgets Inc. (NYSE: ACME) today reported …";
- where the cover has no 12(b) table with symbols (10-Ks before 2019), the sentence anywhere in the document
  that says where the company's own shares trade: "Our common stock is traded on the NASDAQ Global Select Market
  under the symbol “NFLX”", "The Company's ticker symbol is MMM" (``listed_symbols``, read over every chunk at
  chunking time) — only a sentence about our / the Company's / the registrant's stock, not a spun-off company's
  ("… Viatris, which is traded under the symbol “VTRS”") nor notes' symbols ("under the symbols “GIS23A” …").

And the latest date the document speaks of, ``period_end`` (ISO) with ``period_kind``: an SEC cover's "For the
fiscal year ended December 31, 2022" (``year``) / "For the quarterly period ended July 1, 2023" (``quarter``),
an 8-K's "Date of Report (Date of earliest event reported): May 3, 2023" (``report``), or a press release's
date — the first full date on a page with its dateline (``release``). The reader uses it to tell that a
company's documents end before the year a question asks about (``chat.models.reader.coverage``).

``document_identity`` returns ``{"company", "tickers", "former_names", "period_end", "period_kind"}`` (the keys
it found) and ``"read": IDENTITY_READ`` (which reading stored it: a document read by an older one is read again
when it is looked up, ``ingest.documents``), or ``{"read": …}`` alone when the first pages carry none of these
(a receipt, an article, a scan without text): nothing is guessed. The pipeline
stores it on the document item at chunking time, so it is known when the document becomes searchable, and the
document tools show it beside every passage (``company="…"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from ingest.page_text import page_text

#: which reading of the cover an identity comes from: 2 added the period (``period_end``/``period_kind``), 3 the
#: registrant of a text layer broken at every word, 4 the listing sentence's symbol (``listed_symbols``)
IDENTITY_READ = 4
#: the first pages read for a cover (a filing's cover is page 1; a wrapper page may push it to page 2)
COVER_PAGES = 2
#: a name longer than this (characters / words) is a sentence, not a name
MAX_NAME_CHARS = 120
MAX_NAME_WORDS = 12
MAX_TICKERS = 8
#: rows of the 12(b) table read after its header
MAX_SYMBOL_ROWS = 16

_EXACT = re.compile(r"\(\s*exact\s+name\s+of\s+(?:the\s+)?registrants?\b", re.I)
_FORMER = re.compile(r"^\W*\(?\s*former\s+name", re.I)
_FILE_NO = re.compile(r"\bcommission\s+file\s+(?:number|no\b\.?)", re.I)
_FILE_NO_VALUE = re.compile(_FILE_NO.pattern + r"\s*:?\s*[\d\-]+", re.I)
_SYMBOL_HEAD = re.compile(r"trading\s+symbols?(?:\s*\(s\))?", re.I)
_SYMBOLS_END = re.compile(r"indicate\s+by\s+check\s+mark|section\s+12\s*\(g\)", re.I)
_RULE = re.compile(r"^[\s_\-–—=*.·•|:]*$")
_NO_VALUE = frozenset({"n/a", "na", "none", "not applicable", "no change", "not changed"})
# a ticker: capitals (a class suffix ``.B`` allowed), not inside a word, an amount or a percentage
_TOKEN = re.compile(r"(?<![\w$.%/&-])([A-Z]{1,5}(?:\.[A-Z]{1,2})?)(?![\w%/&-])")
# capitals on the rows that are the exchange's or the security's name, never a symbol
_NOT_SYMBOL = frozenset({"LLC", "INC", "NYSE", "NASDAQ", "LP", "PLC", "NV", "SA", "AG", "SE", "II", "III", "IV",
                         "USD", "US", "USA", "NA", "N", "ADS", "ADR"})
_CLASS_WORD = re.compile(r"(?:class|series)\s*$", re.I)
# "Acme Inc. (NYSE: ACME)", "(Nasdaq: ACME)", "(NYSE American: ACME)"
_DATELINE = re.compile(r"\(\s*(?:NYSE(?:\s+American|\s+MKT|\s+Arca)?|NASDAQ|Nasdaq|AMEX|TSX|LSE|ASX)\s*:\s*"
                       r"([A-Z]{1,5}(?:\.[A-Z]{1,2})?)\s*\)")
#: whose stock a listing sentence is about: ours, the Company's / registrant's, or a name's ("3M's", "NIKE's")
_OWNER = r"(?P<owner>\b(?:our|its)|\bthe\s+(?:company|registrant)['’]s|\b[a-z0-9][\w.&-]*['’]s)"
#: within one sentence (a full stop only before a digit: "par value $.01")
_IN_SENTENCE = r"(?:[^.!?]|\.(?=\d))"
_SYMBOL = r"[\"“”'‘’]?(?-i:(?P<symbol>[A-Z]{1,5}(?:\.[A-Z]{1,2})?))(?![\w-])"
#: "Our common stock is traded on the NYSE under the symbol “GIS.”", "3M's stock ticker symbol is MMM", "The
#: NYSE ticker symbol for Corning Incorporated is “GLW”"
_LISTINGS = tuple(re.compile(p, re.I) for p in (
    _OWNER + r"\s+(?:class\s+[a-z]\s+)?(?:common\s+stock|common\s+shares|ordinary\s+shares|shares|stock)\b"
    + _IN_SENTENCE + r"{0,200}?\bunder\s+the\s+(?:(?:nyse|nasdaq)\s+)?(?:ticker\s+|trading\s+|stock\s+)?symbol\s+"
    + _SYMBOL,
    _OWNER + r"\s+(?:common\s+)?(?:stock\s+)?(?:ticker|trading)\s+symbol\s+is\s+" + _SYMBOL,
    r"\b(?:ticker|trading)\s+symbol\s+for\s+(?P<owner>the\s+company|[a-z0-9][^.!?]{0,60}?)\s+is\s+" + _SYMBOL,
))
_SELF = re.compile(r"(?i)^(?:our|its|the\s+(?:company|registrant)['’]s|the\s+company)$")


#: the legal-form words a comma or a full stop inside a company's name stands before or in
_SUFFIXES = frozenset({"inc", "co", "corp", "ltd", "llc", "l.p", "lp", "n.v", "s.a", "plc", "ag", "se"})
_NAME_WORD = re.compile(r"^(?:[A-Z0-9][\w.&'’,-]*|&|and|of|the|de|du)$")


def _lines(text: str) -> list[str]:
    """The page's lines, a Markdown table's cells joined by spaces (``| Apple Inc. |`` is a line ``Apple Inc.``)."""
    out: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("|"):
            if re.fullmatch(r"[|:\-\s]+", line):
                continue
            line = " ".join(c.strip() for c in line.strip("|").split("|") if c.strip())
        out.append(re.sub(r"\s+", " ", line).strip())
    return out


def _clean_name(raw: str) -> str:
    name = re.split(r"_{3,}", raw)[-1]  # "Commission File Number 001-37622 ______ SQUARE, INC."
    name = name.strip().strip("_-–—=*·•|").strip()
    name = re.sub(r"\s+", " ", name).replace(" .", ".").rstrip(",;:")
    if not name or len(name) > MAX_NAME_CHARS or len(name.split()) > MAX_NAME_WORDS:
        return ""
    if name.startswith("(") or not re.search(r"[^\W\d_]{2,}", name) or _FILE_NO.search(name):
        return ""
    return name


def _previous(lines: Sequence[str], i: int) -> str:
    """The nearest line above ``i`` that is not a rule (``_____``)."""
    for j in range(i - 1, max(-1, i - 4), -1):
        if not _RULE.match(lines[j]):
            return lines[j]
    return ""


def _registrant(lines: Sequence[str]) -> str:
    for i, line in enumerate(lines):
        m = _EXACT.search(line)
        if m is None:
            continue
        before = line[: m.start()].strip()
        name = _clean_name(before) if before else _clean_name(_previous(lines, i))
        if name:
            return name
    for i, line in enumerate(lines):  # an older cover: the name is the line under the file number
        if _FILE_NO.search(line):
            for nxt in lines[i + 1 : i + 3]:
                if _RULE.match(nxt):
                    continue
                name = _clean_name(nxt)
                letters = [c for c in name if c.isalpha()]
                if name and sum(c.isupper() for c in letters) >= 0.6 * len(letters):  # a name set in capitals
                    return name
                break
    return _registrant_in_flat(" ".join(lines))


def _registrant_in_flat(flat: str) -> str:
    """A text layer that breaks its lines at every word ("SQUARE,\nINC.\n(Exact\nname\nof …"): the name is the
    run of name words right before "(Exact name of registrant", after the file number when one precedes it."""
    m = _EXACT.search(flat)
    if m is None:
        return ""
    before = flat[: m.start()].rstrip()
    file_no = list(_FILE_NO_VALUE.finditer(before))
    if file_no and len(before) - file_no[-1].end() <= MAX_NAME_CHARS:
        return _clean_name(before[file_no[-1].end():])
    return _clean_name(_name_at_end(before))


def _symbol_column(header: str) -> int | None:
    cells = [c.strip() for c in header.strip().strip("|").split("|")]
    for k, cell in enumerate(cells):
        if _SYMBOL_HEAD.search(cell):
            return k
    return None


def symbol_tokens(row: str) -> list[str]:
    """The capitals of a Section 12(b) row that may be its trading symbol, in order: no exchange's or legal form's
    word, no class letter ("Class A", "Series B")."""
    return [m.group(1) for m in _TOKEN.finditer(row)
            if m.group(1) not in _NOT_SYMBOL and not _CLASS_WORD.search(row[: m.start()])]


def _row_symbols(row: str) -> list[str]:
    return symbol_tokens(row)[:1]  # one symbol per class of security


def _tickers(raw_lines: Sequence[str]) -> list[str]:
    out: list[str] = []
    for i, raw in enumerate(raw_lines):
        if not _SYMBOL_HEAD.search(raw):
            continue
        column = _symbol_column(raw) if raw.lstrip().startswith("|") else None
        for row in raw_lines[i + 1 : i + 1 + MAX_SYMBOL_ROWS]:
            if _SYMBOLS_END.search(row):
                break
            if column is not None:
                if not row.lstrip().startswith("|"):
                    break
                cells = [c.strip() for c in row.strip().strip("|").split("|")]
                if re.fullmatch(r"[|:\-\s]+", row.strip()) or column >= len(cells):
                    continue
                found = _row_symbols(cells[column])
            else:
                found = _row_symbols(row)
            out += [t for t in found if t not in out]
        if out:
            break
    return out[:MAX_TICKERS]


def _former_names(lines: Sequence[str]) -> list[str]:
    out: list[str] = []
    for i, line in enumerate(lines):
        if not _FORMER.match(line):
            continue
        prev = _previous(lines, i)
        name = _clean_name(prev)
        if name and name.lower().strip(". ") not in _NO_VALUE and not re.search(r"\d{3}\)?[\s.-]\d{3}", name):
            out.append(name)
    return out


def _dateline(text: str) -> tuple[str, str]:
    """A press release's "Acme Widgets Inc. (NYSE: ACME)": the name before the symbol, and the symbol."""
    m = _DATELINE.search(text)
    if m is None:
        return "", ""
    return _clean_name(_name_at_end(text[: m.start()])), m.group(1)


def _name_at_end(text: str) -> str:
    """The run of name words that ``text`` ends with ("… today, Acme Widgets Inc." → "Acme Widgets Inc.")."""
    name: list[str] = []
    for word in reversed(text.split()[-MAX_NAME_WORDS:]):
        if not _NAME_WORD.match(word):
            break
        if word.endswith(".") and name and word[:-1].lower() not in _SUFFIXES:
            break  # a sentence ends there
        if word.endswith(",") and name and name[0].rstrip(".").lower() not in _SUFFIXES:
            break  # "PepsiCo, Inc." is one name; "Purchase, N.Y., PepsiCo" is not
        name.insert(0, word)
    while name and name[0].lower() in ("and", "of", "the", "de", "du", "&"):
        name.pop(0)
    return " ".join(name)


_MONTHS = {m: i + 1 for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
     "december"))}
_DATE = r"([A-Za-z]{3,9})\.?\s+(\d{1,2})\s*,?\s*(\d{4})"
_COVER_PERIOD = re.compile(r"(?i)\bfor\s+the\s+(fiscal\s+year|quarterly\s+period|year|quarter)\s+ended\s*:?\s*" + _DATE)
_REPORT_DATE = re.compile(r"(?i)date\s+of\s+report\s*(?:\([^)]{0,60}\))?\s*:?\s*" + _DATE)
_DATE_BEFORE_REPORT = re.compile(_DATE + r"\s*\(?\s*date\s+of\s+report", re.I)
_ANY_DATE = re.compile(r"(?<![\w])" + _DATE)


def _iso(month: str, day: str, year: str) -> str:
    """"December", "31", "2022" → "2022-12-31" ("Dec." too); "" for anything that is not a date."""
    m = next((n for name, n in _MONTHS.items() if name.startswith(month.lower()) and len(month) >= 3), 0)
    try:
        return date(int(year), m, int(day)).isoformat() if m and 1900 <= int(year) <= 2199 else ""
    except ValueError:  # "February 30"
        return ""


def _period(text: str, release: bool) -> tuple[str, str]:
    """(period_end, period_kind) of a document's first pages (see the module docstring), ("", "") for none."""
    flat = " ".join(text.split())
    m = _COVER_PERIOD.search(flat)
    iso = _iso(*m.group(2, 3, 4)) if m else ""
    if m and iso:
        return iso, "quarter" if "quarter" in m.group(1).lower() else "year"
    m = _REPORT_DATE.search(flat) or _DATE_BEFORE_REPORT.search(flat)
    if m:
        iso = _iso(*m.group(1, 2, 3))
        if iso:
            return iso, "report"
    if release:
        for m in _ANY_DATE.finditer(flat):
            iso = _iso(*m.group(1, 2, 3))
            if iso:
                return iso, "release"
    return "", ""


def document_identity(page_texts: Sequence[str]) -> dict[str, Any]:
    """The company the document is about, from the texts of its first pages (see the module docstring)."""
    raw_lines: list[str] = []
    for text in page_texts[:COVER_PAGES]:
        raw_lines += text.splitlines()
    lines = _lines("\n".join(raw_lines))
    company = _registrant(lines)
    tickers: list[str] = []
    for text in page_texts[:COVER_PAGES]:  # a page's 12(b) table ends with its page
        tickers = tickers or _tickers(text.splitlines())
    release = False
    if not company:
        name, symbol = _dateline("\n".join(lines))
        company = name
        release = bool(name or symbol)
        if symbol and symbol not in tickers:
            tickers.append(symbol)
    out: dict[str, Any] = {"read": IDENTITY_READ}
    end, kind = _period("\n".join(raw_lines), release)
    if end:
        out["period_end"], out["period_kind"] = end, kind
    if company:
        out["company"] = company
    if tickers:
        out["tickers"] = tickers
    former = [f for f in _former_names(lines) if f != company]
    if former:
        out["former_names"] = former
    return out


def listed_symbols(texts: Iterable[str], company: str = "") -> list[str]:
    """The company's own trading symbols as a listing sentence says them (see the module docstring), in the order
    the texts give them; ``[]`` for none. The stock is ours / the Company's, or that of a name ``company`` (the
    cover's registrant) holds ("NIKE's" for "NIKE, Inc.")."""
    own = {w.lower() for w in re.findall(r"[\w&-]+", company)}
    out: list[str] = []
    for text in texts:
        flat = " ".join(text.split())
        for pattern in _LISTINGS:
            for m in pattern.finditer(flat):
                owner, symbol = m.group("owner"), m.group("symbol")
                named = re.sub(r"['’]s$", "", owner).lower()
                if not _SELF.match(owner) and not (named and set(re.findall(r"[\w&-]+", named)) <= own):
                    continue  # another company's stock ("Mylan's", "Viatris, which is traded under …")
                if symbol not in _NOT_SYMBOL and symbol not in out:
                    out.append(symbol)
                if len(out) >= MAX_TICKERS:
                    return out
    return out


def with_listed_symbols(identity: Mapping[str, Any], texts: Iterable[str]) -> dict[str, Any]:
    """``identity`` with the listing sentence's symbols as its tickers when its cover named none (a filing's
    or a press release's own symbols come first)."""
    out = dict(identity)
    if not out.get("tickers"):
        symbols = listed_symbols(texts, str(out.get("company") or ""))
        if symbols:
            out["tickers"] = symbols
    return out


def cover_identity(segments: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``document_identity`` of a document's segments (its first pages as ``read_page`` shows them)."""
    return document_identity([page_text(seg) for seg in segments[:COVER_PAGES]])


def identity_names(identity: Any) -> list[str]:
    """The names a stored identity goes by: the company, its former names, its tickers (empty for none)."""
    if not isinstance(identity, dict):
        return []
    names = [str(identity.get("company") or "")]
    names += [str(n) for n in identity.get("former_names") or []]
    names += [str(t) for t in identity.get("tickers") or []]
    return [n for n in dict.fromkeys(names) if n]
