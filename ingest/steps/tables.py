"""Tables as :class:`~ingest.steps.table_model.Table` grids (cells, boxes, flattened headers, caption, unit).

* Text-layer pages: :func:`pdf_tables` — the page's words come from PDFium's char boxes (pypdfium2, in a
  sandboxed child: the PDF is untrusted) and :func:`ingest.steps.table_grid.find_tables` rebuilds the
  grids from their positions. Chosen by measurement over pdfplumber (text strategy), camelot (stream) and
  img2table on the text layer — see ``ingest/steps/table_grid.py`` (headers: ``table_header.py``) and
  ``python -m bench.tables``.
* OCR'd pages: :func:`tables_from_ocr` — img2table finds the table grid on the page image and fills the
  cells from the OCR lines we already have (no second OCR pass; img2table never downloads anything); the
  first row is taken as the header.

Callers run detection on the pages where :func:`likely_table` says a table is probable (runs of lines full
of numbers/short cells), not on every page.
"""

from __future__ import annotations

import ctypes
import io
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ingest.sandbox import Limits, run_sandboxed
from ingest.steps.format_parser import PageText
from ingest.steps.pdfium_calls import TextCalls, handle
from ingest.steps.table_grid import Word, find_tables
from ingest.steps.table_model import BBox4, Table
from store.config import Settings

if TYPE_CHECKING:  # not imported at run time: the text-layer child reads tables' words without OCR's imports
    from ingest.steps.ocr import OcrResult

Rows = list[list[str]]  # rows of cell texts (the segment's legacy "tables" form)

_NUMERIC = re.compile(r"^[-+(]?[$€£¥₩]?\(?\d[\d.,:/%)]*$")
_CURRENCY_TOKENS = {"$", "€", "£", "¥", "₩", "%"}
_NIL = {"—", "–", "-", "$—", "$-"}


def likely_table(page: PageText, *, min_rows: int = 3) -> bool:
    """Cheap signal: ``min_rows`` table-row-like lines in a row — 3+ tokens of which half are numbers, or
    a label and a number at the end (``Due after 10 years 17,355``, ``Total net sales $ 117,154 $ 123,945``;
    currency signs count as nothing, dashes for nil as numbers). Section labels between rows
    (``Americas:``) neither count nor break the run."""
    run = 0
    for line in page.lines:
        text = line.text.strip()
        if len(text) <= 40 and text.endswith(":"):
            continue
        tokens = [t for t in text.split() if t not in _CURRENCY_TOKENS]
        numeric = [bool(_NUMERIC.match(t)) or t in _NIL for t in tokens]
        ends_in_number = len(tokens) >= 2 and numeric[-1] and not tokens[-1].endswith((".", ",", ";", ":"))
        run = run + 1 if (len(tokens) >= 3 and 2 * sum(numeric) >= len(tokens)) or ends_in_number else 0
        if run >= min_rows:
            return True
    return False


# --- text layer ---------------------------------------------------------------------------------------


def pdf_tables(path: Path, pages: Sequence[int], *, settings: Settings | None = None) -> dict[int, list[Table]]:
    """Tables on the given 1-based ``pages`` of a text-layer PDF, by page (words read in the sandbox)."""
    words = pdf_words(path, pages, settings=settings)
    out: dict[int, list[Table]] = {}
    for page, ws in words.items():
        found = find_tables(ws, page)
        if found:
            out[page] = found
    return out


def pdf_words(path: Path, pages: Sequence[int], *, settings: Settings | None = None) -> dict[int, list[Word]]:
    """The words (text, box in points from the page's top-left) of the given pages, read in the sandbox."""
    wanted = sorted({int(p) for p in pages})
    if not wanted:
        return {}
    limits = Limits.from_settings(settings) if settings is not None else Limits()
    raw: dict[str, list[tuple[str, float, float, float, float, bool]]] = run_sandboxed(
        _words_child, str(path), wanted, limits=limits, what="finding tables")
    return {int(k): [Word(*w) for w in v] for k, v in raw.items()}


def _words_child(path: str, pages: list[int]) -> dict[str, list[tuple[str, float, float, float, float, bool]]]:
    import pypdfium2 as pdfium

    from ingest.inspect import iter_pdf_pages

    out: dict[str, list[tuple[str, float, float, float, float, bool]]] = {}
    for number, page in iter_pdf_pages(path, pages):
        left, _bottom, _right, top = page.get_cropbox()
        tp = page.get_textpage()
        try:
            out[str(number)] = page_words(pdfium.raw, tp.raw, left, top)
        finally:
            tp.close()
    return out


def page_words(raw: Any, tp: Any, left: float, top: float) -> list[tuple[str, float, float, float, float, bool]]:
    """Words of a PDFium text page: split at spaces, line breaks and gaps wider than a quarter of a line.

    Boxes are PDFium's loose char boxes (advance width × font ascent/descent), so every glyph of a line
    has the same height and the letters of a word touch; a change of font size (a superscript) starts
    a new word. Converted to points from the page's top-left.
    """
    n = raw.FPDFText_CountChars(tp)
    if n <= 0:
        return []
    l_, r_, b_, t_ = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    rect = raw.FS_RECTF()
    words: list[tuple[str, float, float, float, float, bool]] = []
    cur: list[Any] = []  # [text, x0, y0, x1, y1, spaced]

    spaced = False  # a word space came before the word begun

    def flush() -> None:
        if cur and cur[0].strip():
            words.append((cur[0], round(cur[1] - left, 2), round(top - cur[4], 2), round(cur[3] - left, 2),
                          round(top - cur[2], 2), cur[5]))
        cur.clear()

    calls = TextCalls.of(raw)  # PDFium's calls without ctypes' argument conversion (ingest.steps.pdfium_calls)
    unicode = calls.unicode  # per char index: FPDFText_GetText's buffer can drift from the indices
    get_box, get_loose = calls.char_box, calls.loose_box
    by_l, by_r, by_b, by_t, by_rect = (ctypes.byref(l_), ctypes.byref(r_), ctypes.byref(b_), ctypes.byref(t_),
                                       ctypes.byref(rect))
    tp = handle(tp)
    for i, code in enumerate([unicode(tp, i) for i in range(n)]):
        ch = chr(code) if 0 < code < 0xD800 or 0xE000 <= code < 0x110000 else ""
        if not ch or ch.isspace():
            flush()
            spaced = ch in (" ", "\u00a0")
            continue
        if not ch.isprintable():  # unmapped glyphs (control / private-use codes) are no text
            continue
        if not get_box(tp, i, by_l, by_r, by_b, by_t):
            continue
        if get_loose(tp, i, by_rect):
            x0, y0, x1, y1 = rect.left, rect.bottom, rect.right, rect.top
        else:
            x0, y0, x1, y1 = l_.value, b_.value, r_.value, t_.value
        if x1 - x0 < 0.05 and y1 - y0 < 0.05:
            continue
        if cur:
            h = cur[4] - cur[2]
            same_line = min(cur[4], y1) - max(cur[2], y0) > 0.5 * min(h, y1 - y0)
            # a superscript (smaller and raised, or back down from one) starts a word of its own
            resized = (abs((y1 - y0) - h) > 0.25 * max(h, y1 - y0)
                       and abs((y0 + y1) - (cur[2] + cur[4])) / 2 > 0.15 * max(h, y1 - y0))
            if not same_line or resized or x0 - cur[3] > 0.25 * h or x0 < cur[1] - 0.5 * h:
                flush()
        if not cur:
            cur.extend([ch, x0, y0, x1, y1, spaced])
            spaced = False
        else:
            cur[0] += ch
            cur[1], cur[2], cur[3], cur[4] = min(cur[1], x0), min(cur[2], y0), max(cur[3], x1), max(cur[4], y1)
    flush()
    return words


# --- OCR'd pages --------------------------------------------------------------------------------------


def tables_from_ocr(
    png: bytes, ocr: OcrResult, *, borderless: bool = True, min_confidence: float = 0.5, page: int = 1,
    scale: tuple[float, float] = (1.0, 1.0),
) -> list[Table]:
    """Tables on a page image whose text is ``ocr`` (lines in image pixels); boxes scaled by ``scale``
    (pixels → points: ``(width_pt / width_px, height_pt / height_px)``). The first row is the header."""
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
    tables = [img2table_table(t, page, scale, source="ocr") for t in found]
    return [t for t in tables if t is not None]


def img2table_table(
    found: Any, page: int, scale: tuple[float, float] = (1.0, 1.0), *, source: str = "ocr", header: int = 1
) -> Table | None:
    """An img2table ``ExtractedTable`` as a :class:`Table` (the first ``header`` rows as header levels);
    cells merged across columns repeat their text, empty rows drop, fewer than two rows is no table."""
    rows: list[tuple[list[str], list[BBox4 | None]]] = []
    sx, sy = scale
    for row in found.content.values():
        texts = [" ".join(str(cell.value or "").split()) for cell in row]
        if not any(texts):
            continue
        boxes: list[BBox4 | None] = []
        for cell, text in zip(row, texts, strict=True):
            b = getattr(cell, "bbox", None)
            boxes.append((b.x1 * sx, b.y1 * sy, b.x2 * sx, b.y2 * sy) if b is not None and text else None)
        rows.append((texts, boxes))
    if len(rows) < 2:
        return None
    columns = max(len(t) for t, _ in rows)
    pad = [(t + [""] * (columns - len(t)), b + [None] * (columns - len(b))) for t, b in rows]
    head = pad[:header]
    body = pad[header:]
    return Table(page=page, columns=columns, header=[t for t, _ in head], header_boxes=[b for _, b in head],
                 rows=[t for t, _ in body], row_boxes=[b for _, b in body], source=source)


def legacy_rows(table: Table) -> Rows:
    """The segment's ``"tables"`` form of a table: header levels then body rows, as cell texts."""
    return table.grid()


def table_text(tables: Iterable[Rows]) -> str:
    """Tables as pipe-separated rows (for display)."""
    return "\n\n".join("\n".join(" | ".join(row) for row in table) for table in tables)
