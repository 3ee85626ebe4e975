"""Ratios computed from two cited table cells (pure): "Calculate it as gross profit divided by revenue", "the
ratio of X to Y", "X as a percentage of Y", "(X / Y)", and the textbook ratios a filing does not print (the
current ratio; gross, operating and net margin asked as a percentage).

Each side is looked up like a value question — its own line item, the question's period and company — and the
answer says it is computed and cites both cells: ``The current ratio was 0.95 as of June 30, 2023 (computed from
the table: Total current assets 140,482 million ÷ Total current liabilities 148,238 million) [S1].`` A side that is
not found in a table means no computed answer (the reader then answers or declines as for any other question). The
named ratios are the standard definitions of financial analysis, not taken from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from chat.models.reader.compose import period_phrase, spoken_value, table_quote
from chat.models.reader.decline import DECLINE_BELOW
from chat.models.reader.evidence import (
    Evidence,
    another_entitys,
    column_period_score,
    gather,
    part_of_group,
    period_keys,
)
from chat.models.reader.numbers import absolute
from chat.models.reader.passage import Passage
from chat.models.reader.periods import Period, find_periods
from chat.models.reader.question import Question, asking_sentence
from chat.models.reader.statement_titles import LOOK_AT, SAME_FIGURE_SHARE, is_statement_page
from chat.models.reader.statements import implied_statement
from chat.models.reader.tables import Table
from chat.models.reader.text import match_terms
from chat.models.reader.units import row_unit

_SIDE = r"(?:the\s+)?(?P<{}>[a-z][\w,&'’\- ]{{2,80}}?)"
#: where a side's words end: punctuation, or the period after it ("for FY2022", "from FY2020 to FY2022")
_SIDE_END = (r"(?=\s*(?:[.?;)]|,|\bfor\b|\bin\b|\bas of\b|\bfrom\b|\bbetween\b|\bduring\b|\bover\b|"
             r"\bup\s+to\b|\bthrough\b|\b(?:increase|decrease|improve|decline|grow|rise|fall|drop|change)[ds]?\b|$))")
#: "what percentage of total net sales came from Services": the part (a) of the whole (b)
_SHARE_FORMULA = re.compile(
    r"\bwhat\s+(?:percentage|percent|share|proportion|portion|fraction)\s+of\s+(?:the\s+)?(?:[A-Z][\w&.\-]*['’]s?\s+)?"
    + _SIDE.format("b") + r"\s+(?:came|comes|come|was|were|is|are|did)\s+(?:from|generated\s+by|contributed\s+by|"
    r"attributable\s+to|accounted\s+for\s+by|made\s+up\s+(?:of|by))\s+" + _SIDE.format("a")
    + r"(?=\s*(?:[.?;)]|,|\bfor\b|\bin\b|\bduring\b|\bas of\b|$))", re.IGNORECASE)
_FORMULAS = (
    re.compile(r"\b(?:calculat\w*|comput\w*|defin\w*|measur\w*|determin\w*)\s+(?:it\s+|this\s+|the\s+\w+\s+)?"
               r"(?:as|by|using)\s+" + _SIDE.format("a") + r"\s+(?:divided\s+by|over|÷|/)\s+" + _SIDE.format("b")
               + r"(?=\s*(?:[.?;)]|,|\band\b|$))", re.IGNORECASE),
    re.compile(r"\bratio\s+of\s+" + _SIDE.format("a") + r"\s+to\s+" + _SIDE.format("b")
               + _SIDE_END, re.IGNORECASE),
    re.compile(_SIDE.format("a") + r"\s+as\s+a\s+(?:percentage|percent|%|share|proportion)\s+of\s+"
               + _SIDE.format("b") + _SIDE_END, re.IGNORECASE),
    _SHARE_FORMULA,
    re.compile(r"\((?:the\s+)?(?P<a>[a-z][\w,&'’\- ]{2,60}?)\s*(?:/|÷|divided\s+by)\s*(?:the\s+)?"
               r"(?P<b>[a-z][\w,&'’\- ]{2,60}?)\)", re.IGNORECASE),
)
_TOTAL_WORD = re.compile(r"(?i)^total\s+")
_AVERAGE_OF = re.compile(r"(?i)^(?:(?:\d|two|three|four|five)[- ]years?\s+)?average\s+(?:of\s+)?(?:the\s+)?")
#: what opens a side that is no part of its line item: "What was", "the company's"
_LEAD = re.compile(r"^(?:(?:what|how much|which)\s+(?:is|was|were|are)\s+)?(?:the\s+)?(?:(?:[A-Z]|\d+[A-Z])[\w&.\-]*"
                   r"(?:\s+[A-Z][\w&.\-]*)*['’]s?\s+)?(?:the\s+)?", re.IGNORECASE)
_PREAMBLE = re.compile(r"(?i)^.*,\s*(?=(?:what|how\s+much|which)\s+(?:is|was|were|are)\s)")
_PERCENT_CUE = re.compile(r"\bpercent(?:age)?\b|%|\bmargin\b|\bas a (?:percentage|share)\b|"
                          r"\bwhat\s+(?:share|proportion|portion|fraction)\s+of\b", re.IGNORECASE)
#: (how the question names it, numerator, denominator, as a percentage)
NAMED_RATIOS: tuple[tuple[re.Pattern[str], str, str, bool], ...] = (
    (re.compile(r"\bcurrent ratio\b", re.IGNORECASE), "total current assets", "total current liabilities", False),
    (re.compile(r"\bgross (?:profit )?margin (?:percentage|ratio|%|in percent)|\bgross (?:profit )?margin\b(?=.*"
                r"\b(?:percent|percentage|%)\b)", re.IGNORECASE), "gross profit", "revenue", True),
    # a margin's direction or profile asked ("an improving gross margin profile"): the ratio, not a "Gross margin"
    # dollar line
    (re.compile(r"\b(?:improv\w*|declin\w*|deteriorat\w*|expan\w*|contract\w*)\s+gross (?:profit )?margins?\b|"
                r"\bgross (?:profit )?margins?\s+(?:profile|trend)\b|"
                r"\bgross (?:profit )?margins?\b(?=[^?]*\b(?:consisten\w*|stable|fluctuat\w*|volatil\w*|steady)\b)",
                re.IGNORECASE), "gross profit", "revenue", True),
    # "operating margin", "operating income % margin", "operating profit margin"
    (re.compile(r"\boperating (?:profit |income )?(?:%\s*|percent(?:age)?\s+)?margin\b", re.IGNORECASE),
     "operating income", "revenue", True),
    (re.compile(r"\bnet (?:profit |income )?(?:%\s*|percent(?:age)?\s+)?margin\b", re.IGNORECASE), "net income",
     "revenue", True),
)


def without_periods(side: str) -> str:
    """A side without the periods written in it ("FY2017 - FY2019 3 year average of capex" → "3 year average of
    capex"): the periods are the question's, the side is the line item."""
    for p in sorted(find_periods(side), key=lambda p: p.start, reverse=True):
        side = side[: p.start] + " " + side[p.end :]
    return re.sub(r"^[\s\-–—,]*(?:to\s+|through\s+)?[\s\-–—,]*", "", " ".join(side.split())).strip()


def ratio_sides(text: str) -> tuple[str, str, bool] | None:
    """(numerator, denominator, as a percentage) that ``text`` (the whole question) asks to divide, or None."""
    for pattern in _FORMULAS:
        m = pattern.search(text)
        if m:
            # "… provided in the statement of income, what is Nike's three year average of …": the side starts at
            # the question's own "what is", after any preamble clause
            a, b = (_LEAD.sub("", _PREAMBLE.sub("", " ".join(m.group(k).split()))).strip(" ,") for k in ("a", "b"))
            a, b = (without_periods(side) for side in (a, b))  # "FY2017 - FY2019 3 year average of capex"
            a = _AVERAGE_OF.sub("", a)  # "three year average of cost of goods sold": the item is the cost
            if not any(t.startswith("§") and t != "§1" for t in match_terms(a)):
                # "what percentage of total net sales came from Services": the part is the whole's item
                a = a + " " + _TOTAL_WORD.sub("", b)
            if match_terms(a) and match_terms(b):
                return a, b, bool(_PERCENT_CUE.search(text))
    for pattern, a, b, percent in NAMED_RATIOS:
        if pattern.search(text):
            return a, b, percent
    return None


#: a table or column whose figures are shares of something already ("expressed as a percentage of revenue",
#: "% of net sales"): no side of a ratio
_SHARE_OF = re.compile(r"\bas\s+a\s+(?:percent|percentage)\s+of\b|%\s+of\b|\bpercent(?:age)?\s+of\b",
                       re.IGNORECASE)


#: a caption that gives amounts too: "(amounts in millions) and as a percentage of total net revenues"
_AMOUNTS_TOO = re.compile(r"(?i)\bamounts?\s+in\b|\bin\s+(?:thousands|millions|billions)\b")


def _in_shares(ev: Evidence) -> bool:
    assert ev.table is not None
    header = ev.table.columns[ev.col].header if 0 <= ev.col < len(ev.table.columns) else ""
    label = ev.row.label if ev.row is not None else ""
    section = ev.row.section if ev.row is not None else ""
    if _SHARE_OF.search(header) or _SHARE_OF.search(label) or _SHARE_OF.search(section):
        return True
    if not _SHARE_OF.search(ev.table.caption):
        return False
    if not _AMOUNTS_TOO.search(ev.table.caption):
        return True
    # amounts and their shares side by side: the share columns are the undated ones, or those printing "%"
    column = ev.table.columns[ev.col]
    dated = any(c.periods for c in ev.table.columns)
    return (dated and not column.periods) or any("%" in r.cells[ev.col] for r in ev.table.rows
                                                  if ev.col < len(r.cells))


#: groups too broad to tell an operand's line: "total" (§1), "cash" (§11)
_BROAD_GROUPS = frozenset({"§1", "§11"})
#: words of many line items, naming no part: "cash dividends paid" is no "paid" part of dividends
_PLAIN_WORDS = frozenset({"paid", "net", "total", "amount", "annual", "reported"})


def _own_label(ev: Evidence) -> str:
    """The row's words with its section's — but a "Total …" row's own only: "Total costs and expenses" under
    "Cost of revenues—subscription …" totals more than the section's item."""
    if ev.row is not None and re.match(r"(?i)\s*total\b", ev.row.label):
        return ev.row.label
    return ev.label


def is_component(ev: Evidence, item_terms: frozenset[str]) -> bool:
    """The row names none of the item's words and matched through its section only: one of the item's parts
    ("Raw materials and supplies" under "Inventories, net", which the balance sheet prints without a total), never
    the item. A row with no label of its own under the heading is the heading's total ("Revenues" over
    "Casino", "Rooms", … and an unlabelled sum)."""
    row = ev.row
    if row is None or not row.section or not row.label.strip():
        return False
    return not (match_terms(row.label) & ((item_terms - _BROAD_GROUPS - _PLAIN_WORDS) or item_terms))


def said_label(ev: Evidence) -> str:
    """How an operand's line is named: its row's label when that names a line item of its own ("Total current
    assets", not "Current assets Total current assets" — nor "Inventories, net Total current assets" under a heading
    printed without a total), else its heading and label ("Revenues Casino")."""
    if ev.row is not None and any(t.startswith("§") for t in match_terms(ev.row.label)):
        return " ".join(ev.row.label.split())
    return ev.label


def cell(q: Question, item: str, passages: Sequence[Passage]) -> Evidence | None:
    """The amount cell of ``item`` — not a cell of a table of percentages (its "Operating income 50.3" is a
    share of revenue already, and dividing it by revenue in dollars means nothing)."""
    found = cells(q, item, passages)
    if not found:
        return None
    best = found[0]
    if is_statement_page(best.passage):
        return best
    # a note's "Cost of sales" (the restructuring charges classified there) against the statement's own line: the
    # statement's when it scores nearly as well — a formula's operand is the statement's line item
    label = match_terms(best.label)
    for ev in found[1:]:
        if ev.score >= best.score * SAME_FIGURE_SHARE and ev.passage.document_id == best.passage.document_id \
                and match_terms(ev.label) == label and is_statement_page(ev.passage):
            return ev
    return best


def cells(q: Question, item: str, passages: Sequence[Passage]) -> list[Evidence]:
    """Every amount cell of ``item`` for ``q``'s period, best first (see ``cell``)."""
    asked = replace(q, kind="value", focus=item, focus_terms=frozenset(match_terms(item)), parts=())
    statement = implied_statement(asked.focus_terms)
    flow = statement in ("income", "cash")
    found: list[Evidence] = []
    for ev in gather(asked, passages)[:LOOK_AT]:
        if ev.score < DECLINE_BELOW:
            break
        amount = ev.row.amount(ev.col) if ev.kind == "cell" and ev.row is not None else None
        if amount is not None and not amount.percent and ev.table is not None and not _in_shares(ev) \
                and not (flow and _balance_date(ev)) and not (statement == "balance" and _flow_column(ev)) \
                and not another_entitys(ev.table, ev.passage, q.text) \
                and not part_of_group(ev.passage, q.text):
            found.append(ev)  # … nor the guarantors' or the parent's alone ("Balance Sheet for Obligor Group")
    # the item's own group must be in the row: "cash dividends paid" is no "Cash paid for interest" (the words "cash"
    # and "paid" in common), whatever the score
    # — unless the row names the part of it asked ("footwear revenue": the "Footwear" row of a revenue table)
    own = {t for t in asked.focus_terms if t.startswith("§") and t not in _BROAD_GROUPS}
    part = {t for t in asked.focus_terms if not t.startswith("§") and t not in _PLAIN_WORDS}
    return [ev for ev in found if (own <= (label := match_terms(_own_label(ev))) or (part and part <= label))
            and not is_component(ev, asked.focus_terms)]


#: a column of each row's share of a base line ("Percent to Sales", "% of Net Sales", "Percent of revenue")
_SHARE_COLUMN = re.compile(r"(?i)\bpercent(?:age)?\s+(?:to|of)\b|%\s*(?:to|of)\b")


@dataclass(frozen=True, slots=True)
class _Printed:
    top: Evidence  # the item's amount cell; the share is in ``col`` of its row
    col: int
    value: float  # a fraction: 0.201 for "20.1"


def printed_share(q: Question, top_item: str, bottom_item: str, passages: Sequence[Passage]) -> _Printed | None:
    """The share the table prints beside the item's amount, in the same period's "Percent to Sales" column, when
    the ratio asked is of that base ("net earnings as a percent of sales"): the company's own figure, read rather
    than computed (the base's row may be on a chunk not retrieved). None when no such column holds a figure."""
    base = match_terms(bottom_item)
    found = cells(q, top_item, passages)[:LOOK_AT]
    for ev in found:
        if ev.score < found[0].score * SAME_FIGURE_SHARE:
            break  # a weaker reading of the item (another company's table, another period's) prints no share of it
        table, row = ev.table, ev.row
        assert table is not None and row is not None
        own = period_keys(table, ev.col)
        for c, column in enumerate(table.columns):
            if c == ev.col or not _SHARE_COLUMN.search(column.header) or not base <= match_terms(column.header):
                continue
            if period_keys(table, c) != own or column.span != table.columns[ev.col].span:
                continue
            amount = row.amount(c)
            if amount is not None and not amount.currency:
                return _Printed(ev, c, amount.value / 100)
    return None


def _flow_column(ev: Evidence) -> bool:
    """The cell's column is a period's ("For the years ended June 30, / 2023"): a balance-sheet item read there is its
    change in the cash flow statement ("Inventories | 248" under "Changes in operating assets"), not the balance."""
    assert ev.table is not None
    return ev.table.columns[ev.col].span is not None


def _balance_date(ev: Evidence) -> bool:
    """The cell's column is a balance sheet's date ("At December 31, 2019"), no period's span: no revenue or
    cash flow is read there ("Deferred revenues" is a liability)."""
    assert ev.table is not None
    column = ev.table.columns[ev.col]
    return column.span is None and any(p.day is not None for p in column.periods) \
        and not any(c.span for c in ev.table.columns)


def _one_period(q: Question, top: Evidence, bottom: Evidence) -> bool:
    """Both sides are of one period — the asked one when the question names one (``column_period_score``): two
    dated columns of different periods are never divided (a field either column leaves open agrees)."""
    assert top.table is not None and bottom.table is not None
    if q.periods and (column_period_score(q, top.table, top.col) == 0
                      or column_period_score(q, bottom.table, bottom.col) == 0):
        return False
    a, b = period_keys(top.table, top.col), period_keys(bottom.table, bottom.col)
    if len(a) != 1 or len(b) != 1:
        return True
    fields = [*zip(a.pop(), b.pop(), strict=True),
              (top.table.columns[top.col].span, bottom.table.columns[bottom.col].span)]
    return all(x is None or y is None or x == y for x, y in fields)


@dataclass(frozen=True, slots=True)
class _Computed:
    top: Evidence
    bottom: Evidence
    value: float
    a_text: str
    b_text: str


def _computed(q: Question, top_item: str, bottom_item: str, passages: Sequence[Passage]) -> _Computed | None:
    """Both sides' cells for ``q``'s period and their quotient, or None (a side not found, two periods, two
    documents, a zero denominator)."""
    top, bottom = cell(q, top_item, passages), cell(q, bottom_item, passages)
    if top is None or bottom is None:
        return None
    assert top.row is not None and bottom.row is not None and top.table is not None and bottom.table is not None
    if not _one_period(q, top, bottom):
        return None  # a quarter's net earnings over another quarter's sales is no ratio of either
    if top.passage.document_id and bottom.passage.document_id \
            and top.passage.document_id != bottom.passage.document_id:
        return None  # one filing's figure over another's: two companies, or two reports of different scope
    a, b = cell_value(top), cell_value(bottom)  # in ones: "$(1,246) million ÷ $10,208,580 thousand"
    if a is None or b is None or b[0] == 0:
        return None
    if a[0] == b[0] and " ".join(top.row.label.lower().split()) == " ".join(bottom.row.label.lower().split()):
        return None  # one line found for both sides (the same cell, or a search hit and its page read): no ratio
    a_value = abs(a[0]) if OUTFLOW.search(top_item) else a[0]  # capex "(1,486,843)": an outflow's brackets are
    b_value = abs(b[0]) if OUTFLOW.search(bottom_item) else b[0]  # no sign of it
    return _Computed(top, bottom, a_value / b_value, a[1], b[1])


def cell_value(ev: Evidence) -> tuple[float, str] | None:
    """A cell's amount in ones (read in its row's unit: the caption's scale, a per-share or share-count row's own)
    and as said ("$1,246 million"); None for a cell without an amount."""
    assert ev.table is not None and ev.row is not None
    amount = ev.row.amount(ev.col)
    if amount is None:
        return None
    unit = row_unit(ev.table, ev.col, f"{ev.row.section} {ev.row.label}", ev.row.label)
    return absolute(amount, unit), spoken_value(amount, unit, "en")


#: a cash outflow asked by name: its statement prints it in brackets, the ratio means its size
OUTFLOW = re.compile(r"(?i)\bcapex\b|\bcapital\s+expenditures?\b|\bpurchases?\s+of\b|\bpayments?\s+(?:of|for)\b|"
                      r"\bdividends?\s+paid\b|\bpaid\b|\brepurchases?\b|"
                      r"\bexpenses?\b|\bcosts?\b")  # an expense printed in brackets: "(1,246)" spent


#: "the FY2015 - FY2017 3 year average net profit margin", "three-year average of …": a mean over years
_YEARS_AVERAGE = re.compile(r"(?i)\b(?P<n>\d|two|three|four|five)[- ]years?\s+average\b")
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}


def averaged_years(text: str, q: Question) -> list[int]:
    """The years an "N year average" question averages over (its first to its last year asked, or the N years up
    to the one asked), or ``[]`` when it asks no such average or its years do not make N."""
    m = _YEARS_AVERAGE.search(text)
    if m is None:
        return []
    n = int(m.group("n")) if m.group("n").isdigit() else _NUMBER_WORDS[m.group("n").lower()]
    years = sorted({p.year for p in q.periods if p.year is not None})
    if len(years) == 1:
        years = list(range(years[0] - n + 1, years[0] + 1))
    elif len(years) >= 2:
        years = list(range(years[0], years[-1] + 1))
    return years if len(years) == n and n >= 2 else []


def _metric(text: str, top_item: str, bottom_item: str, percent: bool = False) -> str:
    """What the ratio is called: a named ratio as the question writes it ("net profit margin"), else its sides."""
    for pattern, *_ in NAMED_RATIOS:
        m = pattern.search(text)
        if m:
            name = re.sub(r"\s+(?:percentage|%|in percent|profile|trend)$", "", m.group(0).lower()).strip()
            return re.sub(r"^(?:improv|declin|deteriorat|expan|contract)\w*\s+", "", name)  # "improving gross margin"
    return f"{top_item} as a percentage of {bottom_item}" if percent else f"{top_item} to {bottom_item}"


def _named(text: str) -> bool:
    return any(pattern.search(text) for pattern, *_ in NAMED_RATIOS) and not any(p.search(text) for p in _FORMULAS)


#: a yes/no question about a ratio's direction: "an improving operating margin", "did … increase … compared to"
_TREND = re.compile(r"(?i)^\s*(?:does|do|did|has|have|is|are|was|were)\b.*\b(?:improv\w*|increas\w*|grow\w*|grew|"
                    r"ris(?:e|en|ing)|rose|higher|declin\w*|decreas\w*|drop\w*|f(?:a|e)ll\w*|lower|worsen\w*|"
                    r"deteriorat\w*)\b")
_UP_ASKED = re.compile(r"(?i)\b(?:improv\w*|increas\w*|grow\w*|grew|ris(?:e|en|ing)|rose|higher)\b")


def asked_and_prior(q: Question) -> tuple[Period, Period] | None:
    """The period asked and the one it is compared with (the later first): the two asked, else the year before."""
    dated = [p for p in q.periods if p.year is not None]
    if len(dated) >= 2:
        pair = sorted(dated[:2], key=lambda p: (p.year or 0, p.quarter or 0, p.half or 0), reverse=True)
    elif len(dated) == 1 and dated[0].quarter is None and dated[0].half is None and dated[0].month is None:
        year = dated[0].year or 0
        pair = [dated[0], *find_periods(f"FY{year - 1}" if dated[0].fiscal else f"in {year - 1}")[:1]]
    else:
        return None
    return (pair[0], pair[1]) if len(pair) == 2 else None


#: a change asked between two periods ("the FY2021 - FY2022 change in operating income % margin")
_CHANGE_BETWEEN = re.compile(r"(?i)\bchange\s+in\b|\byear[- ]over[- ]year\b|\byoy\b")


def change_periods(text: str, q: Question) -> tuple[Period, Period] | None:
    """For "what is the FY2021 - FY2022 change in X": the two periods asked, the later first; else None (one
    period, or none, or the question asks no change)."""
    asking = asking_sentence(text)
    dated = [p for p in q.periods if p.year is not None]
    return asked_and_prior(q) if _CHANGE_BETWEEN.search(asking) and len(dated) >= 2 else None


def trend_periods(text: str, q: Question) -> tuple[Period, Period] | None:
    """For a yes/no question about a metric's direction ("Has Acme's quick ratio improved between FY2023 and
    FY2022?"): the period asked and the one it is compared with, later first; else None."""
    return asked_and_prior(q) if _TREND.search(text) else None


def trend_verdict(text: str, now: float, before: float) -> tuple[str, str]:
    """("Yes" / "No", how the metric moved) for a question asking whether it went up (or down)."""
    if round(now, 4) == round(before, 4):
        return "No", "was unchanged"
    up = now > before
    return ("Yes" if up == bool(_UP_ASKED.search(text)) else "No"), ("rose" if up else "fell")


def _trend_answer(text: str, q: Question, sides: tuple[str, str, bool], passages: Sequence[Passage]
                  ) -> tuple[str, list[tuple[str, str]]] | None:
    """The ratio in the asked period and in the one it is compared with (the second period asked, else the year
    before), each from its own cited cells, and whether it went the way the question asks — or None."""
    top_item, bottom_item, percent = sides
    pair = asked_and_prior(q)
    if pair is None:
        return None
    if percent:
        printed = _printed_trend(text, q, pair, sides, passages)
        if printed is not None:
            return printed
    now, before = (_computed(replace(q, periods=(p,)), top_item, bottom_item, passages) for p in pair)
    if now is None or before is None or (now.top.passage.ref, now.top.col) == (before.top.passage.ref,
                                                                                 before.top.col):
        return None
    assert now.top.table is not None and before.top.table is not None

    def shown(value: float) -> str:
        return f"{value * 100:.1f}%" if percent else f"{value:.2f}"

    verdict, moved = trend_verdict(text, now.value, before.value)
    name = _metric(text, top_item, bottom_item) if _named(text) else f"{top_item} to {bottom_item}"
    change = (f", {abs(now.value - before.value) * 100:.1f} percentage points" if percent
              and moved != "was unchanged" else "")
    lead = (f"{verdict} — the {name} {moved}{change}: {shown(now.value)} "
            f"{period_phrase(now.top.table, now.top.col, 'en')} vs {shown(before.value)} "
            f"{period_phrase(before.top.table, before.top.col, 'en')} (computed from the tables: "
            f"{said_label(now.top)} {now.a_text} ÷ {said_label(now.bottom)} {now.b_text}; {said_label(before.top)} "
            f"{before.a_text} ÷ {said_label(before.bottom)} {before.b_text}) ")
    refs = [c.passage.ref for c in (now.top, now.bottom, before.top, before.bottom)]
    lead += "".join(f"[{r}]" for r in dict.fromkeys(refs)) + "."
    lines = [" ".join(lead.split()), *(("> " + line).rstrip() for line in table_quote(now.top))]
    quotes = [(c.passage.ref, c.quote_text) for c in (now.top, now.bottom, before.top, before.bottom)]
    return "\n".join(lines), list(dict.fromkeys(quotes))


def _last_header_part(table: Table, col: int) -> str:
    """The column header's own words, under its period ("SECOND QUARTER / 2023 / Percent to Sales" → "Percent to
    Sales")."""
    return " ".join(table.columns[col].header.split("/")[-1].split())


def _printed_trend(text: str, q: Question, pair: tuple[Period, Period], sides: tuple[str, str, bool],
                   passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """Both periods' shares as the table prints them ("Percent to Sales" beside each period's amount), or None."""
    top_item, bottom_item, _ = sides
    now, before = (printed_share(replace(q, periods=(p,)), top_item, bottom_item, passages) for p in pair)
    if now is None or before is None or (now.top.passage.ref, now.col) == (before.top.passage.ref, before.col):
        return None
    assert now.top.table is not None and before.top.table is not None
    verdict, moved = trend_verdict(text, round(now.value * 100, 4), round(before.value * 100, 4))
    name = _metric(text, top_item, bottom_item) if _named(text) else f"{top_item} as a percentage of {bottom_item}"
    change = f", {abs(now.value - before.value) * 100:.1f} percentage points" if moved != "was unchanged" else ""
    header = _last_header_part(now.top.table, now.col)
    refs = "".join(f"[{r}]" for r in dict.fromkeys((now.top.passage.ref, before.top.passage.ref)))
    lead = (f"{verdict} — the {name} {moved}{change}: {now.value * 100:.1f}% "
            f"{period_phrase(now.top.table, now.top.col, 'en')} vs {before.value * 100:.1f}% "
            f"{period_phrase(before.top.table, before.top.col, 'en')} (as the table prints them in its “{header}” "
            f"columns, beside {said_label(now.top)} {now.top.row.cells[now.top.col].strip() if now.top.row else ''} "
            f"and {before.top.row.cells[before.top.col].strip() if before.top.row else ''}) {refs}.")
    lines = [" ".join(lead.split()), *(("> " + line).rstrip() for line in table_quote(now.top))]
    if before.top.passage.ref != now.top.passage.ref or before.top.quote != now.top.quote:
        lines += [("> " + line).rstrip() for line in table_quote(before.top)]
    quotes = [(c.passage.ref, c.quote_text) for c in (now.top, before.top)]
    return "\n".join(lines), list(dict.fromkeys(quotes))


def _printed_answer(text: str, q: Question, sides: tuple[str, str, bool], printed: _Printed
                    ) -> tuple[str, list[tuple[str, str]]]:
    top, (top_item, bottom_item, _) = printed.top, sides
    assert top.table is not None and top.row is not None
    name = _metric(text, top_item, bottom_item) if _named(text) or not q.focus else q.focus
    header = _last_header_part(top.table, printed.col)
    lead = (f"The {name} was {printed.value * 100:.1f}% {period_phrase(top.table, top.col, 'en')} (as the table "
            f"prints it in its “{header}” column, beside {said_label(top)} {top.row.cells[top.col].strip()}) "
            f"[{top.passage.ref}].")
    lines = [" ".join(lead.split()), *(("> " + line).rstrip() for line in table_quote(top))]
    return "\n".join(lines), [(top.passage.ref, top.quote_text)]


#: whether a ratio holds steady over the years: "historically consistent", "stable", "fluctuating"
_STEADY = re.compile(r"(?i)\b(?:consisten\w*|stable|stabl[ei]\w*|fluctuat\w*|volatil\w*|steady)\b")
#: the move the question allows: "(not fluctuating more than roughly 2% each year)"
_ALLOWED = re.compile(r"(?i)\b(?:more|greater)\s+than\s+(?:roughly\s+|about\s+|approximately\s+|~\s*)?"
                      r"(?P<n>\d+(?:\.\d+)?)\s*(?:%|percent(?:age)?(?:\s+points?)?)")
#: how many years back a steadiness question is read
STEADY_YEARS = 3


def _steadiness_answer(text: str, q: Question, sides: tuple[str, str, bool], passages: Sequence[Passage]
                       ) -> tuple[str, list[tuple[str, str]]] | None:
    """The ratio in each of the latest years the statement prints (or those up to the year asked), the largest
    move between neighbours, and — where the question allows a move ("not more than roughly 2%") — whether it
    stayed within it. None when fewer than two years are found."""
    top_item, bottom_item, percent = sides
    anchor = cell(replace(q, periods=q.periods[:1]), top_item, passages)
    if anchor is None or anchor.table is None:
        return None
    span = anchor.table.columns[anchor.col].span
    years = sorted({p.year for c in anchor.table.columns if c.span == span for p in c.periods if p.year},
                   reverse=True)[:STEADY_YEARS]
    fiscal = any(p.fiscal for p in q.periods)
    each: list[tuple[int, _Computed]] = []
    for year in years:
        period = find_periods(f"FY{year}" if fiscal else f"in {year}")[:1]
        one = _computed(replace(q, periods=tuple(period)), top_item, bottom_item, passages) if period else None
        if one is not None and all((one.top.passage.ref, one.top.col) != (c.top.passage.ref, c.top.col)
                                   for _, c in each):
            each.append((year, one))
    if len(each) < 2:
        return None
    values = [c.value * 100 if percent else c.value for _, c in each]
    largest = max(abs(a - b) for a, b in pairwise(values))
    unit = " percentage points" if percent else ""
    allowed = _ALLOWED.search(text)
    verdict = ""
    if allowed is not None:
        verdict = "Yes — " if largest <= float(allowed.group("n")) else "No — "
    name = _metric(text, top_item, bottom_item) if _named(text) else f"{top_item} to {bottom_item}"
    said = []
    for value, (_, c) in zip(values, each, strict=True):
        assert c.top.table is not None
        said.append(f"{value:.1f}%" if percent else f"{value:.2f}")
        said[-1] += f" {period_phrase(c.top.table, c.top.col, 'en')}"
    shown = "; ".join(said)
    parts = "; ".join(f"{said_label(c.top)} {c.a_text} ÷ {said_label(c.bottom)} {c.b_text}" for _, c in each)
    refs = "".join(dict.fromkeys(f"[{ev.passage.ref}]" for _, c in each for ev in (c.top, c.bottom)))
    lead = (f"{verdict}the {name} moved at most {largest:.1f}{unit} from one year to the next over the {len(each)} "
            f"years found: {shown} (computed from the tables: {parts}) {refs}.")
    lead = lead[0].upper() + lead[1:]
    lines = [" ".join(lead.split()), *(("> " + line).rstrip() for line in table_quote(each[0][1].top))]
    quotes = [(ev.passage.ref, ev.quote_text) for _, c in each for ev in (c.top, c.bottom)]
    return "\n".join(lines), list(dict.fromkeys(quotes))


def _average_answer(text: str, q: Question, years: list[int], sides: tuple[str, str, bool],
                    passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The mean of the ratio over ``years``, each year's computed from its own cited cells — or None when a year
    is missing (no average of fewer years than asked)."""
    top_item, bottom_item, percent = sides
    fiscal = any(p.fiscal for p in q.periods)
    each: list[tuple[int, _Computed]] = []
    for year in years:
        period = find_periods(f"FY{year}" if fiscal else f"in {year}")[:1]
        one = _computed(replace(q, periods=tuple(period)), top_item, bottom_item, passages) if period else None
        if one is None:
            return None
        each.append((year, one))
    if len({(c.top.passage.ref, c.top.col, c.top.quote) for _, c in each}) < len(each):
        return None  # one cell read for two years: the table does not hold them all
    mean = sum(c.value for _, c in each) / len(each)

    def shown(value: float) -> str:
        return f"{value * 100:.1f}%" if percent else f"{value:.2f}"

    label = "FY" if fiscal else ""
    parts = [f"{label}{year} {shown(c.value)} = {said_label(c.top)} {c.a_text} ÷ {said_label(c.bottom)} {c.b_text}"
             for year, c in each]
    refs = "".join(dict.fromkeys(f"[{ev.passage.ref}]" for _, c in each for ev in (c.top, c.bottom)))
    metric = _metric(text, top_item, bottom_item, percent)
    lead = (f"The {len(years)}-year average {metric} for {label}{years[0]}–{label}{years[-1]} was {shown(mean)} "
            f"(the mean of each year's, computed from the tables: {'; '.join(parts)}) {refs}.")
    quotes: list[tuple[str, str]] = []
    lines = [" ".join(lead.split())]
    for _, c in each[-1:]:  # the latest year's cells quoted with their headers; every cell cited
        lines += [("> " + line).rstrip() for line in table_quote(c.top)]
    for _, c in each:
        quotes += [(c.top.passage.ref, c.top.quote_text), (c.bottom.passage.ref, c.bottom.quote_text)]
    return "\n".join(lines), list(dict.fromkeys(quotes))


def ratio_answer(text: str, q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The computed ratio's answer lines and quotes, or None (not a ratio question, or a side not found)."""
    if q.language != "en":
        return None
    sides = ratio_sides(text)
    if sides is None:
        return None
    years = averaged_years(text, q)
    if years:  # "the FY2015 - FY2017 3 year average net profit margin": every year's, then their mean
        return _average_answer(text, q, years, sides, passages)
    if _STEADY.search(text):  # "Are Acme's gross margins historically consistent?": each year's, and the moves
        steady = _steadiness_answer(text, q, sides, passages)
        if steady is not None:
            return steady
    if _TREND.search(text):  # "Does Acme have an improving operating margin?": this period's against the one before
        trend = _trend_answer(text, q, sides, passages)
        if trend is not None:
            return trend
    top_item, bottom_item, percent = sides
    printed = printed_share(q, top_item, bottom_item, passages) if percent and not _SHARE_FORMULA.search(text) \
        else None
    if printed is not None:  # "Net earnings | $5,144 | 20.1": the share the table prints beside the amount
        return _printed_answer(text, q, sides, printed)
    one = _computed(q, top_item, bottom_item, passages)
    if one is None:
        return None
    top, bottom, value, a_text, b_text = one.top, one.bottom, one.value, one.a_text, one.b_text
    assert top.table is not None and bottom.table is not None
    if _SHARE_FORMULA.search(text) and top.quote_text != bottom.quote_text and abs(value - 1.0) < 1e-9:
        return None  # "… net sales came from AWS": the AWS table's own "Net sales" line is the part again, no whole
    stated = f"{value * 100:.1f}%" if percent else f"{value:.2f}"
    refs = "".join(dict.fromkeys(f"[{ev.passage.ref}]" for ev in (top, bottom)))
    name = _metric(text, top_item, bottom_item) if _named(text) or not q.focus else q.focus
    if _SHARE_FORMULA.search(text):  # "what percentage of total net sales came from Services"
        name = f"{top_item} share of {bottom_item}"
    period = period_phrase(top.table, top.col, "en")
    lead = (f"The {name} was {stated} {period} (computed from the table: {said_label(top)} {a_text} "
            f"÷ {said_label(bottom)} {b_text}) {refs}.")
    lines = [" ".join(lead.split()), *(("> " + line).rstrip() for line in table_quote(top))]
    if bottom.passage.ref == top.passage.ref and bottom.table is top.table:
        lines.append(("> " + bottom.quote_text).rstrip())
    else:
        lines += [("> " + line).rstrip() for line in table_quote(bottom)]
    return "\n".join(lines), [(top.passage.ref, top.quote_text), (bottom.passage.ref, bottom.quote_text)]


#: "Is Acme a capital-intensive business?", "What is Acme's capital intensity?"
_CAPITAL_INTENSITY = re.compile(r"(?i)\bcapital[- ]intens(?:ive|ity)\b")
#: the usual measures of capital intensity: (what is measured, over what, as said)
_INTENSITY_MEASURES = (
    ("capital expenditure", "revenue", "capital expenditure was {} of revenue"),
    ("property and equipment net", "total assets", "net property, plant and equipment was {} of total assets"),
)


def capital_intensity_queries(question: str) -> list[str]:
    """The statements' lines capital intensity is computed from, searched for: the cash flow statement's capital
    expenditure and the balance sheet's plant and total assets."""
    if not _CAPITAL_INTENSITY.search(question):
        return []
    from chat.models.reader.question import subject_of

    name = subject_of(question)
    return [f"{name} purchases of property and equipment capital expenditures statements of cash flows".strip(),
            f"{name} property plant and equipment net total assets balance sheets".strip()]


def capital_intensity_answer(text: str, q: Question, passages: Sequence[Passage]
                             ) -> tuple[str, list[tuple[str, str]]] | None:
    """The usual measures of capital intensity for the period asked (else the latest), each computed from its cited
    cells — or None when neither is found. Filings give no verdict on it; the answer says what the figures are."""
    if q.language != "en" or not _CAPITAL_INTENSITY.search(text):
        return None
    found = [(said, one) for top, bottom, said in _INTENSITY_MEASURES
             if (one := _computed(q, top, bottom, passages)) is not None]
    if not found:
        return None
    parts = []
    for said, one in found:
        assert one.top.table is not None
        parts.append(f"{said.format(f'{one.value * 100:.1f}%')} {period_phrase(one.top.table, one.top.col, 'en')} "
                     f"({said_label(one.top)} {one.a_text} ÷ {said_label(one.bottom)} {one.b_text})")
    refs = "".join(dict.fromkeys(f"[{ev.passage.ref}]" for _, one in found for ev in (one.top, one.bottom)))
    lead = (f"The usual measures of capital intensity, computed from the statements: {'; '.join(parts)} {refs}. "
            f"The filings themselves give no verdict: the larger these shares, the more capital-intensive the "
            f"business.")
    lines = [lead, *(("> " + line).rstrip() for line in table_quote(found[0][1].top))]
    quotes = [(ev.passage.ref, ev.quote_text) for _, one in found for ev in (one.top, one.bottom)]
    return "\n".join(lines), list(dict.fromkeys(quotes))
