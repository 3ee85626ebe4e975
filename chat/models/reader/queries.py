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

from chat.models.reader.question import analyze, per_name_questions
from chat.models.reader.statements import implied_statement

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
    kind = q.statement or implied_statement(q.focus_terms)
    if not kind:
        return ""
    span = q.span or (12 if any(p.fiscal and p.quarter is None for p in q.periods) else None)
    periods: list[str] = []
    for p in q.periods:
        if p.day is not None or p.month is not None:
            periods.append(p.text)
        elif p.year is not None:
            periods.append(str(p.year))
    parts = [*q.names, STATEMENT_WORDS[kind], q.focus, _SPAN_WORDS.get(span or 0, ""), *periods]
    return " ".join(" ".join(parts).split())


def search_queries(question: str) -> list[str]:
    """The searches for ``question``: one per company it names (``per_name_questions``), and for a statement
    line item also the statement-words query."""
    queries = per_name_questions(question)
    if len(queries) == 1:
        extra = statement_query(question)
        if extra and extra.lower() != question.lower():
            queries.append(extra)
    return queries
