"""Where a chunk's text lies on its pages, as compact JSON strings stored (not indexed) next to the chunk.

Both index adapters keep three such strings per chunk:

- ``bboxes``: ``[[page, x0, y0, x1, y1], …]`` — merged boxes, one or more per page;
- ``page_offsets``: ``[[page, offset], …]`` — where each page starts in the chunk text;
- ``line_boxes``: ``[[offset, page, x0, y0, x1, y1], …]`` — one box per line, where the line starts.

Coordinates are PDF points from the page's top-left, rounded to 0.1 pt. A missing or empty value decodes
to ``()`` — rows written before a field existed read back as "unknown", never as an error.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from retrieval.types import BBox


def _num(v: float) -> float:
    return round(float(v), 1)


def encode_bboxes(boxes: Sequence[BBox]) -> str:
    return json.dumps([[b.page, b.x0, b.y0, b.x1, b.y1] for b in boxes])


def encode_page_offsets(offsets: Sequence[tuple[int, int]]) -> str:
    return json.dumps([[int(p), int(o)] for p, o in offsets], separators=(",", ":"))


def encode_line_boxes(lines: Sequence[tuple[int, BBox]]) -> str:
    return json.dumps(
        [[int(o), b.page, _num(b.x0), _num(b.y0), _num(b.x1), _num(b.y1)] for o, b in lines], separators=(",", ":")
    )


def _load(raw: Any) -> list[Any]:
    if not raw:
        return []
    try:
        value = json.loads(raw) if isinstance(raw, str | bytes) else raw
    except ValueError:
        return []
    return value if isinstance(value, list) else []


def decode_bboxes(raw: Any) -> tuple[BBox, ...]:
    return tuple(BBox(int(b[0]), *map(float, b[1:5])) for b in _load(raw) if isinstance(b, list) and len(b) == 5)


def decode_page_offsets(raw: Any) -> tuple[tuple[int, int], ...]:
    return tuple((int(p[0]), int(p[1])) for p in _load(raw) if isinstance(p, list) and len(p) == 2)


def decode_line_boxes(raw: Any) -> tuple[tuple[int, BBox], ...]:
    return tuple(
        (int(v[0]), BBox(int(v[1]), *map(float, v[2:6]))) for v in _load(raw) if isinstance(v, list) and len(v) == 6
    )
