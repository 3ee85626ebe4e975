"""What a current report is about (pure): "What was the key agenda of Acme's 8-K filed on July 1, 2022?", "What is
the purpose of this 8-K?", "What did Acme's 8-K announce?".

A Form 8-K reports its events under numbered items ("Item 1.01 Entry into a Material Definitive Agreement", "Item
5.02 Departure of Directors or Certain Officers …", "Item 8.01 Other Events"), each opening with the event in one
sentence ("On June 30, 2022, Acme Finance, Inc. … entered into …"); "Item 9.01 Financial Statements and Exhibits"
only lists the exhibits. The answer names each item reported and quotes its first sentence. The cover page holds no
item: the page after it is read (``pages_to_read``). Written from the structure of Form 8-K (its General
Instructions' item list), not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chat.models.reader.evidence import of_company
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question, analyze
from chat.models.reader.text import display, match_terms, sentence_spans

_EIGHT_K = re.compile(r"(?i)\b8[- ]?k\b|\bcurrent\s+report\b")
#: what the report is about, not one figure or fact in it ("the outcome of the vote", "the new CEO's salary")
_ABOUT = re.compile(r"(?i)\b(?:agenda|purpose|about|key\s+(?:event|item|topic|point|matter|announcement)s?|"
                    r"main\s+(?:event|item|topic|point|subject|matter)s?|summar\w*|topics?|what\s+(?:did|does)\s+"
                    r"[^?]{0,60}?\b(?:announce|report|disclose)\b\s*\??\s*$|items?\s+(?:reported|disclosed))")
_ITEM = re.compile(r"(?m)^[ \t]*Item\s+(?P<num>\d{1,2}\.\d{2})\.?[ \t]+(?P<title>[A-Z][^\n]{2,120}?)\.?[ \t]*$")
#: the item that only lists exhibits
_EXHIBITS = "9.01"
_FILE_8K = re.compile(r"(?i)8[-_ ]?k")
#: a title's second line is this short (no item's event is told in so few words)
TITLE_TAIL_WORDS = 6


def asks_filing_items(question: str) -> bool:
    return bool(_EIGHT_K.search(question) and _ABOUT.search(question))


def _is_8k(p: Passage) -> bool:
    """A current report's passage: its file says 8-K, or its cover does ("FORM 8-K … CURRENT REPORT") — not an
    annual or quarterly report whose exhibit index cites one."""
    if re.search(r"(?i)(?<![0-9])10[-_ ]?[kq](?![a-z])", p.file_name):
        return False
    return bool(_FILE_8K.search(p.file_name)
                or re.search(r"(?i)\bFORM\s+8-K\b[\s\S]{0,200}?\bCURRENT\s+REPORT\b", p.text[:1500]))


def _items(p: Passage) -> list[tuple[str, str, str]]:
    """(number, title, first sentence) of each item the passage reports, exhibits aside."""
    out: list[tuple[str, str, str]] = []
    for m in _ITEM.finditer(p.text):
        if m.group("num") == _EXHIBITS:
            continue
        rest = p.text[m.end():]
        spans = sentence_spans(rest)
        title = " ".join(m.group("title").split())
        first = rest[spans[0][0]:spans[0][1]].strip() if spans else ""
        if first and len(first.split()) <= TITLE_TAIL_WORDS and not title.endswith(".") and len(spans) > 1:
            # the title runs on to a second line ("… Appointment of Certain Officers; Compensatory" / "Arrangements
            # of Certain Officers."): that line is the title's, the event the sentence after it
            title = f"{title} {first}"
            first = rest[spans[1][0]:spans[1][1]].strip()
        if first and not _ITEM.match(first):
            out.append((m.group("num"), title.rstrip("."), first))
    return out


def _reports(q: Question, passages: Sequence[Passage]) -> list[Passage]:
    """The 8-K passages of the company asked about, the best-ranked report's only, by page."""
    reports = [p for p in of_company(q, passages) if _is_8k(p)]
    if not reports:
        return []
    first = reports[0].document_id or reports[0].file_name
    return sorted((p for p in reports if (p.document_id or p.file_name) == first), key=lambda p: p.page)


def items_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """Each item the report gives and its first sentence, quoted — or None when no item is among the passages."""
    if q.language != "en" or not asks_filing_items(q.text):
        return None
    seen: set[str] = set()
    found: list[tuple[Passage, str, str, str]] = []
    for p in _reports(q, passages):
        for num, title, first in _items(p):
            if num not in seen:
                seen.add(num)
                found.append((p, num, title, first))
    if not found:
        return None
    named = "; ".join(f"Item {num} ({title})" for _, num, title, _ in found)
    lead = f"The report{'’s items are' if len(found) > 1 else ' is filed under'} {named} [{found[0][0].ref}]:"
    lines = [lead, *(f"> Item {num} {title}: {display(first)} [{p.ref}]" for p, num, title, first in found)]
    return "\n".join(lines), [(p.ref, first) for p, _, _, first in found]


def pages_to_read(question: str, passages: Sequence[Passage]) -> list[tuple[str, int]]:
    """The page after the report's cover when no item is among the passages (the items follow the cover)."""
    if not asks_filing_items(question):
        return []
    reports = _reports(analyze(question), passages)
    if not reports or any(_items(p) for p in reports) or not reports[0].document_id:
        return []
    have = {p.page for p in reports}
    following = min(have) + 1
    # a search hit of that page may hold only its exhibits or a heading path's "Item 8.01 …": the page read whole
    read = {p.page for p in reports if p.ref.startswith("P")}
    return [] if following in read else [(reports[0].document_id, following)]


#: "what was the outcome of the shareholder vote on X", "was the proposal on X approved", "how many votes against X"
_VOTE_ASKED = re.compile(r"(?i)\b(?:outcome|result)s?\s+of\s+(?:the\s+)?(?:shareholder\s+|stockholder\s+)?"
                         r"vot(?:e|ing)\b|\bvotes?\s+(?:for|against)\b|\bproposal\b[^?]{0,120}?\b(?:approved|defeated|passed|"
                         r"rejected|adopted|fail(?:ed)?)\b|\b(?:approved|defeated|passed|rejected)\b[^?]{0,60}?"
                         r"\bproposal\b")
#: the subject voted on, after "vote on" / "proposal for"
_VOTE_SUBJECT = re.compile(r"(?i)\bvot(?:e|ing)\s+(?:on|for|regarding|concerning)\s+(?P<subject>[^?]+)|"
                           r"\bproposal\s+(?P<subject2>[^?]+)")
#: a numbered matter of an Item 5.07 with its tally below: "(8) The shareholder proposal regarding … was defeated:"
_MATTER = re.compile(r"(?m)^[ \t]*\((?P<n>\d{1,2})\)[ \t]+(?P<text>[^\n|]+(?:\n(?![ \t]*(?:\(\d{1,2}\)|\||For\b|"
                     r"Against\b|"
                     r"Abstain\b|Broker\b|Nominee\b|One\s+Year\b))[^\n]+)*)")
_TALLY = re.compile(r"(?m)^[ \t|]*(?P<what>For|Against|Abstain(?:ed|ions)?|Broker\s+Non-Votes|Withheld)[ \t:|]+"
                    r"(?P<n>\d{1,3}(?:,\d{3})+|\d+)[ \t|\r]*$")
_OUTCOME = re.compile(r"(?i)\b(?:was|were)\s+(?:not\s+)?(?:defeated|approved|elected|ratified|adopted|rejected|passed|"
                      r"re-?elected)\b|\b(?:approved|ratified|elected)\b")
_NOT_SUBJECT = frozenset({"the", "a", "an", "on", "for", "of", "by", "at", "regarding", "vote", "outcome", "what",
                          "was", "held", "agm", "annual", "meeting", "company"})
#: how many pages after the first with voting results are read for the matter asked
VOTE_PAGES = 2
#: the share of the question's subject words a matter must hold
MATTER_SHARE = 0.6


def asks_vote(question: str) -> bool:
    return bool(_VOTE_ASKED.search(question))


def _subject_terms(q: Question) -> set[str]:
    m = _VOTE_SUBJECT.search(q.text)
    subject = (m.group("subject") or m.group("subject2")) if m else q.text
    named = set().union(*(match_terms(n) for n in q.names)) if q.names else set()
    return {t for t in match_terms(subject) - named if t not in _NOT_SUBJECT}


def vote_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The matter voted on that the question names, its outcome as the report states it and its tally — or None."""
    if q.language != "en" or not asks_vote(q.text):
        return None
    subject = _subject_terms(q)
    if not subject:
        return None
    best: tuple[float, int, Passage, re.Match[str]] | None = None
    for rank, p in enumerate(of_company(q, passages)):
        for m in _MATTER.finditer(p.text):
            covered = len(subject & match_terms(m.group("text"))) / len(subject)
            if covered >= MATTER_SHARE and (best is None or (covered, -rank) > (best[0], -best[1])):
                best = (covered, rank, p, m)
    if best is None:
        return None
    _, _, p, m = best
    statement = " ".join(m.group("text").split()).rstrip(":").strip()
    after = p.text[m.end():]
    following = _MATTER.search(after)
    end = following.start() if following else len(after)  # the matter's tally ends where the next matter begins
    tally = [(t.group("what"), t.group("n")) for t in _TALLY.finditer(after[:end])]
    counted = "; ".join(f"{what} {n}" for what, n in tally)
    if _OUTCOME.search(statement):
        lead = f"{statement}{f' ({counted})' if counted else ''} [{p.ref}]."
    elif tally:
        votes = {what.lower(): int(n.replace(",", "")) for what, n in tally}
        verdict = ("more votes for than against" if votes.get("for", 0) > votes.get("against", 0)
                   else "more votes against than for")
        lead = f"The matter “{statement}” received {verdict}: {counted} [{p.ref}]."
    else:
        return None
    quote = p.text[m.start(): m.end() + end].rstrip()
    return f"{lead}\n> {display(quote)} [{p.ref}]", [(p.ref, quote)]


def vote_pages(question: str, passages: Sequence[Passage]) -> list[tuple[str, int]]:
    """The next page of a report whose voting results began on a page read but hold no matter the question names
    (the tallies run on over the page)."""
    if not asks_vote(question):
        return []
    q = analyze(question)
    if vote_answer(q, passages) is not None:
        return []
    for p in _reports(q, passages):
        if p.document_id and (_MATTER.search(p.text) or re.search(r"(?i)\bItem\s+5\.07\b", p.text)):
            have = {x.page for x in passages if x.document_id == p.document_id}
            following = max(have) + 1
            # the results run on a page or two, not through the exhibits
            return [(p.document_id, following)] if following <= p.page + VOTE_PAGES else []
    return []
