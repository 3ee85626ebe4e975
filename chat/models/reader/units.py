"""How to read a table's cells (pure): the unit of a column or a row — money in the caption's scale, a count of
shares in its own scale, a per-share amount in plain currency."""

from __future__ import annotations

import re

from chat.models.reader.balances import PER_SHARE
from chat.models.reader.numbers import Unit
from chat.models.reader.tables import Row, Table

_COUNT_HEADER = re.compile(
    r"(?i)\bnumber of\b|\bshares\b|\bunits\b|\bemployees\b|\bheadcount\b|\bcount\b|\bquantity\b|\bqty\b|"
    r"주식\s*수|주식수|수량|인원|株式数|株数|件数|人数|数量"
)


def table_unit(table: Table, col: int | None = None) -> Unit:
    """How to read the cells of column ``col``: the caption's unit; a column whose own cells show ``$`` is in
    dollars throughout; a column that counts things (``Number of Shares``, ``수량``) has no currency and no
    caption scale (a caption's "in millions" is about the amounts, not the counts)."""
    if col is not None and 0 <= col < len(table.columns) and _COUNT_HEADER.search(table.columns[col].header):
        return Unit()
    if table.unit.currency:
        return table.unit
    for row in table.rows:
        cells = row.cells if col is None else row.cells[col : col + 1]
        for cell in cells:
            if cell.startswith(("$", "US$")):
                return Unit(table.unit.scale, table.unit.word, "$")
    return table.unit


#: a row that counts shares ("Weighted-average diluted shares", "Shares used in computing …", "Number of shares")
_SHARE_COUNT_ROW = re.compile(
    r"(?i)\bweighted[- ]average\b[^$]*\bshares\b|\bshares\s+(?:outstanding|used|issued)\b|\bnumber\s+of\s+"
    r"(?:common\s+)?shares\b|\b(?:basic|diluted)\s+shares\b")
#: shares used in (or for) computing a per-share figure: a count, whatever per-share words follow
_SHARES_USED = re.compile(r"(?i)\bshares\s+(?:used|outstanding)\b|\b(?:weighted[- ])?average\s+(?:number\s+of\s+)?"
                          r"(?:common\s+|ordinary\s+|basic\s+|diluted\s+)?shares\b")
#: a caption that leaves the share counts out of its scale: "(In millions, except share and per share data)"
_SHARES_EXCEPTED = re.compile(r"(?i)\bexcept\s+(?:for\s+)?(?:the\s+)?(?:numbers?\s+of\s+)?shares?\b")
_SHARES_IN_THOUSANDS = re.compile(r"(?i)shares[^)]{0,40}?\bin\s+thousands|thousands\s+of\s+shares|shares\s+\(in\s+"
                                  r"thousands\)")
_SHARES_IN_MILLIONS = re.compile(r"(?i)shares[^)]{0,40}?\bin\s+millions|millions\s+of\s+shares")


def share_count_row(label: str) -> bool:
    """The row counts shares ("Weighted-average diluted shares", "Shares used in computing …"), though it may
    name the per-share figure they are used for ("… used to compute diluted net income per share")."""
    return bool(_SHARE_COUNT_ROW.search(label)) and not (PER_SHARE.search(label) and not _SHARES_USED.search(label))


#: a stock class's description ("Common stock, $0.0001 par value; 900 shares authorized; 601 shares issued;",
#: "Shares outstanding - 2017: 594,884,237" — it states its own count): a heading over the equity lines, which are
#: amounts, not over share counts
_STOCK_DESCRIPTION = re.compile(r"(?i)\bpar\s+value\b|\bauthori[sz]ed\b|\bissued\b|\d{1,3}(?:,\d{3}){2,}")


def _section_counts(label: str, own: str) -> bool:
    """The section heading over ``own`` (``label`` is "section own") makes its row a share count: not under a stock
    class's description, and not for a total ("Total stockholders' equity" sums amounts)."""
    section = label[: -len(own)] if own and label.endswith(own) else label
    return not _STOCK_DESCRIPTION.search(section) and not re.match(r"(?i)\s*total\b", own)


_BASIC_DILUTED = re.compile(r"(?i)^\s*(?:basic|diluted)(?:\s+and\s+diluted)?\b")


def _per_share_heading(caption: str, own: str) -> bool:
    """A "Basic"/"Diluted" row of a grid whose caption ends with the per-share heading ("… (In millions, except
    per share data) Earnings per common share:" — the heading came apart from its rows)."""
    tail = re.split(r"[)›]", caption)[-1]
    return bool(_BASIC_DILUTED.match(own) and PER_SHARE.search(tail))


def row_unit(table: Table, col: int | None, label: str, own: str | None = None) -> Unit:
    """``table_unit``, except that a per-share row (``Diluted earnings per share``, or any row under an
    "Earnings per share" heading: pass ``section label``) is in plain currency: a caption's "(in millions, except
    per share data)" does not scale it; a row that counts shares (``own``: the row's own label) is in shares."""
    unit = table_unit(table, col)
    row_own = own if own is not None else label
    if share_count_row(row_own) or (share_count_row(label) and _section_counts(label, row_own)
                                    and not PER_SHARE.search(row_own)):  # "Basic earnings per share" under
        # "Shares used in computation:" is the per-share figure, whatever heading a chunk carried over it
        # "Weighted-average diluted shares" counts shares: no currency, and the caption's "(In millions, except
        # number of shares which are reflected in thousands …)" scales it by its own word
        if _SHARES_IN_THOUSANDS.search(table.caption):
            return Unit(1000.0, "thousand shares", "")
        if _SHARES_IN_MILLIONS.search(table.caption):
            return Unit(1e6, "million shares", "")
        if table.unit.word in ("thousand", "million", "billion") and not _SHARES_EXCEPTED.search(table.caption):
            # "(In thousands, except per share data)": the shares are in thousands too, the per-share amounts not
            return Unit(table.unit.scale, f"{table.unit.word} shares", "")
        return Unit(1.0, "shares", "")
    if (PER_SHARE.search(label) or _per_share_heading(table.caption, row_own)) and unit.scale != 1.0:
        return Unit(1.0, "", unit.currency)
    if _NO_MONEY_ROW.search(row_own):
        # "Days payable outstanding", "Inventory turnover (times)", "Current ratio": a count of days or a ratio
        # in a table of amounts — neither the caption's currency nor its "(in millions)" applies
        return Unit(1.0, "days" if re.search(r"(?i)\bdays?\b", row_own) else "", "")
    return unit


#: a row whose figure is days, times or a ratio, whatever the caption's unit
_NO_MONEY_ROW = re.compile(r"(?i)\bdays?\s+(?:sales|payables?|inventory|receivables?)\s+outstanding\b|"
                           r"\bdays?\s+(?:in|of)\s+(?:inventory|receivables?|payables?)\b|\(days\)|"
                           r"\bturnover\b|\(times\)|\bratio\b(?!\s+of\b)")


def money_cell(table: Table, row: Row, col: int) -> bool:
    """The cell at ``row`` × ``col`` is an amount of money: a row or column in a currency, or — where the caption
    sets the shares apart ("(In millions, except shares in thousands)") — any row that does not count shares.
    A row or column that counts things (``Number of shares repurchased``, ``Total Number of Shares Purchased``) is
    no money."""
    unit = row_unit(table, col, f"{row.section} {row.label}", row.label)
    if unit.word.endswith("shares") or (0 <= col < len(table.columns)
                                        and _COUNT_HEADER.search(table.columns[col].header)):
        return False
    if unit.currency:
        return True
    return bool(_SHARES_IN_THOUSANDS.search(table.caption) or _SHARES_IN_MILLIONS.search(table.caption))
