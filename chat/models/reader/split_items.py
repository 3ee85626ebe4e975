"""An item a statement prints as separate lines, found as those lines (pure).

Some cash flow statements print depreciation and amortization apart ("Depreciation" 1,399; "Amortization of
purchased intangibles" 121; or "Amortization and other" a few lines below). Asked for depreciation and amortization
— as an answer (``derived``) or as a formula's operand (``formulas``: EBITDA) — and no row stating the two
together, the item is the statement's depreciation line plus the amortization lines of its section, same table and
column. Amortization that is interest or rent (debt discounts, issuance or financing costs, leases' right-of-use
assets) is not part of it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.evidence import Evidence
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question
from chat.models.reader.ratios import cell
from chat.models.reader.statement_titles import is_statement_page
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
