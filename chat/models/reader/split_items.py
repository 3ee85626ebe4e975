"""An item a statement prints as separate lines, found as those lines (pure).

Some cash flow statements print depreciation and amortization apart ("Depreciation" 1,399; "Amortization of
purchased intangibles" 121; or "Amortization and other" a few lines below). Asked for depreciation and amortization
— as an answer (``derived``) or as a formula's operand (``formulas``: EBITDA) — and no row stating the two
together, the item is the statement's depreciation line plus the amortization lines of its section, same table and
column. Amortization that is interest or rent (debt discounts, issuance or financing costs, leases' right-of-use
assets) is not part of it.

Some balance sheets print an item as a heading over its parts and no total ("Inventories, net:" over "Raw
materials and supplies" 992 and "Work in process and finished goods" 1,221): asked for the item as a formula's
operand (the quick ratio's inventories), it is the sum of the parts — the rows right under the heading, up to the
first that is a line item of its own ("Prepaid expenses and other current assets") or a total.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.decline import DECLINE_BELOW
from chat.models.reader.evidence import Evidence, gather
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question
from chat.models.reader.ratios import cell, is_component
from chat.models.reader.statement_titles import LOOK_AT, is_statement_page
from chat.models.reader.text import match_terms

SPLIT_ITEM = "depreciation and amortization"
_DEPRECIATION = re.compile(r"(?i)^depreciation\b(?!.*\bamorti[sz]ation\b)")
_AMORTIZATION = re.compile(r"(?i)^amorti[sz]ation\b(?!.*\b(?:debt|financing|discounts?|premiums?|issuance|loans?|"
                           r"leases?|right[- ]of[- ]use|deferred|depreciation)\b)")


def asks_split_item(item: str) -> bool:
    return bool(item) and match_terms(item) == match_terms(SPLIT_ITEM)


def split_cells(q: Question, item: str, passages: Sequence[Passage]) -> list[Evidence] | None:
    """The cells of ``item``'s separate lines (the depreciation line first), or None when ``item`` is no such item,
    a row states it whole, or the statement does not print its parts."""
    if not asks_split_item(item):
        return None
    if cell(q, SPLIT_ITEM, passages) is not None:
        return None  # a row names the item (``cell`` keeps only rows of its group): read as printed
    dep = cell(q, "depreciation", passages)
    if dep is None or dep.table is None or dep.row is None:
        return None
    if not _DEPRECIATION.search(" ".join(dep.row.label.split())) or not is_statement_page(dep.passage):
        return None
    rest = [replace(dep, quote=row.line, label=row.label, row=row) for row in dep.table.rows
            if row is not dep.row and row.section == dep.row.section
            and _AMORTIZATION.search(" ".join(row.label.split())) and row.amount(dep.col) is not None]
    return [dep, *rest] if rest else None


#: a row that ends a heading's parts: a total, or assets and liabilities of their own ("Assets held for sale")
_NOT_A_PART = re.compile(r"(?i)\b(?:total|assets?|liabilit(?:y|ies)|equity)\b")


def heading_parts(q: Question, item: str, passages: Sequence[Passage]) -> list[Evidence] | None:
    """The cells of ``item``'s parts when a statement prints it as a heading over them with no total (same table
    and column, in the asked period), or None: a row of the statement names the item, the heading has fewer than two
    parts, a part has no amount there."""
    terms = frozenset(match_terms(item))
    found = cell(q, item, passages)
    if not terms or (found is not None and is_statement_page(found.passage)):
        return None  # the statement prints the item's own line
    asked = replace(q, kind="value", focus=item, focus_terms=terms, parts=())
    for ev in gather(asked, passages)[:LOOK_AT]:
        if ev.score < DECLINE_BELOW:
            break
        if ev.kind != "cell" or ev.row is None or ev.table is None or not is_component(ev, terms) \
                or not terms <= match_terms(ev.row.section) or not is_statement_page(ev.passage):
            continue
        parts = []
        for row in [r for r in ev.table.rows if r.section == ev.row.section]:
            if any(t.startswith("§") for t in match_terms(row.label)) or _NOT_A_PART.search(row.label):
                break
            parts.append(row)
        if ev.row not in parts or len(parts) < 2 or any(row.amount(ev.col) is None for row in parts):
            return None
        return [replace(ev, quote=row.line, label=row.label, row=row) for row in parts]
    return None
