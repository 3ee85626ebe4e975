"""A line item the statement leaves out, derived from two lines it prints (pure).

Some balance sheets print no "Total liabilities" line: under the liabilities come the equity lines, then "Total
liabilities and shareholders' equity". An analyst reads the total liabilities as that grand total less the total
equity; so does the reader — both cells from the same balance sheet column, the subtraction shown and both cells
cited, the answer saying the statement does not print the line. Only when no row states the item itself
(``ratios.cell`` finds none, or only the liabilities-and-equity total, ``balances.both_sides_total``). What sits
between liabilities and equity (redeemable noncontrolling interests, "mezzanine" equity) stays in the difference;
the answer names the two lines it used, so the reader of the answer can see it.

Some cash flow statements print depreciation and amortization apart ("Depreciation" 1,399; "Amortization of
purchased intangibles" 121; or "Amortization and other" a few lines below): asked for depreciation and amortization
— and no row states the two together — the reader adds the statement's depreciation line and the amortization
lines of its section (``split_items`` finds them), each cell cited and the sum shown.

Some balance sheets print a liability only as its two parts ("Operating lease liabilities, current" 52,747 under
current liabilities, "Operating lease liabilities, non-current" 389,662 below them): asked for the liability itself,
the reader adds the two lines of one table and column; asked for one part ("current", "long-term"), the part's line
answers as printed. A lexicon line item whose name says its part ("long-term debt") is read as printed; one asked
whole ("deferred revenue") is its two lines' sum.

Total debt asked where no "Total debt" row is found: the balance sheet's debt lines of the asked date added —
borrowings due within the year ("Notes payable", "Short-term borrowings, including current portion of long-term
debt"), the current part of long-term debt, long-term debt — across the chunks the sheet was cut into, each cell
cited; a lease's liability, debt securities held or debt's issuance costs are no debt line. Gross margin asked in
money where the income statement prints no gross line: its revenue less its one cost-of-sales line, both of one
page and column; a printed gross margin rate answers as printed, a joint venture's "Gross margin" is not the
company's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.balances import asks_equity, both_sides_total
from chat.models.reader.compose import period_phrase, plural, subject_of
from chat.models.reader.evidence import PERIOD_MISSING_CAP, Evidence, asked_whole, gather, part_of, stripped_item
from chat.models.reader.formulas import Operand, lines, money, operand, quotes, refs
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question, item_phrase
from chat.models.reader.ratios import cell, cell_value
from chat.models.reader.split_items import SPLIT_ITEM, asks_split_item
from chat.models.reader.statement_titles import is_statement_page
from chat.models.reader.tables import Row, across_sections, find_tables
from chat.models.reader.text import match_terms
from chat.models.reader.units import table_unit

#: (the item, the printed total it is part of, the printed rest of that total)
_DERIVED: tuple[tuple[str, str, str], ...] = (
    ("total liabilities", "total liabilities and equity", "total equity"),
)
#: the equity section's total ("Total equity", "Total shareholders' equity (deficit)"): the last one printed above
#: the grand total holds the noncontrolling interests too, as the grand total does
_EQUITY_TOTAL = re.compile(r"(?i)^total\b(?!.*\bliabilities\b).*\b(?:equity|deficit)\b")


def _said_cell(ev: Evidence) -> str:
    """"Total equity $81,552 million": the row's own label (no section path) and its amount as printed."""
    value = cell_value(ev)
    assert ev.row is not None and value is not None
    # a label that goes on to state amounts ("Short-term borrowings, including …: 2021—$1,636; 2020—$2,002"): its name
    label = re.sub(r":\s.*\d.*$", "", " ".join(ev.row.label.split()))
    return f"{label} {value[1]}"


def _said(o: Operand) -> str:
    return _said_cell(o.cells[0])


def _row_operand(like: Evidence, row: Row) -> Operand | None:
    ev = replace(like, quote=row.line, label=row.label, row=row)
    value = cell_value(ev)
    return Operand(value[0], (ev,), "") if value is not None else None


def _equity_above(grand: Evidence) -> Operand | None:
    """The equity total printed last above the grand total ``grand``, in its table and column."""
    assert grand.table is not None and grand.row is not None
    rows = list(grand.table.rows)
    for row in reversed(rows[: rows.index(grand.row)]):
        if _EQUITY_TOTAL.search(" ".join(row.label.split())) and row.amount(grand.col) is not None:
            return _row_operand(grand, row)
    return None


def _same_column(a: Operand, b: Operand) -> bool:
    x, y = a.cells[0], b.cells[0]
    assert x.table is not None and y.table is not None
    return (x.passage.document_id == y.passage.document_id
            and period_phrase(x.table, x.col, "en") == period_phrase(y.table, y.col, "en"))


def _summed_answer(question: str, q: Question, passages: Sequence[Passage]
                   ) -> tuple[str, list[tuple[str, str]]] | None:
    """Depreciation and amortization printed on separate lines of one statement: their sum (module docstring) —
    the formula operand of the item (``formulas.operand``, its lines found by ``split_items``), said line by line."""
    total = operand(q, SPLIT_ITEM, passages)
    if total is None or len(total.cells) < 2:
        return None  # a row states it (the ordinary reading answers), or its lines are not printed apart
    dep = total.cells[0]
    assert dep.table is not None
    value = money(total.value, dep, question)
    when = period_phrase(dep.table, dep.col, "en")
    said = " + ".join(_said_cell(ev) for ev in total.cells)
    lead = (f"Depreciation and amortization were {value} {when} (computed: {said}; the statement prints no "
            f"depreciation and amortization line) {refs(total)}.")
    return lines(lead, dep), quotes(total)


#: how many of the best cells are looked at for the item's lines
PARTS_LOOK_AT = 12


def _sections_answer(question: str, q: Question, passages: Sequence[Passage]
                     ) -> tuple[str, list[tuple[str, str]]] | None:
    """An item a table prints only by its parts, the same line under each part's heading ("Domestic: / Consumer
    Electronics", "International: / Consumer Electronics"), asked with no part named: their sum, each cell cited —
    also where the chunking cut the table between the parts (the same document and columns, each chunk's row
    cited from its own passage)."""
    ranked = [ev for ev in gather(q, passages)[:SECTIONS_LOOK_AT] if ev.kind == "cell" and ev.table is not None
              and ev.row is not None and ev.score > PERIOD_MISSING_CAP + 0.05]
    first = ranked[0] if ranked else None
    if first is None or first.table is None or first.row is None or not first.row.section:
        return None
    label = " ".join(first.row.label.split()).lower()
    # the chunks of the same table: one document, the same columns, a row of the same label
    same = [ev for ev in ranked if ev.table is not None and ev.row is not None
            and ev.passage.document_id == first.passage.document_id and ev.col == first.col
            and [c.header for c in ev.table.columns] == [c.header for c in first.table.columns]
            and " ".join(ev.row.label.split()).lower() == label]
    merged_rows: list[Row] = []
    for ev in same:
        assert ev.table is not None
        merged_rows += [r for r in ev.table.rows if r not in merged_rows]
    merged = replace(first.table, rows=tuple(merged_rows))
    rows = across_sections(merged, first.row, set(q.terms) | set(q.focus_terms))
    if rows is None:
        return None
    operands: list[Operand] = []
    for r in rows:
        own = next((ev for ev in same if ev.table is not None and r in ev.table.rows), None)
        operand_ = _row_operand(own, r) if own is not None else None
        if operand_ is None:
            return None
        operands.append(operand_)
    value = money(sum(o.value for o in operands), first, question)
    when = period_phrase(first.table, first.col, "en")
    subject = subject_of(q, replace(first, label=first.row.label, row=replace(first.row, section="")))
    verb = "were" if plural(subject) else "was"
    said = " + ".join(f"{r.section.strip(' :')} {said_value}" for r, o in zip(rows, operands, strict=True)
                      if (said_value := (cell_value(o.cells[0]) or (0.0, ""))[1]))
    lead = (f"{subject[0].upper() + subject[1:]} {verb} {value} {when} (computed: {said}; the table prints it by "
            f"{'segment' if re.search('(?i)segment', first.table.caption) else 'part'}) {refs(*operands)}.")
    return lines(lead, first), quotes(*operands)


#: how many of the best evidence a line printed by parts is looked for among
SECTIONS_LOOK_AT = 6


def _parts_answer(question: str, q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """A liability a balance sheet prints as its current and its non-current lines, no line of it whole
    ("Operating lease liabilities - current" 111, "Operating lease liabilities - non-current" 862; or "Current
    portion of operating lease liabilities" 467 above "Total current liabilities" and "Operating lease liabilities"
    2,931 below it): their sum, each cell cited — asked the item itself, not one part of it."""
    if not asked_whole(q) or not q.periods:
        return None
    asked = _item(item_phrase(q.focus))  # "total operating lease liabilities" asked: the item's lines, total or not
    cells = [ev for ev in gather(q, passages)[:PARTS_LOOK_AT] if ev.kind == "cell" and ev.table is not None
             and ev.row is not None and ev.score > PERIOD_MISSING_CAP + 0.05  # of the asked period
             and _item(ev.row.label) == asked]
    if not cells:
        return None
    first = cells[0]
    assert first.table is not None
    parts = _part_rows(list(first.table.rows), asked, first.col)
    if parts is None:
        return None  # the item's whole line is printed (or not both parts): the ordinary reading answers
    current, noncurrent = _row_operand(first, parts["current"]), _row_operand(first, parts["noncurrent"])
    if current is None or noncurrent is None:
        return None
    value = money(current.value + noncurrent.value, first, question)
    when = period_phrase(first.table, first.col, "en")
    name = " ".join(item_phrase(q.focus).split())
    verb = "were" if name.endswith("s") else "was"
    said = [_said(current), _said(noncurrent)]
    if parts["current"].label.strip() == parts["noncurrent"].label.strip():
        # "Deferred revenue" under "Current liabilities:" and under "Long-term liabilities:": each named with its
        # heading
        said = [_under(part, row) for part, row in zip(said, (parts["current"], parts["noncurrent"]), strict=True)]
    lead = (f"{name[0].upper() + name[1:]} {verb} {value} {when} (computed: {said[0]} + {said[1]}; "
            f"no line prints the two together) {refs(current, noncurrent)}.")
    return lines(lead, current.cells[0]), quotes(current, noncurrent)


def _under(said: str, row: Row) -> str:
    """``said`` ("Deferred revenue $117 million") with the row's section heading after its label."""
    label = re.sub(r":\s.*\d.*$", "", " ".join(row.label.split()))
    heading = " ".join(row.section.split()).rstrip(":")
    return f"{label} ({heading}){said[len(label):]}" if heading and said.startswith(label) else said


#: the current section's closing line ("Total current liabilities"): a plain-named line below it is non-current
_CURRENT_TOTAL = re.compile(r"(?i)^total\s+current\b")


def _part_rows(rows: list[Row], asked: frozenset[str], col: int) -> dict[str, Row] | None:
    """The current and the non-current line of the item ``asked`` in one table's rows (each with an amount in
    ``col``): named by their part, or — a balance sheet's way — the current one by its part and the non-current one
    plainly, below the current section's total. None when not both are there, or the item has a line of its own."""
    parts: dict[str, Row] = {}
    plain: list[Row] = []
    current_total_at = next((k for k, row in enumerate(rows) if _CURRENT_TOTAL.match(" ".join(row.label.split()))),
                            None)
    for row in rows:
        if _item(row.label) != asked or row.amount(col) is None:
            continue
        part = part_of(row.label) or part_of(row.section)  # "Long-term liabilities: Deferred revenue"
        if part and part not in parts:
            parts[part] = row
        elif not part:
            plain.append(row)
    if "current" in parts and "noncurrent" not in parts and len(plain) == 1 and current_total_at is not None \
            and rows.index(parts["current"]) < current_total_at < rows.index(plain[0]) \
            and not _TOTAL_FIRST.match(plain[0].label):  # a total is the whole, not its part
        parts["noncurrent"] = plain.pop()
    if set(parts) != {"current", "noncurrent"} or plain:
        return None
    return parts


#: a line that says it is a total ("Total operating lease liabilities")
_TOTAL_FIRST = re.compile(r"(?i)^\s*total\b\s*")


def _item(label: str) -> frozenset[str]:
    """A line's item: its terms without its part ("…, non-current") nor its being a total ("Total …")."""
    return stripped_item(_TOTAL_FIRST.sub("", label))


#: a balance sheet's debt line: what is borrowed and due within the year (short-term borrowings, notes payable,
#: commercial paper), the current part of long-term debt, long-term debt — "Short-term borrowings, including
#: current portion of long-term debt" is one line
_DEBT_LINE = re.compile(
    r"(?i)^(?:(?:short[- ]term|current)\s+(?:debt|borrowings|notes\s+payable|loans)|notes\s+payable|commercial\s+paper|"
    r"bank\s+(?:loans|borrowings|overdrafts)|loans\s+payable|borrowings|debt|(?:the\s+)?current\s+(?:portion|maturities|"
    r"installments)\s+of\s+(?:long[- ]term\s+)?(?:debt|borrowings|notes)|long[- ]term\s+(?:debt|borrowings|notes))\b")
#: … and what only sounds like one: a lease's liability, debt securities held (an asset), debt's issuance costs or
#: accrued interest
_NOT_DEBT_LINE = re.compile(r"(?i)\blease|\bsecurities\b|\bissuance\b|\binterest\b|\baccrued\b|\bguarantee|"
                            r"\binvestments?\b|\breceivable")
_TOTAL_DEBT_ROW = re.compile(r"(?i)^total\s+(?:debt|borrowings)\b")
_DEBT_ASKED = (frozenset({"debt"}), frozenset({"borrowing"}))
_LONG_TERM_DEBT = "long-term debt"


def _debt_answer(question: str, q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """Total debt asked and no line prints it: the balance sheet's debt lines of the asked date added — borrowings
    due within the year, the current part of long-term debt, long-term debt — each cell cited, the sum shown. Only
    where no "Total debt" row of the asked period was found (the ordinary reading answers that)."""
    if frozenset(q.focus_terms) - {"§1"} not in _DEBT_ASKED or not q.periods:
        return None
    operands = _debt_lines(q, passages)
    if not operands:
        return None
    first = operands[0].cells[0]
    value = money(sum(o.value for o in operands), first, question)
    when = period_phrase(first.table, first.col, "en") if first.table is not None else ""
    said = " + ".join(_said(o) for o in operands)
    lead = (f"Total debt was {value} {when} (computed: {said}; the balance sheet prints no total debt line) "
            f"{refs(*operands)}.")
    return lines(lead, first), quotes(*operands)


def debt_change_answer(question: str, q: Question, passages: Sequence[Passage]
                       ) -> tuple[str, list[tuple[str, str]]] | None:
    """"Has Acme increased its debt (on its balance sheet) between 2022 and 2021?": the balance sheet's debt lines
    added at each date (``_debt_lines``), the later against the earlier — or None (one date, or a date's lines not
    found, or both read from one column)."""
    if q.language != "en" or q.kind not in ("change", "comparison") or q.parts \
            or frozenset(q.focus_terms) - {"§1"} not in _DEBT_ASKED:
        return None
    dated = sorted({p.year: p for p in q.periods if p.year}.values(), key=lambda p: p.year or 0, reverse=True)
    if len(dated) != 2:
        return None
    each = [_debt_lines(replace(q, kind="value", periods=(p,)), passages) for p in dated]
    now, before = each
    if not now or not before or (now[0].cells[0].col, now[0].cells[0].passage.ref) == \
            (before[0].cells[0].col, before[0].cells[0].passage.ref):
        return None  # one column read for both dates
    totals = [sum(o.value for o in lines_) for lines_ in each]
    first, second = now[0].cells[0], before[0].cells[0]
    if first.table is None or second.table is None or totals[1] == 0:
        return None
    delta = totals[0] - totals[1]
    verdict = "Yes" if delta > 0 else "No"
    moved = (f"{'rose' if delta > 0 else 'fell'} {money(abs(delta), first, question)} "
             f"({delta / abs(totals[1]) * 100:+.1f}%)") if delta else "was unchanged"
    lead = (f"{verdict} — total debt {moved}: {money(totals[0], first, question)} "
            f"{period_phrase(first.table, first.col, 'en')} vs {money(totals[1], second, question)} "
            f"{period_phrase(second.table, second.col, 'en')} (computed: {' + '.join(_said(o) for o in now)}; "
            f"{' + '.join(_said(o) for o in before)}; the balance sheet prints no total debt line) "
            f"{refs(*now, *before)}.")
    return lines(lead, first), quotes(*now, *before)


def _debt_lines(q: Question, passages: Sequence[Passage]) -> list[Operand]:
    """The balance sheet's debt lines at ``q``'s date, each a cited cell; [] when a "Total debt" row of the date
    was found (the ordinary reading answers) or no balance sheet's long-term debt was."""
    for ev in gather(q, passages)[:PARTS_LOOK_AT]:
        if ev.kind == "cell" and ev.row is not None and _TOTAL_DEBT_ROW.search(" ".join(ev.row.label.split())) \
                and ev.score > PERIOD_MISSING_CAP + 0.05:
            return []  # printed: "Total debt 24,942"
    long_term = replace(q, focus=_LONG_TERM_DEBT, focus_terms=frozenset(match_terms(_LONG_TERM_DEBT)))
    sheet = next((ev for ev in gather(long_term, passages)[:PARTS_LOOK_AT] if ev.kind == "cell"
                  and ev.table is not None and ev.row is not None and ev.score > PERIOD_MISSING_CAP + 0.05
                  and is_statement_page(ev.passage) and _debt_row(ev.row, ev.col)), None)
    if sheet is None or sheet.table is None:
        return []
    operands: list[Operand] = []
    seen: set[str] = set()
    for like in _sheet_tables(sheet, passages):
        assert like.table is not None
        for row in like.table.rows:
            label = " ".join(row.label.split()).lower()
            if _debt_row(row, like.col) and label not in seen:
                seen.add(label)
                found = _row_operand(like, row)
                if found is not None:
                    operands.append(found)
    return operands


def _sheet_tables(sheet: Evidence, passages: Sequence[Passage]) -> list[Evidence]:
    """The tables of ``sheet``'s statement page — its own first, then those of the page's other chunks (a balance
    sheet cut into chunks: "Current portion of long-term debt" in one, "Long-term debt" in the next) whose column
    ``sheet.col`` is of the same date — each as an evidence of that table and column (the cell's passage, to cite)."""
    assert sheet.table is not None
    when = period_phrase(sheet.table, sheet.col, "en")
    out = [sheet]
    for p in passages:
        if p.document_id != sheet.passage.document_id or p.page != sheet.passage.page:
            continue
        for table in find_tables(p.text):
            if table == sheet.table or len(table.columns) != len(sheet.table.columns) \
                    or period_phrase(table, sheet.col, "en") != when:
                continue
            if not table.unit.word or not table.unit.currency:  # the page's caption ("$ in millions") is the sheet's
                shown = table_unit(sheet.table)  # the sheet's currency may show only in its cells ("$2,241")
                unit = shown if not table.unit.word else replace(table.unit, currency=shown.currency)
                table = replace(table, unit=unit)
            out.append(replace(sheet, passage=p, table=table))
    return out


def _debt_row(row: Row, col: int) -> bool:
    """A debt line of a balance sheet's liabilities, with an amount in column ``col``."""
    label = " ".join(row.label.split())
    return bool(_DEBT_LINE.search(label)) and not _NOT_DEBT_LINE.search(label) \
        and not re.search(r"(?i)\bassets?\b", row.section) and row.amount(col) is not None


_GROSS = frozenset(match_terms("gross margin"))
_REVENUE = frozenset(match_terms("revenue"))
_COST_OF_SALES = frozenset(match_terms("cost of sales"))


def _gross_answer(question: str, q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """Gross margin asked, in money, and the income statement prints no line of it (revenue, cost of sales, then the
    operating expenses): its revenue less its cost of sales, both cells of one statement page and column cited.
    Only where that page prints one cost-of-sales line (a cost of revenues split into its kinds, "Product costs",
    "Game operations", is left to the ordinary reading); a "Gross margin" row found elsewhere in money — a
    segment's, an investee's — is not the company's, while a printed gross margin rate ("Gross profit margin
    24.1%") answers as printed."""
    if frozenset(q.focus_terms) != _GROSS or not q.periods or _PERCENT_ASKED.search(question):
        return None
    for ev in gather(q, passages)[:PARTS_LOOK_AT]:
        amount = ev.row.amount(ev.col) if ev.kind == "cell" and ev.row is not None else None
        if amount is not None and amount.percent and ev.score > PERIOD_MISSING_CAP + 0.05:
            return None  # "Gross profit margin 24.1%" of the asked year
    revenue, cost = operand(q, "revenue", passages), operand(q, "cost of sales", passages)
    if revenue is None or cost is None or len(revenue.cells) != 1 or len(cost.cells) != 1:
        return None
    top, below = revenue.cells[0], cost.cells[0]
    if top.table is None or below.table is None or not is_statement_page(top.passage) \
            or (below.passage.document_id, below.passage.page) != (top.passage.document_id, top.passage.page) \
            or not _same_column(revenue, cost):
        return None
    rows = [row for like in _sheet_tables(top, passages) if like.table is not None for row in like.table.rows]
    if any(_GROSS & match_terms(row.label) for row in rows):
        return None  # the statement prints it: the ordinary reading answers
    if len({" ".join(row.label.split()).lower() for row in rows if _COST_OF_SALES & match_terms(row.label)}) != 1:
        return None
    value = money(revenue.value - cost.value, top, question)
    when = period_phrase(top.table, top.col, "en")
    lead = (f"Gross margin was {value} {when} (computed: {_said(revenue)} − {_said(cost)}; the income statement "
            f"prints no gross margin line) {refs(revenue, cost)}.")
    return lines(lead, top), quotes(revenue, cost)


#: a label that says its per-share figures aside, one per year ("Cash dividends declared ($2.04, $2.02, and $1.96
#: per share)"): its cells are the amounts, the per-share figures are the label's
_PER_SHARE_ASIDE = re.compile(r"(?i)\((?P<list>\s*\$?\s*\d[\d.]*(?:\s*,?\s*(?:and\s+)?\$?\s*\d[\d.]*)+)\s+per\s+"
                              r"(?:common\s+)?share\s*\)")
_PER_SHARE_ASKED = re.compile(r"(?i)\bper\s+(?:common\s+)?share\b|\bDPS\b")
#: how many of the best pieces of evidence are looked at for such a row
_ASIDE_LOOK_AT = 3


def _per_share_aside_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """A per-share figure asked whose row prints the amounts and says the per-share figures in its label, one per
    year column ("Cash dividends declared ($2.04, $2.02, and $1.96 per share) | (1,244.5) | (1,246.4) | (1,195.8)"):
    the label's figure of the asked column."""
    if not _PER_SHARE_ASKED.search(q.text):
        return None
    for ev in gather(q, passages)[:_ASIDE_LOOK_AT]:
        if ev.kind != "cell" or ev.table is None or ev.row is None or ev.score <= PERIOD_MISSING_CAP + 0.05:
            continue
        aside = _PER_SHARE_ASIDE.search(ev.row.label)
        if aside is None:
            continue
        figures = re.findall(r"\d[\d.]*", aside.group("list"))
        held = [c for c in range(len(ev.table.columns)) if ev.row.amount(c) is not None]
        if len(figures) != len(held) or ev.col not in held:
            return None  # the label's figures are not one per column: which is the asked year's is not known
        figure = figures[held.index(ev.col)]
        currency = "$" if "$" in aside.group("list") else ""
        label = " ".join(ev.row.label[: aside.start()].split())
        said = ", ".join(f"{currency}{f}" for f in figures)
        verb = "were" if re.search(r"[^s]s\b", label) else "was"
        lead = (f"{label} {verb} {currency}{figure} per "
                f"share {period_phrase(ev.table, ev.col, 'en')} [{ev.passage.ref}] (the row's label gives {said} "
                f"per share, one for each of its {len(figures)} years; its cells are the total amounts).")
        return lines(lead, ev), [(ev.passage.ref, ev.quote_text)]
    return None


#: a gross margin asked as a share of revenue: the ratio's reading (``ratios``), not the money
_PERCENT_ASKED = re.compile(r"(?i)%|\bpercent|\bratio\b|\bas a (?:share|proportion)\b")


def derived_answer(question: str, q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer lines and quotes of an item derived from printed lines (see the module docstring), or None
    when the question asks no such item, a row states it, or a printed line it needs is missing."""
    if q.language != "en" or q.kind != "value" or q.parts or not q.focus:
        return None
    if asks_split_item(q.focus):
        return _summed_answer(question, q, passages)
    parts = _parts_answer(question, q, passages) or _debt_answer(question, q, passages) \
        or _gross_answer(question, q, passages) or _per_share_aside_answer(q, passages) \
        or _sections_answer(question, q, passages)
    if parts is not None:
        return parts
    for item, whole, rest in _DERIVED:
        if match_terms(q.focus) != match_terms(item) or asks_equity(question):
            continue
        stated = cell(q, item, passages)
        if stated is not None and not both_sides_total(stated.label):
            return None  # the statement prints it: the ordinary reading answers
        total = operand(q, whole, passages)
        if total is None or not total.cells or not both_sides_total(total.cells[0].label):
            return None
        other = _equity_above(total.cells[0]) or operand(q, rest, passages)
        if other is None or not other.cells or not _same_column(total, other):
            return None
        first = total.cells[0]
        assert first.table is not None
        value = money(total.value - other.value, first, question)
        when = period_phrase(first.table, first.col, "en")
        lead = (f"{item[0].upper() + item[1:]} were {value} {when} (computed: {_said(total)} − {_said(other)}; the "
                f"balance sheet prints no {item} line) {refs(total, other)}.")
        return lines(lead, first), quotes(total, other)
    return None
