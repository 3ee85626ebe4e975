"""What a filing says about the company itself (pure): the state it is incorporated in, the exchange its stock is
listed on and its ticker, how many of its shares are outstanding, and the address of its principal executive
offices on the cover page.

"In which state is Acme incorporated?", "On which exchange is Acme's common stock listed?", "What is Acme's ticker
symbol?" and "How many shares of Acme's common stock are outstanding?" ask for what a filing states in two places:

- **the cover page**, where the SEC's form prints each value above (or before) its label: "Delaware
  77-0019522" over "(State or other jurisdiction of incorporation or organization) (I.R.S. Employer
  Identification No.)"; "345 Park Avenue, San Jose, California 95110-2704" over "(Address of principal executive
  offices) (Zip Code)"; the Section 12(b) table, "Common Stock, $0.0001 par value per share ADBE NASDAQ", under
  "Title of each class / Trading Symbol(s) / Name of each exchange on which registered"; and the count of shares
  at a date, "There were 846,563,422 shares of common stock outstanding as of January 31, 2023";
- **a sentence** of the business overview or Item 5: "Acme was incorporated in Delaware in 1986", "… originally
  incorporated in the State of Washington in 1916 and reincorporated in Delaware in 1934" (the latest is the
  answer), "Acme is a Delaware corporation", "our common stock is listed on the Nasdaq Global Select Market under
  the symbol “ACME”", "The principal market for our common stock is the New York Stock Exchange".

The same words describe others — a subsidiary "is incorporated in Missouri", "we consent to the incorporation by
reference", "exchange-traded funds", shares repurchased, awarded or preferred — which are not the answer: the
subject must be the company (``we``, ``the Company``, its name, ``our common stock``). The cover's address is the
headquarters a question asks for where Item 2 names no seat (``headquarters``); ``covers_to_read`` says which
first pages the local model reads when the search results state none of these. Form wording and general
company-law terms, not drawn from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime
from typing import Literal

from chat.models.reader.names import mentions
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question
from ingest.steps.identity import symbol_tokens

CoverFact = Literal["incorporation", "exchange", "symbol", "shares", ""]

#: how sure a cover's labelled value or a sentence stating the fact of the company itself is
COVER_SCORE = 0.9

_INCORPORATION_Q = re.compile(
    r"(?i)\b(?:incorporated|incorporation|domiciled|domicile|organized\s+under|organised\s+under|"
    r"under\s+the\s+laws\s+of\s+which)\b"
)
_WHICH_PLACE = re.compile(r"(?i)^\s*(?:where|in\s+which|under\s+(?:the\s+laws\s+of\s+)?which)\b|"
                          r"\b(?:which|what)\s+(?:state|country|jurisdiction)\b|"
                          r"\b(?:state|country|place|jurisdiction)\s+of\s+(?:incorporation|organi[sz]ation)\b")
#: "which exchange …", "on what stock market …", "where … listed / traded"
_WHICH_EXCHANGE = re.compile(r"(?i)\b(?:which|what)\s+(?:stock\s+)?(?:exchange|market)s?\b")
_WHERE_LISTED = re.compile(r"(?i)^\s*where\b.*\b(?:listed|traded|trades?|quoted)\b")
_SECURITY = re.compile(r"(?i)\b(?:stock|shares?|securities|equity|ticker)\b")
_NOT_EXCHANGE_Q = re.compile(r"(?i)\b(?:foreign\s+exchange|exchange\s+rates?|currency|volume|price|how\s+many|"
                             r"how\s+much|when)\b")

_SYMBOL_Q = re.compile(r"(?i)\b(?:ticker|trading|stock)\s+symbols?\b|\bticker\b|"
                       r"\bsymbol\b.{0,40}\b(?:stock|shares|trade[sd]?)\b")

#: "How many shares of Acme's common stock were outstanding?" — the count now, not an average, a class's part or a
#: repurchase; no date asked other than a year (a balance sheet's date asks its own count)
_SHARES_Q = re.compile(r"(?i)\b(?:how\s+many|number\s+of|count\s+of)\b.*\bshares?\b.*\boutstanding\b|"
                       r"\b(?:how\s+many|number\s+of)\s+(?:common\s+)?(?:shares\s+)?outstanding\b|"
                       r"\bshares\s+outstanding\b.*\?\s*$")
_NOT_SHARES_Q = re.compile(r"(?i)\b(?:weighted|average|diluted|basic|options?|awards?|units?|restricted|preferred|"
                           r"repurchas\w*|bought|buy\s*backs?|authori[sz]ed|treasury|float|held\s+by|per\s+share|"
                           r"change|increase|decrease)\b")

#: where a filing states each fact (search words for ``queries.named_query``)
INCORPORATION_WORDS = "incorporated in the State of corporation (State or other jurisdiction of incorporation)"
SYMBOL_WORDS = "common stock trades under the symbol ticker symbol Trading Symbol(s)"
SHARES_WORDS = "the number of shares of the registrant's common stock outstanding as of"
EXCHANGE_WORDS = ("common stock is listed on the Stock Exchange under the symbol "
                  "Name of each exchange on which registered")
FACT_WORDS: dict[str, str] = {"incorporation": INCORPORATION_WORDS, "exchange": EXCHANGE_WORDS,
                              "symbol": SYMBOL_WORDS, "shares": SHARES_WORDS}


def asked_fact(q: Question) -> CoverFact:
    """Which fact of the company an English question asks: where it is incorporated, where its stock is listed."""
    if q.language != "en":
        return ""
    text = q.text
    if (_INCORPORATION_Q.search(text) and _WHICH_PLACE.search(text) and not re.search(r"(?i)^\s*when\b", text)
            and not re.search(r"(?i)\bby\s+reference\b", text)):
        return "incorporation"
    if (_SHARES_Q.search(text) and not _NOT_SHARES_Q.search(text)
            and not any(p.month is not None or p.day is not None or p.quarter for p in q.periods)):
        return "shares"
    if _SYMBOL_Q.search(text) and re.search(r"(?i)^\s*(?:what|which|under\s+what|under\s+which)\b", text):
        return "symbol"
    if ((_WHICH_EXCHANGE.search(text) or _WHERE_LISTED.search(text))
            and (_SECURITY.search(text) or re.search(r"(?i)\blisted\b", text))
            and not _NOT_EXCHANGE_Q.search(text)):
        return "exchange"
    return ""


# ------------------------------------------------------------------------------------------------ the cover

_US_STATES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
    "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho",
    "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
    "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York", "NC": "North Carolina",
    "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas",
    "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WV": "West Virginia",
    "WI": "Wisconsin", "WY": "Wyoming", "DC": "District of Columbia", "PR": "Puerto Rico",
}
#: (a subsidiaries list's "Name of Subsidiary | Jurisdiction of Incorporation" column is no cover label)
_INCORPORATION_LABEL = re.compile(
    r"(?i)\(?\s*state\s+or\s+other\s+jurisdiction\b|\(\s*state\s+of\s+(?:incorporation|organization)\b|"
    r"\(\s*jurisdiction\s+of\s+(?:incorporation|organization)\b"
)
#: the label before its value on one line: "State of Incorporation: Delaware I.R.S. Employer …"
_INCORPORATION_COLON = re.compile(
    r"(?i)\bstate\s+of\s+(?:incorporation|organization)\s*:\s*(?P<value>[^\n]+?)(?=\s+I\.?R\.?S\.?\b|\s*$)", re.M)
_ADDRESS_LABEL = re.compile(
    r"(?i)\(?\s*address(?:\s+and\s+[^()\n]{0,60}?)?\s+of\s+(?:the\s+)?(?:registrant[’']s\s+)?principal\s+executive\s+"
    r"offices?[^)\n]*\)?(?:\s*\(\s*zip\s+code\s*\))?"
)
#: a cover label line (its own line in parentheses, or the words of one), never a value
_LABEL_LINE = re.compile(
    r"(?i)^\s*\(|identification|incorporation|jurisdiction|organization\)?\s*$|employer|file\s+n(?:umber|o\b)|"
    r"exact\s+name|charter\)|telephone|^\s*(?:no|number)\.?\)?\s*$|securities\s+and\s+exchange\s+commission|›"
)
_ZIP_LABEL = re.compile(r"(?i)^\s*\(\s*zip\s+code\s*\)\s*$")
#: a telephone number line between the address and its label ("(206) 266-1000")
_PHONE_LINE = re.compile(r"^\s*\+?[\d\s().-]{7,20}$")
#: the label before its value on one line: "Principal executive offices: 3M Center, St. Paul, Minnesota 55144"
_ADDRESS_COLON = re.compile(r"(?i)^\s*(?:address\s+of\s+)?principal\s+executive\s+offices?\s*:\s*(?P<value>[^\n]+)$",
                            re.M)
#: the registrant's name on the line above its address ("PFIZER INC."), never part of the address
_COMPANY_LINE = re.compile(r"(?i)\b(?:inc|corp|corporation|company|plc|llc|ltd|n\.v)\.?\s*$")
#: numbers printed beside the state: an IRS employer number, a commission file number
_ID_NUMBER = re.compile(r"\b\d{1,3}-\d{4,8}\b|\b\d{2}-\d{7}\b")
_RULE = re.compile(r"[_\-–—=*]{3,}")
_PLACE_NAME = re.compile(r"^[A-Z][A-Za-z.'’]*(?:\s+(?:[A-Z][A-Za-z.'’]*|and|of|the))*$")
MAX_ADDRESS_LINES = 4
#: a filing's cover is its first page; at most this many documents' covers are read for one answer
COVER_PAGE = 1
MAX_COVERS = 2


def _line_at(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, len(text) if end < 0 else end


def _previous_line(text: str, start: int) -> tuple[int, int] | None:
    """The non-empty line before the line starting at ``start`` (no rule of underscores alone)."""
    pos = start - 1
    while pos > 0:
        s, e = _line_at(text, pos - 1)
        if _RULE.sub("", text[s:e]).strip():
            return s, e
        pos = s - 1
    return None


def _state(raw: str) -> str:
    """The state or country a cover's value line names ("Delaware 77-0019522", "DE 71-0415188", "(Exact name …)
    ____ Delaware 80-0429876"), or ``""``."""
    value = raw[raw.rfind(")") + 1:] if ")" in raw else raw
    value = " ".join(_ID_NUMBER.sub(" ", _RULE.sub(" ", value)).split()).strip(" ,.;:")
    if value.upper() in _US_STATES and len(value) == 2:
        return _US_STATES[value.upper()]
    if value.isupper() and len(value) > 2:
        value = value.title()
    if re.search(r"(?i)\bname\b|subsidiar|guarantor|\bentity\b", value):
        return ""  # a subsidiaries list's header ("Name of Subsidiary | State or Other Jurisdiction of …")
    return value if _PLACE_NAME.match(value) and len(value.split()) <= 4 else ""


def cover_incorporation(text: str) -> list[tuple[tuple[int, int], str]]:
    """The cover's state of incorporation: the value line above (or before) the label, with the label's line."""
    out: list[tuple[tuple[int, int], str]] = []
    for m in _INCORPORATION_COLON.finditer(text):
        state = _state(m.group("value"))
        if state:
            out.append((_line_at(text, m.start()), state))
    if out:
        return out
    for m in _INCORPORATION_LABEL.finditer(text):
        s, e = _line_at(text, m.start())
        before = text[s:m.start()]
        state = _state(before) if before.strip() else ""
        quote = (s, e)
        if not state:
            prev = _previous_line(text, s)
            if prev is None:
                continue
            line = text[prev[0]:prev[1]]
            state = _state(line)
            lead = max(line.rfind(")") + 1, max((r.end() for r in _RULE.finditer(line)), default=0))
            quote = (prev[0] + lead + len(line[lead:]) - len(line[lead:].lstrip()), e)
        if state:
            out.append((quote, state))
    return out


def cover_address(text: str) -> list[tuple[tuple[int, int], str]]:
    """The cover's address of the principal executive offices: the lines above the label (up to the state and
    employer-number lines) or the text before it on its line, with the place as one line."""
    out: list[tuple[tuple[int, int], str]] = [
        (_line_at(text, m.start()), " ".join(m.group("value").split()).strip(" ,"))
        for m in _ADDRESS_COLON.finditer(text)]
    for m in _ADDRESS_LABEL.finditer(text):
        if any(s <= m.start() < e for (s, e), _ in out):
            continue
        s, e = _line_at(text, m.start())
        before = text[s:m.start()].strip(" ,")
        if before and not _LABEL_LINE.search(before):
            lines, first = [before], s
        else:
            lines, first, start = [], s, s
            while len(lines) < MAX_ADDRESS_LINES:
                prev = _previous_line(text, start)
                if prev is None:
                    break
                line = text[prev[0]:prev[1]].strip()
                start = prev[0]
                if _ZIP_LABEL.match(line) or _PHONE_LINE.match(line):
                    continue
                if (_LABEL_LINE.search(line) or _COMPANY_LINE.search(line)
                        or (_ID_NUMBER.search(line) and not re.search(r"\d{5}", line))):
                    break
                lines.insert(0, _RULE.sub(" ", line).strip())
                first = prev[0]
        place = ", ".join(" ".join(x.split()).strip(" ,") for x in lines if x.strip(" ,"))
        if place and re.search(r"[A-Za-z]{3}", place):
            out.append(((first, e), place))
    return out


_EXCHANGE = (r"(?:the\s+)?(?:New\s+York\s+Stock\s+Exchange(?:,?\s+(?:Inc\.|LLC))?(?:\s+\(NYSE\))?|"
             r"NYSE(?:\s+(?:American|"
             r"Arca|MKT|Texas))?(?:\s+LLC)?|Nasdaq(?:\s+(?:Global\s+Select|Global|Capital))?(?:\s+Stock)?\s+Market"
             r"(?:\s+LLC)?|NASDAQ(?:\s+(?:Global\s+Select|Global|Capital))?(?:\s+(?:Stock\s+)?Market)?(?:\s+LLC)?|"
             r"The\s+Nasdaq\s+Stock\s+Market(?:\s+LLC)?|Nasdaq|Chicago\s+Stock\s+Exchange(?:,?\s+Inc\.)?|"
             r"Cboe\s+\w+(?:\s+Exchange)?|London\s+Stock\s+Exchange|Toronto\s+Stock\s+Exchange|"
             r"Australian\s+Securities\s+Exchange(?:\s+\(ASX\))?|SWX\s+Swiss\s+Exchange|SIX\s+Swiss\s+Exchange|"
             r"Euronext\s+\w+|Tokyo\s+Stock\s+Exchange|Hong\s+Kong\s+Stock\s+Exchange)")
_EXCHANGE_NAME = re.compile(_EXCHANGE)
_SECTION_12B = re.compile(r"(?i)section\s+12\s*\(\s*b\s*\)")
_SECTION_12B_END = re.compile(r"(?i)section\s+12\s*\(\s*g\s*\)|indicate\s+by\s+check\s+mark")
_EQUITY_ROW = re.compile(r"(?i)\b(?:common|ordinary|capital)\s+(?:stock|shares)|\bshares\b|\bcommon\b")


def _exchange_name(raw: str) -> str:
    name = " ".join(raw.split())
    return name[4:] if name.lower().startswith("the ") and "nasdaq stock market" not in name.lower() else name


#: exchanges' and identifiers' capitals a cover's row may hold beside those ``symbol_tokens`` leaves out
_NOT_SYMBOL = frozenset({"ASX", "CUSIP", "LSE", "TSX", "MKT"})


def cover_symbol(text: str) -> list[tuple[tuple[int, int], str]]:
    """The trading symbol of the cover's Section 12(b) table: the capitals before the exchange in the first
    equity row ("Common Stock, $0.0001 par value per share ADBE NASDAQ")."""
    for (s, e), _ in cover_exchange(text):
        line = text[s:e]
        m = _EXCHANGE_NAME.search(line)
        before = line[: m.start()] if m else line
        tokens = [t for t in symbol_tokens(before) if t not in _NOT_SYMBOL]
        if tokens:
            return [((s, e), tokens[-1])]
    return []


def cover_exchange(text: str) -> list[tuple[tuple[int, int], str]]:
    """The exchange of the cover's Section 12(b) table: the first equity row's (a class of common or ordinary
    shares), else the first row's."""
    section = _SECTION_12B.search(text)
    if not section:
        return []
    end = _SECTION_12B_END.search(text, section.end())
    body_end = end.start() if end else min(len(text), section.end() + 1500)
    rows: list[tuple[tuple[int, int], str, bool]] = []
    pos = section.end()
    while pos < body_end:
        s, e = _line_at(text, pos)
        line = text[s:e]
        m = _EXCHANGE_NAME.search(line)
        if m and not re.search(r"(?i)name\s+of\s+each\s+exchange", line):
            rows.append(((s, e), _exchange_name(m.group()), bool(_EQUITY_ROW.search(line))))
        pos = e + 1
    rows.sort(key=lambda r: not r[2])
    return [(rows[0][0], rows[0][1])] if rows else []


# ------------------------------------------------------------------------------------------------ sentences

_SUBJECT = r"(?:we|the\s+company|the\s+corporation|the\s+registrant|it)"
#: "… was incorporated in (the State of) Delaware", "incorporated under the laws of the State of Oregon",
#: "reincorporated in Delaware", "organized under the laws of Jersey"
_INCORPORATED = re.compile(
    r"(?i:\b(re)?(?:incorporated|organized|organised)\s+(?:in\s+\d{4}\s+)?(?:in|under\s+the\s+laws\s+of)\s+"
    r"(?:the\s+(?:state|commonwealth|province|bailiwick)\s+of\s+)?)"
    r"(?P<place>[A-Z][a-z]+(?:\s+(?:and\s+)?[A-Z][a-z]+){0,2})"
)
#: "Acme is a Delaware corporation", "a Jersey public limited company"
_A_CORPORATION = re.compile(
    r"(?i:\b(?:is|as)\s+an?\s+)(?P<place>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)"
    r"(?i:\s+(?:corporation|public\s+limited\s+company|limited\s+company|company|plc)\b)"
)
#: "our common stock is listed on …", "NIKE's Class B Common Stock is listed on …", "trades on the NYSE",
#: "The principal market for our common stock is the New York Stock Exchange"
_LISTED = re.compile(
    rf"(?i:\b(?:stock|shares|securities)\b[^.;]{{0,80}}?\b(?:(?:is|are)\s+)?(?:currently\s+)?"
    rf"(?:listed|traded|trades|trade|quoted)\s+on\s+|\bprincipal\s+(?:stock\s+)?market\s+for\s+[^.;]{{0,60}}?"
    rf"\bis\s+)(?P<place>{_EXCHANGE})"
)
#: "… under the symbol “NFLX”", "3M's stock ticker symbol is MMM", "trades under the ticker symbol BBY"
_SYMBOL = re.compile(r"(?i:\b(?:under\s+the\s+(?:ticker\s+|trading\s+|stock\s+)?symbols?|"
                     r"(?:ticker|trading)\s+symbol\s+(?:(?:for|of)\s+[^;]{1,60}?\s+)?is|symbol\s+is)\s+[\"“']?)"
                     r"(?P<place>[A-Z]{1,5}(?:\.[A-Z]{1,2})?)\b")
_NOT_COMPANY = re.compile(r"(?i)\b(?:subsidiar(?:y|ies)|guarantor|issuer\s+of|trust|fund|partnership)\b")


#: words that may follow a company's name before its verb ("NIKE, Inc. was", "MGM Resorts International is")
_LEGAL_TAIL = re.compile(r"(?i)^(?:\.com\b|[\s,.]|\([^)]*\)|inc\b|incorporated\b|corp\b|corporation\b|company\b|co\b|"
                         r"plc\b|"
                         r"ltd\b|llc\b|n\.v\b|s\.a\b|ag\b|se\b|international\b|holdings?\b|group\b|[’']s\b)*")


#: a sentence's clause ends at a full stop or semicolon, not at a legal form's ("NIKE, Inc. was …")
_CLAUSE_BREAK = re.compile(r"(?<!\bInc)(?<!\bCo)(?<!\bCorp)(?<!\bLtd)(?<!\bN\.V)[.;]\s")


def _subject(before: str, names: tuple[str, ...] | list[str], *, strict: bool) -> bool:
    """The clause before the verb is about the company itself: we/the Company/its name/our stock. ``strict``:
    the name is the clause's subject, not part of another's ("Amcor Flexibles North America, Inc. is …")."""
    clause = _CLAUSE_BREAK.split(before)[-1]
    if _NOT_COMPANY.search(clause):
        return False
    if re.search(rf"(?i)\b{_SUBJECT}\b|\bour\b|\bits\b", clause):
        return True
    for n in names:
        for m in re.finditer(rf"(?i)\b{re.escape(n)}", clause) if n else ():
            tail = clause[m.end():]
            tail = tail[_LEGAL_TAIL.match(tail).end():]  # type: ignore[union-attr]
            if not strict or not re.search(r"\b[A-Z]", tail):
                return True
    return False


def incorporation_in(sentence: str, names: tuple[str, ...] | list[str]) -> str:
    """The place ``sentence`` says the company itself is incorporated in (the latest, where it says it was
    reincorporated), or ``""``."""
    found = ""
    for m in _INCORPORATED.finditer(sentence):
        if _subject(sentence[: m.start()], names, strict=True) or (m.group(1) and found):
            found = m.group("place")
            if m.group(1):
                break
    if found:
        return found
    for m in _A_CORPORATION.finditer(sentence):
        place = m.group("place")
        if (place in _US_STATES.values() or place in ("Jersey", "Ireland", "Bermuda")) and _subject(
                sentence[: m.start()], names, strict=True):
            return place
    return ""


def listed_on(sentence: str, names: tuple[str, ...] | list[str]) -> str:
    """The exchange ``sentence`` says the company's own stock is listed or traded on, or ``""``."""
    for m in _LISTED.finditer(sentence):
        if _subject(sentence[: m.start()] + sentence[m.start():m.start("place")], names, strict=False):
            return _exchange_name(m.group("place"))
    return ""


_MONTH_DATE = (r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
               r"\s+\d{1,2},?\s+\d{4}")
_COUNT = re.compile(r"(?<![\d$.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?\s+(?:million|billion))(?![\d,])", re.I)
_IN_SENTENCE = r"(?:[^.]|\.(?=\d)){0,200}?"  # no full stop, but a decimal point ("$0.01 par value")
_SHARES_STATED = re.compile(rf"(?i)\boutstanding\b{_IN_SENTENCE}\b{_MONTH_DATE}|\b{_MONTH_DATE}\b{_IN_SENTENCE}"
                            r"\boutstanding\b")
_SHARES_NOT = re.compile(r"(?i)\b(?:non-?affiliates|affiliates|beneficially|weighted|average|options?|awards?|"
                         r"purchased|repurchased|preferred|plus|underlying|authori[sz]ed|entitled\s+to\s+vote|"
                         r"market\s+value)\b")


#: a sentence's start: after a full stop or a check box, or a cover's next statement run on after a figure
#: ("… $ 387,327,844,190 Number of shares of common stock outstanding …")
_SENTENCE_BREAK = re.compile(
    r"[.;☐☒¨ý]\s|\s(?=(?:Number\s+of|The\s+number|The\s+registrant|There\s+were|As\s+of|At)\s)")
#: how far before "outstanding" its sentence may start
SENTENCE_REACH = 300


def _scaled(raw: str) -> float:
    number, _, scale = raw.replace(",", "").partition(" ")
    return float(number) * {"million": 1e6, "billion": 1e9}.get(scale.lower().strip(), 1.0)


def shares_stated(text: str) -> list[tuple[tuple[int, int], str]]:
    """A cover page's count of the common (or ordinary) shares outstanding at a date: "The number of shares of the
    registrant's common stock outstanding as of January 20, 2023 was 598,239,585", "There were 846,563,422 shares
    of common stock outstanding as of January 31, 2023", "Shares of common stock outstanding at January 31, 2019:
    575.8 million", "Number of shares of Common Stock outstanding as of June 15, 2022: 597,158,440 (excluding …
    held in the treasury)" — the statement and its count (of several classes' counts, the total printed after them,
    else each class's)."""
    out: list[tuple[tuple[int, int], str]] = []
    for m in _SHARES_STATED.finditer(text):
        anchor = m.start() + m.group().lower().rfind("outstanding")  # the sentence that says "outstanding"
        window = max(0, anchor - SENTENCE_REACH)
        breaks = [b.end() for b in _SENTENCE_BREAK.finditer(text, window, anchor)]
        start = breaks[-1] if breaks else window
        tail = re.search(r"\.\s|\n\s*DOCUMENTS\b|\n\s*_{3,}|\s_{5,}|\n\n|$", text[m.end():])
        end = m.end() + (tail.start() + (1 if tail.group().startswith(".") else 0) if tail else 0)
        sentence = text[start:end]
        if not re.search(r"(?i)\b(?:common\s+stock|ordinary\s+shares|common\s+shares)\b", sentence) \
                or _SHARES_NOT.search(sentence):
            continue
        bare = re.sub(r"\([^)]*\)", lambda g: " " * len(g.group()), sentence)  # "(excluding … treasury)"
        counts = [c.group(1) for c in _COUNT.finditer(bare) if _scaled(c.group(1)) >= 1000]
        if not counts:
            continue
        if len(counts) > 1 and not re.search(r"(?i)\bclass\b", bare):
            continue  # "Of the 255 million and 272 million shares … as of December 31, 2022 and 2021": two years'
        count = max(counts, key=_scaled)
        others = sum(_scaled(c) for c in counts) - _scaled(count)
        if len(counts) > 1 and abs(others - _scaled(count)) > 0.001 * _scaled(count):
            count = " and ".join(counts)  # each class's count, no total printed: both said, none summed unasked
        date = re.search(_MONTH_DATE, sentence)
        out.append(((start, end), f"{count} shares" + (f" as of {date.group()}" if date else "")))
        break
    return out


def stated_date_rank(count: str) -> float:
    """A small bonus that orders counts by the date they are stated at (``shares_stated``'s "… as of January 31,
    2023"), the latest first — of a cover's count and a note's year-end one, the question with no date asks the
    latest; 0 without a date."""
    m = re.search(_MONTH_DATE, count)
    if not m:
        return 0.0
    try:
        when = datetime.strptime(" ".join(m.group().replace(",", " ").split()), "%B %d %Y").date()
    except ValueError:
        return 0.0
    return max(0.0, (when - date(1900, 1, 1)).days) / 36500 * 0.02


def symbol_of(sentence: str, names: tuple[str, ...] | list[str]) -> str:
    """The symbol ``sentence`` says the company's own stock trades under, or ``""``."""
    for m in _SYMBOL.finditer(sentence):
        if _subject(sentence[: m.start("place")], names, strict=False):
            return m.group("place")
    return ""


def fact_spans(fact: CoverFact, text: str, spans: list[tuple[int, int]], names: tuple[str, ...] | list[str]
               ) -> list[tuple[tuple[int, int], str]]:
    """The quotes of ``text`` that state the asked fact of the company, each with the fact: the cover's labelled
    value, and the sentences (``spans``) that say it."""
    if fact == "incorporation":
        cover, find = cover_incorporation(text), incorporation_in
    elif fact == "exchange":
        cover, find = cover_exchange(text), listed_on
    elif fact == "symbol":
        cover, find = cover_symbol(text), symbol_of
    elif fact == "shares":
        return shares_stated(text)
    else:
        return []
    return with_sentences(cover, text, spans, find, names)


def with_sentences(cover: list[tuple[tuple[int, int], str]], text: str, spans: list[tuple[int, int]],
                   find: Callable[[str, tuple[str, ...] | list[str]], str], names: tuple[str, ...] | list[str]
                   ) -> list[tuple[tuple[int, int], str]]:
    """The cover's quotes, then each sentence of ``text`` (``spans``, none overlapping a cover quote) for which
    ``find`` reads the value, with it."""
    out = list(cover)
    for s, e in spans:
        if any(s < ce and cs < e for (cs, ce), _ in cover):
            continue
        value = find(" ".join(text[s:e].split()), names)
        if value:
            out.append(((s, e), value))
    return out


def covers_to_read(q: Question, passages: list[Passage] | tuple[Passage, ...], *, headquarters: bool
                   ) -> list[tuple[str, int]]:
    """(document id, page) of the cover pages worth reading for a fact of the company asked (where it is
    incorporated or listed, or — ``headquarters`` — where its principal executive offices are) that the passages
    did not state: the documents of the best-ranked passages, those of the company the question names when it
    names one; none already read."""
    if not (headquarters or asked_fact(q)):
        return []
    read = {(p.document_id, p.page) for p in passages if p.ref.startswith("P")}
    names = q.strong_names or q.names
    out: list[tuple[str, int]] = []
    for p in passages:
        if not p.document_id or (p.document_id, COVER_PAGE) in out:
            continue
        if names and not any(mentions(n, p) for n in names):
            continue
        if (p.document_id, COVER_PAGE) not in read:
            out.append((p.document_id, COVER_PAGE))
        if len(out) >= MAX_COVERS:
            break
    return out
