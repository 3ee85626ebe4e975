"""Tables as rows of cell texts, found with img2table (OpenCV ruling-line and borderless detection).

* OCR'd pages: :func:`tables_from_ocr` — img2table finds the table grid on the page image and fills the
  cells from the OCR lines we already have (no second OCR pass; img2table never downloads anything).
* Text-layer pages: :func:`pdf_tables` — img2table reads the words from the PDF's text layer itself
  (``pdf_text_extraction``) in the sandbox (it parses the untrusted PDF with pypdfium2).

Table detection costs ~0.3–1.5 s per page on 2 cores, so callers run it on the pages where
:func:`likely_table` says a table is probable (runs of lines full of numbers/short cells), not on every page.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ingest.sandbox import Limits, run_sandboxed
from ingest.steps.format_parser import PageText
from ingest.steps.ocr import OcrResult
from store.config import Settings

Table = list[list[str]]  # rows of cell texts

_NUMERIC = re.compile(r"^[-+(]?[$€£¥₩]?\d[\d.,:/%)]*$")


def likely_table(page: PageText, *, min_rows: int = 3) -> bool:
    """Cheap signal: ``min_rows`` consecutive lines with 3+ tokens of which half are numbers."""
    run = 0
    for line in page.lines:
        tokens = line.text.split()
        numeric = sum(1 for t in tokens if _NUMERIC.match(t))
        run = run + 1 if len(tokens) >= 3 and numeric * 2 >= len(tokens) else 0
        if run >= min_rows:
            return True
    return False


def tables_from_ocr(png: bytes, ocr: OcrResult, *, borderless: bool = True, min_confidence: float = 0.5) -> list[Table]:
    """Tables on a page image whose text is ``ocr`` (lines in image pixels)."""
    if not ocr.lines:
        return []
    from img2table.document import Image as Img2TableImage
    from img2table.ocr._types import OCRData, OCRInstance

    records = [
        {"id": f"word_1_{i}", "parent": f"word_1_{i}", "value": line.text, "confidence": int(100 * line.confidence),
         "x1": int(line.bbox[0]), "y1": int(line.bbox[1]), "x2": int(line.bbox[2]), "y2": int(line.bbox[3])}
        for i, line in enumerate(ocr.lines, start=1)
    ]

    class _Precomputed(OCRInstance):  # type: ignore[misc]
        def of(self, document: Any) -> Any:
            return OCRData(records={0: records})

    doc = Img2TableImage(src=io.BytesIO(png), detect_rotation=False)
    found = doc.extract_tables(ocr=_Precomputed(), implicit_rows=False, implicit_columns=False,
                               borderless_tables=borderless, min_confidence=int(100 * min_confidence))
    return [_rows(t) for t in found if _rows(t)]


def pdf_tables(
    path: Path, pages: Sequence[int], *, settings: Settings | None = None, borderless: bool = False
) -> dict[int, list[Table]]:
    """Tables on the given 1-based ``pages`` of a text-layer PDF, by page (sandboxed)."""
    wanted = sorted({int(p) for p in pages})
    if not wanted:
        return {}
    limits = Limits.from_settings(settings) if settings is not None else Limits()
    found: dict[str, list[Table]] = run_sandboxed(_pdf_tables_child, str(path), wanted, borderless, limits=limits,
                                                   what="finding tables")
    return {int(k): v for k, v in found.items()}


def _pdf_tables_child(path: str, pages: list[int], borderless: bool) -> dict[str, list[Table]]:
    from img2table.document import PDF

    doc = PDF(src=path, pages=[p - 1 for p in pages], pdf_text_extraction=True, detect_rotation=False)
    found = doc.extract_tables(ocr=None, implicit_rows=False, implicit_columns=False, borderless_tables=borderless)
    return {str(index + 1): [rows for rows in (_rows(t) for t in tables) if rows] for index, tables in found.items()}


def _rows(table: Any) -> Table:
    """Rows of cell strings; cells merged across rows/columns repeat their text, empty tables drop."""
    rows: list[list[str]] = []
    for row in table.content.values():
        cells = [" ".join(str(cell.value or "").split()) for cell in row]
        if any(cells):
            rows.append(cells)
    return rows if len(rows) >= 2 else []


def table_text(tables: Iterable[Table]) -> str:
    """Tables as pipe-separated rows (for display and chunk text)."""
    return "\n\n".join("\n".join(" | ".join(row) for row in table) for table in tables)
