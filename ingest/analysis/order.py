"""Reading order of a page's blocks (pure): recursive XY-cut.

A region's blocks are cut along horizontal gaps (bands read top to bottom); a band whose blocks leave a
vertical gap — columns — is cut there (read left to right, each column whole before the next); both
recurse until no cut is left, and what remains is read top to bottom, then left to right. Right-to-left
scripts (Arabic, Hebrew) read their columns right to left. Gaps narrower than ``MIN_GAP`` points are not
cuts (word spacing, ragged edges).
"""

from __future__ import annotations

from collections.abc import Sequence

Box = tuple[float, float, float, float]

MIN_GAP = 6.0
#: at most this many blocks are read by XY-cut (more — dense tables of words — keep their order)
MAX_BLOCKS = 400


def reading_order(boxes: Sequence[Box], *, rtl: bool = False) -> list[int]:
    """Indices of ``boxes`` in reading order."""
    idx = list(range(len(boxes)))
    if len(idx) > MAX_BLOCKS:
        return sorted(idx, key=lambda i: (boxes[i][1], boxes[i][0]))
    out: list[int] = []
    _cut(idx, boxes, out, rtl, horizontal=True, depth=0)
    return out


def _cut(idx: list[int], boxes: Sequence[Box], out: list[int], rtl: bool, *, horizontal: bool, depth: int) -> None:
    if len(idx) <= 1 or depth > 40:
        out.extend(sorted(idx, key=lambda i: (boxes[i][1], -boxes[i][2] if rtl else boxes[i][0])))
        return
    groups = _split(idx, boxes, axis=1 if horizontal else 0)
    if len(groups) > 1:
        if not horizontal and rtl:
            groups.reverse()
        for g in groups:
            _cut(g, boxes, out, rtl, horizontal=not horizontal, depth=depth + 1)
        return
    other = _split(idx, boxes, axis=0 if horizontal else 1)
    if len(other) > 1:
        if horizontal and rtl:
            other.reverse()
        for g in other:
            _cut(g, boxes, out, rtl, horizontal=horizontal, depth=depth + 1)
        return
    out.extend(sorted(idx, key=lambda i: (boxes[i][1], -boxes[i][2] if rtl else boxes[i][0])))


def _split(idx: list[int], boxes: Sequence[Box], *, axis: int) -> list[list[int]]:
    """Groups of ``idx`` separated by gaps ≥ ``MIN_GAP`` in the projection on ``axis`` (0 = x, 1 = y)."""
    lo, hi = axis, axis + 2
    ordered = sorted(idx, key=lambda i: boxes[i][lo])
    groups: list[list[int]] = []
    reach = float("-inf")
    for i in ordered:
        if not groups or boxes[i][lo] - reach >= (MIN_GAP if axis == 0 else 0.5):
            groups.append([i])
        else:
            groups[-1].append(i)
        reach = max(reach, boxes[i][hi])
    return groups
