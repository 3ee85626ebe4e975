"""The stored layout strings: round trips, rounding, and tolerance of rows written before a field existed."""

from __future__ import annotations

from retrieval.layout import (
    decode_bboxes,
    decode_line_boxes,
    decode_page_offsets,
    encode_bboxes,
    encode_line_boxes,
    encode_page_offsets,
)
from retrieval.types import BBox, page_at


def test_round_trips_and_line_boxes_are_rounded_to_a_tenth_of_a_point() -> None:
    boxes = (BBox(1, 72.0, 90.5, 300.25, 100.0), BBox(2, 1.0, 2.0, 3.0, 4.0))
    assert decode_bboxes(encode_bboxes(boxes)) == boxes
    assert decode_page_offsets(encode_page_offsets([(3, 0), (4, 120)])) == ((3, 0), (4, 120))
    lines = decode_line_boxes(encode_line_boxes([(0, BBox(3, 72.04, 90.06, 300.123, 101.0))]))
    assert lines == ((0, BBox(3, 72.0, 90.1, 300.1, 101.0)),)


def test_missing_or_malformed_values_decode_to_nothing() -> None:
    for raw in (None, "", "[]", "not json", "{}", "[[1, 2, 3]]"):
        assert decode_bboxes(raw) == () and decode_page_offsets(raw) == () and decode_line_boxes(raw) == ()


def test_page_at_finds_the_page_holding_an_offset() -> None:
    offsets = ((3, 0), (4, 50), (6, 90))
    assert [page_at(offsets, o, 0) for o in (0, 49, 50, 89, 90, 500)] == [3, 3, 4, 4, 6, 6]
    assert page_at((), 10, 7) == 7
