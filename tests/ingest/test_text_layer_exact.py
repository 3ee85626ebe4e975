"""The text layer read with bulk PDFium calls (issue 18) is the one the per-character reader produced: same lines,
boxes, styles, counts, OCR verdicts and table words, on made-up PDFs and (when evaldata is there) on real pages
that take every path (hyphen markers, surrogate pairs, NULs, images, forms, bold fonts, vertical CJK)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from ingest.steps.format_parser import _page_text, judge_text_layer
from ingest.steps.tables import page_words
from tests.ingest import text_layer_reference as ref
from tests.ingest.docfactory import EVALDATA, scanned_pdf, styled_pdf, text_pdf


def _same(path: Path, pages: list[int] | None = None) -> int:
    """Both readers on every (or the listed) page of ``path``; the number of pages compared."""
    doc = pdfium.PdfDocument(str(path))
    try:
        numbers = pages or list(range(1, len(doc) + 1))
        for number in numbers:
            page = doc[number - 1]
            want, got = ref.page_text(pdfium, page, number), _page_text(pdfium, page, number)
            assert got == want, f"{path.name} page {number}"
            left, _bottom, _right, top = page.get_cropbox()
            tp = page.get_textpage()
            try:
                assert page_words(pdfium.raw, tp.raw, left, top) == ref.page_words(pdfium.raw, tp.raw, left, top)
            finally:
                tp.close()
            page.close()
        return len(numbers)
    finally:
        doc.close()


def test_made_up_pdfs_read_the_same(tmp_path: Path) -> None:
    docs = {
        "text.pdf": text_pdf([["Hello world", "Second line here", "  indented   with   gaps  "],
                              ["Page two text", "tabs\tand (parens) and \\ backslash", "x"], []]),
        "hyphens.pdf": text_pdf([["A long word broken at the end of a line with a hyph-", "enation and more",
                                  "numbers 1,234.56 (7.8) - 9 -", "- leading dash"]], font_size=9),
        "latin1.pdf": text_pdf([["Café crème brûlée - déjà vu", "Ærø ß ñ ü ÿ", "\x7f\x80 odd bytes \xa0 nbsp"]]),
        "styled.pdf": styled_pdf([[(18, "A Heading"), (10, "Body text under the heading, in a smaller size."),
                                   (7, "a footnote"), (10, "More body text.")]]),
        "scan.pdf": scanned_pdf(["This is a scan"]),
    }
    compared = 0
    for name, data in docs.items():
        path = tmp_path / name
        path.write_bytes(data)
        compared += _same(path)
    assert compared == 7


def test_judge_counts_as_before() -> None:
    texts = ["", "abc", "(cid:3)(cid:4) x", "\ufffd\ufffd\ufffd abc", "Ünïcödé wörds ünd \x01 control",
             "3HQåQtSURVWĜHGN QD þWHFK " * 3, "Quarterly revenue increased by eight percent compared with last year.",
             "\ue000\ue001 private use \U000f0000", "縦書きの文章です\n二行目"]
    for text in texts:
        for stats in (ref.LayerStats(), ref.LayerStats(chars=50, objects=3, junk_chars=2, image_coverage=0.7),
                      ref.LayerStats(chars=9, unmapped=4, objects=1)):
            assert judge_text_layer(text, stats) == ref.judge_text_layer(text, stats)


REAL = [
    # (file under evaldata, pages): every path of the reader
    ("docugami_sec10q/docs/2023 Q1 AAPL.pdf", [1, 2, 3, 4, 5, 6]),  # tables, bold headings, many text objects
    ("docling/pdf/sources/normal_4pages.pdf", [4]),  # UTF-16 surrogate pairs
    ("docling/pdf/sources/multi_page.pdf", [4]),  # end-of-line hyphen markers (code 2)
    ("pypdf_sample_files/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf", [2, 20]),  # NUL codes, TeX fonts
    ("pdfminer_samples/jo.pdf", None),  # vertical CJK writing
    ("pdfminer_samples/contrib/issue-1061-colour-space-stack.pdf", [1]),
]


@pytest.mark.parametrize(("name", "pages"), REAL, ids=[r[0].rsplit("/", 1)[-1] for r in REAL])
def test_real_pages_read_the_same(name: str, pages: list[int] | None) -> None:
    path = EVALDATA / name
    if not path.exists():
        pytest.skip(f"{name} not in evaldata")
    assert _same(path, pages) >= 1
