"""Tables in the chunk stream (pure): which segment lines a table replaces, page-break continuation, and
the row runs of a table chunk.

A segment's ``table_grids`` (``Table.to_json()``) replace the lines they cover (header, body and caption
boxes) in the text stream: the table is one :class:`TableBlock` placed where its first line was, so its
rows are not chunked twice (once as flat text, once as Markdown).

**Page-break continuation.** A block continues the previous block (one table, rows of both pages) when
all of these hold: the previous block is the last thing on its page and this one the first on the next
page, except for at most ``FURNITURE_LINES`` short lines between them (running footers / headers, page
numbers); both have the same number of columns; this one has no caption; and it has no header, or the
same flattened headers (a repeated header). Why this is safe: a new table almost always has a caption or
heading, or a different header, or text between it and the table before; a headerless block of the same
width at the very top of the next page cannot be read on its own anyway (its columns have no names), so
giving it the previous page's header is the better reading even in the rare false merge, and its rows
keep their own page and boxes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ingest.steps.table_model import BBox4, Table, md_row

FURNITURE_LINES = 3
#: joins the headings of a chunk's heading path (text chunks and table chunks alike)
PATH_SEP = " › "
FURNITURE_CHARS = 80


@dataclass(slots=True)
class TableRow:
    text: str  # one Markdown line
    page: int
    bbox: BBox4 | None


@dataclass(slots=True)
class TableBlock:
    table: Table
    caption: list[str]  # caption (and unit) lines
    head: list[str]  # the Markdown header line and separator line
    rows: list[TableRow] = field(default_factory=list)
    #: the headings the table stands under (document title › part › section), as a text chunk's heading path
    path: tuple[str, ...] = ()

    @property
    def page(self) -> int:
        return self.rows[0].page if self.rows else self.table.page


def segment_items(seg: Mapping[str, Any]) -> list[tuple[str, BBox4 | None] | TableBlock]:
    """A segment's lines in order, with its tables' lines replaced by one :class:`TableBlock` each."""
    page = int(seg.get("page", 0))
    tables = [Table.from_json(raw) for raw in seg.get("table_grids") or []]
    lines = seg.get("lines") or []
    if lines:
        items: list[tuple[str, BBox4 | None]] = [(str(ln.get("text", "")), _bbox(ln.get("bbox"))) for ln in lines]
    else:
        items = [(text, None) for text in str(seg.get("text") or "").splitlines()]
    out: list[tuple[str, BBox4 | None] | TableBlock] = []
    placed: set[int] = set()
    areas = [[b for b in (t.bbox(), t.caption_bbox) if b is not None] for t in tables]
    for text, box in items:
        owner = next((k for k, area in enumerate(areas) if box is not None and any(_inside(box, a) for a in area)),
                     None)
        if owner is None:
            out.append((text, box))
        elif owner not in placed:
            placed.add(owner)
            out.append(block_of(tables[owner], page))
    out.extend(block_of(t, page) for k, t in enumerate(tables) if k not in placed)  # no boxes: at the end
    return out


def block_of(table: Table, page: int) -> TableBlock:
    head = table.header_markdown()
    caption, header = head[:-2], head[-2:]
    rows = [TableRow(md_row(r), page, table.row_bbox(i)) for i, r in enumerate(table.rows)]
    return TableBlock(table, caption, header, rows)


def merge_continued(items: list[Any], is_block: Callable[[Any], bool]) -> list[Any]:
    """Merge each block that continues the block before it over a page break (see the module docstring);
    the furniture lines between them move after the merged table."""
    out: list[Any] = []
    for item in items:
        if is_block(item):
            back = len(out) - 1
            while back >= 0 and not is_block(out[back]) and len(out) - back <= FURNITURE_LINES:
                back -= 1
            between = out[back + 1:] if back >= 0 else []
            prev = out[back] if back >= 0 and is_block(out[back]) else None
            if prev is not None and _continues(prev, item, between):
                prev.rows.extend(item.rows)
                continue
        out.append(item)
    return out


def _continues(prev: TableBlock, nxt: TableBlock, between: Sequence[Any]) -> bool:
    if not prev.rows or not nxt.rows or nxt.page != prev.rows[-1].page + 1:
        return False
    if prev.table.columns != nxt.table.columns or nxt.table.caption.strip():
        return False
    if nxt.table.header and nxt.table.headers() != prev.table.headers():
        return False
    return all(len(str(getattr(item, "text", ""))) <= FURNITURE_CHARS for item in between)


#: where a caption's sentence ends: ". " before a capital or a bracket (a PDF's text layer may put a space before
#: the period: "2016 and 2017 . We also have …")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(“\"])")
#: a caption's unit: "(in millions)", "(Dollars in millions, except per share data)", "($ in thousands)", "($MM)"
_UNIT_PHRASE = re.compile(r"(?i)\([^()]*\b(?:millions|thousands|billions)\b[^()]*\)|\((?:\$|US\$)\s*(?:MM|M|K)\)")


def shed_caption(block: TableBlock, budget: int, count: Callable[[str], int]) -> tuple[TableBlock, str]:
    """A caption too long to repeat in every chunk of its table (with the header, more than half a chunk): the
    table detector took the paragraph above the table for its caption ("… the net unamortized discount on the
    Notes was $90 million … The face value of our total long-term debt obligations is as follows (in millions):").
    Its last sentence — the one that introduces the table, with its unit — stays the caption when it fits, else
    only the unit phrase ("(in millions)") does; the sentences before it (or the whole caption) are returned as
    text to place before the table, so they are searched as text instead of being dropped and the table's rows
    keep their unit. A caption that fits is kept whole (the block is returned unchanged, with "")."""
    head = "\n".join(block.head)
    if not block.caption or count("\n".join([*block.caption, head])) <= budget // 2:
        return block, ""
    text = " ".join(" ".join(block.caption).split())
    sentences = _SENTENCE_END.split(text)
    intro = sentences[-1]
    if len(sentences) > 1 and count(intro + "\n" + head) <= budget // 2:
        return replace(block, caption=[intro]), " ".join(sentences[:-1])
    unit = _UNIT_PHRASE.search(text)
    kept = [unit.group(0)] if unit and count(unit.group(0) + "\n" + head) <= budget // 2 else []
    return replace(block, caption=kept), text


def fit_head(block: TableBlock, budget: int, count: Callable[[str], int]) -> list[str]:
    """The lines every chunk of the table repeats: the heading path it stands under, caption and header — the
    path, then the caption, dropped when they leave no room. The path makes a statement's rows findable by
    whose statement it is ("PFIZER INC. › Consolidated Balance Sheets" above a caption that says only
    "(MILLIONS)"); headings the caption repeats are left out of it."""
    caption_text = " ".join(block.caption).lower()
    path = [h for h in block.path if h.lower() not in caption_text]
    lines = [PATH_SEP.join(path)] if path else []
    lines += [*block.caption, *block.head]
    if path and count("\n".join(lines)) > budget // 2:
        lines = lines[1:]
    if block.caption and count("\n".join(lines)) > budget // 2:
        lines = list(block.head)
    return lines


#: a section heading further above a chunk's first row than this many rows is not carried into it: a block of
#: rows that no "Total" row closes ("Costs and expenses:" above the income lines) rarely runs longer
SECTION_REACH = 6


def _is_section_row(text: str) -> bool:
    """A Markdown row with a label and no values: a section heading inside the table (``| Current assets: |  |``)."""
    cells = [c.strip() for c in text.strip().strip("|").split("|")]
    return len(cells) > 1 and bool(cells[0]) and not any(cells[1:])


def open_section(rows: Sequence[TableRow], start: int) -> str:
    """The section heading row still open where a chunk of the table starts at ``rows[start]`` (the nearest
    value-less row above it, unless a "Total …" row closed it), so a continuation chunk says which block its rows
    belong to ("Earnings per common share––basic:" above a row that repeats an amount row's label); ``""``
    when none is."""
    if start <= 0 or start >= len(rows) or _is_section_row(rows[start].text):
        return ""
    for row in reversed(rows[max(0, start - SECTION_REACH) : start]):
        if _is_section_row(row.text):
            return row.text
        if re.match(r"\|\s*total\b", row.text, re.IGNORECASE):
            return ""
    return ""


def _inside(box: BBox4, area: BBox4) -> bool:
    cy = (box[1] + box[3]) / 2
    return area[1] - 1 <= cy <= area[3] + 1 and box[0] < area[2] and box[2] > area[0]


def _bbox(raw: Any) -> BBox4 | None:
    if not raw or len(raw) != 4:
        return None
    x0, y0, x1, y1 = (float(v) for v in raw)
    if x1 <= x0 or y1 <= y0:
        return None
    return (x0, y0, x1, y1)
