"""A document's parsed content out (issue 15): Markdown or JSON, streamed one page at a time (a 1,000-page
document is never in memory) — fields with confidence first, then the pages in reading order with tables as
Markdown tables and page numbers."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from ingest.page_text import page_text


def _md_cell(value: Any) -> str:
    return str("" if value is None else value).replace("|", "\\|").replace("\n", " ")


def export_markdown(file_name: str, fields: dict[str, Any] | None, pages: int,
                    load: Callable[[int], dict[str, Any] | None]) -> Iterator[bytes]:
    yield f"# {file_name}\n\n".encode()
    if fields and fields.get("fields"):
        yield b"## Fields\n\n| field | value | normalized | confidence | page | review |\n|---|---|---|---|---|---|\n"
        for f in fields["fields"]:
            row = [f.get("name"), f.get("value"), f.get("normalized"), f.get("confidence"), f.get("page"),
                   "; ".join(f.get("review") or [])]
            yield ("| " + " | ".join(_md_cell(v) for v in row) + " |\n").encode()
        yield b"\n"
    for page in range(1, pages + 1):
        seg = load(page)
        yield f"## Page {page}\n\n".encode()
        yield ((page_text(seg) if seg else "_(not processed)_").rstrip() + "\n\n").encode()


def export_json(document_id: str, file_name: str, fields: dict[str, Any] | None, pages: int,
                load: Callable[[int], dict[str, Any] | None]) -> Iterator[bytes]:
    head = {"document_id": document_id, "file_name": file_name, "page_count": pages,
            "fields": (fields or {}).get("fields", []), "needs_review": (fields or {}).get("needs_review")}
    yield json.dumps(head, ensure_ascii=False)[:-1].encode() + b', "pages": ['
    for page in range(1, pages + 1):
        seg = load(page) or {}
        body = {"page": page, "source": seg.get("source"), "text": page_text(seg) if seg else "",
                "lines": seg.get("lines", []),
                "tables": [t.get("markdown") for t in seg.get("table_grids") or [] if isinstance(t, dict)]}
        yield (b"" if page == 1 else b",") + json.dumps(body, ensure_ascii=False).encode()
    yield b"]}"
