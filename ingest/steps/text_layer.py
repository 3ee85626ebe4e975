"""``format_parser``'s sandboxed pass, with the words of likely table pages read in the same pass (issue 18).

Table detection used to open the PDF again in a sandbox of its own per window of ``BUILD_WINDOW`` pages (an
interpreter start-up and the document re-parsed, in ``segment_builder``); now the child that reads the text
layer also reads the words of each page where ``likely_table`` says a table may be, and the pipeline keeps them
with the page's text. Same rules, same words (``page_words``), one child.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ingest.sandbox import Limits, iter_sandboxed
from ingest.steps.format_parser import _page_text
from ingest.steps.tables import likely_table, page_words
from store.config import Settings


def iter_text_and_words(path: Path, pages: Sequence[int], *, settings: Settings | None = None,
                        password: str | None = None) -> Iterator[dict[str, Any]]:
    """Per page of a PDF, its text-layer record as the pipeline stores it (``dataclasses.asdict(PageText)`` plus
    ``table_words``: the words of a likely table page, else None), streamed from one sandboxed child (timeout per
    page). The records cross as plain JSON (no per-object decoding in this process, issue 18);
    ``ingest.results.rebuild(PageText, record, {"lines": Line})`` makes the ``PageText`` again."""
    wanted = [int(p) for p in pages]
    if not wanted:
        return
    limits = Limits.from_settings(settings) if settings is not None else Limits()
    yield from iter_sandboxed(_child, str(path), wanted, password, limits=limits, what="reading the text layer",
                              plain_json=True)


def _child(path: str, pages: list[int], password: str | None) -> Iterator[dict[str, Any]]:
    import pypdfium2 as pdfium

    from ingest.inspect import iter_pdf_pages

    for number, page in iter_pdf_pages(path, pages, password):
        tp = page.get_textpage()  # one text page for both reads
        try:
            pt = _page_text(pdfium, page, number, tp)
            words = None
            if not pt.needs_ocr and likely_table(pt):
                left, _bottom, _right, top = page.get_cropbox()
                words = page_words(pdfium.raw, tp.raw, left, top)
        finally:
            tp.close()
        yield {**dataclasses.asdict(pt), "table_words": words}
