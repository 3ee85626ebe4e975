"""Who audits the company (pure): the accounting firm that signed the auditor's report.

"Who audits Acme's financial statements?", "Who is Acme's auditor?", "Which accounting firm audits Acme?" ask for
a firm, and a filing names it in a few standard places: the signature of the Report of Independent Registered
Public Accounting Firm ("/s/ Ernst & Young LLP", then "We have served as the Company's auditor since 1996."),
management's report on internal control ("… has been audited by PricewaterhouseCoopers LLP, an independent
registered public accounting firm"), or the audit committee's report ("… appointed KPMG LLP to serve as the
Company's independent registered public accounting firm"). A firm is a capitalised name ending in its legal form
(LLP, LLC, AG, N.V. …); the words of the question ("audit", "financial statements") are in every paragraph of the
report and the audit committee's charter, so they cannot pick the sentence — the firm's name in an auditing
sentence does. General 10-K structure, not drawn from any evaluation set.
"""

from __future__ import annotations

import re

from chat.models.reader.question import Question

_ASKS = re.compile(
    r"(?i)\bwho\s+(?:audits|audited|is\s+the\s+auditor|are\s+the\s+auditors)\b|\bauditors?\b|"
    r"\b(?:audit|accounting)\s+firm\b"
)
#: a firm: up to four capitalised words ("Ernst & Young", "PricewaterhouseCoopers") and its legal form
FIRM = re.compile(
    r"(?<![\w&])(?:[A-Z][\w'’.\-]*\s+(?:&\s+)?){0,3}[A-Z][\w'’.\-]*,?\s+"
    r"(?:LLP|L\.L\.P\.|LLC|AG|N\.V\.|GmbH|S\.A\.|S\.p\.A\.|Ltd\.?|Chartered\s+Accountants)(?![\w])"
)
#: the sentence says the firm audits: "audited by", "auditor since", "registered public accounting firm", a signature
_AUDITING = re.compile(r"(?i)\baudit(?:s|ed|or|ors|ing)?\b|\bpublic\s+accounting\s+firm\b|^\s*/s/")
#: the sentence after a signature that says since when ("We have served as the Company's auditor since 1996.")
_SINCE = re.compile(r"(?i)\bauditor\s+since\b")
#: words of a firm name that are a heading's, not a firm's ("Report of …", "Audit Committee …")
_NOT_A_FIRM = re.compile(r"(?i)^(?:report|audit|committee|the|our|board|management)\b")
#: how sure a sentence naming a firm in an auditing sentence is (a signature or "audited by …")
AUDITOR_SCORE = 0.9


def asks_auditor(q: Question) -> bool:
    """An English question for the company's auditor."""
    return q.language == "en" and q.kind == "name" and bool(_ASKS.search(q.text))


def firm_in(sentence: str) -> str:
    """The accounting firm an auditing sentence names ("PricewaterhouseCoopers LLP"), or ``""``."""
    if not _AUDITING.search(sentence):
        return ""
    for m in FIRM.finditer(sentence):
        name = m.group(0).strip()
        words = name.split()
        while words and _NOT_A_FIRM.match(words[0]) and len(words) > 2:
            words = words[1:]  # a heading's capitalised words before the firm: "Report of KPMG LLP" → "KPMG LLP"
        if words and not _NOT_A_FIRM.match(words[0]):
            return " ".join(words).rstrip(",")
    return ""


def signed_spans(text: str, spans: list[tuple[int, int]]) -> list[tuple[tuple[int, int], str]]:
    """The sentences of ``text`` (``spans``, in order) that name the auditing firm, each with the firm; a signature
    ("/s/ Ernst & Young LLP") takes the sentence after it when that says since when the firm has audited."""
    out: list[tuple[tuple[int, int], str]] = []
    for i, (s, e) in enumerate(spans):
        firm = firm_in(text[s:e])
        if not firm:
            continue
        if text[s:e].lstrip().startswith("/s/") and i + 1 < len(spans) and _SINCE.search(text[slice(*spans[i + 1])]):
            e = spans[i + 1][1]
        out.append(((s, e), firm))
    return out
