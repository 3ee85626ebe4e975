"""ScriptedModel: scripted replies, function form, errors mid-stream, per-event delay."""

from __future__ import annotations

import time

import pytest

from chat.models.accumulator import MessageAccumulator
from chat.models.port import ChatModel, ModelRequest
from chat.models.scripted import Fail, Reply, ScriptedModel, Text, ToolUse, Usage
from store.errors import Throttled, UpstreamError


def _req(text: str = "hi") -> ModelRequest:
    return ModelRequest(
        system=[], messages=[{"role": "user", "content": [{"type": "text", "text": text}]}], tools=[], max_tokens=100
    )


async def _collect(model: ScriptedModel, req: ModelRequest) -> tuple[list[dict], MessageAccumulator]:
    acc = MessageAccumulator()
    events = []
    async for e in model.stream(req):
        events.append(e)
        acc.feed(e)
    return events, acc


async def test_replies_in_order_and_requests_recorded() -> None:
    model = ScriptedModel([Reply(ToolUse("search_documents", {"query": "q"})), "answer [S1]"])
    assert isinstance(model, ChatModel)
    events, acc = await _collect(model, _req("one"))
    assert acc.stop_reason == "tool_use"
    assert events[0]["type"] == "message_start"
    assert any(e.get("delta", {}).get("type") == "input_json_delta" for e in events)
    msg = await model.complete(_req("two"))
    assert msg["content"] == [{"type": "text", "text": "answer [S1]"}]
    assert msg["stop_reason"] == "end_turn"
    assert [r.messages[0]["content"][0]["text"] for r in model.requests] == ["one", "two"]
    with pytest.raises(UpstreamError):
        await model.complete(_req())


async def test_function_form_receives_the_request() -> None:
    async def fn(req: ModelRequest) -> Reply:
        return Reply(Text("echo: " + req.messages[-1]["content"][0]["text"]), usage=Usage(cache_read_input_tokens=42))

    model = ScriptedModel(fn)
    _, acc = await _collect(model, _req("안녕"))
    assert acc.text == "echo: 안녕"
    assert acc.usage["cache_read_input_tokens"] == 42


async def test_fail_mid_stream_after_partial_text() -> None:
    model = ScriptedModel([Reply(Text("part one"), Fail(Throttled("slow down")), Text("never"))])
    seen: list[dict] = []
    with pytest.raises(Throttled):
        async for e in model.stream(_req()):
            seen.append(e)
    assert any(e.get("delta", {}).get("text") == "part one" for e in seen)
    assert not any(e.get("delta", {}).get("text") == "never" for e in seen)


async def test_raw_error_event_is_translated() -> None:
    model = ScriptedModel([[{"type": "error", "error": {"type": "api_error", "message": "x"}}]])
    with pytest.raises(UpstreamError):
        await model.complete(_req())


async def test_per_event_delay() -> None:
    model = ScriptedModel([Reply(Text("abcdefghij", chunk=1))], delay=0.01)
    t0 = time.perf_counter()
    events, _ = await _collect(model, _req())
    assert time.perf_counter() - t0 >= 0.01 * len(events) * 0.8
