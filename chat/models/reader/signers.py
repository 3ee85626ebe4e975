"""Who signed a filing (pure): "Who signed Amcor's 8-K dated July 1, 2022?", "Who signed Acme's 10-K?".

A filing's signature block names each signer after "/s/" ("By: /s/ Damien Clayton", "Name: Damien Clayton",
"Title: Company Secretary"; a 10-K's page lists the officers and directors, each "/s/ Name" above "Name, Title").
The answer names the signers of the company's passages — of the kind of filing the question names ("8-K",
"10-K", "10-Q") where it names one — with the title the block gives each, and quotes the block's lines. Written
from the usual shape of SEC signature pages, not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chat.models.reader.evidence import of_company
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question

_ASKED = re.compile(r"(?i)^\s*who\s+(?:has\s+|had\s+)?(?:signed|executed)\b|\bwho\s+(?:is|was|were)\s+the\s+"
                    r"signator(?:y|ies)\b|\bsigned\s+by\s+whom\b")
_KIND = re.compile(r"(?i)\b(8|10)-?([kq])\b")
_SIGNED = re.compile(r"/s/\s*(?P<name>[A-Z][A-Za-z.'’-]*(?:[ \t]+(?!By\b|Name\b|Title\b)(?:[A-Z][A-Za-z.'’-]*|de|van|"
                     r"von|da)){0,4})")
_TITLE = re.compile(r"(?im)^\s*Title:\s*(?P<title>[^\n]{2,80})$")
#: the most signers named in the answer (a 10-K's page lists every director)
MAX_NAMED = 8
#: a lone signer's "Title:" line follows the name within this many characters
TITLE_WITHIN = 120


def asks_signers(question: str) -> bool:
    return bool(_ASKED.search(question))


def _of_kind(question: str, passages: Sequence[Passage]) -> list[Passage]:
    """The passages of the kind of filing the question names ("8-K": file name or text), all when it names none
    or none is of it."""
    m = _KIND.search(question)
    if m is None:
        return list(passages)
    kind = re.compile(rf"(?i)(?<![0-9]){m.group(1)}-?{m.group(2)}(?![a-z])")
    return [p for p in passages if kind.search(p.file_name)] or list(passages)


def signers_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """"The filing was signed by Damien Clayton (Company Secretary) [S3]." with the signature lines quoted, or None
    when no passage of the company's (of the kind asked) has a signature block."""
    if q.language != "en" or not asks_signers(q.text):
        return None
    for p in _of_kind(q.text, of_company(q, passages) or list(passages)):
        found = list(_SIGNED.finditer(p.text))
        if not found:
            continue
        names = list(dict.fromkeys(" ".join(m.group("name").split()) for m in found))
        title = _TITLE.search(p.text, found[0].end()) if len(names) == 1 else None
        if title is not None and title.start() - found[0].end() > TITLE_WITHIN:
            title = None  # a "Title:" far below is another block's
        said = [f"{names[0]} ({' '.join(title.group('title').split())})"] if title else names[:MAX_NAMED]
        more = f" and {len(names) - MAX_NAMED} others" if len(names) > MAX_NAMED else ""
        lead = f"The filing was signed by {', '.join(said)}{more} [{p.ref}]."
        start = p.text.rfind("\n", 0, found[0].start()) + 1
        last = title.end() if title else found[min(len(found), MAX_NAMED) - 1].end()
        end = p.text.find("\n", last)
        block = p.text[start : end if end != -1 else len(p.text)]
        quote = " ".join(block.split())
        return "\n".join([lead, f"> {quote}"]), [(p.ref, quote)]
    return None
