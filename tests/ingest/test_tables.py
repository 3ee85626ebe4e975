from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

from ingest.steps.format_parser import Line, PageText
from ingest.steps.ocr import OcrLine, OcrResult
from ingest.steps.tables import likely_table, pdf_tables, table_text, tables_from_ocr
from tests.ingest.docfactory import EVALDATA, image_bytes

CELLS = [["Item", "Qty", "Price"], ["Tea", "2", "3.50"], ["Cake", "1", "4.20"]]


def ruled_table() -> tuple[bytes, OcrResult]:
    """A bordered 3x3 table image and the OCR lines a reader would return for it (one per cell)."""
    img = Image.new("RGB", (700, 400), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=24)
    x_edges, y_edges = [50, 250, 450, 650], [50, 130, 210, 290]
    for x in x_edges:
        draw.line([(x, y_edges[0]), (x, y_edges[-1])], fill="black", width=3)
    for y in y_edges:
        draw.line([(x_edges[0], y), (x_edges[-1], y)], fill="black", width=3)
    lines = []
    for r, row in enumerate(CELLS):
        for c, text in enumerate(row):
            x, y = x_edges[c] + 20, y_edges[r] + 25
            draw.text((x, y), text, fill="black", font=font)
            lines.append(OcrLine(text=text, bbox=(x, y, x + 15 * len(text), y + 28), confidence=0.95))
    return image_bytes(img, "PNG"), OcrResult(lines=lines, engine="test", width_px=700, height_px=400)


def test_ruled_table_from_ocr_lines_keeps_rows() -> None:
    png, ocr = ruled_table()
    (table,) = tables_from_ocr(png, ocr, borderless=False)
    assert table.grid() == CELLS
    assert table.headers() == CELLS[0] and table.rows == CELLS[1:] and table.source == "ocr"
    assert table_text([table.grid()]).splitlines()[1] == "Tea | 2 | 3.50"


def test_no_ocr_lines_no_tables() -> None:
    png, _ = ruled_table()
    assert tables_from_ocr(png, OcrResult()) == []


def test_likely_table_signal() -> None:
    def page(texts: list[str]) -> PageText:
        return PageText(page=1, text="\n".join(texts), lines=[Line(t, (0, 0, 1, 1)) for t in texts])

    assert likely_table(page(["Revenue 1,200 1,350 12%", "Costs 800 790 -1%", "Net 400 560 40%"]))
    assert not likely_table(page(["An ordinary paragraph of prose.", "It goes on for a while.", "Then ends."]))
    assert not likely_table(page(["Total 5 6", "prose line here again", "x 1 2"]))


@pytest.mark.skipif(not (EVALDATA / "docling").is_dir(), reason="evaldata absent: ../shared/evaldata")
def test_text_layer_pdf_table() -> None:
    found = pdf_tables(EVALDATA / "docling/pdf/sources/2305.03393v1-pg9.pdf", [1])
    (table,) = found[1]
    assert any("OTSL" in cell for row in table.grid() for cell in row)
    assert any(row[:2] == ["6", "6"] for row in table.rows)
