"""Embedded layout analysis: font styles from the text layer, document styles, page blocks, reading order,
and chunks that carry their heading path without running headers/footers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ingest.analysis.layout import key_values, page_layout
from ingest.analysis.order import reading_order
from ingest.analysis.styles import doc_styles
from ingest.steps.chunk import chunk_segments
from ingest.steps.format_parser import extract_text_layer
from ingest.steps.segment_builder import build_segment
from tests.ingest.layoutfactory import Run, report_pages, styled_pdf, two_column_page


def _segments(tmp_path: Path, pages: list[list[Run]]) -> list[dict[str, Any]]:
    path = tmp_path / "doc.pdf"
    path.write_bytes(styled_pdf(pages))
    layer = extract_text_layer(path, "pdf", list(range(1, len(pages) + 1)))
    return [build_segment(pt.page, pt, None, width_pt=612, height_pt=792, width_px=612, height_px=792)
            for pt in layer]


def _layouts(segs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    styles = doc_styles(segs)
    return [page_layout(s, styles) for s in segs]


def test_text_layer_lines_carry_font_size_and_weight(tmp_path: Path) -> None:
    segs = _segments(tmp_path, report_pages(1))
    by_text = {ln["text"]: ln for ln in segs[0]["lines"]}
    title, body = by_text["Quarterly Report 2023"], by_text[next(t for t in by_text if t.startswith("Body text"))]
    assert title.get("bold") is True and not body.get("bold")
    assert title["size"] > 1.8 * body["size"] > 0


def test_headings_levels_title_lists_and_furniture(tmp_path: Path) -> None:
    layouts = _layouts(_segments(tmp_path, report_pages(3)))
    first = layouts[0]
    kinds = [(b["type"], b.get("level"), b["text"]) for b in first["blocks"]]
    assert kinds[0] == ("header", None, "ACME Corp | Quarterly Report")
    assert kinds[-1] == ("footer", None, "1")
    assert ("title", 0, "Quarterly Report 2023") in kinds
    assert ("heading", 1, "Section 1. Overview") in kinds
    assert ("heading", 2, "Details 1") in kinds
    assert [t for k, _, t in kinds if k == "list"] == ["- first point of the list", "- second point of the list"]
    paras = [t for k, _, t in kinds if k == "paragraph"]
    assert len(paras) == 2 and paras[0].startswith("Body text line 0") and "line 2" in paras[0]
    # the second page has no title: its big heading is a level-1 heading, not a title
    assert not any(b["type"] == "title" for b in layouts[1]["blocks"])
    assert first["summary"] is None and all("description" not in b for b in first["blocks"])
    assert first["reading_order"] == [b["id"] for b in first["blocks"]]
    for b in first["blocks"]:
        x0, y0, x1, y1 = b["bbox"]
        assert 0 <= x0 < x1 <= 612 and 0 <= y0 < y1 <= 792


def test_two_columns_are_read_column_by_column(tmp_path: Path) -> None:
    [layout] = _layouts(_segments(tmp_path, [two_column_page()]))
    texts = [b["text"] for b in layout["blocks"]]
    assert texts[0] == "Two Columns"
    assert texts[1].startswith("Left column line 0") and "line 5" in texts[1]
    assert texts[2].startswith("Right column line 0")
    assert texts[3].startswith("Full width closing")


def test_reading_order_xy_cut() -> None:
    # a full-width title, two columns whose blocks interleave in y, a full-width footer paragraph
    boxes = [(300, 100, 550, 140), (50, 40, 550, 60), (50, 100, 280, 150), (50, 160, 280, 200),
             (300, 150, 550, 200), (50, 220, 550, 240)]
    assert reading_order(boxes) == [1, 2, 3, 0, 4, 5]
    assert reading_order(boxes, rtl=True) == [1, 0, 4, 2, 3, 5]


def test_tables_take_their_lines_and_key_values_are_found() -> None:
    seg = {"page": 1, "source": "text_layer", "width": 612, "height": 792,
           "lines": [{"text": "Commission File Number: 001-36743", "bbox": [72, 60, 300, 70], "size": 10},
                     {"text": "Revenue 100 200", "bbox": [72, 100, 400, 110], "size": 10},
                     {"text": "Costs 50 60", "bbox": [72, 112, 400, 122], "size": 10}],
           "table_grids": [{"bbox": [70, 98, 402, 124],
                            "markdown": "| | 2023 | 2022 |\n| - | - | - |\n| Revenue | 100 | 200 |",
                            "caption": "", "caption_bbox": None}]}
    layout = page_layout(seg, doc_styles([seg]))
    table = next(b for b in layout["blocks"] if b["type"] == "table")
    assert table["lines"] == [1, 2] and table["markdown"].startswith("| | 2023")
    assert layout["key_values"] == [{"key": "Commission File Number", "value": "001-36743",
                                     "bbox": [72.0, 60.0, 300.0, 70.0]}]
    assert key_values([{"text": "Note: see above", "bbox": [0, 0, 1, 1]}]) == []


def test_figures_from_image_boxes_take_their_text() -> None:
    seg = {"page": 1, "source": "text_layer", "width": 612, "height": 792, "images": [[100, 200, 500, 400]],
           "lines": [{"text": "axis label", "bbox": [120, 380, 200, 390], "size": 8},
                     {"text": "Figure 3. Revenue by quarter", "bbox": [100, 410, 400, 420], "size": 9}]}
    layout = page_layout(seg, doc_styles([seg]))
    kinds = [(b["type"], b["text"]) for b in layout["blocks"]]
    assert kinds == [("figure", "axis label"), ("caption", "Figure 3. Revenue by quarter")]


def _chunks(segs: list[dict[str, Any]], max_tokens: int = 40) -> list[Any]:
    return chunk_segments(segs, project_id="p", document_id="d", file_name="f.pdf", workflow_id="w",
                          max_tokens=max_tokens, overlap_tokens=0, language="en")


def test_chunks_carry_the_heading_path_and_leave_out_headers_and_footers(tmp_path: Path) -> None:
    segs = _segments(tmp_path, report_pages(3))
    for seg, layout in zip(segs, _layouts(segs), strict=True):
        seg["layout"] = layout
    chunks = _chunks(segs)
    text = "\n".join(c.text for c in chunks)
    assert "ACME Corp | Quarterly Report" not in text  # the running header
    assert not any(line.strip() == "2" for c in chunks for line in c.text.splitlines())  # page numbers
    path = "Quarterly Report 2023 › Section 2. Liquidity and Capital Resources"
    cash = [c for c in chunks if "cash position and other matters of page 2" in c.text]
    assert cash and all(c.text.startswith(path) and "Cash flows" in "\n".join(c.text.splitlines()[:3]) for c in cash)
    assert any(c.text.startswith(f"{path} › Cash flows\nParagraph 1") for c in cash)
    cash = cash[-1]
    # offsets stay right: every line box points at the start of its line in the text
    for offset, box in cash.line_boxes:
        assert cash.text[offset - 1] == "\n" and box.page == 2
    assert cash.page_offsets[0] == (2, 0)
    # a chunk that starts with a heading does not repeat it in its path
    head = next(c for c in chunks if c.text.splitlines()[1:2] == ["Section 3. Overview"])
    assert head.text.splitlines()[0] == "Quarterly Report 2023"


def test_a_heading_starts_a_chunk_once_the_current_one_is_half_full(tmp_path: Path) -> None:
    segs = _segments(tmp_path, report_pages(3))
    for seg, layout in zip(segs, _layouts(segs), strict=True):
        seg["layout"] = layout
    chunks = _chunks(segs, max_tokens=64)
    starts = [c.text.splitlines()[1] for c in chunks if len(c.text.splitlines()) > 1]
    assert "Cash flows" in starts and "Details 1" in starts
    cash = next(c for c in chunks if c.text.splitlines()[1] == "Cash flows")
    assert "Body text line 2 of section 2" not in cash.text  # no overlap from the section before


def test_without_layout_chunks_are_unchanged(tmp_path: Path) -> None:
    segs = _segments(tmp_path, report_pages(2))
    assert _chunks(segs)[0].text.startswith("ACME Corp | Quarterly Report")


@pytest.mark.parametrize("source", ["ocr"])
def test_ocr_lines_use_box_heights_as_sizes(source: str) -> None:
    lines = [{"text": "A Big Heading", "bbox": [72, 50, 300, 80]}]
    lines += [{"text": f"ordinary text line {k} of the scan", "bbox": [72, 100 + 14 * k, 400, 112 + 14 * k]}
              for k in range(20)]
    seg = {"page": 1, "source": source, "width": 612, "height": 792, "lines": lines}
    layout = page_layout(seg, doc_styles([seg]))
    assert layout["blocks"][0]["type"] in ("title", "heading") and layout["blocks"][0]["text"] == "A Big Heading"
    assert layout["blocks"][1]["type"] == "paragraph" and len(layout["blocks"]) == 2


def test_low_confidence_ocr_lines_and_low_titles_are_not_titles() -> None:
    lines = [{"text": f"ordinary text line {k} of the scan", "bbox": [72, 100 + 14 * k, 400, 112 + 14 * k],
              "confidence": 0.99} for k in range(20)]
    lines.append({"text": "itod", "bbox": [300, 600, 340, 640], "confidence": 0.62})
    lines.append({"text": "THANK YOU", "bbox": [200, 680, 360, 712], "confidence": 0.99})
    seg = {"page": 1, "source": "ocr", "width": 612, "height": 792, "lines": lines}
    kinds = {b["text"]: (b["type"], b.get("level")) for b in page_layout(seg, doc_styles([seg]))["blocks"]}
    assert kinds["itod"][0] == "paragraph"  # OCR junk read with little confidence
    assert kinds["THANK YOU"] == ("heading", 1)  # big, but low on the page: not the document's title
