"""The text of one page as a reader sees it (pure): prose lines in reading order, tables as Markdown.

A segment's ``table_grids`` (``Table.to_json()``) replace the lines they cover — header, body and caption
lines, matched by their boxes exactly as the chunker matches them (``ingest.steps.table_chunks.segment_items``)
— so a table is not read twice, once as a jumble of numbers and once as a table. Each table stands where
its first line was, as its Markdown form (``Table.markdown()``: caption and unit lines, the ``| header |``
line, the ``|---|`` separator, one ``| row |`` line per body row), with a blank line before and after it so
it is a block of its own (a Markdown renderer shows it as a table; a reader does not take the prose above
it for its caption). A table none of whose boxes matches a line (no line boxes) comes after the text.

A segment without ``table_grids`` (ingested before tables were reconstructed, or a page with none) reads
as its plain ``text``, unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ingest.steps.table_chunks import TableBlock, segment_items


def page_text(seg: Mapping[str, Any]) -> str:
    """The page text of ``seg`` for ``read_page`` (see the module docstring)."""
    plain = str(seg.get("text") or "")
    if not seg.get("table_grids"):
        return plain
    blocks: list[list[str]] = [[]]  # runs of prose lines, each table a run of its own
    for item in segment_items(seg):
        if isinstance(item, TableBlock):
            blocks.append([item.table.markdown()])
            blocks.append([])
        else:
            blocks[-1].append(item[0])
    return "\n\n".join("\n".join(run) for run in blocks if any(line.strip() for line in run))
