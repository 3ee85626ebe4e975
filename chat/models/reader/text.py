"""Sentences as spans of the original text, running headers/footers, and matching terms (pure).

A sentence is a ``(start, end)`` span of the passage text, so its quote is an exact substring (the page viewer
finds its lines). Wrapped PDF lines continue a sentence; a line break ends one after sentence punctuation, before
a bullet, after a short heading-like line, and at table rows. Sentences end at ``. ! ?`` + space — not after an
abbreviation (``U.S.``, ``Inc.``, ``No.``, ``Dec.``), inside a decimal (``3.5%``) or a dotted date (``2020.3.30.``,
``2020. 3. 30.``) — and at ``。！？`` (Korean ``다.``/``요.`` end with a period and a space like English; one a text
layer glued to the next sentence, ``…했다.이웃들의``, still ends there).
Running headers/footers (the same line, digits aside, at the top or bottom of several pages; page numbers) are
boundaries that never join a sentence; the line two overlapping chunks share (one's last, the next one's first)
is not one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Sequence

from chat.models.extractive import terms
from chat.models.reader.lexicon import SYNONYM_GROUPS
from chat.models.reader.line_items import IMPLIES

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
#: a line that ends on a closing bracket or quote, not on a sentence's punctuation
_CLOSING_END = re.compile(r"(?<![.!?。！？])[)\]”’\"'」』]$")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
_BULLET = re.compile(r"(?:[-*•·▪●◦‣]|\(?\d{1,3}[.)]|[a-z][.)])\s")
_LINE_END = re.compile(r"[.!?:;。！？：；\"')\]”’」』]$")
#: a Korean sentence's final "다."/"요." glued to the next one by a text layer that lost the space
#: ("… 합격했다.이웃들의 도움으로 …", "… 한다.〈창세기〉 6장 …"): a Hangul word or an opening bracket after it starts a
#: sentence — not a closing quote ("… 했다."라고"), a citation in parentheses ("… 진행한다.(Schiller 2003)") or a digit
_END = re.compile(r"[.!?]+[\"'”’)\]」』]*(?=\s)|[。！？]+[\"'”’)\]」』]*|(?<=[가-힣][다요])\.(?=[가-힣〈《「『“‘])")
_ABBREV = frozenset(
    "mr mrs ms dr prof st vs etc e.g i.e no nos fig p pp vol inc ltd co corp jan feb mar apr jun jul aug sep sept "
    "oct nov dec approx dept est u.s u.k u.n a.m p.m jr sr ph.d art sec ch ed eds al cf".split()
)
_PAGE_NUMBER = re.compile(
    r"^(?:page\s*)?[-–—]?\s*\d{1,4}\s*[-–—]?(?:\s*(?:of|/)\s*\d{1,4})?$|^\d{1,4}\s*(?:쪽|페이지|ページ)$", re.IGNORECASE
)
_FOOTER_WITH_NUMBER = re.compile(r"^[^|].*\|\s*\d{1,4}$")
HEADING_CHARS = 30
EDGE_LINES = 3


#: a word's last letter set apart by a text layer's kerning ("Incom e", "Balance Shee t"); "a" and "I" are words
_SPLIT_LETTER = re.compile(r"\b([A-Za-z]{2,}) ([b-hj-zB-HJ-Z])\b")


def join_split_letters(text: str) -> str:
    """``text`` with a word's kerned-off last letter joined back ("Statement of Incom e" → "Statement of Income"),
    for matching a title — never for a quote."""
    return _SPLIT_LETTER.sub(r"\1\2", text)


def lines_with_offsets(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each non-blank line, stripped."""
    out: list[tuple[int, int]] = []
    pos = 0
    for raw in text.split("\n"):
        lead = len(raw) - len(raw.lstrip())
        stripped = raw.strip()
        if stripped:
            out.append((pos + lead, pos + lead + len(stripped)))
        pos += len(raw) + 1
    return out


def _signature(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.lower().split()))


def running_lines(texts: Sequence[str], pages: Sequence[Hashable] | None = None) -> frozenset[str]:
    """Signatures of lines repeated at the top of at least two of ``texts``, or at the bottom of two (digits
    ignored).

    ``pages`` names the page each text comes from (``(document, page)``): a line counts once per page. Chunks
    overlap — the sentence that ends one chunk starts the next, on the same page or the next one — so a line at
    the bottom of one text and the top of another is that overlap, not a running header (a short text's lines
    are split between its top and its bottom, not counted as both).
    """
    top: dict[Hashable, set[str]] = {}
    bottom: dict[Hashable, set[str]] = {}
    for i, text in enumerate(texts):
        lines = [text[s:e] for s, e in lines_with_offsets(text)]
        head = min(EDGE_LINES, (len(lines) + 1) // 2)
        key = pages[i] if pages is not None and i < len(pages) else ("text", i)
        top.setdefault(key, set()).update(_signature(line) for line in lines[:head] if len(line) >= 4)
        tail = lines[max(head, len(lines) - EDGE_LINES) :]
        bottom.setdefault(key, set()).update(_signature(line) for line in tail if len(line) >= 4)
    seen: Counter[str] = Counter()
    for edge in (top, bottom):
        counted: Counter[str] = Counter()
        for signatures in edge.values():
            counted.update(signatures)
        for sig, n in counted.items():
            seen[sig] = max(seen[sig], n)
    return frozenset(sig for sig, n in seen.items() if n >= 2 and re.search(r"[^\W\d_]", sig))


def is_boilerplate(line: str, running: frozenset[str], *, at_edge: bool) -> bool:
    """A page number, a running header/footer, or an edge line like ``Apple Inc. | Q1 2023 Form 10-Q | 7``."""
    stripped = line.strip()
    if _PAGE_NUMBER.match(stripped):
        return True
    if at_edge and _FOOTER_WITH_NUMBER.match(stripped):
        return True
    return at_edge and _signature(stripped) in running


def is_table_line(line: str) -> bool:
    return line.lstrip().startswith("|")


def _ends_at_abbreviation(text: str, dot: int) -> bool:
    """The period at ``dot`` closes an abbreviation, a decimal or a dotted date — not a sentence."""
    before = text[:dot]
    word = re.search(r"([^\s(\[\"“]*)$", before)
    token = (word.group(1) if word else "").lower()
    if re.fullmatch(r"(?:[a-z]\.)+[a-z]", token):
        # "… located outside of the U.S. As of December 31, 2022, our workforce …": a word that only starts a sentence
        return not _STARTS_SENTENCE.match(text, dot + 1)
    if token.rstrip(".") in _ABBREV or re.fullmatch(r"[a-z]", token):
        return True
    after = text[dot + 1 : dot + 4]
    if re.fullmatch(r"\d{4}(?:\.\d{1,2}){0,2}|\d{1,2}", token) and re.match(r"\s?\d", after):
        return True  # 2020. 3. 30.
    dotted_date = re.search(r"\d{4}\.\s?\d{1,2}\.\s?\d{1,2}$", before)
    return bool(dotted_date) and not re.match(r"\s*[A-Z]", after)


#: words that begin a sentence, never continue one after a dotted abbreviation ("U.S. The …")
_STARTS_SENTENCE = re.compile(r"\s+(?:As|The|In|On|For|We|Our|This|These|Those|It|Its|During|However|Additionally|"
                              r"There|If|When|While|Under|Approximately|Each|Such)\s")


_INITIAL_END = re.compile(
    r"^(?:[A-Z]\.\s?)+$"  # the line is initials only ("J." / "J. R. R.")
    r"|\b[A-Z][a-z]+\.?\s(?:[A-Z]\.\s?)+$"  # a first name and its initials ("John A.", "John F. R.")
    r"|(?:^|[\s(\[\"“])(?:[A-Z]\.){2,}$"  # dotted capitals ("U.S.", "U.K.")
    r"|(?:^|[\s(\[\"“])(?:Mr|Mrs|Ms|Dr|Prof|St|Jr|Sr)\.$"
)


def _continues_after_initial(prev: str) -> bool:
    """A line that ends at an initial or an abbreviation of a Latin name ("존 맥도날드(John A.", "J. R. R.",
    "U.S.", "Dr.") is wrapped mid-sentence: the next line continues it (a heading like "PART I." does not)."""
    return bool(_INITIAL_END.search(prev.rstrip()))


#: a heading line over a list of bullets is at most this long
BULLETS_HEADING_CHARS = 60


def _heads_bullets(text: str, lines: list[tuple[int, int]], i: int) -> bool:
    """Line ``i`` is a heading over bullets ("Fiscal 2023 Full Year Highlights" before "• Net sales of …"): short,
    capitalised, no sentence's end, the next line a bullet — it starts a unit of its own, not the tail of the line
    above it ("… Adjusted EPS of 19.3 cps")."""
    line = text[lines[i][0] : lines[i][1]].strip()
    if i + 1 >= len(lines) or not line or len(line) > BULLETS_HEADING_CHARS or _LINE_END.search(line) \
            or len(line.split()) < 2:  # one word: a title's wrapped last word ("… of the Kenvue / Separation")
        return False
    following = text[lines[i + 1][0] : lines[i + 1][1]].lstrip()
    return line[0].isupper() and not _BULLET.match(line) and bool(_BULLET.match(following))


#: how many lines above a bullet its list's heading may be
BULLETS_REACH = 16


def _bullets_heading_line(text: str, lines: list[tuple[int, int]], start: int) -> int | None:
    """The index in ``lines`` of the heading over the bullet list a sentence at ``start`` is an item of."""
    at = next((k for k, (s, e) in enumerate(lines) if s <= start < e + 1), None)
    if at is None or not _BULLET.match(text[lines[at][0] : lines[at][1]].lstrip()):
        return None
    return next((k for k in range(at - 1, max(-1, at - BULLETS_REACH), -1) if _heads_bullets(text, lines, k)), None)


def bullets_heading(text: str, start: int) -> str:
    """The heading over the list of bullets a sentence at ``start`` is an item of ("Fiscal 2023 Full Year
    Highlights" for "• Adjusted EPS of 73.3 cps …"), or "" when it is no bullet or no such heading is near."""
    lines = lines_with_offsets(text)
    k = _bullets_heading_line(text, lines, start)
    return text[lines[k][0] : lines[k][1]].strip() if k is not None else ""


#: how many heading lines stacked right above a list's heading are read with it
STACKED_HEADINGS = 2


def headings_above(text: str, start: int) -> list[str]:
    """The heading lines stacked right above the heading of the bullet list a sentence at ``start`` is an item of,
    nearest first ("Fourth Quarter 2022 Financial Highlights:" over "Consolidated Results" over "• Consolidated net
    revenues of $3.6 billion …"): short, capitalised, no bullet, no sentence's end but a colon; [] when none."""
    lines = lines_with_offsets(text)
    k = _bullets_heading_line(text, lines, start)
    if k is None:
        return []
    out: list[str] = []
    for j in range(k - 1, max(-1, k - 1 - STACKED_HEADINGS), -1):
        line = text[lines[j][0] : lines[j][1]].strip()
        if not line or len(line) > BULLETS_HEADING_CHARS or not line[0].isupper() or _BULLET.match(line) \
                or _LINE_END.search(line.rstrip(":")):
            break
        out.append(line)
    return out


def _units(text: str, running: frozenset[str]) -> list[tuple[int, int]]:
    lines = lines_with_offsets(text)
    units: list[tuple[int, int]] = []
    current: tuple[int, int] | None = None
    for i, (s, e) in enumerate(lines):
        line = text[s:e]
        at_edge = i < EDGE_LINES or i >= len(lines) - EDGE_LINES
        if is_boilerplate(line, running, at_edge=at_edge) or is_table_line(line):
            if current:
                units.append(current)
            current = None
            continue
        if current is not None:
            prev = text[current[0] : current[1]]
            last_line = prev.rsplit("\n", 1)[-1]
            blank_between = "\n\n" in text[current[1] : s] or bool(re.search(r"\n[ \t]*\n", text[current[1] : s]))
            width = len(last_line) + len(_CJK.findall(last_line))
            wrapped = _continues_after_initial(prev)  # "John A." / "U.S." at a line's end: the sentence goes on
            ends = bool(_LINE_END.search(prev)) or width < HEADING_CHARS
            if ends and width >= HEADING_CHARS and _CLOSING_END.search(prev) and line[:1].islower():
                ends = False  # "… Rotary and Mission Systems (RMS)" + "and Space.": a bracket closes no sentence
            if blank_between or (ends and not wrapped) or _BULLET.match(line) or _heads_bullets(text, lines, i):
                units.append(current)
                current = (s, e)
            else:
                current = (current[0], e)
        else:
            current = (s, e)
    if current:
        units.append(current)
    return units


def sentence_spans(text: str, running: frozenset[str] = frozenset()) -> list[tuple[int, int]]:
    """Sentence spans of ``text`` (see the module docstring)."""
    out: list[tuple[int, int]] = []
    for us, ue in _units(text, running):
        unit = text[us:ue]
        start = 0
        for m in _END.finditer(unit):
            if unit[m.start()] == "." and m.end() - m.start() == 1 and _ends_at_abbreviation(unit, m.start()):
                continue
            end = m.end()
            if unit[start:end].strip():
                out.append((us + start, us + end))
            start = end
            while start < len(unit) and unit[start].isspace():
                start += 1
        if unit[start:].strip():
            out.append((us + start, ue))
    return [(s, e) for s, e in out if e - s >= 2]


def display(quote: str) -> str:
    """A quote on one line: wrapped lines joined — with a space, but none between Japanese/Chinese characters (Korean
    spaces its words, and its lines wrap at them: "… 이 배는 / 지붕과 …" is "이 배는 지붕과")."""
    out = ""
    for part in (p.strip() for p in quote.split("\n")):
        if not part:
            continue
        if out and _CJK.match(out[-1]) and _CJK.match(part[0]) and not (_HANGUL.match(out[-1])
                                                                       or _HANGUL.match(part[0])):
            out += part  # Japanese/Chinese: a line breaks between characters, not at a space
        elif out.endswith("-") and part[:1].islower():
            out = out[:-1] + part
        else:
            out = (out + " " + part) if out else part
    return " ".join(out.split(" ")).replace("  ", " ")


_PHRASES = sorted(
    ((phrase, i) for i, group in enumerate(SYNONYM_GROUPS) for phrase in group), key=lambda pi: len(pi[0]), reverse=True
)


def _implied() -> dict[str, str]:
    def group(phrase: str) -> str:
        return next(f"§{i}" for i, g in enumerate(SYNONYM_GROUPS) if phrase in g)

    return {group(narrow): group(broad) for narrow, broad in IMPLIES}


#: narrower group → the broader group it also counts for (``line_items.IMPLIES``)
IMPLIED_GROUPS = _implied()


def _groups(text: str) -> tuple[set[str], set[str]]:
    """The synonym groups ``text`` names, and the terms of the phrases that named them.

    Longest phrases first, each consuming its text: "합계금액" names the total, not also the price ("금액").
    """
    lowered = " " + " ".join(re.findall(r"\w+", text.lower())) + " "
    squashed = re.sub(r"\s+", "", text.lower())
    ids: set[str] = set()
    used: set[str] = set()
    for phrase, i in _PHRASES:
        if _CJK.search(phrase):
            if phrase not in squashed:
                continue
            squashed = squashed.replace(phrase, "\0")
        else:
            if f" {phrase} " not in lowered:
                continue
            lowered = lowered.replace(f" {phrase} ", " \0 ")
        ids.add(f"§{i}")
        used.update(terms(phrase))
    return ids, used


#: the other sign's word a cash-flow label prints aside ("Cash provided (used) by operations", "Net cash provided by
#: (used in) operating activities"): the line is the same item either way
_SIGN_ASIDE = re.compile(r"(?i)\((?:used|provided)(?:\s+(?:in|for|by))?\)")

#: a group's phrase whose words a label may print apart ("Depreciation of property and equipment, including
#: internal-use software …, and other amortization"): both words in one text name the phrase's group
_WORDS_APART: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"depreciation", "amortization"}), "depreciation and amortization"),
    # a count of shares, diluted, however worded ("Weighted-average shares––diluted", "Average number of common shares
    # - diluted EPS", "Shares used to compute diluted net income per share") — "Diluted net income per share" is none
    (frozenset({"diluted", "share", "average"}), "diluted weighted average shares"),
    (frozenset({"diluted", "share", "weighted"}), "diluted weighted average shares"),
    (frozenset({"diluted", "share", "used"}), "diluted weighted average shares"),
)


_NON_CURRENT = re.compile(r"(?i)\bnon[-\s]?current\b")
_US = re.compile(r"(?<![\w.])U\.\s?S\.(?:\s?A\.)?|(?i:\bunited\s+states(?:\s+of\s+america)?\b)")


def group_words(text: str) -> set[str]:
    """The words of ``text`` that name a synonym group as written ("earnings per share" in "diluted earnings per
    share")."""
    return _groups(text)[1]


def match_terms(text: str) -> set[str]:
    """Terms for matching: words, CJK bigrams, and the synonym groups the text names (``§0`` = revenue…).

    A phrase that names a group is replaced by the group (``net sales`` → ``§0``), so "revenue" and
    "net sales" match fully.
    """
    text = _NON_CURRENT.sub("noncurrent", _SIGN_ASIDE.sub(" ", text))  # "non-current assets" are no current assets
    text = _US.sub(" usa ", text)  # "U.S. sales", "United States": a word of its own (single letters are none)
    ids, used = _groups(text)
    words = set(terms(text))
    for apart, phrase in _WORDS_APART:
        if apart <= words:
            ids |= _groups(phrase)[0]
            used |= apart
    implied = {IMPLIED_GROUPS[i] for i in ids if i in IMPLIED_GROUPS}
    while implied - ids:  # what the narrower group implies, and what that implies in turn
        ids |= implied
        implied = {IMPLIED_GROUPS[i] for i in ids if i in IMPLIED_GROUPS}
    return (words - used) | ids


#: an abbreviated word of a column header ("Oper. Income")
_HEADER_ABBREVIATIONS = ((re.compile(r"(?i)\boper\."), "operating"),)


def header_terms(header: str) -> set[str]:
    """``match_terms`` of a column header, its abbreviations spelled out ("Oper. Income" → operating income)."""
    for abbreviation, word in _HEADER_ABBREVIATIONS:
        header = abbreviation.sub(word, header)
    return match_terms(header)


def coverage(asked: set[str], offered: set[str], weights: dict[str, float] | None = None) -> float:
    """Share of ``asked`` (weighted) that ``offered`` holds; a synonym group stands in for its words."""
    if not asked:
        return 0.0
    w = weights or {}
    total = sum(w.get(t, 1.0) for t in asked)
    hit = sum(w.get(t, 1.0) for t in asked & offered)
    return hit / total
