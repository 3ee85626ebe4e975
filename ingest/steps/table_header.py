"""Header levels of a table grid (pure): which columns a header segment heads, the levels it makes, and the
page furniture that is never a header — step 4 of :mod:`ingest.steps.table_grid`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ingest.steps.table_lines import Line, Seg
from ingest.steps.table_model import BBox4, Table, union

#: a top-of-page line this short, followed by a gap of more than this many of its own heights, is furniture
FURNITURE_CHARS = 80
FURNITURE_GAP_EM = 2.0
PERIOD = re.compile(r"\bended\b|\b(?:months|weeks|quarters?|years?)\b", re.IGNORECASE)
_DATEISH = re.compile(
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|(?:fy|q[1-4])?\s*(?:19|20)\d\d\b",
    re.IGNORECASE)
_BARE_YEAR = re.compile(r"(?:19|20)\d\d")
#: a whole date, month, day and year ("December 31, 2019", "As of January 31, 2020") — no comparison ("2018 vs 2017")
_FULL_DATE = re.compile(
    r"(?:(?:as\s+of|at)\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d\d",
    re.IGNORECASE)
#: a date without its year ("December 31,", "As of June 30") set flush left over year columns
_MONTH_DAY = re.compile(
    r"(?:(?:as\s+of|at)\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?", re.IGNORECASE)


def page_furniture(lines: Sequence[Line]) -> set[int]:
    """The page's running header / navigation link lines (``Table of Contents``, ``PART I`` / ``Item 1``):
    up to two short lines at the very top of the page, then a gap wider than twice their own height. By
    shape, not by wording; a table's title right above its header is no such line (it sits closer)."""
    for k in range(min(2, len(lines) - 1)):
        if len(lines[k].text) > FURNITURE_CHARS:
            break
        if lines[k + 1].y0 - lines[k].y1 > FURNITURE_GAP_EM * lines[k].h:
            return set(range(k + 1))
    return set()


def span(seg: Seg, cols: Sequence[tuple[float, float]]) -> list[int]:
    """Columns a segment covers: those it overlaps substantially, else the nearest."""
    hits = []
    for c, (a, b) in enumerate(cols):
        overlap = min(b, seg.x1) - max(a, seg.x0)
        if overlap > 0.25 * min(b - a, seg.x1 - seg.x0):
            hits.append(c)
    if hits:
        return list(range(hits[0], hits[-1] + 1))
    centre = (seg.x0 + seg.x1) / 2
    return [min(range(len(cols)), key=lambda c: abs((cols[c][0] + cols[c][1]) / 2 - centre))]


def over_values(line: Line, cols: Sequence[tuple[float, float]]) -> bool:
    """A line of dates or periods whose every segment overlaps a value column (dates centred over
    right-aligned numbers are wider than them: ``December 31, 2022`` starts left of its column's numbers)."""
    pad = 0.5 * line.h
    return line.x0 > cols[0][1] and all(
        (_DATEISH.match(s.text) or PERIOD.search(s.text))
        and any(min(b + pad, s.x1) > max(a - pad, s.x0) for a, b in cols[1:]) for s in line.segs)


def header_levels(table: Table, head: Sequence[Line], cols: Sequence[tuple[float, float]]) -> None:
    n = len(cols)
    items: list[tuple[int, Seg, list[int]]] = [(li, sg, span(sg, cols)) for li, ln in enumerate(head)
                                               for sg in ln.segs]
    items = [(li, sg, _period_span(li, sg, sp, items, cols)) for li, sg, sp in items]
    items = [(li, sg, _wrapped_span(li, sg, sp, items)) for li, sg, sp in items]
    items = _group_spans(items, cols)
    # per column: fragments (span, text, box) top-down; the same span on consecutive lines is one wrapped text
    levels: list[list[tuple[tuple[int, int], str, BBox4]]] = [[] for _ in range(n)]
    for _li, sg, sp in items:
        key = (sp[0], sp[-1])
        box = (sg.x0, sg.y0, sg.x1, sg.y1)
        for c in sp:
            if levels[c] and levels[c][-1][0] == key:
                _key, text, pbox = levels[c][-1]
                levels[c][-1] = (key, text + " " + sg.text, union([pbox, box]) or box)
            else:
                levels[c].append((key, sg.text, box))
    depth = max((len(lv) for lv in levels), default=0)
    for d in range(depth):
        texts: list[str] = []
        boxes: list[BBox4 | None] = []
        for c in range(n):
            # bottom-align: a column with fewer levels fills the lower ones (its label sits on the last line)
            k = d - (depth - len(levels[c]))
            texts.append(levels[c][k][1] if k >= 0 else "")
            boxes.append(levels[c][k][2] if k >= 0 else None)
        table.header.append(texts)
        table.header_boxes.append(boxes)


#: a header line's segment and the one right below it overlap this share of the wider one: one wrapped header cell
WRAP_OVERLAP = 0.5
#: … and is at most this much wider than it: a label centred over a narrower cell and its neighbours heads them all
#: ("TEDs" over "simple | complex | all", "Termination Benefits" over "Domestic | International | Total")
WRAP_WIDER = 1.25
#: neighbours on a header line closer than this many line heights are a word apart, not a column apart
TIGHT_EM = 0.8
#: a header line that cannot end a header ("Corporate and", "Capital in", "Total Stores at"): its text goes on below
_OPEN_END = re.compile(r"(?i)(?:\b(?:and|or|of|in|at|on|for|to|from|by|with|the|per)|[&,/(-])$")


def _wrapped_span(li: int, seg: Seg, span: list[int], items: Sequence[tuple[int, Seg, list[int]]]) -> list[int]:
    """A header cell wrapped over several lines ("Total Stores at" / "End of Second" / "Quarter") heads the
    columns its last line heads: over narrow, right-aligned number columns a wide first line's centre can sit
    between two of them, its last line's does not. Only a segment of the next line that continues ``seg``
    (``_continues``) and stands apart from its neighbours (``_tight``) counts, and only where it heads fewer
    columns; a period or a date keeps the span ``_period_span`` gave it."""
    if PERIOD.search(seg.text) or _DATEISH.match(seg.text) or _MONTH_DAY.fullmatch(seg.text.strip()):
        return span  # a period or date heads the columns ``_period_span`` gave it
    for other_li, other, sp in items:
        if other_li == li + 1 and not PERIOD.search(other.text) and _continues(seg, other) \
                and not _tight(other, [o for k, o, _sp in items if k == other_li and o is not other]):
            below = _wrapped_span(other_li, other, sp, items)
            return below if len(below) <= len(span) else span
    return span


def _tight(seg: Seg, line: Sequence[Seg]) -> bool:
    """``seg`` sits a word's space from a neighbour on its line ("simple complex all" under "TEDs"): cells that
    close share the label above them; a wrapped cell's continuation stands apart like any other cell."""
    gap = TIGHT_EM * (seg.y1 - seg.y0)
    return any(o.x0 - gap < seg.x1 and seg.x0 < o.x1 + gap for o in line)


def _continues(seg: Seg, other: Seg) -> bool:
    """``other`` (on the next header line) overlaps ``seg`` by ``WRAP_OVERLAP`` of the wider of the two, and
    ``seg`` is not much wider than it or cannot end a header (``_OPEN_END``)."""
    overlap = min(seg.x1, other.x1) - max(seg.x0, other.x0)
    width, below = seg.x1 - seg.x0, other.x1 - other.x0
    return overlap >= WRAP_OVERLAP * max(width, below) and (width <= WRAP_WIDER * below
                                                            or bool(_OPEN_END.search(seg.text)))


def _group_spans(items: list[tuple[int, Seg, list[int]]], cols: Sequence[tuple[float, float]]
                 ) -> list[tuple[int, Seg, list[int]]]:
    """Group labels over repeated column headers ("Fiscal 2024 | Fiscal 2023" over "Total Stores at Beginning of
    Second Quarter | Stores Opened | Stores Closed | Total Stores at End of Second Quarter", twice): when the value
    columns' headers below a line repeat as ``m`` equal groups and the line has ``m`` segments, one over each
    group, each segment heads its whole group (set centred, a short label sits over one or two of the group's
    narrow number columns only)."""
    out, n = list(items), len(cols)
    for li in sorted({li for li, _sg, _sp in items}):
        own = [(k, sg, sp) for k, (other_li, sg, sp) in enumerate(items) if other_li == li]
        m = len(own)
        if m < 2:
            continue
        if any(other_li == li + 1 and _continues(sg, other) and not _BARE_YEAR.fullmatch(other.text.strip())
               for _k, sg, _sp in own for other_li, other, _osp in items):
            continue  # the first lines of wrapped headers ("Gross" over "Carrying Amount"), not group labels
        texts = [" ".join(sg.text for other_li, sg, sp in items if other_li > li and sp == [c]) for c in range(1, n)]
        if not all(texts) or len(texts) % m:
            continue
        k = len(texts) // m
        if k < 2 or any(texts[g * k:(g + 1) * k] != texts[:k] for g in range(m)):
            continue
        groups = [list(range(1 + g * k, 1 + (g + 1) * k)) for g in range(m)]
        # each segment's group: the one its centre falls in
        owner = [[g for g, cs in enumerate(groups) if cols[cs[0]][0] <= (sg.x0 + sg.x1) / 2 <= cols[cs[-1]][1]]
                 for _k, sg, _sp in own]
        if any(len(o) != 1 for o in owner) or len({o[0] for o in owner}) != m:
            continue
        for (idx, sg, _sp), (g,) in zip(own, owner, strict=True):
            out[idx] = (li, sg, groups[g])
    return out


def _period_span(li: int, seg: Seg, span: list[int], items: Sequence[tuple[int, Seg, list[int]]],
                 cols: Sequence[tuple[float, float]]) -> list[int]:
    """Widen a header over the columns it heads: the columns next to it that no other header of its line
    claims and that have headers below. ``Three Months Ended`` spans the dated columns (such headers are
    often centred over one of the dates, so geometry alone gets them wrong); any other header spans the
    columns it is centred over (``TEDs`` over ``simple | complex | all``)."""
    below: dict[int, str] = {}
    for other_li, other, sp in items:
        if other_li > li and len(sp) == 1:
            below.setdefault(sp[0], other.text)
    taken = {c for other_li, other, sp in items if other_li == li and other is not seg for c in sp}

    def free(c: int) -> bool:
        return 1 <= c < len(cols) and c not in taken and c in below

    lo, hi = span[0], span[-1]
    if span == [0] and (PERIOD.search(seg.text) or _MONTH_DAY.fullmatch(seg.text.strip())):
        # a period header set flush left (``Three Months Ended September 30, | 2022 | 2021``, ``December 31, |
        # 2019 | 2018``) heads the dated value columns of its line and the lines below, not the row labels
        dated = [c for c in range(1, len(cols))
                 if any(other_li >= li and sp == [c] and _DATEISH.match(other.text)
                        for other_li, other, sp in items)]
        if dated:
            return list(range(dated[0], dated[-1] + 1))
    if PERIOD.search(seg.text):
        while free(lo - 1) and _DATEISH.match(below[lo - 1]):
            lo -= 1
        while free(hi + 1) and _DATEISH.match(below[hi + 1]):
            hi += 1
        return list(range(lo, hi + 1))
    left, right = lo, hi
    while free(left - 1):
        left -= 1
    while free(right + 1):
        right += 1
    if _MONTH_DAY.fullmatch(seg.text.strip()):
        # a date broken before its year (``July 2,`` over ``2023``): it heads the columns whose year is right
        # below it, not a neighbour that prints its own whole date (``December 31, 2022``)
        years = [c for c in range(left, right + 1) if c in below and _BARE_YEAR.fullmatch(below[c].strip())]
        if years:
            return list(range(years[0], years[-1] + 1))
    centre = (seg.x0 + seg.x1) / 2
    options = [(abs((cols[a][0] + cols[b][1]) / 2 - centre), -(b - a), a, b)
               for a in range(left, lo + 1) for b in range(hi, right + 1)]
    best = min(options)[0]
    slack = 0.1 * (seg.x1 - seg.x0) + 2.0
    near = [o for o in options if o[0] <= best + slack]
    if _FULL_DATE.fullmatch(seg.text.strip()) \
            and not any(_DATEISH.match(below.get(c, "")) for c in range(left, right + 1)):
        # a date over columns that name amounts, not periods ("December 31, 2019" centred over "Gross Carrying
        # Amount | Unamortized Discount | Net Carrying Amount"): it dates them all, not only the one it sits over —
        # up to halfway to another date of its line ("January 31, 2020 … January 31, 2019")
        lo_x, hi_x = _between_dates(seg, items)
        inside = [o for o in near if (cols[o[2]][0] + cols[o[2]][1]) / 2 > lo_x
                  and (cols[o[3]][0] + cols[o[3]][1]) / 2 < hi_x]
        _d, _w, a, b = min(inside, key=lambda o: (o[1], o[0])) if inside else min(near)
    else:
        _d, _w, a, b = min(near)
    return list(range(a, b + 1))


def _between_dates(seg: Seg, items: Sequence[tuple[int, Seg, list[int]]]) -> tuple[float, float]:
    """The x-range a date header may head: halfway to the centres of the other dates of the header (on its line
    or, set a line lower or higher, beside it)."""
    centre = (seg.x0 + seg.x1) / 2
    lo_x, hi_x = float("-inf"), float("inf")
    for _other_li, other, _sp in items:
        dated = _DATEISH.match(other.text.strip()) or _FULL_DATE.search(other.text)
        if other is seg or not dated or (other.x0 < seg.x1 and seg.x0 < other.x1):
            continue
        mid = (centre + (other.x0 + other.x1) / 2) / 2
        if mid < centre:
            lo_x = max(lo_x, mid)
        else:
            hi_x = min(hi_x, mid)
    return lo_x, hi_x
