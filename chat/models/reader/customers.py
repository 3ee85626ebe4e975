"""Whether a company depends on a few customers (pure): "Did Acme report customer concentration in FY2022?", "Does
Acme have any customer that accounts for more than 10% of revenue?".

A 10-K says it in one sentence, in the business description, a risk factor or a note on concentrations: "Sales to
our three largest wholesalers accounted for 15%, 11% and 10% of total revenues", "No single customer accounted for
more than 10% of our net sales", "A relatively small number of end customers account for a high percentage of net
sales". The answer leads with the sentence of the company's own passages that ties its customers to a share of its
revenue — yes where a customer's (or a few customers') share is stated or "high", no where it says no customer
reaches the threshold — and quotes it. Written from the usual wording of concentration disclosures (ASC 275-10-50,
Regulation S-K Item 101), not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chat.models.reader.evidence import of_company
from chat.models.reader.passage import Passage
from chat.models.reader.periods import find_periods
from chat.models.reader.question import Question, subject_of
from chat.models.reader.text import display, sentence_spans

_ASKED = re.compile(r"(?i)\bcustomer\s+concentration\b|\bconcentration\s+of\s+(?:its\s+|our\s+)?customers\b|"
                    r"\b(?:single|one|any|largest|major|significant|key)\s+customers?\b[^?]*\b(?:account|represent|"
                    r"revenue|sales|%|percent)|\bdepend\w*\s+on\s+(?:a\s+(?:few|small\s+number\s+of)|one|major|key)\s+"
                    r"customers\b")
_BUYER = r"(?:customers?|clients?|wholesalers?|distributors?|retailers?|purchasers?)"
_OF_WHAT = r"[^.;•]{0,40}?\bof\s+(?:(?:our|its|the|total|consolidated|net|segment|company|worldwide)\s+)*"
#: "… customers accounted for 15% of total revenues", "… represented approximately 11% of net sales"
_SHARE = re.compile(rf"(?i)(?:\b{_BUYER}\b|\b(?:revenues?|sales)\s+(?:to|from)\s+(?:the\s+)?(?:[\w.&'’-]+\s+){{0,4}}?"
                    r"(?:government|agency|agencies)\b)[^.;•]{0,200}?\b(?:accounted|account|accounts|represented|"
                    r"represent|represents|comprised|made\s+up|contributed)\b[^.;•]{0,80}?(?:\d+(?:\.\d+)?\s?%|percent|"
                    r"(?:high|significant|substantial|large)\s+(?:percentage|portion|share))"
                    + _OF_WHAT + r"(?P<of>revenues?|sales|net\s+sales|trade\s+(?:accounts\s+)?receivables?|"
                    r"(?:accounts\s+)?receivables?)")
#: "No single customer accounted for more than 10% …", "we do not have a single customer accounting for …"
_NONE = re.compile(rf"(?i)\b(?:no|not\s+(?:have\s+)?(?:a|any)|none\s+of\s+(?:our|its|the))\s+(?:single\s+|one\s+|"
                   rf"individual\s+)?{_BUYER}\b[^.;]{{0,120}}?\b(?:10|ten)\s?(?:%|percent)")


def asks_concentration(question: str) -> bool:
    return bool(_ASKED.search(question))


def concentration_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """"Yes —" / "No —" with the sentence that says it, or None when no sentence of the company's ties its
    customers to a share of revenue."""
    if q.language != "en" or not asks_concentration(q.text):
        return None
    asked_years = {x.year for x in q.periods if x.year}
    best: tuple[tuple[int, int, int, int], Passage, str, bool] | None = None
    for rank, p in enumerate(of_company(q, passages)):
        for s, e in sentence_spans(p.text):
            flat = " ".join(p.text[s:e].split())
            none = bool(_NONE.search(flat))
            share = _SHARE.search(flat)
            if not none and share is None:
                continue
            said = {x.year for x in find_periods(flat) if x.year}
            # a year asked: the sentence's own (a fiscal year may be named by the year before or after it)
            off_year = int(bool(asked_years and said and not any(abs(y - a) <= 1 for y in said for a in asked_years)))
            receivables = int(share is not None and "receivable" in share.group("of").lower())
            # revenue shares before receivables', the year asked before another's, a share before "none"
            key = (off_year, receivables, 0 if share is not None else 1, rank)
            if best is None or key < best[0]:
                best = (key, p, p.text[s:e], none and share is None)
    if best is None:
        return None
    _, p, sentence, none = best
    verdict = "No — no single customer reaches the share the filing names" if none else \
        "Yes — the filing ties its revenue to a few customers"
    lead = f"{verdict}: “{display(sentence)}” [{p.ref}]"
    return lead, [(p.ref, sentence)]


def concentration_query(question: str) -> str:
    """The sentences of customer shares, searched for."""
    if not asks_concentration(question):
        return ""
    name = subject_of(question)
    return f"{name} customers accounted for % of total revenues net sales no single customer significant customers" \
        .strip()
