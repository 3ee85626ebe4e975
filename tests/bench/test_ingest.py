"""bench/ingest.py: the pages/s benchmark runs the real pipeline on a real file and reports what it measured."""

from __future__ import annotations

from pathlib import Path

from bench.ingest import cmd_files
from ingest.sample_docs import write_text_pdf


def test_file_bench_ingests_a_pdf_and_reports_pages_per_second(tmp_path: Path) -> None:
    pdf = write_text_pdf(tmp_path / "three.pdf", 3, lines=8)
    (row,) = cmd_files([pdf], index=False)
    assert row["bench"] == "file" and row["file"] == "three.pdf"
    assert row["status"] == "completed" and row["pages"] == 3
    assert row["pages_per_s"] and row["pages_per_s"] > 0
    assert set(row["steps"]) >= {"segment_prep", "format_parser", "segment_builder"}
