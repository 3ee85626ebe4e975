"""MessageAccumulator: events → message, and the partial-turn rule on disconnect."""

from __future__ import annotations

import pytest

from chat.models.accumulator import MessageAccumulator
from chat.models.scripted import Reply, Text, Thinking, ToolUse, Usage, reply_events
from store.errors import Throttled, UpstreamError


def _events(reply: Reply) -> list[dict]:
    return [e for e in reply_events(reply, model="m", message_id="msg_1", input_tokens=10) if isinstance(e, dict)]


def test_accumulates_text_thinking_and_tool_use() -> None:
    reply = Reply(
        Thinking("생각 중", signature="sig-abc"),
        Text("문서를 찾아볼게요."),
        ToolUse("search_documents", {"query": "매출 성장률", "project_id": "p1"}, id="toolu_1", chunk=5),
        usage=Usage(input_tokens=120, output_tokens=33, cache_read_input_tokens=100, cache_creation_input_tokens=7),
    )
    acc = MessageAccumulator()
    for e in _events(reply):
        acc.feed(e)
    msg = acc.message
    assert acc.finished
    assert msg["content"] == [
        {"type": "thinking", "thinking": "생각 중", "signature": "sig-abc"},
        {"type": "text", "text": "문서를 찾아볼게요."},
        {
            "type": "tool_use",
            "id": "toolu_1",
            "name": "search_documents",
            "input": {"query": "매출 성장률", "project_id": "p1"},
        },
    ]
    assert msg["stop_reason"] == "tool_use"
    assert msg["usage"] == {
        "input_tokens": 120,
        "output_tokens": 33,
        "cache_read_input_tokens": 100,
        "cache_creation_input_tokens": 7,
    }
    assert msg["id"] == "msg_1"
    assert acc.text == "문서를 찾아볼게요."


def test_empty_thinking_is_kept_verbatim_with_signature() -> None:
    acc = MessageAccumulator()
    for e in _events(Reply(Thinking("", signature="only-sig"), Text("hi"))):
        acc.feed(e)
    assert acc.message["content"][0] == {"type": "thinking", "thinking": "", "signature": "only-sig"}


def test_usage_in_message_delta_replaces_start_values() -> None:
    acc = MessageAccumulator()
    acc.feed(
        {
            "type": "message_start",
            "message": {"id": "m", "content": [], "usage": {"input_tokens": 5, "output_tokens": 1}},
        }
    )
    acc.feed({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}})
    assert acc.usage == {"input_tokens": 5, "output_tokens": 9}
    assert acc.stop_reason == "end_turn"


def test_compaction_and_redacted_blocks() -> None:
    acc = MessageAccumulator()
    acc.feed({"type": "message_start", "message": {"id": "m", "content": [], "usage": {}}})
    acc.feed({"type": "content_block_start", "index": 0, "content_block": {"type": "compaction", "content": ""}})
    acc.feed({"type": "content_block_delta", "index": 0, "delta": {"type": "compaction_delta", "content": "summary"}})
    acc.feed(
        {"type": "content_block_delta", "index": 0, "delta": {"type": "compaction_delta", "encrypted_content": "enc"}}
    )
    acc.feed({"type": "content_block_stop", "index": 0})
    acc.feed({"type": "content_block_start", "index": 1, "content_block": {"type": "redacted_thinking", "data": "xx"}})
    acc.feed({"type": "content_block_stop", "index": 1})
    assert acc.message["content"] == [
        {"type": "compaction", "content": "summary", "encrypted_content": "enc"},
        {"type": "redacted_thinking", "data": "xx"},
    ]


def test_partial_blocks_drop_half_tool_use_open_text_and_unsigned_thinking() -> None:
    events = _events(
        Reply(
            Thinking("a", signature="s1"),
            Text("첫 문단."),
            Text("두 번째"),
            ToolUse("read_page", {"document_id": "d", "page": 2}),
        )
    )
    acc = MessageAccumulator()
    # feed until the middle of the tool_use input
    for e in events:
        acc.feed(e)
        if e.get("type") == "content_block_delta" and e["delta"].get("type") == "input_json_delta":
            break
    blocks = acc.partial_blocks()
    assert {"type": "text", "text": "첫 문단."} in blocks
    assert all(b["type"] != "tool_use" for b in blocks)
    assert {"type": "thinking", "thinking": "a", "signature": "s1"} in blocks

    # cut inside the thinking block (no signature yet): nothing that could break the next request
    acc2 = MessageAccumulator()
    for e in events[:3]:
        acc2.feed(e)
    assert acc2.partial_blocks() == []


def test_partial_blocks_keep_open_text_on_request() -> None:
    events = _events(Reply(Text("완성된 문장.", chunk=100), Text("반쯤 스트리밍된", chunk=4)))
    acc = MessageAccumulator()
    for e in events:
        if e["type"] == "content_block_stop" and e["index"] == 1:
            break
        acc.feed(e)
    assert acc.partial_blocks() == [{"type": "text", "text": "완성된 문장."}]
    assert acc.partial_blocks(keep_open_text=True)[-1]["text"] == "반쯤 스트리밍된"


def test_error_event_raises_translated_errors() -> None:
    acc = MessageAccumulator()
    with pytest.raises(Throttled):
        acc.feed({"type": "error", "error": {"type": "overloaded_error", "message": "busy"}})
    with pytest.raises(UpstreamError):
        acc.feed({"type": "error", "error": {"type": "api_error", "message": "boom"}})


def test_invalid_tool_json_is_an_upstream_error() -> None:
    acc = MessageAccumulator()
    acc.feed({"type": "message_start", "message": {"id": "m", "content": [], "usage": {}}})
    acc.feed(
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "tool_use", "id": "t", "name": "n", "input": {}},
        }
    )
    acc.feed(
        {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": '{"a":'}}
    )
    with pytest.raises(UpstreamError):
        acc.feed({"type": "content_block_stop", "index": 0})
