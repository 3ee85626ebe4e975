from __future__ import annotations

import json

import pytest

from chat.core import events
from chat.core.events import KEEPALIVE, SSEParser, make_event, parse_event_id


def test_encode_is_one_frame_with_id_event_and_json_data() -> None:
    ev = make_event("g1", 3, "text", events.text("line1\nline2 — 한국어"))
    assert ev.wire == 'id: g1.3\nevent: text\ndata: {"delta":"line1\\nline2 — 한국어"}\n\n'.encode()
    assert ev.id == "g1.3"


def test_unknown_event_name_is_rejected() -> None:
    with pytest.raises(ValueError):
        make_event("g", 1, "bogus", {})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("raw", "parsed"),
    [("abc.12", ("abc", 12)), ("a.b.7", ("a.b", 7)), ("", None), (None, None), ("abc", None), ("abc.x", None)],
)
def test_parse_event_id(raw: str | None, parsed: tuple[str, int] | None) -> None:
    assert parse_event_id(raw) == parsed


def test_parser_reassembles_split_frames_and_drops_comments() -> None:
    wire = make_event("g", 1, "start", {"turn_id": "t"}).wire + KEEPALIVE + make_event("g", 2, "done", {"seq": 4}).wire
    parser = SSEParser()
    out = []
    for i in range(0, len(wire), 7):
        out += parser.feed(wire[i : i + 7])
    assert [(m.event, json.loads(m.data), m.id) for m in out] == [
        ("start", {"turn_id": "t"}, "g.1"),
        ("done", {"seq": 4}, "g.2"),
    ]
    assert parser.comments == 1
    assert parser.last_id == "g.2"


def test_usage_payload_has_the_four_counters() -> None:
    assert events.usage({"input": 5, "cache_read": 2}) == {"input": 5, "output": 0, "cache_read": 2, "cache_write": 0}
