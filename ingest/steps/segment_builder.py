"""segment_builder (pure): one JSON-able segment per page from its text layer and/or OCR result.

Precedence: a trusted text layer; else OCR lines (boxes converted from image pixels to PDF points, from
the page's top-left); else an untrusted text layer when OCR found nothing (better than an empty page —
e.g. a text layer whose glyphs are placed nowhere); else an empty segment.

Tables (:class:`~ingest.steps.table_model.Table`, from :mod:`ingest.steps.tables`) are kept twice:
``tables`` — rows of cell texts (header levels, then body rows), the form existing readers know — and
``table_grids`` — ``Table.to_json()``: cells with boxes, flattened headers, caption, unit, Markdown
(what chunking uses). A table given as bare rows (older callers) gets its first row as the header.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ingest.steps.format_parser import PageText
from ingest.steps.ocr import OcrResult
from ingest.steps.table_model import Table

Rows = list[list[str]]  # rows of cell texts


def build_segment(
    page: int,
    text_layer: PageText | None,
    ocr: OcrResult | None,
    *,
    width_pt: float,
    height_pt: float,
    width_px: int,
    height_px: int,
    tables: Sequence[Table | Rows] | None = None,
) -> dict[str, Any]:
    """The segment for ``page`` — keys: page, text, source ("text_layer"|"ocr"|"empty"), lines
    [{text, bbox (points, top-left), confidence, size? (font size), bold?, font? (base font name)}],
    tables [table → [row → [cell]]], table_grids [``Table.to_json()``], width, height (points), images?
    (image boxes, text layer), plus diagnostics: ocr_engine, ocr_confidence (mean), text_layer_issue."""
    grids = [t if isinstance(t, Table) else _from_rows(t, page) for t in (tables or [])]
    lines: list[dict[str, Any]] = []
    source = "empty"
    layer_ok = text_layer is not None and not text_layer.needs_ocr and bool(text_layer.text.strip())
    if layer_ok and text_layer is not None:
        source = "text_layer"
        lines = [_layer_line(ln, 1.0) for ln in text_layer.lines]
    elif ocr is not None and ocr.lines:
        source = "ocr"
        lines = _ocr_lines(ocr, width_pt, height_pt, width_px, height_px)
    elif text_layer is not None and text_layer.text.strip():
        source = "text_layer"
        lines = [_layer_line(ln, 0.5) for ln in text_layer.lines]
    text = "\n".join(str(ln["text"]) for ln in lines)
    if not text and source == "text_layer" and text_layer is not None:
        text = text_layer.text
    segment: dict[str, Any] = {
        "page": int(page),
        "text": text,
        "source": source,
        "lines": lines,
        "tables": [t.grid() for t in grids],
        "table_grids": [t.to_json() for t in grids],
        "width": round(float(width_pt), 2),
        "height": round(float(height_pt), 2),
    }
    if source == "text_layer" and text_layer is not None and text_layer.images:
        segment["images"] = [_round(b) for b in text_layer.images]
    if ocr is not None:
        segment["ocr_engine"] = ocr.engine
        if ocr.lines:
            segment["ocr_confidence"] = round(sum(ln.confidence for ln in ocr.lines) / len(ocr.lines), 4)
    if text_layer is not None and text_layer.reason:
        segment["text_layer_issue"] = text_layer.reason
    return segment


def _layer_line(ln: Any, confidence: float) -> dict[str, Any]:
    out: dict[str, Any] = {"text": ln.text, "bbox": _round(ln.bbox), "confidence": confidence}
    if getattr(ln, "size", 0.0):
        out["size"] = ln.size
    if getattr(ln, "bold", False):
        out["bold"] = True
    if getattr(ln, "font", ""):
        out["font"] = ln.font
    return out


def _from_rows(rows: Rows, page: int) -> Table:
    texts = [[str(cell) for cell in row] for row in rows]
    columns = max((len(r) for r in texts), default=0)
    texts = [r + [""] * (columns - len(r)) for r in texts]
    return Table(page=page, columns=columns, header=texts[:1], rows=texts[1:])


def _ocr_lines(
    ocr: OcrResult, width_pt: float, height_pt: float, width_px: int, height_px: int
) -> list[dict[str, Any]]:
    src_w = ocr.width_px or width_px
    src_h = ocr.height_px or height_px
    sx = width_pt / src_w if src_w > 0 else 1.0
    sy = height_pt / src_h if src_h > 0 else 1.0
    out: list[dict[str, Any]] = []
    for line in ocr.lines:
        x0, y0, x1, y1 = line.bbox
        bbox = (max(0.0, x0 * sx), max(0.0, y0 * sy), min(width_pt, x1 * sx), min(height_pt, y1 * sy))
        entry: dict[str, Any] = {"text": line.text, "bbox": _round(bbox),
                                 "confidence": round(float(line.confidence), 4)}
        chars = getattr(line, "chars", None)
        if chars:
            entry["chars"] = list(chars)  # per-character scores (ingest.fields reads a value's own)
        out.append(entry)
    return out


def _round(bbox: Sequence[float]) -> list[float]:
    return [round(float(v), 2) for v in bbox]
