"""The financial statement itself, not a table that repeats its figures (pure).

A 10-K prints a line item's value in several places: the statement (``CONSOLIDATED STATEMENTS OF INCOME``), the
selected financial data, MD&A's results tables, a quarterly-data note. They agree, but the statement is the
source an analyst cites. ``is_statement_page`` tells a passage headed by a statement's own title (a heading line
that is the title — ``Consolidated Statements of Operations:`` with a colon is a sub-heading of a summary table,
``… recognized in the Consolidated Statement of Income consist of the following:`` is prose, ``Consolidated
Statements of Operations Data`` MD&A's summary of it);
``prefer_statement`` puts a cell of the statement first when the best cell's figure is printed there too and
scores about as well, and ``same_figure`` finds that other printing to cite beside the answer;
``period_not_covered`` declines an unsure sentence when the statement rows of the asked item print other years
only; ``statement_pages_to_read`` the statement pages whose grid the results lack (a title chunk came back, its
rows did not); ``statement_followups`` are the searches the local model makes when the results hold no page of
the statement that prints the asked line item (search ranks MD&A prose and summary tables above a statement's
bare grid).
Written from the standard statement titles (US GAAP / IFRS), not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chat.models.reader.decline import SURE_AT
from chat.models.reader.evidence import Evidence
from chat.models.reader.formulas import formula_items
from chat.models.reader.lexicon import SYNONYM_GROUPS
from chat.models.reader.names import mentions
from chat.models.reader.passage import Passage
from chat.models.reader.periods import agreement
from chat.models.reader.question import Question, analyze, per_name_questions
from chat.models.reader.ratios import ratio_sides
from chat.models.reader.statement_titles import (
    HEAD_CHARS,
    LOOK_AT,
    SAME_FIGURE_SHARE,
    is_statement_page,
)
from chat.models.reader.statements import StatementKind, implied_statement
from chat.models.reader.tables import find_tables
from chat.models.reader.text import match_terms

#: the statements' own words a search for them is made of (two or three spellings of each title)
FOLLOWUP_TITLES: dict[StatementKind, tuple[str, ...]] = {
    "income": ("consolidated statements of income", "consolidated statements of operations",
               "consolidated statements of earnings"),
    "balance": ("consolidated balance sheets",),
    "cash": ("consolidated statements of cash flows",),
}


def _figure(ev: Evidence) -> tuple[str, float] | None:
    if ev.kind != "cell" or ev.row is None:
        return None
    amount = ev.row.amount(ev.col)
    if amount is None:
        return None
    return " ".join(sorted(match_terms(ev.row.label))), amount.value


def same_figure(best: Evidence, ranked: Sequence[Evidence]) -> list[Evidence]:
    """Cells among ``ranked`` that print ``best``'s figure — the same line item, the same value — on another page."""
    figure = _figure(best)
    if figure is None:
        return []
    out: list[Evidence] = []
    seen = {(best.passage.document_id, best.passage.page)}
    for ev in ranked[:LOOK_AT]:
        where = (ev.passage.document_id, ev.passage.page)
        if ev is best or where in seen or _figure(ev) != figure:
            continue
        seen.add(where)
        out.append(ev)
    return out


def prefer_statement(ranked: list[Evidence], kind: StatementKind = "") -> list[Evidence]:
    """``ranked`` with a cell of the statement first when the best cell's figure is printed there as well and
    scores nearly as well (the statement is the figure's source; the other printing a summary of it)."""
    if not ranked or ranked[0].kind != "cell" or is_statement_page(ranked[0].passage, kind):
        return ranked
    best = ranked[0]
    for ev in same_figure(best, ranked):
        if ev.score >= best.score * SAME_FIGURE_SHARE and is_statement_page(ev.passage, kind):
            return [ev, *(e for e in ranked if e is not ev)]
    return ranked


def _of_named(q: Question, p: Passage, passages: Sequence[Passage]) -> bool:
    """The passage's document (a passage of it, or its file name) names the company asked about, when one is:
    another company's statement in the same project is not the one asked for."""
    if not q.strong_names:
        return True
    same = [o for o in passages if o.document_id == p.document_id] or [p]
    return any(mentions(name, o) for name in q.strong_names for o in same)


def _asked_statement(question: str, q: Question) -> tuple[StatementKind, tuple[str, ...]]:
    """The statement a question asks of, and — for a ratio whose name is no line item ("operating margin") —
    the line items it divides (``()`` otherwise: the question's own line item)."""

    kind: StatementKind = q.statement or implied_statement(q.focus_terms)  # type: ignore[assignment]
    sides = ratio_sides(question)
    if sides is None or kind:
        return kind, ()
    items = (sides[0], sides[1])
    side_kind: StatementKind = implied_statement(frozenset(match_terms(" ".join(items))))
    return side_kind, (items if side_kind else ())


def _spelled(item: str) -> str:
    """An abbreviation as a statement prints it ("COGS" → "cost of sales": its synonym group's first name) — a
    statement's search finds its words, not the analyst's shorthand."""
    if not re.fullmatch(r"[A-Z][A-Z&]{1,6}", item.strip()):
        return item
    names = [SYNONYM_GROUPS[int(t[1:])][0] for t in sorted(match_terms(item)) if t.startswith("§")]
    return names[0] if names and names[0].isascii() else item


def statement_followups(question: str, passages: Sequence[Passage]) -> list[str]:
    """Searches for the statement that prints the asked line item, when no passage is a page of it: the company,
    the statement's title and the line item (``Acme consolidated statements of income total revenues``)."""

    q = analyze(question)
    if q.language != "en" or (q.kind not in ("value", "change", "comparison") and not formula_items(question)) \
            or not q.focus or q.parts:
        return []
    if len(per_name_questions(question)) > 1:
        return []  # "… of Apple and Amazon": each company searched on its own already
    from chat.models.reader.superlatives import superlative  # (superlatives imports the reader's evidence)

    if superlative(question) is not None:
        return []  # "which region had the highest …" is answered by a breakdown, not by a statement's face
    out: list[str] = []
    for kind, items in _asked_statements(question, q):  # a formula's operands: each statement they are in
        focus = " ".join(_spelled(i) for i in items) if items else q.focus
        if any(is_statement_page(p, kind) and _of_named(q, p, passages) for p in passages):
            continue
        focus = " ".join(w for w in focus.split() if w.lower() not in {n.lower() for n in q.names})
        out += [" ".join(" ".join([*q.names, title, focus]).split()) for title in FOLLOWUP_TITLES[kind]]
    return out


def period_not_covered(q: Question, ranked: Sequence[Evidence]) -> bool:
    """The best evidence is an unsure sentence while table rows of the asked line item are there, none of their
    columns agreeing with the asked period: the filings print the item for other years only (a 10-K of 2022
    asked for fiscal 2016) — a decline, not the closest sentence."""
    if (q.language != "en" or q.kind not in ("value", "change") or not ranked or ranked[0].kind != "sentence"
            or ranked[0].score >= SURE_AT or not any(p.year for p in q.periods) or not q.focus_terms):
        return False
    focus = set(q.focus_terms)
    for ev in ranked[:LOOK_AT]:
        if ev.kind != "cell" or ev.table is None or ev.row is None or not focus <= match_terms(ev.row.label):
            continue
        if any(c.periods for c in ev.table.columns) and not any(
                agreement(a, o) > 0 for a in q.periods if a.year for c in ev.table.columns for o in c.periods):
            continue
        return False  # a row of the item with the asked period (or no period to judge by): not this case
    return any(ev.kind == "cell" and ev.row is not None and focus <= match_terms(ev.row.label)
               for ev in ranked[:LOOK_AT])


#: at most this many statement pages are read for one answer
MAX_PAGES_TO_READ = 2


def _comprehensive(where: tuple[str, int], passages: Sequence[Passage]) -> bool:
    """The page is the statement of comprehensive income (its net income, then other comprehensive income): the
    income statement's other page, read after the statement of income itself."""
    return any(re.search(r"(?i)statements?\s+of\s+(?:consolidated\s+)?comprehensive\s+income", p.text[:HEAD_CHARS])
               for p in passages if (p.document_id, p.page) == where)


def _asked_year_rank(q: Question, document_id: str, passages: Sequence[Passage]) -> int:
    """0 when the document's period ends in the latest year asked (the 2020 10-K for "FY2020", ahead of the 2021
    10-K's comparative column), 1 when it ends early in the next one (a fiscal year ending in January), else 2."""
    years = [p.year for p in q.periods if p.year is not None]
    ends = {p.period_end for p in passages if p.document_id == document_id and p.period_end}
    if not years or not ends:
        return 2
    end = max(ends)
    year, month = int(end[:4]), int(end[5:7] or 12)
    if year == max(years):
        return 0
    return 1 if any(p.fiscal for p in q.periods) and year == max(years) + 1 and month <= 3 else 2


def statement_pages_to_read(question: str, passages: Sequence[Passage]) -> list[tuple[str, int]]:
    """(document id, page) of results headed by the asked statement's title whose text holds no row of the asked
    line item — a chunk of the title and a footnote, the grid cut off into chunks of its own that search did not
    return: reading the page gives the whole statement. Empty once a page was read (refs ``P…``)."""

    q = analyze(question)
    if q.language != "en" or (q.kind not in ("value", "change", "comparison") and not formula_items(question)) \
            or not q.focus_terms or q.parts:
        return []
    if any(p.ref.startswith("P") and p.page > 1 for p in passages):
        return []
    by_kind: list[list[tuple[str, int]]] = []
    for kind, items in _asked_statements(question, q):
        wanted = [set(match_terms(item)) for item in items] or [set(q.focus_terms)]  # every side of a ratio
        candidates: dict[str, list[tuple[str, int]]] = {}
        whole: set[str] = set()  # documents with a page of the statement whose grid holds every item asked
        for p in passages:
            where = (p.document_id, p.page)
            if not p.document_id or not is_statement_page(p, kind) or not _of_named(q, p, passages):
                continue
            same_page = [o for o in passages if (o.document_id, o.page) == where]
            # the rows under a header that names the periods: a chunk cut below the statement's header ("| | |")
            # holds the row, not which year each column is — the page read whole does
            labels = [match_terms(r.label) for o in same_page for t in find_tables(o.text)
                      if any(c.periods for c in t.columns) for r in t.rows]
            if all(any(focus <= label for label in labels) for focus in wanted):
                whole.add(p.document_id)
            elif where not in candidates.setdefault(p.document_id, []):
                candidates[p.document_id].append(where)
        # one page of the statement in each document: the statement of income before the comprehensive income's
        pages = [min(found, key=lambda where: _comprehensive(where, passages))
                 for document, found in candidates.items() if document not in whole]
        by_kind.append(sorted(pages, key=lambda where: _asked_year_rank(q, where[0], passages)))
    # each statement's first page, then another document's (this quarter's 10-Q and last quarter's: which one
    # holds the asked period is not known)
    out: list[tuple[str, int]] = []
    for rank in range(max((len(pages) for pages in by_kind), default=0)):
        for pages in by_kind:
            if rank < len(pages) and pages[rank] not in out and len(out) < MAX_PAGES_TO_READ:
                out.append(pages[rank])
    return out


def _asked_statements(question: str, q: Question) -> list[tuple[StatementKind, tuple[str, ...]]]:
    """``_asked_statement``'s statement and items; for a formula the question defines (``formulas``: "revenue /
    average PP&E"), each statement its operands are printed in, with those operands."""

    sides = ratio_sides(question)
    by_kind: dict[StatementKind, list[str]] = {}
    # before the statement the instructions name: each operand's own ("capex as a % of revenue": both statements)
    for item in formula_items(question) or ([sides[0], sides[1]] if sides else []):
        home: StatementKind = implied_statement(frozenset(match_terms(item)), fallback=True)
        if home:
            by_kind.setdefault(home, []).append(item)
    if by_kind:
        return [(k, tuple(v)) for k, v in by_kind.items()]
    kind, items = _asked_statement(question, q)
    return [(kind, items)] if kind else []
