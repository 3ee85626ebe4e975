from __future__ import annotations

from pathlib import Path

import pytest

from ingest.steps.format_parser import LayerStats, extract_text_layer, judge_text_layer
from tests.ingest.docfactory import EVALDATA, scanned_pdf, text_pdf


def test_text_layer_lines_with_boxes_in_points_from_top_left(tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(text_pdf([["Hello world", "Second line here"], ["Page two text"]], font_size=12))
    p1, p2 = extract_text_layer(path, "pdf", [1, 2])
    assert p1.page == 1 and not p1.needs_ocr and p1.reason is None
    assert p1.text == "Hello world\nSecond line here"
    assert [ln.text for ln in p1.lines] == ["Hello world", "Second line here"]
    x0, y0, x1, y1 = p1.lines[0].bbox
    # baseline at y = 792 - 72 = 720 pt from the bottom → ~72 pt from the top; text starts at x = 72
    assert 71 <= x0 <= 73 and 60 <= y0 < y1 <= 75 and x1 > x0 + 40
    assert p1.lines[1].bbox[1] > p1.lines[0].bbox[3] - 1  # second line is below the first
    assert p2.text == "Page two text"


def test_scanned_page_needs_ocr(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_pdf(["This is a scan"]))
    (page,) = extract_text_layer(path, "pdf", [1])
    assert page.needs_ocr and page.reason == "no text layer (scanned image)"
    assert page.text == "" and page.lines == []


def test_images_always_need_ocr(tmp_path: Path) -> None:
    pages = extract_text_layer(tmp_path / "unused.png", "png", [1])
    assert pages[0].needs_ocr and "image" in (pages[0].reason or "")


@pytest.mark.parametrize(
    ("text", "stats", "needs", "reason"),
    [
        ("", LayerStats(objects=0), False, "blank page"),
        ("", LayerStats(objects=3, image_coverage=0.9), True, "no text layer (scanned image)"),
        ("", LayerStats(objects=300), True, "no text layer (text may be drawn as outlines)"),
        ("ordinary english words in a sentence", LayerStats(chars=31, degenerate_boxes=30, objects=5), True,
         "garbage text layer: most glyphs have no position on the page"),
        ("(cid:12)(cid:44)(cid:9) ok (cid:1)(cid:2)", LayerStats(chars=40, objects=5), True, "garbage text layer"),
        ("\ufffd\ufffd\ufffd abc \ufffd\ufffd\ufffd", LayerStats(chars=9, objects=5), True, "garbage text layer"),
        ("3HQåQtSURVWĜHGN QD þWHFK 3HQåQtSURVWĜHGN QD þWHFK 3HQåQtSURVWĜHGN", LayerStats(chars=60, objects=5),
         True, "garbage text layer: the letters do not look like words"),
        ("Quarterly revenue increased by eight percent compared with last year.", LayerStats(chars=60, objects=9),
         False, None),
        ("코로나바이러스감염증 국내 확진자는 9,661명, 사망자는 158명으로 나타났다.", LayerStats(chars=40, objects=9),
         False, None),
        ("縦書きの文章です\n二行目の文章\n三行目の文章", LayerStats(chars=20, objects=9, lines=3, vertical_lines=3),
         True, "vertical writing"),
        ("Clean words on most of the page, a box of glyph junk was dropped", LayerStats(chars=70, junk_chars=15,
                                                                                       objects=9),
         True, "garbage text layer: 21%"),
        ("Scanned by ACME", LayerStats(chars=13, objects=2, image_coverage=0.95), True, "mostly a scanned image"),
    ],
)
def test_judge_text_layer_rules(text: str, stats: LayerStats, needs: bool, reason: str | None) -> None:
    got_needs, got_reason = judge_text_layer(text, stats)
    assert got_needs is needs
    if reason is None:
        assert got_reason is None
    else:
        assert got_reason is not None and got_reason.startswith(reason)


@pytest.mark.skipif(not (EVALDATA / "pdfminer_samples").is_dir(), reason="evaldata absent: ../shared/evaldata")
def test_evaldata_garbage_layers_are_detected() -> None:
    (jo,) = extract_text_layer(EVALDATA / "pdfminer_samples" / "jo.pdf", "pdf", [1])
    # with CJK system fonts PDFium places the glyphs (vertical columns, wrong order); without them, nowhere
    assert jo.needs_ocr and ("garbage" in (jo.reason or "") or "vertical" in (jo.reason or ""))
    (cmap,) = extract_text_layer(EVALDATA / "pdfminer_samples/contrib/issue-791-non-unicode-cmap.pdf", "pdf", [1])
    assert cmap.needs_ocr
    (good,) = extract_text_layer(EVALDATA / "pdfminer_samples" / "simple1.pdf", "pdf", [1])
    assert not good.needs_ocr and "Hello World" in good.text
