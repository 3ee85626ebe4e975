"""Pure block functions of seed 002."""

from __future__ import annotations

from typing import Any

import pytest

from store.blocks import (
    assert_pairs_ok,
    dumps_blocks,
    loads_blocks,
    message_usage,
    partial_turn,
    to_plain,
    trim_to_valid_window,
    valid_start,
)
from store.errors import InvalidHistory, InvalidInput


def u(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def a(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def call(tid: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": "looking"}, {"type": "tool_use", "id": tid,
                                                                                   "name": "s", "input": {}}]}


def result(tid: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tid, "content": "ok"}]}


def test_to_plain_and_dumps_round_trip() -> None:
    blocks = [{"type": "thinking", "thinking": "", "signature": "sig"}, {"type": "text", "text": "한글 ✓"}]
    text = dumps_blocks(to_plain(blocks))
    assert "한글" in text  # ensure_ascii=False
    assert loads_blocks(text) == blocks
    assert dumps_blocks(loads_blocks(text)) == text
    with pytest.raises(InvalidInput):
        to_plain([42])
    with pytest.raises(InvalidHistory):
        loads_blocks('{"not": "a list"}')


def test_trim_never_starts_at_tool_result() -> None:
    msgs = [u("q1"), a("a1"), u("q2"), call("t1"), result("t1"), a("a2"), u("q3"), a("a3")]
    assert trim_to_valid_window(msgs, 100) == msgs
    w = trim_to_valid_window(msgs, 4)  # would start at result("t1") → moves on to u("q3")
    assert w == [u("q3"), a("a3")]
    w = trim_to_valid_window(msgs, 6)
    assert w[0] == u("q2") and len(w) == 6
    assert_pairs_ok(w)
    assert trim_to_valid_window(msgs, 0) == []


def test_assert_pairs_ok() -> None:
    assert_pairs_ok([u("q"), call("t1"), result("t1"), a("done")])
    with pytest.raises(InvalidHistory, match="tool_result without tool_use"):
        assert_pairs_ok([u("q"), result("t1")])
    with pytest.raises(InvalidHistory, match="tool_use without tool_result"):
        assert_pairs_ok([u("q"), call("t1")])
    assert_pairs_ok([u("q"), call("t1")], allow_pending_tail=True)
    with pytest.raises(InvalidHistory):  # the result must come in the very next user turn
        assert_pairs_ok([u("q"), call("t1"), u("other"), result("t1")])
    with pytest.raises(InvalidHistory):
        assert_pairs_ok([{"role": "system", "content": []}])


def test_partial_turn_rule() -> None:
    blocks = [
        {"type": "thinking", "thinking": "", "signature": "sig"},
        {"type": "thinking", "thinking": "no signature yet"},
        {"type": "text", "text": "complete text"},
        {"type": "tool_use", "id": "t1", "name": "search", "input": {"q": "x"}},
        {"type": "text", "text": "half stre"},
    ]
    out = partial_turn(blocks, completed={0, 1, 2, 3})
    assert out == [blocks[0], blocks[2]]  # signed thinking + completed text; no tool_use, no unsigned thinking
    out = partial_turn(blocks, completed={0, 2, 3}, keep_open_text=True)
    assert [b.get("text") for b in out if b["type"] == "text"] == ["complete text", "half stre"]
    assert partial_turn([{"type": "thinking", "thinking": "", "signature": "s"}], completed={0}) == []
    assert partial_turn([{"type": "tool_use", "id": "t", "name": "n", "input": {}}], completed={0}) == []


def test_message_usage_normalises_names() -> None:
    assert message_usage({"input_tokens": 3, "output_tokens": 4, "cache_read_input_tokens": 5,
                          "cache_creation_input_tokens": 6}) == {"input": 3, "output": 4, "cache_read": 5,
                                                                 "cache_write": 6}
    assert message_usage(None) == {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0}


def test_valid_start_drops_orphan_tool_results() -> None:
    msgs = [result("t0"), result("t0b"), a("a0"), call("t1"), result("t1"), u("q")]
    assert valid_start(msgs) == msgs[2:]
    assert_pairs_ok(valid_start(msgs))
    assert valid_start([u("q")]) == [u("q")]
    assert valid_start([a("only")]) == [a("only")]
