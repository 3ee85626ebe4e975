"""The table model (pure dataclasses): cells with boxes, header levels flattened per column, Markdown.

A :class:`Table` is a grid of ``columns`` columns: ``header`` rows (header *levels*, top-down — e.g.
``["", "Three Months Ended", "Three Months Ended", ""]`` then ``["", "December 31, 2022", "December 25,
2021", "Change"]``; a header spanning several columns repeats its text in each) and body ``rows``. Column 0
holds the row labels. Boxes are PDF points from the page's top-left, like segment lines. ``caption`` is the
heading / sentence above the table, ``unit`` the unit text such as ``(dollars in millions)``.

The Markdown form is the interface chat reads out of search results — keep its shape exactly::

    <caption lines, optional>
    | <row-label header> | <col header 1> | … |
    |---|---|…|
    | label | v1 | … |

``headers()`` flattens the levels: for each column the distinct texts top-down, joined with ``" / "``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

BBox4 = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    row: int  # 0-based over header rows then body rows
    col: int
    bbox: BBox4 | None = None
    header: bool = False
    page: int = 0  # 0 = the table's page (a table continued over a page break has later-page rows)


@dataclass(slots=True)
class Table:
    page: int
    columns: int
    header: list[list[str]] = field(default_factory=list)  # header levels, each ``columns`` texts
    rows: list[list[str]] = field(default_factory=list)  # body rows, each ``columns`` texts
    caption: str = ""
    unit: str = ""
    source: str = "text_layer"  # "text_layer" | "ocr"
    #: boxes: per header level and per body row, one box per column (``None`` = empty cell)
    header_boxes: list[list[BBox4 | None]] = field(default_factory=list)
    row_boxes: list[list[BBox4 | None]] = field(default_factory=list)
    caption_bbox: BBox4 | None = None

    def headers(self) -> list[str]:
        """One header per column: the distinct header-level texts top-down, joined with ``" / "``."""
        out: list[str] = []
        for col in range(self.columns):
            parts: list[str] = []
            for level in self.header:
                text = level[col] if col < len(level) else ""
                if text and (not parts or parts[-1] != text):
                    parts.append(text)
            out.append(" / ".join(parts))
        return out

    def cells(self) -> list[Cell]:
        """Every non-empty cell, header levels first (``header=True``), with its box."""
        out: list[Cell] = []
        for r, (texts, boxes) in enumerate(zip(self.header, _pad(self.header_boxes, len(self.header)), strict=True)):
            out.extend(Cell(t, r, c, _at(boxes, c), header=True) for c, t in enumerate(texts) if t)
        base = len(self.header)
        for r, (texts, boxes) in enumerate(zip(self.rows, _pad(self.row_boxes, len(self.rows)), strict=True)):
            out.extend(Cell(t, base + r, c, _at(boxes, c)) for c, t in enumerate(texts) if t)
        return out

    def row_bbox(self, index: int) -> BBox4 | None:
        """The union of body row ``index``'s cell boxes."""
        boxes = [b for b in (_at(self.row_boxes[index], c) for c in range(self.columns))
                 if b is not None] if index < len(self.row_boxes) else []
        return union(boxes)

    def bbox(self) -> BBox4 | None:
        """The box of the header and body (not the caption)."""
        boxes = [b for row in (*self.header_boxes, *self.row_boxes) for b in row if b is not None]
        return union(boxes)

    def grid(self) -> list[list[str]]:
        """Header levels then body rows (what the benchmark compares)."""
        return [list(r) for r in (*self.header, *self.rows)]

    def header_markdown(self) -> list[str]:
        """The caption lines, the header line and the separator line of the Markdown form."""
        lines = [ln for ln in self.caption.splitlines() if ln.strip()]
        if self.unit and self.unit not in " ".join(self.caption.split()):
            lines.append(self.unit)
        lines.append(md_row(self.headers()))
        lines.append("|" + "---|" * self.columns)
        return lines

    def markdown(self) -> str:
        return "\n".join([*self.header_markdown(), *(md_row(r) for r in self.rows)])

    def to_json(self) -> dict[str, Any]:
        return {
            "page": self.page, "columns": self.columns, "source": self.source, "caption": self.caption,
            "unit": self.unit, "headers": self.headers(), "header": self.header, "rows": self.rows,
            "header_boxes": [[_round(b) for b in row] for row in self.header_boxes],
            "row_boxes": [[_round(b) for b in row] for row in self.row_boxes],
            "caption_bbox": _round(self.caption_bbox), "bbox": _round(self.bbox()),
            "cells": [{"text": c.text, "row": c.row, "col": c.col, "bbox": _round(c.bbox), "header": c.header}
                      for c in self.cells()],
            "markdown": self.markdown(),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Table:
        columns = int(raw.get("columns") or 0)

        def texts(rows: Any) -> list[list[str]]:
            return [[str(t) for t in row][:columns] + [""] * (columns - len(row)) for row in rows or []]

        def boxes(rows: Any) -> list[list[BBox4 | None]]:
            return [[_box(b) for b in row] for row in rows or []]

        return cls(page=int(raw.get("page") or 0), columns=columns, header=texts(raw.get("header")),
                   rows=texts(raw.get("rows")), caption=str(raw.get("caption") or ""),
                   unit=str(raw.get("unit") or ""), source=str(raw.get("source") or "text_layer"),
                   header_boxes=boxes(raw.get("header_boxes")), row_boxes=boxes(raw.get("row_boxes")),
                   caption_bbox=_box(raw.get("caption_bbox")))


def md_row(cells: Sequence[str]) -> str:
    """One Markdown table line; ``|`` inside a cell is escaped, newlines become spaces."""
    return "| " + " | ".join(" ".join(c.split()).replace("|", "\\|") for c in cells) + " |"


def union(boxes: Sequence[BBox4]) -> BBox4 | None:
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _pad(rows: list[list[BBox4 | None]], n: int) -> list[list[BBox4 | None]]:
    return [*rows[:n], *([[]] * (n - len(rows)))]


def _at(boxes: Sequence[BBox4 | None], col: int) -> BBox4 | None:
    return boxes[col] if col < len(boxes) else None


def _round(b: BBox4 | None) -> list[float] | None:
    return None if b is None else [round(float(v), 2) for v in b]


def _box(raw: Any) -> BBox4 | None:
    if not raw or len(raw) != 4:
        return None
    x0, y0, x1, y1 = (float(v) for v in raw)
    return (x0, y0, x1, y1)
