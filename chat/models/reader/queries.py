"""What the local model searches for a question (pure): the question itself and, for a line item of a financial
statement, a query in the statement's own words.

A statement question names a line item, a period and a company in the asker's words ("How much did Acme pay in
dividends in the first half of 2023?"); the page that answers it is a table chunk whose caption and header say
"CONSOLIDATED STATEMENTS OF CASH FLOWS … Six Months Ended … Dividends paid". The second query puts those together
— the company, the statement's title (the one the question or its instructions name, else the one that prints the
line item: ``statements.implied_statement``), the line item and the period as a header writes it — so keyword
and semantic search both meet the statement page, not only the prose that discusses the figure.
"""

from __future__ import annotations

import re

from chat.models.reader.acquisitions import acquisitions_query
from chat.models.reader.activities import activities_query
from chat.models.reader.auditors import asks_auditor
from chat.models.reader.balances import asks_paid, supplemental_item
from chat.models.reader.business import business_query
from chat.models.reader.cover_facts import FACT_WORDS, asked_fact
from chat.models.reader.customers import concentration_query
from chat.models.reader.dividends_paid import dividends_query
from chat.models.reader.drivers import drivers_query
from chat.models.reader.growth import growth_query
from chat.models.reader.guidance import guidance_query
from chat.models.reader.headquarters import asks_headquarters
from chat.models.reader.largest_items import largest_item_query
from chat.models.reader.officers import asked_office
from chat.models.reader.periods_apart import search_apart
from chat.models.reader.question import Question, analyze, per_name_questions, spelled_out
from chat.models.reader.ratios import capital_intensity_queries
from chat.models.reader.registered import registered_query
from chat.models.reader.rivals import rival_questions
from chat.models.reader.segments import segments_query
from chat.models.reader.statements import implied_statement
from chat.models.reader.superlatives import search_query as superlative_query
from chat.models.reader.superlatives import share_query
from chat.models.reader.text import match_terms
from chat.models.reader.year_end import year_end_query
from chat.models.reader.year_trend import year_trend_query

#: how each statement is titled in a filing (the usual US GAAP titles, two spellings each)
STATEMENT_WORDS = {
    "income": "consolidated statements of operations income statements",
    "balance": "consolidated balance sheets",
    "cash": "consolidated statements of cash flows",
}
_SPAN_WORDS = {3: "three months ended", 6: "six months ended", 9: "nine months ended", 12: "year ended"}


def statement_query(question: str) -> str:
    """The statement-words query for ``question``, or ``""`` when it asks no line item of a statement."""
    q = analyze(question)
    if q.language != "en" or q.kind not in ("value", "change", "comparison") or not q.focus or q.parts:
        return ""
    kind = q.statement or implied_statement(q.focus_terms, fallback=True)
    focus = q.focus
    if asks_paid(question) and not q.statement and kind != "balance" and kind != "cash":
        # "How much did Acme pay in income taxes?": what was paid is the cash-flow statement's "Cash paid for
        # income taxes" (its supplemental lines), not the income statement's provision
        kind, focus = "cash", f"cash paid for {q.focus}"
    if not kind:
        return ""
    periods = _period_words(q)
    if kind == "balance":  # a balance sheet's columns are dates ("July 1, 2023"), never "three months ended"
        periods = [w for w in periods if w not in _SPAN_WORDS.values()]
    parts = [*q.names, STATEMENT_WORDS[kind], focus, *periods]
    return " ".join(" ".join(parts).split())


def supplemental_query(question: str) -> str:
    """For the cash paid for interest or income taxes ("How much cash did Acme pay for income taxes in 2022?"):
    the company, the supplemental disclosure's words and the item paid, or ``""`` — a filing states it among its
    supplemental cash flow lines ("NOTE 9. Supplemental Cash Flow Information: Cash income tax payments, net of
    refunds"), not on the statement's face."""
    q = analyze(question)
    if q.language != "en" or q.kind != "value" or q.parts or not asks_paid(question) \
            or not supplemental_item(q.focus):
        return ""
    years = [str(p.year) for p in q.periods if p.year is not None]
    return " ".join([*q.names, "supplemental cash flow information cash", q.focus, "payments paid", *years])


def _period_words(q: Question) -> list[str]:
    """The question's span and periods as a statement's column header writes them ("three months ended", the
    dated period as asked, a bare year)."""
    span = q.span or (12 if any(p.fiscal and p.quarter is None for p in q.periods) else None)
    words = [_SPAN_WORDS.get(span or 0, "")]
    for p in q.periods:
        if p.day is not None or p.month is not None:
            words.append(p.text)
        elif p.year is not None:
            words.append(str(p.year))
    return words


#: how a filing states its headcount: "As of December 31, 2022, we employed approximately 156,000 people", under a
#: "Human Capital" or "Employees" heading
HEADCOUNT_WORDS = "human capital employees we employed approximately full-time people workforce"
_EMPLOYEES = match_terms("employees")


def headcount_query(question: str) -> str:
    """For a count of employees ("How many employees did Acme have at the end of 2022?"): the company and the
    words a filing's headcount paragraph uses, or ``""``. The question's own words also meet every "employees"
    of the pension notes and exhibit lists; the paragraph that states the count says "employed … people"."""
    q = analyze(question)
    if q.language != "en" or q.kind != "value" or q.parts or not (q.focus_terms & _EMPLOYEES):
        return ""
    if not re.search(r"(?i)\bhow many\b|\bnumber of\b|\bheadcount\b", question):
        return ""
    years = [str(p.year) for p in q.periods if p.year is not None]
    return " ".join([*q.names, HEADCOUNT_WORDS, *years])


#: where a filing names its auditor (the report's title and signature, and the sentence after it), an officer (the
#: certifications and the executive officers' list) and its seat (Item 2, Properties)
AUDITOR_WORDS = ("Report of Independent Registered Public Accounting Firm /s/ LLP "
                 "We have served as the Company's auditor since")
OFFICER_WORDS = "certify /s/ executive officers name age position"
HEADQUARTERS_WORDS = "our corporate headquarters is located in principal executive offices properties"


def named_query(question: str) -> str:
    """For who audits the company, who holds an office, where it is headquartered, incorporated or listed, its
    ticker and its shares outstanding ("Who audits Acme's financial statements?", "Who is Acme's CEO?", "Where is
    Acme headquartered?", "In which state is Acme incorporated?"): the company and the words of the section that
    names the answer, or ``""`` — the question's own words ("audit", "chief executive officer") fill every
    paragraph of the report and every certification heading; the signature, the "I, …, certify" and Item 2 do not."""
    q = analyze(question)
    office = asked_office(q)
    words = (f"I, {office.title()} {OFFICER_WORDS}" if office else AUDITOR_WORDS if asks_auditor(q)
             else HEADQUARTERS_WORDS if asks_headquarters(q) else FACT_WORDS.get(asked_fact(q), ""))
    return " ".join([*q.names, words]) if words else ""


def breakdown_query(question: str) -> str:
    """For a line item narrowed by a word of its own ("iPhone revenue", "cloud segment revenue", "Greater China
    net sales"): the item in its other spellings with that word, or ``""``.

    Such a figure is printed in a breakdown (a note's "disaggregated by product" table, a segment table, the
    MD&A's "net sales by category"), not on the face of the statement the statement-words query finds, and that
    table may call the item by another of its names ("net sales" for "revenue").
    """
    from chat.models.reader.lexicon import SYNONYM_GROUPS

    q = analyze(question)
    if q.language != "en" or q.kind not in ("value", "change", "comparison") or not q.focus or q.parts:
        return ""
    # line items, not words like "total" (nor "debt", which has a statement but no synonyms)
    items = [t for t in q.focus_terms if t.startswith("§") and implied_statement({t})]
    # a capitalised word right before the item ("did Mac revenue change") may be a product, not a company: it
    # narrows the item too (``covers.company_names`` decides which it is, once the passages are in)
    narrowing = next((n for n in q.strong_names
                      if re.search(rf"(?i)\b{re.escape(n)}\s+{re.escape(q.focus)}\b", question)), "")
    if not items or not (narrowing or any(not t.startswith("§") for t in q.focus_terms)):
        return ""
    focus = q.focus.lower()
    spellings: list[str] = []
    for t in sorted(items):
        others = [n for n in SYNONYM_GROUPS[int(t[1:])] if n.isascii() and n.rstrip("s") not in focus]
        spellings.extend(others[:2])
    if not spellings:
        return ""
    parts = [f"{narrowing} {q.focus}".strip(), *spellings, *_period_words(q)]
    return " ".join(" ".join(parts).split())


def search_queries(question: str) -> list[str]:
    """The searches for ``question``: one per company it names (``per_name_questions``; a comparison of two
    companies' figure, ``rivals``: each company's plain question and its statement-words query), and for a
    statement line item also the statement-words query and, for a narrowed one, the breakdown query."""
    question = spelled_out(question)
    rivals = rival_questions(question)
    if rivals:  # "Which had higher net income, Boeing or Lockheed Martin?": each company's line, in its statement
        return list(dict.fromkeys([*rivals, *(s for r in rivals if (s := statement_query(r)))]))
    queries = per_name_questions(question)
    breakdown = superlative_query(question) or share_query(question)
    if breakdown:  # "which region had the highest net sales?": the breakdown by region
        return [question, breakdown]
    if len(queries) == 1:
        # two periods years apart ("… from fiscal 2019 to fiscal 2022"): each period's line, in its own filing
        apart = search_apart(analyze(question))
        for extra in (statement_query(question), supplemental_query(question),
                      *(statement_query(a) for a in apart),
                      breakdown_query(question), headcount_query(question),
                      named_query(question), activities_query(question), largest_item_query(question),
                      dividends_query(question), registered_query(question, analyze(question).names),
                      business_query(question), segments_query(question), guidance_query(question),
                      acquisitions_query(question), year_trend_query(question), drivers_query(question),
                      growth_query(question), concentration_query(question), year_end_query(question),
                      *capital_intensity_queries(question)):
            if extra and all(extra.lower() != seen.lower() for seen in queries):
                queries.append(extra)
    return queries
