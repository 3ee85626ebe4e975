from __future__ import annotations

import json

import pytest

from ingest.steps.format_parser import Line, PageText
from ingest.steps.ocr import OcrLine, OcrResult
from ingest.steps.segment_builder import build_segment

SIZE = {"width_pt": 612.0, "height_pt": 792.0, "width_px": 1275, "height_px": 1650}


def layer(text_lines: list[str], *, needs_ocr: bool = False, reason: str | None = None) -> PageText:
    lines = [Line(text=t, bbox=(72.0, 72.0 + 14 * i, 300.0, 82.0 + 14 * i)) for i, t in enumerate(text_lines)]
    return PageText(page=1, text="\n".join(text_lines), lines=lines, needs_ocr=needs_ocr, reason=reason)


def ocr_result(*texts: str) -> OcrResult:
    lines = [OcrLine(text=t, bbox=(150.0, 150.0 + 50 * i, 625.0, 180.0 + 50 * i), confidence=0.9) for i, t in
             enumerate(texts)]
    return OcrResult(lines=lines, engine="rapidocr", width_px=1275, height_px=1650)


def test_a_good_text_layer_wins() -> None:
    seg = build_segment(1, layer(["Hello", "World"]), ocr_result("ignored"), **SIZE)
    assert seg["source"] == "text_layer" and seg["text"] == "Hello\nWorld"
    assert seg["lines"][0] == {"text": "Hello", "bbox": [72.0, 72.0, 300.0, 82.0], "confidence": 1.0}
    assert (seg["page"], seg["width"], seg["height"]) == (1, 612.0, 792.0)
    json.dumps(seg)  # JSON-able


def test_ocr_lines_are_converted_from_pixels_to_points() -> None:
    seg = build_segment(2, layer([], needs_ocr=True, reason="no text layer (scanned image)"), ocr_result("Scanned"),
                        **SIZE)
    assert seg["source"] == "ocr" and seg["text"] == "Scanned"
    # 150 dpi → 72 pt per inch: factor 0.48
    assert seg["lines"][0]["bbox"] == pytest.approx([72.0, 72.0, 300.0, 86.4])
    assert seg["lines"][0]["confidence"] == 0.9
    assert seg["ocr_engine"] == "rapidocr" and seg["ocr_confidence"] == 0.9
    assert seg["text_layer_issue"] == "no text layer (scanned image)"


def test_untrusted_layer_is_the_fallback_when_ocr_finds_nothing() -> None:
    seg = build_segment(1, layer(["縦書き"], needs_ocr=True, reason="vertical writing"), ocr_result(), **SIZE)
    assert seg["source"] == "text_layer" and seg["text"] == "縦書き"
    assert seg["lines"][0]["confidence"] == 0.5  # marked as less trusted


def test_nothing_at_all_is_an_empty_segment() -> None:
    seg = build_segment(3, None, None, **SIZE)
    assert seg["source"] == "empty" and seg["text"] == "" and seg["lines"] == [] and seg["tables"] == []


def test_tables_are_kept_as_rows_of_strings() -> None:
    seg = build_segment(1, layer(["Item Price"]), None, tables=[[["Item", "Price"], ["Tea", 3]]], **SIZE)
    assert seg["tables"] == [[["Item", "Price"], ["Tea", "3"]]]


def test_table_grids_keep_cells_with_boxes_and_markdown_next_to_the_legacy_rows() -> None:
    from ingest.steps.table_model import Table

    table = Table(page=1, columns=3, caption="Net sales (in millions)",
                  header=[["", "Three Months Ended", "Three Months Ended"], ["", "Dec 31, 2022", "Dec 25, 2021"]],
                  rows=[["iPhone", "$65,775", "$71,628"]],
                  row_boxes=[[(72.0, 200.0, 110.0, 210.0), (300.0, 200.0, 360.0, 210.0), (398.0, 200.0, 458.0, 210.0)]])
    seg = build_segment(1, layer(["Net sales (in millions)"]), None, tables=[table], **SIZE)
    assert seg["tables"] == [[["", "Three Months Ended", "Three Months Ended"], ["", "Dec 31, 2022", "Dec 25, 2021"],
                              ["iPhone", "$65,775", "$71,628"]]]
    (grid,) = seg["table_grids"]
    assert grid["headers"] == ["", "Three Months Ended / Dec 31, 2022", "Three Months Ended / Dec 25, 2021"]
    assert grid["markdown"].splitlines() == [
        "Net sales (in millions)", "|  | Three Months Ended / Dec 31, 2022 | Three Months Ended / Dec 25, 2021 |",
        "|---|---|---|", "| iPhone | $65,775 | $71,628 |"]
    assert {"text": "$65,775", "row": 2, "col": 1, "bbox": [300.0, 200.0, 360.0, 210.0], "header": False} in \
        grid["cells"]
    assert Table.from_json(json.loads(json.dumps(grid))) == table


def test_bare_rows_become_a_grid_with_the_first_row_as_header() -> None:
    seg = build_segment(1, layer(["Item Price"]), None, tables=[[["Item", "Price"], ["Tea", 3]]], **SIZE)
    (grid,) = seg["table_grids"]
    assert grid["headers"] == ["Item", "Price"] and grid["rows"] == [["Tea", "3"]]
    assert grid["markdown"] == "| Item | Price |\n|---|---|\n| Tea | 3 |"
