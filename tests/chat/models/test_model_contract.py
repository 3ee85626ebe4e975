"""The ChatModel contract, for every model: ScriptedModel, LocalModel, BedrockModel (fake Bedrock runtime).

Whatever the model, its stream is one that ``MessageAccumulator`` turns into a valid assistant
message; usage is reported; ``tool_use`` blocks carry ids and parsed inputs; failures surface as
``store.errors`` types (throttling as ``Throttled``). The agent loop relies on exactly this.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anthropic
import pytest

from chat.core.prompt import SYSTEM_PROMPT, build_request
from chat.core.tools import TOOLS
from chat.models.accumulator import MessageAccumulator
from chat.models.bedrock import BedrockModel
from chat.models.local import LocalModel
from chat.models.port import ChatModel, ModelRequest
from chat.models.replies import Fail, Reply, Text, ToolUse, Usage, reply_events
from chat.models.scripted import ScriptedModel
from store.errors import DocchatError, Throttled, UpstreamError
from tests.chat.fake_bedrock import ExceptionFrame, FakeBedrock

BEDROCK_ID = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
ANSWER = "Revenue grew 12% in 2024."


def _question(text: str = "How did revenue develop?") -> list[dict[str, Any]]:
    return [{"role": "user", "content": [{"type": "text", "text": text}]}]


def answer_request() -> ModelRequest:
    """A request the model answers with text (no tools offered)."""
    return build_request(SYSTEM_PROMPT, [], _question(), max_tokens=256)


def tool_request() -> ModelRequest:
    """A new question with the document tools: the model calls one."""
    return build_request(SYSTEM_PROMPT, TOOLS, _question(), max_tokens=256)


class Backend:
    """Builds a model of one kind, primed for one scenario."""

    name = ""

    def answering(self) -> ChatModel:
        raise NotImplementedError

    def calling_a_tool(self) -> ChatModel:
        raise NotImplementedError

    def throttled_mid_stream(self) -> ChatModel:
        """Streams some text, then the upstream throttles."""
        raise NotImplementedError

    def failing(self) -> ChatModel:
        """The upstream fails with a non-throttling error."""
        raise NotImplementedError


class Scripted(Backend):
    name = "scripted"

    def answering(self) -> ChatModel:
        return ScriptedModel([Reply(Text(ANSWER), usage=Usage(output_tokens=9))])

    def calling_a_tool(self) -> ChatModel:
        return ScriptedModel(
            [
                Reply(
                    ToolUse("search_documents", {"query": "revenue"}),
                    ToolUse("read_page", {"document_id": "d", "page": 2}),
                )
            ]
        )

    def throttled_mid_stream(self) -> ChatModel:
        return ScriptedModel([Reply(Text("Revenue"), Fail(Throttled("slow down")))])

    def failing(self) -> ChatModel:
        return ScriptedModel([[{"type": "error", "error": {"type": "api_error", "message": "internal"}}]])


class Local(Backend):
    name = "local"

    def answering(self) -> ChatModel:
        return LocalModel()

    def calling_a_tool(self) -> ChatModel:
        return LocalModel()

    def throttled_mid_stream(self) -> ChatModel:
        pytest.skip("the embedded LocalModel has no upstream that could throttle")

    def failing(self) -> ChatModel:
        pytest.skip("the embedded LocalModel has no upstream that could fail")


class Bedrock(Backend):
    name = "bedrock"

    def __init__(self, fake: FakeBedrock) -> None:
        self.fake = fake

    def _model(self) -> ChatModel:
        client = anthropic.AsyncAnthropicBedrock(
            aws_access_key="AKIDEXAMPLE",
            aws_secret_key="wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            aws_region="us-east-1",
            base_url=self.fake.url,
            max_retries=0,
        )
        return BedrockModel(client, BEDROCK_ID)

    def _events(self, reply: Reply) -> list[Any]:
        return reply_events(reply, model=BEDROCK_ID, message_id="msg_bdrk_1", input_tokens=120)

    def answering(self) -> ChatModel:
        self.fake.push(self._events(Reply(Text(ANSWER), usage=Usage(120, 9, 100, 0))))
        return self._model()

    def calling_a_tool(self) -> ChatModel:
        self.fake.push(
            self._events(
                Reply(
                    ToolUse("search_documents", {"query": "revenue"}, id="toolu_bdrk_01", chunk=5),
                    ToolUse("read_page", {"document_id": "d", "page": 2}, id="toolu_bdrk_02"),
                )
            )
        )
        return self._model()

    def throttled_mid_stream(self) -> ChatModel:
        events = self._events(Reply(Text("Revenue", chunk=100)))
        self.fake.push([*events[:3], ExceptionFrame("throttlingException", "Too many tokens")])
        return self._model()

    def failing(self) -> ChatModel:
        self.fake.push_http_error(400, "ValidationException", "messages: bad request")
        return self._model()


@pytest.fixture(params=["scripted", "local", "bedrock"])
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    if request.param == "scripted":
        yield Scripted()
    elif request.param == "local":
        yield Local()
    else:
        with FakeBedrock() as fake:
            yield Bedrock(fake)


async def _stream(model: ChatModel, request: ModelRequest) -> tuple[list[dict[str, Any]], MessageAccumulator]:
    acc = MessageAccumulator()
    events: list[dict[str, Any]] = []
    async for event in model.stream(request):
        assert isinstance(event, dict)
        events.append(event)
        acc.feed(event)
    return events, acc


def _assert_well_formed(events: list[dict[str, Any]]) -> None:
    """message_start first, message_stop last, every block opened once, in index order, and closed."""
    kinds = [e["type"] for e in events]
    assert kinds[0] == "message_start" and kinds[-1] == "message_stop"
    assert kinds.count("message_start") == 1 and kinds.count("message_stop") == 1
    assert kinds[-2] == "message_delta"
    starts = [e["index"] for e in events if e["type"] == "content_block_start"]
    stops = [e["index"] for e in events if e["type"] == "content_block_stop"]
    assert starts == list(range(len(starts))) and sorted(stops) == starts
    open_blocks: set[int] = set()
    for e in events:
        if e["type"] == "content_block_start":
            open_blocks.add(e["index"])
        elif e["type"] == "content_block_delta":
            assert e["index"] in open_blocks
        elif e["type"] == "content_block_stop":
            open_blocks.remove(e["index"])
    assert not open_blocks


def _assert_usage(usage: dict[str, Any]) -> None:
    assert isinstance(usage["input_tokens"], int) and usage["input_tokens"] > 0
    assert isinstance(usage["output_tokens"], int) and usage["output_tokens"] > 0
    for key in ("cache_read_input_tokens", "cache_creation_input_tokens"):
        assert isinstance(usage.get(key, 0), int) and usage.get(key, 0) >= 0


async def test_is_a_chat_model(backend: Backend) -> None:
    model = backend.answering()
    assert isinstance(model, ChatModel)
    assert model.model_id and model.context_window > 0 and isinstance(model.supports_compaction, bool)
    assert model.count_tokens(tool_request()) > model.count_tokens(answer_request()) > 0


async def test_a_text_answer_accumulates_into_a_valid_assistant_message(backend: Backend) -> None:
    events, acc = await _stream(backend.answering(), answer_request())
    _assert_well_formed(events)
    assert acc.started and acc.finished
    message = acc.message
    assert message["role"] == "assistant" and message["type"] == "message" and message["id"]
    assert message["stop_reason"] == "end_turn"
    assert message["content"] and all(b["type"] == "text" and b["text"] for b in message["content"])
    assert acc.text == "".join(
        e["delta"]["text"] for e in events if e["type"] == "content_block_delta" and e["delta"]["type"] == "text_delta"
    )
    _assert_usage(message["usage"])


async def test_tool_use_blocks_have_ids_and_parsed_inputs(backend: Backend) -> None:
    request = tool_request()
    events, acc = await _stream(backend.calling_a_tool(), request)
    _assert_well_formed(events)
    message = acc.message
    assert message["stop_reason"] == "tool_use"
    tool_uses = [b for b in message["content"] if b["type"] == "tool_use"]
    assert tool_uses
    offered = {t["name"] for t in request.tools}
    for block in tool_uses:
        assert isinstance(block["id"], str) and block["id"].startswith("toolu_")
        assert block["name"] in offered
        assert isinstance(block["input"], dict) and block["input"]
    assert len({b["id"] for b in tool_uses}) == len(tool_uses)
    assert {"query"} <= set(next(b for b in tool_uses if b["name"] == "search_documents")["input"])
    _assert_usage(message["usage"])
    # a cut-off tool round keeps no tool_use (the partial-turn rule the agent stores by)
    assert all(b["type"] != "tool_use" for b in acc.partial_blocks(keep_open_text=True))


async def test_complete_returns_the_whole_message(backend: Backend) -> None:
    message = await backend.answering().complete(answer_request())
    assert message["role"] == "assistant" and message["stop_reason"] == "end_turn"
    assert "".join(b["text"] for b in message["content"] if b["type"] == "text")
    _assert_usage(message["usage"])


async def test_throttling_mid_stream_is_throttled_after_the_text_so_far(backend: Backend) -> None:
    model = backend.throttled_mid_stream()
    acc = MessageAccumulator()
    with pytest.raises(Throttled) as info:
        async for event in model.stream(answer_request()):
            acc.feed(event)
    assert isinstance(info.value, DocchatError) and info.value.code == "throttled"
    assert acc.text == "Revenue" and not acc.finished


async def test_an_upstream_failure_is_an_upstream_error(backend: Backend) -> None:
    model = backend.failing()
    with pytest.raises(UpstreamError) as info:
        await model.complete(answer_request())
    assert not isinstance(info.value, Throttled)
    assert isinstance(info.value, DocchatError) and info.value.message


async def test_the_local_model_reports_honest_usage_without_a_cache() -> None:
    model = LocalModel()
    for request in (answer_request(), tool_request()):
        _, acc = await _stream(model, request)
        usage = acc.usage
        assert usage["input_tokens"] == model.count_tokens(request)
        assert usage["cache_read_input_tokens"] == 0 and usage["cache_creation_input_tokens"] == 0
    # the same request twice: still nothing "read from a cache"
    _, again = await _stream(model, tool_request())
    assert again.usage["cache_read_input_tokens"] == 0
