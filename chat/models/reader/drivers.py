"""What drove a change (pure): "What drove the reduction in SG&A expense as a percent of net sales?", "Why did
Acme's gross margin decrease in 2031?", "What were the main drivers of the increase in operating income?".

A filing's discussion of results states each change with its cause in one sentence: "As a percentage of net sales,
SG&A expenses decreased to 23.6% …, primarily due to leverage of marketing expenses …", "Operating income margins
decreased in 2018 versus 2017, driven primarily by …", "Gross margin increased … as a result of …". The answer is
the sentence that names the measure asked, moves the way asked, and gives a cause ("due to", "driven by", "as a
result of", "reflecting", "attributable to"): the cause stated first, the sentence quoted whole. Written from the
standard wording of MD&A results discussions, not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from chat.models.reader.evidence import of_company
from chat.models.reader.passage import Passage
from chat.models.reader.periods import find_periods
from chat.models.reader.question import Question, asking_sentence, subject_of
from chat.models.reader.ratios import without_periods
from chat.models.reader.text import display, match_terms, sentence_spans

_CHANGE_WORDS = (r"(?:increase|decrease|reduction|decline|rise|drop|fall|growth|improvement|deterioration|change|"
                 r"expansion|contraction)s?")
#: "What drove / caused / led to the reduction in X", "What were the main drivers of (the increase in) X", "Why did X
#: decrease"
_ASKED = (
    re.compile(r"(?i)^\s*(?:what|which\s+factors?)\s+(?:primarily\s+|mainly\s+)?(?:drove|drives|caused|causes|led\s+to|"
               r"contributed\s+to|explains?|was\s+behind|were\s+behind)\s+(?:the\s+)?(?P<subject>[^?]+?)\s*\??\s*$"),
    re.compile(r"(?i)^\s*what\s+(?:were|was|are|is)\s+the\s+(?:main\s+|primary\s+|key\s+|major\s+|principal\s+)?"
               r"(?:drivers?|reasons?|causes?|factors?)\s+(?:of|for|behind)\s+(?:the\s+)?(?P<subject>[^?]+?)\s*\??\s*$"),
    re.compile(r"(?i)^\s*why\s+(?:did|was|were|has|have|is|are|does|do)\s+(?P<subject>[^?]+?)\s*\??\s*$"),
)
_CHANGE_IN = re.compile(rf"(?i)^(?:the\s+)?(?:\w+\s+)?(?P<word>{_CHANGE_WORDS})\s+(?:in|of)\s+(?:the\s+)?"
                        r"(?P<measure>.+)$")
#: "Acme's gross margin decrease in 2031" (a why question): the measure, then its verb
_MEASURE_VERB = re.compile(r"(?i)^(?P<measure>.+?)\s+(?P<word>(?:increas|decreas|declin|improv|ris|grow|grew|rose|fell|"
                           r"fall|drop|chang|expand|contract|deteriorat)\w*)\b(?P<rest>.*)$")
_UP = re.compile(r"(?i)\b(?:increas\w*|rise|rose|risen|rising|grow\w*|grew|growth|improv\w*|higher|expan\w*|up)\b")
_DOWN = re.compile(r"(?i)\b(?:decreas\w*|declin\w*|reduc\w*|drop\w*|fell|fall\w*|lower|deteriorat\w*|contract\w*|"
                   r"down)\b")
#: the cause a sentence gives: from its connector to the sentence's end
_CAUSE = re.compile(r"(?i)\b(?:(?:primarily|mainly|largely|partly|partially|principally|predominantly)\s+)?"
                    r"(?:due\s+to|driven\s+(?:primarily\s+|mainly\s+|largely\s+)?by|as\s+a\s+result\s+of|"
                    r"reflect(?:s|ed|ing)|attributable\s+to|because\s+of|resulting\s+from|owing\s+to)\b")
#: the question's words that name no part of the measure
_NOT_MEASURE = match_terms("company company's expense expenses the a an as of in for during fiscal year quarter")
#: a measure's own words a filing may leave out ("SG&A expense as a percent of net sales": "As a percentage of net
#: sales, SG&A expenses decreased")
SHARE_OF_MEASURE = 0.75


@dataclass(frozen=True, slots=True)
class Driver:
    measure: str  # "SG&A expense as a percent of net sales"
    direction: str  # "up", "down" or "" (a change either way)


def asked_driver(question: str) -> Driver | None:
    """What a "what drove …" / "why did …" question asks the cause of, or None. Only the asking sentence is read
    ("What drove operating margin change as of FY2022 for Acme? If operating margin is not a useful metric …")."""
    asking = asking_sentence(question) + ("?" if "?" in question else "")
    for pattern in _ASKED:
        m = pattern.match(asking)
        if m is None:
            continue
        subject = " ".join(m.group("subject").split())
        change = _CHANGE_IN.match(subject)
        if change is not None:
            return Driver(_without_periods(change.group("measure")), _direction(change.group("word")))
        moved = _MEASURE_VERB.match(subject)
        if moved is not None:
            return Driver(_without_periods(moved.group("measure")), _direction(moved.group("word")))
        if pattern is not _ASKED[2]:  # "What drove Acme's gross margin?": the measure, either way
            return Driver(_without_periods(subject), "")
    return None


def _terms(text: str) -> set[str]:
    """``match_terms`` with "percentage" and "percent" one word ("as a percent of net sales" / "As a percentage of
    net sales")."""
    return {"percent" if t == "percentage" else t for t in match_terms(text)}


def _direction(word: str) -> str:
    return "up" if _UP.search(word) else "down" if _DOWN.search(word) else ""


def _without_periods(text: str) -> str:
    """The measure without its periods, a trailing preposition or a leading possessive name."""
    text = re.sub(r"(?i)\s+(?:in|for|during|over|of|versus|vs\.?|compared\s+(?:to|with))(?:\s+the)?\s*$", "",
                  without_periods(text))
    text = re.sub(r"^(?:[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*['’]s?\s+)", "", text.strip())  # "Acme's gross margin"
    return " ".join(text.split())


def driver_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The cause the documents give for the change asked, and the sentence quoted — or None when no sentence names
    the measure, moves the way asked and gives a cause."""
    if q.language != "en":
        return None
    asked = asked_driver(q.text)
    if asked is None:
        return None
    names = set().union(*(match_terms(n) for n in q.names))
    measure = _terms(asked.measure) - _NOT_MEASURE - names
    if not measure:
        return None
    # a margin's change is told of its profit ("operating margin" asked: "Operating profit decreased … due to …")
    profit = _terms(re.sub(r"(?i)\bmargins?\b", "profit", asked.measure)) - _NOT_MEASURE - names
    measures = [measure, *([profit] if profit and profit != measure else [])]
    best: tuple[tuple[float, int, int, int], Passage, str, str] | None = None
    for rank, p in enumerate(of_company(q, passages)):
        for s, e in sentence_spans(p.text):
            sentence = p.text[s:e]
            flat = " ".join(sentence.split())
            cause = _CAUSE.search(flat)
            if cause is None:
                continue
            said = flat[: cause.start()]
            covered = max(len(m & _terms(said)) / len(m) for m in measures)
            if covered < SHARE_OF_MEASURE:
                continue
            moves = "up" if _UP.search(said) else "down" if _DOWN.search(said) else ""
            if asked.direction and moves and moves != asked.direction and not (_UP.search(said) and _DOWN.search(said)):
                continue  # "the reduction" asked: a sentence of an increase gives another change's cause
            period_fits = _period_fits(q, flat)
            key = (covered, period_fits, int(bool(moves)), -rank)
            if best is None or key > best[0]:
                best = (key, p, sentence, flat[cause.start() :].rstrip(" ."))
    if best is None:
        return None
    _, p, sentence, cause_text = best
    lead = f"The documents give the cause: {cause_text} [{p.ref}]."
    return f"{lead}\n> {display(sentence)} [{p.ref}]", [(p.ref, sentence)]


def _period_fits(q: Question, sentence: str) -> int:
    """1 when the sentence names a year the question asks (or either names none), else 0."""
    asked = {p.year for p in q.periods if p.year}
    said = {p.year for p in find_periods(sentence) if p.year}
    return 1 if not asked or not said or asked & said else 0


def drivers_query(question: str) -> str:
    """The sentences that give a change's cause, searched for: "Acme operating margin decreased increased primarily
    due to driven by"; '' for another question."""
    asked = asked_driver(question)
    if asked is None:
        return ""
    return f"{subject_of(question)} {asked.measure} increased decreased primarily due to driven by".strip()
