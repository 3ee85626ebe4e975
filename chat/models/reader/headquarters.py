"""Where the company is headquartered (pure): the place its own headquarters or principal executive offices are.

"Where is Acme headquartered?" asks for the company's own seat, which an annual report states in Item 2
(Properties) or its business overview: "Our corporate headquarters is located in San Jose, California", "Our
principal executive offices are located at 929 Long Bridge Drive, Arlington, Virginia", "We own our corporate
headquarters buildings located in Richfield, Minnesota", "Acme was founded in 2009 and is headquartered in San
Francisco". The same words also describe other seats — an acquired business "headquartered in Kreuzlingen,
Switzerland", a segment's or a region's headquarters ("our headquarters for our Greater China geography"), a
subsidiary's — which are not the answer: the seat must be the company's own ("our", "its", "the Company's", the
company's name as the subject). General 10-K wording, not drawn from any evaluation set.
"""

from __future__ import annotations

import re

from chat.models.reader.cover_facts import cover_address, with_sentences
from chat.models.reader.question import Question

_ASKS = re.compile(r"(?i)\bheadquarter\w*|\bprincipal\s+executive\s+offices?\b|\bhead\s+office\b")
_WHERE = re.compile(r"(?i)^\s*where\b|\b(?:what|which)\s+(?:city|location|place|state|country)\b|\blocated\b|"
                    r"\baddress\b")
#: a place: an optional street number, then capitalised words, commas, a ZIP code
_PLACE = (r"(?:\d[\w-]*\s+)?[A-Z][\w.'’-]*"
          r"(?:(?:,\s*|\s+)(?:Suite\s+\d+|[A-Z][\w.'’-]*|\d{5}(?:-\d{4})?|of|the|and)){0,9}")
_SEAT = r"(?:(?:principal|corporate|global|world|worldwide)\s+){0,2}(?:headquarters|executive\s+offices)"
#: the company's own seat and where it is
_OWN_SEAT = re.compile(
    rf"(?i:\b(?:our|its|the\s+company[’']s)\s+{_SEAT}(?:\s+buildings?|\s+campus)?,?\s+(?:(?:is|are)\s+)?"
    rf"(?:(?:located|situated|based)\s+)?(?:in|at)\s+(?:the\s+)?)(?P<place>{_PLACE})"
)
#: "<Company> … is headquartered in <place>", "we are headquartered in <place>" — a copula, not a relative clause's
#: "… acquired Semfinder, headquartered in …" or "operations headquartered in Sweden"
_HEADQUARTERED = re.compile(rf"(?i:\b(?:is|are|was|were|remains?)\s+(?:\w+\s+)?headquartered\s+in\s+(?:the\s+)?)"
                            rf"(?P<place>{_PLACE})")
#: a seat that is not the company's: a segment's, a region's, one planned
_NOT_OWN = re.compile(r"(?i)^\s*(?:for\s+(?:our|the|its)\b|of\s+(?:our|the|its)\s+\w+\s+(?:segment|business|division))")
#: how sure a sentence stating the company's own seat is
HEADQUARTERS_SCORE = 0.9


def asks_headquarters(q: Question) -> bool:
    """An English question for where the company is headquartered."""
    return q.language == "en" and bool(_ASKS.search(q.text)) and bool(_WHERE.search(q.text))


def _trimmed(place: str) -> str:
    words = place.rstrip(" ,.").split()
    while words and words[-1].lower() in {"of", "the", "and"}:
        words.pop()
    return " ".join(words).rstrip(" ,.")


def seat_in(sentence: str, names: tuple[str, ...] | list[str]) -> str:
    """The place ``sentence`` says the company itself is headquartered, or ``""``."""
    for m in _OWN_SEAT.finditer(sentence):
        if not _NOT_OWN.match(sentence, m.end()):
            return _trimmed(m.group("place"))
    for m in _HEADQUARTERED.finditer(sentence):
        before = sentence[: m.start()]
        subject = re.search(r"(?i)\b(?:we|the\s+company)\b", before) or any(
            n and re.search(rf"(?i)\b{re.escape(n)}\b", before) for n in names)
        if subject and not re.search(r"(?i)\b(?:which|that|who)\s+$|,\s*$", before):
            return _trimmed(m.group("place"))
    return ""


def seat_spans(text: str, spans: list[tuple[int, int]], names: tuple[str, ...] | list[str]
               ) -> list[tuple[tuple[int, int], str]]:
    """The sentences of ``text`` (``spans``) that state the company's own seat, each with the place, and a cover
    page's address of the principal executive offices (``cover_facts.cover_address``)."""
    return with_sentences(cover_address(text), text, spans, seat_in, names)
