"""Table grids from word boxes (pure): lines → cell segments → columns → header levels, rows, caption.

Input: a page's words with boxes (PDF points, top-left origin; from the text layer — see
``ingest.steps.tables.page_words``). Steps:

1. **Lines** and 2. **segments** (cell candidates): see :mod:`ingest.steps.table_lines`.
3. **Blocks.** Runs of lines with 2+ segments (a "row-like" line) and up to three single-segment lines
   between them (section labels, long wrapped labels), with no big vertical gap, are table candidates.
   Columns are the x-ranges covered by the segments of the labelled row-like lines (split at every gap
   over ``FINE_EM``); a gap crossed by at most one line in ten still separates columns. A line that
   crosses a column gap (prose) ends the table.
4. **Header levels.** Lines above the first data row (a label alone, or a label and mostly numbers, not
   only years) are headers, including lines right above the block that sit over the value columns
   (``Three Months Ended``), also above section labels (``Assets`` / ``Current assets:``). A segment
   spans the columns it is centred over; a period header (``Three Months Ended``) spans the dated
   columns next to it; one set flush left on the years' line (``Three Months Ended September 30, | 2022 |
   2021``, ``December 31, | 2019 | 2018``) spans the dated value columns, not the row labels; a line of dates
   over the value columns is a header even where it is wider than the numbers below. Consecutive header lines
   over the same columns are one wrapped header (``December 31,`` + ``2022``); a change of span starts a new
   level. The page's furniture — up to two short lines at its very top before a gap of twice their height (a
   running header, a ``Table of Contents`` link) — is never a header or caption.
5. **Caption.** Up to three lines right above the header (no big gap) are the caption; a unit such as
   ``(in millions)`` is taken from the caption or the header.
6. **Rows.** Each remaining line is a row (cells joined per column); a label line continuing in lower
   case merges into the label-only row above it (a wrapped row label). A headerless table right under
   another with the same value columns is rejoined to it; paragraph-long headers or sentence-long value
   cells mean side-by-side prose, not a table.

Why our own clustering — measured with ``python -m bench.tables --method all`` (docling's 4 PDFs with
tables, every page, + 3 pages of Apple's 2023 Q1 10-Q with hand-checked grids; cell F1 per file, then
mean; 2 shared cores):

=========== ======= ====== ============= ======= ============ ============ =======
method      2305…   normal redp5110      mislab. AAPL 10-Q    mean F1      s/page
=========== ======= ====== ============= ======= ============ ============ =======
grid (ours) 0.33    0.03   0.40          0.63    **1.00**     **0.48**     0.03
pdfplumber  0.00    0.00   0.05          0.08    0.10         0.05         0.14
camelot     0.07    0.01   0.14          0.42    0.44         0.22         0.04
img2table   0.83    crash  crash         0.08    0.57         0.30         0.61
=========== ======= ====== ============= ======= ============ ============ =======

(row exact-match: ours 0.40, camelot 0.21, img2table 0.09, pdfplumber 0.04; flattened 10-Q headers: ours
all correct, the others have no header model.) img2table wins only on the ruled arXiv table (it sees the
rules; we split its two-line cells into two rows) and crashes on two files; pdfplumber's and camelot's
text strategies cut whole pages into grids (prose included) and split ``$`` from amounts. Ours is the
only one that rebuilds multi-row period headers, captions and units, it needs no new dependency (the
words come from PDFium's loose char boxes, in a sandboxed child like the rest of the text layer) and it
costs ~3 ms a page plus ~25 ms to read the words. Weak spots: side-by-side prose (a two-column Korean
brief) can look like a two-column table — ingest only runs this on pages where ``likely_table`` fires,
which such pages do not; multi-line cells of ruled tables become one row per line.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from ingest.steps.table_header import PERIOD, header_levels, over_values, page_furniture, span
from ingest.steps.table_lines import Line, Word, fine_segments, page_lines, resegment
from ingest.steps.table_model import BBox4, Table, union

__all__ = ["Word", "find_tables"]

#: a vertical gap wider than this many line heights ends a table (or its caption)
VGAP_EM = 2.2
MAX_CAPTION_LINES = 3
MAX_HEADER_CHARS = 100
MAX_VALUE_CHARS = 50
_NUMBER = re.compile(r"^[-–—+(]*[$€£¥₩]?\s*[-–—+(]*\d[\d.,:/ ]*\)?\s*%?\)?$|^[-–—]+$")
_YEAR = re.compile(r"^(?:FY\s*)?(?:19|20)\d\d$", re.IGNORECASE)
#: a header cell that is a whole date ("December 31, 2022", "Dec. 31, 2022")
_FULL_DATE = re.compile(r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d\d$",
                        re.IGNORECASE)
_UNIT = re.compile(
    r"\(?\b(?:(?:dollars|amounts|shares|\$)\s+)?in\s+(?:millions|thousands|billions)\b[^)\n:]*\)?"
    r"|\((?:millions|thousands|billions)[^)]*\)", re.IGNORECASE)


def find_tables(words: Sequence[Word], page: int = 1) -> list[Table]:
    """The tables on a page whose text layer is ``words`` (see the module docstring)."""
    lines = page_lines(words)
    if len(lines) < 2:
        return []
    tables: list[Table] = []
    used: set[int] = page_furniture(lines)  # never a header or caption
    i = 0
    while i < len(lines):
        block = _block(lines, i)
        if block is None:
            i += 1
            continue
        start, end = block
        table, first, last = _build(lines, start, end, used, page)
        if table is not None:
            tables.append(table)
            used.update(range(first, last))
            i = last
        else:
            i += 1
    return _rejoin(tables)


def _rejoin(tables: list[Table]) -> list[Table]:
    """A headerless table right under another one with the same value columns is its continuation: the
    long label lines that split them (``Adjustments to reconcile net income … activities``, taken for a
    caption) become a label-only row."""
    out: list[Table] = []
    for t in tables:
        prev = out[-1] if out else None
        if prev is not None and not t.header and _continues(prev, t):
            labels: list[str] = []
            for line in t.caption.splitlines():  # a line going on in lower case continues the label above
                if labels and line[:1].islower():
                    labels[-1] += " " + line
                else:
                    labels.append(line)
            for label in labels:
                prev.rows.append([label] + [""] * (t.columns - 1))
                prev.row_boxes.append([t.caption_bbox if len(labels) == 1 else None] + [None] * (t.columns - 1))
            prev.rows.extend(t.rows)
            prev.row_boxes.extend(t.row_boxes)
            continue
        out.append(t)
    return out


def _continues(a: Table, b: Table) -> bool:
    if a.columns != b.columns or not a.row_boxes or not b.row_boxes:
        return False
    last = a.row_bbox(len(a.rows) - 1)
    top = b.caption_bbox or b.row_bbox(0)
    if last is None or top is None or top[1] - last[3] > VGAP_EM * (last[3] - last[1]):
        return False
    for c in range(1, a.columns):  # every value column of b lies under the same column of a
        xa = [bx for row in a.row_boxes for bx in row[c:c + 1] if bx is not None]
        xb = [bx for row in b.row_boxes for bx in row[c:c + 1] if bx is not None]
        if xa and xb and (min(x[2] for x in xb) < min(x[0] for x in xa)
                          or max(x[0] for x in xb) > max(x[2] for x in xa)):
            return False
    return True


# --- 2. blocks and columns ----------------------------------------------------------------------------


def _row_like(line: Line) -> bool:
    return len(line.segs) >= 2 and any(len(s.text) <= 40 or _NUMBER.match(s.text) for s in line.segs[1:])


def _gap_ok(a: Line, b: Line) -> bool:
    return b.y0 - a.y1 <= VGAP_EM * max(a.h, b.h)


def _block(lines: list[Line], i: int) -> tuple[int, int] | None:
    """``(start, end)`` of the candidate block that starts with row-like line ``i``, if it is one."""
    if not _row_like(lines[i]):
        return None
    end = i + 1
    while end < len(lines) and _gap_ok(lines[end - 1], lines[end]):
        line = lines[end]
        if _row_like(line):
            end += 1
            continue
        # up to three single-segment lines (section labels, a long wrapped label) are kept when a row-like
        # line follows; a prose line among them ends the table when the columns are known (``_fits``)
        nxt = next((k for k in range(end, min(end + 3, len(lines))) if _row_like(lines[k])), None)
        if (nxt is not None and all(len(lines[k].text) <= 120 and _gap_ok(lines[k], lines[k + 1])
                                    and not _introduces(lines[k]) for k in range(end, nxt))):
            end = nxt
            continue
        break
    rows = sum(1 for ln in lines[i:end] if _row_like(ln))
    return (i, end) if rows >= 2 else None


#: a sentence that introduces a table ("Notional amounts … were as follows ($ in millions):", "… consisted of the
#: following:"): never a section label inside one — the table above ends there (tables stacked on one page with
#: other columns: a note's derivatives, then its leases)
_INTRO = re.compile(r"(?i)(?:\bas\s+follows\b|\bthe\s+following\b|\bin\s+(?:millions|thousands|billions)\b)[^:]*:$")


def _introduces(line: Line) -> bool:
    return len(line.text.split()) >= 6 and bool(_INTRO.search(line.text.strip()))


def _columns(lines: Sequence[Line]) -> list[tuple[float, float]]:
    """Column x-ranges: maximal ranges covered by the segments of the labelled row-like lines (those
    starting at the block's left edge: not header lines), tolerating one crossing line in ten."""
    rowlike = [ln for ln in lines if _row_like(ln)]
    left = min(ln.x0 for ln in lines)
    labelled = [ln for ln in rowlike if ln.x0 <= left + 4 * ln.h]
    if len(labelled) >= 2:
        rowlike = labelled
    # a period header line opening at the left edge ("(Millions) | Years ended December 31", "(in millions) | 2022 |
    # 2021" centred over two columns each) spans value columns: it sets none
    rows = [ln for ln in rowlike if not (not any(_NUMBER.match(s.text) for s in ln.segs[1:])
                                         and any(PERIOD.search(s.text) for s in ln.segs[1:]))
            and not (_unit_first(ln) and all(_YEAR.match(s.text) for s in ln.segs[1:]))]
    if len(rows) >= 2:
        rowlike = rows
    edges: list[tuple[float, int]] = []
    for ln in rowlike:
        for s in fine_segments(ln):
            edges += [(s.x0, 1), (s.x1, -1)]
    edges.sort(key=lambda e: (e[0], -e[1]))
    tolerate = len(rowlike) // 10
    cols: list[tuple[float, float]] = []
    depth, start = 0, 0.0
    for x, d in edges:
        before = depth
        depth += d
        if before <= tolerate < depth:
            start = x
        elif depth <= tolerate < before:
            cols.append((start, x))
    return cols


# --- 3. header, caption, rows ------------------------------------------------------------------------


def _unit_first(line: Line) -> bool:
    """The line opens with the table's unit in the label column ("(MILLIONS)", "(in millions)") and goes on."""
    return len(line.segs) > 1 and bool(_UNIT.fullmatch(line.segs[0].text.strip()))


def _is_data(line: Line, cols: Sequence[tuple[float, float]]) -> bool:
    """A body line: a row label in column 0, alone or with numbers in (at least half of) its value cells
    (a header line has no label, or labels without numbers: ``# layers | Language | mAP (0.75)``, or only
    years or dates: ``(Millions) | 2018 | 2017``, ``(MILLIONS) | 2023 | December 31, 2022``, or beside the unit also
    a column's word: ``(MILLIONS) | 2023 | 2022 | Change``)."""
    spans = [span(s, cols) for s in line.segs]
    if not spans or spans[0] != [0]:
        return False
    if len(line.segs) == 1:
        return True
    values = [s.text for s, sp in zip(line.segs, spans, strict=True) if sp[0] >= 1]
    numbers = [v for v in values if _NUMBER.match(v)]
    dated = [v for v in values if _YEAR.match(v) or _FULL_DATE.match(v)]
    if values and len(dated) == len(values):
        return False  # years or dates beside the unit: ``(MILLIONS) | 2023 | December 31, 2022``
    if dated and _unit_first(line) and all(
            v in dated or not re.search(r"\d", v) for v in values):
        return False  # … and words of a column's own: ``(MILLIONS) | 2023 | 2022 | Change | 2023 | 2022 | Change``
    return bool(numbers) and 2 * len(numbers) >= len(values)


def _fits(line: Line, cols: Sequence[tuple[float, float]], *, header: bool) -> bool:
    """Every segment sits in the column grid (spanning only allowed in headers)."""
    if line.x1 < cols[0][0] - 2 * line.h or line.x0 > cols[-1][1] + 2 * line.h:
        return False
    for s in line.segs:
        sp = span(s, cols)
        if len(sp) > 1 and (not header or sp[0] == 0):
            return False
    return True


def _build(
    lines: list[Line], start: int, end: int, used: set[int], page: int
) -> tuple[Table | None, int, int]:
    """The table of block ``lines[start:end]``, with the index of its first line (caption included) and
    the index after its last row."""
    cols = _columns(lines[start:end])
    if len(cols) < 2:
        return None, start, start
    for ln in lines[max(0, start - 8):end]:
        resegment(ln, cols)
    if sum(1 for ln in lines[start:end] if _fits(ln, cols, header=True)) < 2:
        return None, start, start
    top, body_start = _extend_up(lines, start, used, cols)
    block = lines[top:end]
    first_data = next((k for k in range(body_start - top, len(block)) if _is_data(block[k], cols)), None)
    if first_data is None:  # a text table (no numbers): its first line is the header
        first_data = body_start - top + 1
    head, rest = block[:first_data], block[first_data:]
    fitting = next((k for k, ln in enumerate(rest) if not _fits(ln, cols, header=False)), len(rest))
    rest = rest[:fitting]  # a line across the columns (prose) ends the table
    if len(rest) < 2 and not (rest and head):
        return None, start, start
    table = Table(page=page, columns=len(cols))
    header_levels(table, head, cols)
    _rows(table, rest, cols)
    if not table.rows or len(table.rows) + len(table.header) < 2 or _prose(table):
        return None, start, start
    cap_lines = _caption(lines, top, used)
    table.caption = "\n".join(ln.text for ln in cap_lines)
    table.caption_bbox = union([(ln.x0, ln.y0, ln.x1, ln.y1) for ln in cap_lines])
    unit = _UNIT.search(table.caption) or _UNIT.search(" ".join(ln.text for ln in head))
    table.unit = " ".join(unit.group(0).strip(" :").split()) if unit else ""
    return table, top - len(cap_lines), top + first_data + len(rest)


def _prose(table: Table) -> bool:
    """Text laid out side by side (a form, two columns of prose), not a table: paragraph-long headers or
    value cells that are sentences."""
    if any(len(h) > MAX_HEADER_CHARS for h in table.headers()):
        return True
    values = [len(c) for row in table.rows for c in row[1:] if c]
    return bool(values) and statistics.median(values) > MAX_VALUE_CHARS


def _extend_up(lines: list[Line], start: int, used: set[int], cols: Sequence[tuple[float, float]]) -> tuple[int, int]:
    """``(top, body_start)``: header lines right above the block (over the value columns only), and
    between them and the block up to three section labels (``Assets`` / ``Current assets:``) — kept
    only when a header line sits above them, else they are the caption's."""

    def ok(k: int) -> bool:
        return k >= 0 and k not in used and _gap_ok(lines[k], lines[k + 1])

    labels = start
    # a block opening on a header line (``(In Millions) | Jul 1, 2023 | Dec 31, 2022``) has its title
    # above, not section labels
    while (_is_data(lines[start], cols) and ok(labels - 1) and start - labels < 3
           and len(lines[labels - 1].segs) == 1 and span(lines[labels - 1].segs[0], cols) == [0]
           and len(lines[labels - 1].text) <= 60):
        labels -= 1
    for body_start in ((labels, start) if labels < start else (start,)):
        top = body_start
        while (ok(top - 1) and (lines[top - 1].x0 >= cols[1][0] - lines[top - 1].h
                                or over_values(lines[top - 1], cols))
               and _fits(lines[top - 1], cols, header=True)):
            top -= 1
        if top < body_start or body_start == start:
            return top, body_start
    return start, start


def _rows(table: Table, body: Sequence[Line], cols: Sequence[tuple[float, float]]) -> None:
    n = len(cols)
    for ln in body:
        texts = [""] * n
        boxes: list[BBox4 | None] = [None] * n
        for s in ln.segs:
            c = span(s, cols)[0]
            texts[c] = (texts[c] + " " + s.text).strip()
            boxes[c] = union([b for b in (boxes[c], (s.x0, s.y0, s.x1, s.y1)) if b is not None])
        prev = table.rows[-1] if table.rows else None
        if (prev is not None and texts[0][:1].islower() and not texts[0][1:2].isupper() and prev[0]
                and not prev[0].endswith(":") and not any(prev[1:])):
            prev[0] = prev[0] + " " + texts[0]
            prev[1:] = texts[1:]
            pb = table.row_boxes[-1]
            table.row_boxes[-1] = [union([b for b in (pb[c], boxes[c]) if b is not None]) for c in range(n)]
            continue
        table.rows.append(texts)
        table.row_boxes.append(boxes)


def _caption(lines: list[Line], top: int, used: set[int]) -> list[Line]:
    out: list[Line] = []
    k = top - 1
    below = lines[top]
    while k >= 0 and k not in used and len(out) < MAX_CAPTION_LINES and _gap_ok(lines[k], below):
        if lines[k].y1 > below.y0 + 1 or (out and lines[k].text.rstrip(" \"'”’)]").endswith(".")):
            break  # an overlapping line is not above; a finished sentence belongs to the paragraph before
        out.insert(0, lines[k])
        below = lines[k]
        k -= 1
    return out
