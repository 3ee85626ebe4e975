from __future__ import annotations

from pathlib import Path

import pytest

from bench.ingest_quality import (
    _sroie_lines,
    _text_in_box,
    edit_distance,
    normalise,
    word_f1,
    word_similarity,
    write_synthetic_pdf,
)
from ingest.steps.ocr import OcrLine


def test_edit_distance() -> None:
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("", "abc") == 3 and edit_distance("abc", "") == 3
    assert edit_distance(["a", "b", "c"], ["a", "c"]) == 1
    assert edit_distance("같은 글", "같은 글") == 0


def test_text_metrics() -> None:
    assert normalise("## Title\n\n| a | b |\n|---|---|\n**Bold** exam-\nple") == "title a b bold example"
    assert word_f1("a b c", "a b c") == (1.0, 1.0, 1.0)
    p, r, f = word_f1("a b", "a b c d")
    assert (p, r) == (1.0, 0.5) and f == pytest.approx(2 / 3)
    assert word_similarity("one two three", "three two one") < 1.0  # order counts


def test_synthetic_pdf_writer(tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    write_synthetic_pdf(tmp_path / "big.pdf", 7)
    pdf = pdfium.PdfDocument(tmp_path / "big.pdf")
    assert len(pdf) == 7 and "Page 7 line 1" in pdf[6].get_textpage().get_text_range()
    pdf.close()


def test_sroie_lines_and_box_matching(tmp_path: Path) -> None:
    csv = tmp_path / "r.csv"
    csv.write_text("10,10,200,10,200,40,10,40,TOTAL 9.00\nbroken line\n10,50,90,50,90,70,10,70,A, B\n")
    lines = _sroie_lines(csv)
    assert lines == [((10.0, 10.0, 200.0, 40.0), "TOTAL 9.00"), ((10.0, 50.0, 90.0, 70.0), "A, B")]
    ocr = [OcrLine("9.00", (120, 12, 190, 38), 0.9), OcrLine("TOTAL", (12, 11, 80, 39), 0.9),
           OcrLine("elsewhere", (12, 300, 80, 320), 0.9)]
    assert _text_in_box(ocr, lines[0][0]) == "TOTAL 9.00"


def test_memory_command_reports_rates_and_peaks(capsys: pytest.CaptureFixture[str]) -> None:
    from bench.ingest_quality import memory_command
    from store.config import Settings

    assert memory_command(Settings(render_dpi=50), pages=3) == 0
    out = capsys.readouterr().out
    assert "synthetic PDF: 3 pages" in out and "pages/CPU-s" in out and "largest sandbox child" in out
