"""Which companies a company acquired (pure): "What are the major acquisitions Acme made in FY2022?", "Which
companies did Acme acquire?", "What are three main companies acquired by Acme mentioned in this 10-K?".

A filing tells an acquisition in a sentence of its own: "On November 2, 2021, we acquired all outstanding shares of
Current Health Ltd.", "… the November 2021 acquisition of Trillium, a clinical stage …", "… related to our
acquisition of Therachon, which was accounted for as an asset acquisition". The acquired company is the capitalised
name after "acquired (all (of) the outstanding shares of)" or "acquisition of"; an accounting term ("acquired
IPR&D", "the acquisition method") names none. The answer lists each company found, the most mentioned first, each
with the sentence that first names it; a year asked keeps the companies whose sentences name that year (or none).
Written from the standard wording of business-combination disclosures (ASC 805), not from any evaluation set.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from chat.models.reader.evidence import of_company
from chat.models.reader.passage import Passage
from chat.models.reader.periods import find_periods
from chat.models.reader.question import Question, subject_of
from chat.models.reader.text import display, sentence_spans

_ASKED = re.compile(r"(?i)\b(?:what|which|list|name|identify|any|were\s+there)\b[^?]{0,80}?\b(?:acquisitions|"
                    r"companies\s+(?:\w+\s+){0,2}acquired|businesses\s+(?:\w+\s+){0,2}acquired|acquired\s+companies|"
                    r"did\s+[^?]{1,40}?\s+acquire)\b")
#: an amount of an acquisition, not which ones ("how much was paid for …", "the goodwill from …")
_NOT_THIS = re.compile(r"(?i)\bhow\s+(?:much|many)\b|\bcosts?\b|\bprice\b|\bpaid\b|\bgoodwill\b|\bconsideration\b|"
                       r"\bexpenses?\b|\bamount\b|\$")
_NAME = r"(?P<name>[A-Z][\w&'’.-]*(?:(?:\s+|,\s+|\s+d/b/a\s+)(?:[A-Z][\w&'’.-]*|of|and|&|de|la))*)"
_ACQUIRED = re.compile(r"\b(?:acquired|acquisitions?\s+of|purchased|bought)\s+(?:(?:all|substantially\s+all|the\s+"
                       r"remaining|a\s+majority)\s+(?:of\s+)?(?:the\s+)?(?:(?:issued\s+and\s+)?outstanding\s+)?"
                       r"(?:(?:common|ordinary|capital|voting)\s+)?(?:shares|stock|equity|interests?|assets)\s+"
                       r"(?:(?:not\s+(?:already|previously)\s+owned|held)\s+by\s+(?:[\w&.-]+\s+){1,3}?|(?:\w+\s+){0,2}?)"
                       r"of\s+)?" + _NAME)
#: the name an acquisition goes by ("acquired in our Array acquisition", "the Trillium acquisition")
_NAMED_ACQUISITION = re.compile(r"\b(?:our|the|its)\s+(?:\w+\s+\d{4}\s+)?"
                                r"(?P<name>[A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*){0,3})\s+acquisition\b")
#: capitalised words after "acquired"/"acquisition of" that name no company
_NOT_COMPANY = re.compile(r"(?i)^(?:IPR&D|In-?Process|Research|Development|Intangible|Goodwill|Property|Plant|"
                          r"Equipment|Assets?|Businesses|Companies|Company|Entities|Certain|Other|Such|These|Those|"
                          r"This|That|The|Our|Its|Their|Which|Each|Any|All|Net|Total|Cash|Common|Treasury|Shares?|"
                          r"Stock|Accounting|Method|Topic|ASC|Note|Item|Inc|Fiscal|January|February|March|April|May|"
                          r"June|July|August|September|October|November|December)\b")
#: where a name ends: a legal suffix's dot is kept ("Ltd.", "Inc.")
_TRAILING = re.compile(r"(?:,|\s+(?:and|of|&|de|la))+$")
MOST_NAMED = 6
#: how many the question asks for ("three main companies acquired", "the 2 largest acquisitions")
_HOW_MANY = re.compile(r"(?i)\b(two|three|four|five|six|[2-6])\s+(?:(?:main|major|largest|biggest|key|"
                       r"significant|most\s+\w+)\s+)*(?:companies|acquisitions|businesses)\b")
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _asked_count(question: str) -> int:
    """The number of acquisitions the question asks for, ``MOST_NAMED`` when it names none."""
    m = _HOW_MANY.search(question)
    if m is None:
        return MOST_NAMED
    word = m.group(1).lower()
    return _COUNTS.get(word) or int(word)


def asks_acquisitions(question: str) -> bool:
    return bool(_ASKED.search(question)) and not _NOT_THIS.search(question)


#: a sentence that tells the deal ("we acquired … of Trillium") weighs this much; one that refers back to it by
#: name ("IPR&D acquired in our Array acquisition") one
TOLD = 2


def _names(sentence: str) -> list[tuple[str, int]]:
    """The companies ``sentence`` says were acquired, each with its weight (``TOLD`` for the deal told, 1 for a
    reference to it)."""
    out: list[tuple[str, int]] = []
    found = [(m, TOLD) for m in _ACQUIRED.finditer(sentence)] + [(m, 1) for m in _NAMED_ACQUISITION.finditer(sentence)]
    for m, weight in found:
        name = _TRAILING.sub("", m.group("name").strip()).rstrip(",")
        if name.endswith(".") and not re.search(r"(?i)\b(?:Ltd|Inc|Corp|Co|L\.P|S\.A|N\.V|plc|LLC)\.$", name):
            name = name[:-1]
        if name and not _NOT_COMPANY.match(name) and len(name) > 2:
            out.append((name, weight))
    return out


def _key(name: str) -> str:
    """One company however the sentences end its name ("Current Health Ltd." / "Current Health")."""
    words = re.sub(r"(?i)[,.]|\b(?:ltd|inc|corp|corporation|co|llc|plc|limited|company)\b", " ", name).split()
    return " ".join(w.lower() for w in words[:2])


#: the form a question names ("mentioned in this 10K report"): 10-K, 10-Q, 8-K
_FORM = re.compile(r"(?i)\b(10|8)[- ]?([kq])\b")


def _of_form(question: str, passages: list[Passage]) -> list[Passage]:
    """The passages of the form the question names ("this 10-K"), when any is; else all of them."""
    m = _FORM.search(question)
    if m is None:
        return passages
    form = re.compile(rf"(?i)(?<![0-9]){m.group(1)}[-_ ]?{m.group(2)}(?![a-z])")
    own = [p for p in passages if form.search(p.file_name)]
    return own or passages


def _years(q: Question) -> set[int]:
    return {p.year for p in q.periods if p.year}


def acquisitions_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The companies acquired and the sentence that names each, or None when no sentence names one."""
    if q.language != "en" or not asks_acquisitions(q.text):
        return None
    asked_years = _years(q)
    counts: Counter[str] = Counter()
    first: dict[str, tuple[int, str, Passage, str]] = {}
    for rank, p in enumerate(_of_form(q.text, of_company(q, passages))):
        for s, e in sentence_spans(p.text):
            sentence = " ".join(p.text[s:e].split())
            names = _names(sentence)
            if not names:
                continue
            said = {x.year for x in find_periods(sentence) if x.year}
            # a year asked: the sentence names it (a fiscal year may be named by the year before or after it)
            if asked_years and said and not any(abs(y - a) <= 1 for y in said for a in asked_years):
                continue
            for name, weight in names:
                key = _key(name)
                counts[key] += weight
                if key not in first:
                    first[key] = (rank, name, p, p.text[s:e])
    if not first:
        return None
    ordered = sorted(first, key=lambda k: (-counts[k], first[k][0]))[:_asked_count(q.text)]
    listed = "; ".join(f"{first[k][1]} [{first[k][2].ref}]" for k in ordered)
    lead = f"The documents name {'this acquisition' if len(ordered) == 1 else 'these acquisitions'}: {listed}."
    quotes = [(first[k][2].ref, first[k][3]) for k in ordered]
    lines = [lead, *(f"> {display(text)} [{ref}]" for ref, text in dict.fromkeys(quotes))]
    return "\n".join(lines), list(dict.fromkeys(quotes))


def acquisitions_query(question: str) -> str:
    """The sentences that tell acquisitions, searched for: "Acme acquired all outstanding shares acquisition of"."""
    if not asks_acquisitions(question):
        return ""
    return f"{subject_of(question)} acquired all outstanding shares completed acquisition of".strip()
