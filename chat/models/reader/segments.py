"""Which segments a company reports (pure): "What are Acme's reportable segments?", "What business segments does
Acme operate in?", "How many operating segments does Acme have?".

A filing names its segments in one sentence — in Item 1, in MD&A and in the segment note: "We operate in four
reportable segments: Commercial Airplanes; Defense, Space & Security; …", "Our business is organized into two
reportable segments: Domestic … and International …", "The Company has three reportable segments: …", "The reportable
segments are …", "… aggregated its operating segments into the following reportable segments: …", "Our two reportable
segments are Seller and Cash App". The answer states that list, then quotes the sentence. Of several such sentences,
the one of the kind asked (reportable, operating, business) wins, then the one of the latest filing (or of the year
asked), then the one whose items are names rather than descriptions ("• Digital Media; • Digital Experience; and
• Publishing and Advertising" before "• Digital Media—Our Digital Media segment provides products, …").
A sentence that only mentions segments ("Our operating segments are evidence of the structure of …", "Transactions
among reportable segments are recorded at cost") lists none. When no sentence lists them the reader's other paths
answer, never sure (``asks_segments`` tells ``_answer_one``).
Written from the standard wording of 10-K segment disclosures (ASC 280), not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chat.models.reader.evidence import of_named
from chat.models.reader.passage import Passage
from chat.models.reader.periods import find_periods
from chat.models.reader.question import Question, analyze
from chat.models.reader.text import display, sentence_spans

#: the question asks which segments there are, or how many …
_ASKED = re.compile(r"(?i)\b(?:what|which|name|list|identify)\b[^?]{0,80}?\bsegments\b"
                    r"|\bhow\s+many\b[^?]{0,60}?\bsegments?\b|\bsegments?\s+(?:does|do|did)\b|" + r"(?P<geo>"
                    r"\b(?:what|which)\b[^?]{0,40}?\b(?:geograph(?:y|ies)|regions|geographic\s+(?:areas|markets))\b"
                    r"[^?]{0,60}?\boperat\w*)")
#: a segment named for a place: the listing answers "what are the geographies Acme operates in"
_PLACE = re.compile(r"(?i)\b(?:america|americas|europe|european|asia|asian|pacific|china|greater\s+china|japan|"
                    r"africa|middle\s+east|latin|emea|apac|apla|lacc|international|domestic|u\.?s\.?|united\s+"
                    r"states|canada|mexico|india|region|regions|countries|north|south|east|west)\b")
#: … not a figure of one ("What were the segments' revenues?", "Which segment had the highest …")
_NOT_THIS = re.compile(r"(?i)\b(?:revenues?|sales|income|profits?|loss(?:es)?|margins?|earnings|ebit\w*|assets?|"
                       r"growth|expenses?|costs?|cash|employees|highest|lowest|largest|smallest|biggest|most|least|"
                       r"percent(?:age)?|share|contribut\w*|goodwill|results?)\b")
_KIND = r"(?:reportable|operating|business|reporting)"
_COUNT = r"(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})"
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
            "eleven": 11, "twelve": 12}
#: "… into (the following | four) reportable segments: …", "… has three reportable segments, which are …", "… five
#: reportable segments for financial reporting purposes, as follows:"
_INTO = re.compile(rf"(?i)\b(?:the\s+following\s+|(?P<n>{_COUNT})\s+)(?P<kind>(?:{_KIND}\s+){{0,2}})segments?"
                   r"(?:\s+for\s+[^:;,.]{1,40}?)?"
                   r"\s*(?:,?\s*(?:which|that)\s+(?:are|were)\b\s*:?|:|—|–|\s-\s|,?\s+as\s+follows\s*:)\s*(?P<list>.*)$")
#: "The reportable segments are …", "Our two reportable segments are …", "… operating segments for the NIKE Brand
#: are: …"
_ARE = re.compile(rf"(?i)\b(?:(?P<n>{_COUNT})\s+)?(?P<kind>(?:{_KIND}\s+){{1,2}})segments?\s+(?:for\s+[^,:;]{{1,40}}?"
                  r"\s+)?(?:are|were|consist\s+of|include|comprise)\s*:?\s*(?P<list>.+)$")
#: a list item opens with a segment's name: a capital, a digit or a bullet — not "evidence of …", "the same …"
_NAME_START = re.compile(r"^[\s•·▪●\-–—\"“'‘(]*(?:[A-Z0-9])")
_NOT_NAME = re.compile(r"^(?:The|Our|These|Those|Each|Its|Their|This|Such|All|Both|Not|No|In|On|At|For|By|As)\b")
#: what the sentence goes on to say after its last item ("…; and Asia Pacific & Latin America (APLA), and include
#: results for the NIKE and Jordan brands")
_AFTER_LIST = re.compile(r"(?i),?\s+(?:and\s+)?(?:include[sd]?|which|that|are|were|represent\w*|reflect\w*|"
                         r"based\s+on|each\s+of\s+which)\b.*$")
#: an item that is only an abbreviation ("BCA"): the names spelled out are the better answer
_ABBREVIATION = re.compile(r"^[A-Z&]{2,5}$")
_SEPARATOR = re.compile(r"\s*(?:;|•|·|▪|●|,)\s*(?:and\s+|or\s+)?|\s+and\s+")
#: a long parenthesis describes an item ("Domestic (which is comprised of all states …)"): dropped when stated
_LONG_PAREN = re.compile(r"\s*\((?:[^()]{31,})\)")
#: how far below a sentence ending on its colon its bullets are read
BULLETS_CHARS = 2000
#: the items' average words above this read as descriptions, not names
NAME_WORDS = 6


def asks_segments(text: str) -> bool:
    """An English question for the segments a company reports (or how many), not for a figure of one."""
    return bool(_ASKED.search(text)) and not _NOT_THIS.search(text)


def segments_query(question: str) -> str:
    """The company and the words a segment disclosure lists its segments with, or ``""`` when no such question."""
    if not asks_segments(question):
        return ""
    q = analyze(question)
    # the listing sentence's own words, its count among them ("We operate in four business segments: …")
    return " ".join([*q.names, "operates in two three four five reportable business segments:"])


def _items(listed: str) -> list[str]:
    text = _LONG_PAREN.sub("", listed).strip().rstrip(".").strip()
    return [i.strip(" .\"“”") for i in _SEPARATOR.split(text) if i and i.strip(" .\"“”")]


def listing(sentence: str) -> tuple[str, int, str] | None:
    """``(kind words, count stated or 0, the list)`` of a sentence that lists a company's segments, else None (a
    sentence ending on its colon, "… into three reportable segments:", is read with its bullets, ``bullets_after``)."""
    text = " ".join(sentence.split())
    for pattern in (_INTO, _ARE):
        for m in pattern.finditer(text):
            if re.search(r"(?i)\b(?:non[-\s]?|other\s+)$", text[: m.start("kind")]):
                continue  # "Non-reportable segments consist of …", "other operating segments include …"
            listed = m.group("list").strip()
            if _NAME_START.match(listed) and not re.search(r"[•·▪●]", listed):
                listed = _AFTER_LIST.sub("", listed)  # (a bulleted list ends with its bullets)
            if not _NAME_START.match(listed) or _NOT_NAME.match(listed.lstrip(" •·▪●-–—\"“'‘(")):
                continue
            if len(_items(listed)) < 2:
                continue
            n = m.group("n") or ""
            count = _NUMBERS.get(n.lower(), int(n) if n.isdigit() else 0)
            return " ".join(m.group("kind").split()).lower(), count, listed
    return None


def bullets_after(text: str) -> int:
    """How many characters of ``text`` (what follows a sentence ending on its colon) are bulleted lines ("• Digital
    Media;" / "• Digital Experience; and" …, a bullet's wrapped line with it): 0 when fewer than two."""
    end, items, pos = 0, 0, 0
    open_item = False  # the last bullet's line ended mid-sentence: a line without a bullet continues it
    for line in text.split("\n"):
        stripped = line.strip()
        bullet = bool(re.match(r"^[•·▪●\-–—]\s*\S", stripped))
        if stripped and not bullet and not open_item:
            break
        pos += len(line) + 1
        if stripped:
            items += bullet
            end = pos - 1
            open_item = not re.search(r"[.;:]$", stripped)
    return end if items >= 2 else 0


def _stated_list(listed: str) -> str:
    """The list as the answer states it: bullets gone, long descriptions in parentheses dropped, a bullet's
    description after its name ("• Display Technologies – manufactures glass substrates …") too."""
    text = _LONG_PAREN.sub("", listed)
    if re.search(r"[•·▪●]", text):
        names = [re.split(r"\s+[–—-]\s+|—", item, maxsplit=1)[0].strip(" ;,.") for item in re.split(r"[•·▪●]", text)]
        named = [re.sub(r"^(?:and|or)\s+|[\s;,]+(?:and|or)$", "", n).strip(" ;,.") for n in names if n]
        if len(named) >= 2:
            return "; ".join(n for n in named if n)
    return " ".join(text.split()).rstrip(".")


def _asked_kind(text: str) -> str:
    m = re.search(rf"(?i)\b({_KIND})\s+segments?\b", text)
    return m.group(1).lower() if m else ""


def _fits_year(q: Question, p: Passage) -> bool:
    years = {a.year for a in q.periods if a.year}
    return bool(years) and p.period_end[:4].isdigit() and int(p.period_end[:4]) in years


def segments_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer text and its quote, or None when no passage lists the company's segments."""
    if q.language != "en" or not asks_segments(q.text):
        return None
    asked = _asked_kind(q.text)
    asked_m = _ASKED.search(q.text)
    places = asked_m is not None and bool(asked_m.group("geo"))  # geographies asked: segments named for places
    found: list[tuple[tuple[int, int, int, int, int, int, int], Passage, str, tuple[str, int, str]]] = []
    for rank, p in enumerate(of_named(q, passages)):
        first_line = p.text.split("\n", 1)[0]
        path_end = len(first_line) + 1 if "›" in first_line and "\n" in p.text else 0
        for s, e in sentence_spans(p.text):
            if e <= path_end:
                continue
            sentence = p.text[s:e]
            if s < path_end:  # the chunk's heading path glued before its first sentence ("… › 19. Reportable
                s = path_end   # Segments" + "consist of …", the tail of another sentence carried over)
            if sentence.rstrip().endswith(":"):  # the list set as bullets below it: quoted with it
                e += bullets_after(p.text[e:e + BULLETS_CHARS])
            sentence = p.text[s:e]
            listed = listing(sentence)
            if listed is None or find_periods(listed[2]):
                continue  # "… segments were: … in fiscal 2019" names another time's
            kind, count, items = listed
            stated = _stated_list(items)
            names = [n for n in re.split(r";\s*", stated) if n] if ";" in stated else _items(items)
            if places and sum(bool(_PLACE.search(n)) for n in names) * 2 < len(names):
                continue  # geographies asked: a listing of business lines names none
            words = sum(len(n.split()) for n in names) / len(names)
            abbreviated = all(_ABBREVIATION.match(n) for n in names)
            # the chunk ends inside the sentence ("… Rotary and Mission Systems (RMS)" + the next chunk's "and Space.")
            cut_off = e >= len(p.text.rstrip()) and not re.search(r"[.!?]\W*$", sentence.rstrip())
            key = (0 if not asked or asked in kind else 1, 1 if cut_off else 0, 0 if _fits_year(q, p) else 1,
                   # the latest filing first, then names, not descriptions, nor abbreviations only, then a count
                   -_ordinal(p.period_end), 0 if words <= NAME_WORDS and not abbreviated else 1, 0 if count else 1,
                   rank)
            found.append((key, p, sentence, listed))
    if not found:
        return None
    _, p, sentence, (kind, count, items) = min(found, key=lambda f: f[0])
    stated = _stated_list(items)
    what = f"{kind} segments" if kind else "segments"
    owner = q.names[0] if q.names else ""
    if count:
        lead = f"{owner} has {count} {what}: {stated} [{p.ref}]." if owner else \
            f"There are {count} {what}: {stated} [{p.ref}]."
    else:
        possessive = f"{owner}'" if owner.endswith("s") else f"{owner}'s"
        lead = f"{possessive} {what} are: {stated} [{p.ref}]." if owner else f"The {what} are: {stated} [{p.ref}]."
    return f"{lead}\n> {display(sentence)} [{p.ref}]", [(p.ref, sentence)]


def _ordinal(period_end: str) -> int:
    """``"2022-12-31"`` → ``20221231`` (0 when no period is known: such a filing sorts last)."""
    digits = period_end[:10].replace("-", "")
    return int(digits) if re.fullmatch(r"\d{8}", digits) else 0
