"""Whether the company pays dividends (pure): "Has Acme paid dividends to its shareholders in FY2022?", "Does Acme
pay a dividend on its common stock?".

A yes/no question, answered yes or no with the evidence, in this order:

- **the cash flow statement's dividends line** ("Dividends paid to common shareholders | (77,606)", "Cash dividends
  paid", "Dividends — common and preferred") in the period asked (else the latest): an amount says yes; a dash
  while other years print amounts says no, not that year;
- **a sentence of the company's own** that it declared or paid a dividend ("On February 12, 2019, our Board of
  Directors declared a cash dividend of $0.37 per common share", "We have paid a dividend annually since 2010"):
  yes — not a subsidiary's ("In 2020, MGM China paid the final dividend …"), a stock dividend (a split) or a
  "dividend equivalent";
- **a sentence that it has not** ("We have not declared or paid any cash dividends", "We have never declared nor
  paid any cash dividends on our capital stock", "did not declare any dividends"): no; a sentence about the future
  only ("We do not anticipate paying any cash dividends in the foreseeable future") says no as well, as what the
  company says of its policy.

Nothing found: None, and the question is answered as any other. A question about the dividend's trend or change
("Does Acme have a stable trend of paying dividends?", "… increase its dividend?") is not this kind.
Written from the standard wording of 10-K Item 5 and the cash flow statement, not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.compose import header_lines, period_phrase, spoken_value
from chat.models.reader.evidence import asked_column, of_named, passage_tables
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question, analyze
from chat.models.reader.tables import Row, Table
from chat.models.reader.text import sentence_spans
from chat.models.reader.units import table_unit

_ASKED = re.compile(r"(?is)^\s*(?:has|have|does|do|did|is|was|were)\b(?=.*\bdividends?\b)")
#: questions of the dividend's size or trend, not whether one is paid
_NOT_THIS = re.compile(r"(?i)\b(?:trend|stable|consistent|increas\w*|decreas\w*|rais\w*|cut|grow\w*|chang\w*|"
                       r"how\s+much|per\s+share|yield|payout|ratio|policy\s+change)\b")
#: a dividends line of the cash flow statement (not dividends received, payable, declared and unpaid, or a
#: subsidiary's owners')
_ROW = re.compile(r"(?i)^\s*(?:(?:cash\s+)?dividends?\b|payments?\s+(?:of|for)\s+(?:cash\s+)?dividends?\b|"
                  r"(?:common\s+(?:stock|share)\s+)?dividends?\s+paid\b)")
_ROW_NOT = re.compile(r"(?i)\b(?:received|receivable|payable|not\s+paid|unpaid|equivalents?|noncontrolling|"
                      r"per\s+share|declared\s+per|subsidiar\w*|reinvest\w*|yield)\b")
_CASH_FLOW = re.compile(r"(?i)\bfinancing\s+activities\b|\bcash\s+flows?\b")
_NIL = re.compile(r"^\$?\s*[—–\-]+\s*$")
#: the company itself declared or paid one: "we", "our Board of Directors", "the Company" before the verb
_PAID = re.compile(
    r"(?i)\b(?:we|our\s+board(?:\s+of\s+directors)?|the\s+(?:company|board(?:\s+of\s+directors)?))\s+"
    r"(?:\w+\s+){0,3}?(?:paid|declared|pays|declares|made)\b[^.;]{0,60}?\b"
    r"(?:(?:cash|quarterly|annual|regular|special|final|interim)\s+)*dividends?\b(?!\s+equivalent)")
_STOCK_DIVIDEND = re.compile(r"(?i)\bstock\s+dividend|\bstock\s+split|\bdividend\s+equivalent")
#: it has not: "have not declared or paid any cash dividends", "have never declared nor paid", "did not declare any
#: dividends", "no cash dividends were paid", "do not currently pay dividends"
_NONE = re.compile(
    r"(?i)\b(?:never|not)\s+(?:\w+\s+){0,2}?(?:declared|paid|pay|issued)\b(?:\s+(?:or|nor|and)\s+"
    r"(?:declared|paid|pay|issued))?\s+(?:any\s+)?(?:cash\s+)?dividends?\b|"
    r"\bno\s+(?:cash\s+)?dividends?\s+(?:were|was|have\s+been|has\s+been)\s+(?:declared|paid)\b")
#: of the future only: "do not anticipate paying any cash dividends in the foreseeable future"
_NONE_AHEAD = re.compile(
    r"(?i)\b(?:do|does)\s+not\s+(?:anticipate|expect|intend|plan)\s+(?:to\s+)?(?:pay|paying|declare|declaring)\s+"
    r"(?:any\s+)?(?:cash\s+)?dividends?\b")


def asks_paid_dividends(question: str) -> bool:
    """A yes/no question whether the company pays (or paid) dividends."""
    return bool(_ASKED.search(question)) and not _NOT_THIS.search(question)


def dividends_query(question: str) -> str:
    """The search for the dividends line and the company's words about dividends."""
    if not asks_paid_dividends(question):
        return ""
    q = analyze(question)
    years = [str(p.year) for p in q.periods if p.year]
    words = "dividends paid cash dividends declared never paid dividends on common stock financing activities"
    return " ".join(" ".join([*q.names, words, *years]).split())



def _statement_row(q: Question, tables: Sequence[Table]) -> tuple[Table, Row, int] | None:
    for table in tables:
        if not _CASH_FLOW.search(f"{table.caption} " + " ".join(f"{r.section} {r.label}" for r in table.rows)):
            continue
        col = asked_column(q, table)
        if col is None:
            continue
        for row in table.rows:
            if _ROW.match(row.label) and not _ROW_NOT.search(row.label) \
                    and any(row.amount(c) is not None for c in range(len(table.columns))):
                return table, row, col
    return None


def _sentences(p: Passage) -> list[tuple[int, int]]:
    return [(s, e) for s, e in sentence_spans(p.text) if re.search(r"(?i)\bdividends?\b", p.text[s:e])]


def _without_heading(text: str, at: int) -> str:
    """The sentence without a heading line glued before it ("Market for Registrant's Common Equity\nWe have never
    …"): a first line before the words found, with no end punctuation, most of its words capitalised."""
    cut = text.find("\n")
    if 0 < cut < at:
        first = text[:cut].split()
        if first and not text[:cut].rstrip().endswith((".", ",", ";", ":")) \
                and sum(w[:1].isupper() for w in first) * 2 > len(first):
            return text[cut + 1 :]
    return text


def paid_dividends_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer text and its quotes, or None when no passage says either way."""
    if q.language != "en" or not asks_paid_dividends(q.text):
        return None
    own = of_named(q, passages)
    for p, tables in zip(own, passage_tables(own), strict=True):
        found = _statement_row(q, tables)
        if found is None:
            continue
        table, row, col = found
        quote = p.text[row.line[0] : row.line[1]]
        shown = [*("> " + h for h in header_lines(table, p.text)), "> " + quote]
        amount = row.amount(col)
        period = period_phrase(table, col, "en")
        if amount is not None and amount.value != 0:
            size = spoken_value(replace(amount, value=abs(amount.value), raw=amount.raw.strip("()-−– ")),
                                table_unit(table, col), "en")
            lead = f"Yes — {' '.join(row.label.split())}: {size} {period} [{p.ref}]."
            return "\n".join([lead, *shown]), [(p.ref, quote)]
        if _NIL.match(row.cells[col] if col < len(row.cells) else ""):
            lead = (f"No — the cash flow statement prints no amount (“—”) for {' '.join(row.label.split())} "
                    f"{period} [{p.ref}].")
            return "\n".join([lead, *shown]), [(p.ref, quote)]
    said: dict[str, tuple[Passage, str]] = {}
    for p in own:
        for s, e in _sentences(p):
            text = p.text[s:e]
            if _STOCK_DIVIDEND.search(text):
                continue
            for kind, pattern in (("none", _NONE), ("paid", _PAID), ("ahead", _NONE_AHEAD)):
                m = pattern.search(text)
                if m:
                    said.setdefault(kind, (p, _without_heading(text, m.start())))
                    break
    for kind, lead_words in (("paid", "Yes — the documents say so"), ("none", "No — the documents say"),
                             ("ahead", "No — the documents say the company does not expect to pay any")):
        if kind in said:
            p, text = said[kind]
            quote = " ".join(text.split())
            return f"{lead_words}: “{quote}” [{p.ref}]", [(p.ref, text)]
    return None
