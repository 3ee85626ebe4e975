"""BedrockModel with the real AsyncAnthropicBedrock client against a local fake Bedrock runtime."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import anthropic
import httpx
import pytest

from chat.app.factory import create_app
from chat.app.wiring import Services
from chat.core.prompt import SYSTEM_PROMPT, build_request
from chat.core.service import ChatService
from chat.core.tools import TOOLS
from chat.models.accumulator import MessageAccumulator
from chat.models.bedrock import COMPACTION_BETA, BedrockModel, model_supports_compaction
from chat.models.factory import build_chat_model
from chat.models.port import ModelRequest
from chat.models.replies import Reply, Text, Thinking, ToolUse, Usage, reply_events
from ingest.page_text import page_text
from ingest.steps.table_model import Table
from retrieval.types import BBox, Hit, SearchFilter
from store.clients import anthropic_bedrock_client as build_bedrock_client
from store.config import Settings
from store.errors import Throttled, UpstreamError
from tests.chat.chat_harness import (
    ALICE,
    Doc,
    FakeIngest,
    parse_sse,
    serve,
    session_store,
    settings_for,
)
from tests.chat.fake_bedrock import ExceptionFrame, FakeBedrock

MODEL_ID = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"


@pytest.fixture
def fake() -> Iterator[FakeBedrock]:
    with FakeBedrock() as server:
        yield server


def _client(fake: FakeBedrock) -> anthropic.AsyncAnthropicBedrock:
    return anthropic.AsyncAnthropicBedrock(
        aws_access_key="AKIDEXAMPLE",
        aws_secret_key="wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
        aws_region="us-east-1",
        base_url=fake.url,
        max_retries=0,
    )


def _events(reply: Reply) -> list[dict]:
    return [e for e in reply_events(reply, model=MODEL_ID, message_id="msg_bdrk_1", input_tokens=50)]


def _request(**kw) -> ModelRequest:
    messages = [{"role": "user", "content": [{"type": "text", "text": "2023년 매출은?"}]}]
    return build_request(SYSTEM_PROMPT, TOOLS, messages, max_tokens=512, **kw)


async def _run(model: BedrockModel, request: ModelRequest) -> tuple[list[dict], MessageAccumulator]:
    acc = MessageAccumulator()
    seen = []
    async for e in model.stream(request):
        seen.append(e)
        acc.feed(e)
    return seen, acc


async def test_streams_thinking_text_and_tool_use_verbatim(fake: FakeBedrock) -> None:
    fake.push(
        _events(
            Reply(
                Thinking("", signature="EqQBCkYIARgCIkDsig=="),
                Text("검색해 볼게요."),
                ToolUse("search_documents", {"query": "2023년 매출", "project_id": "p-1"}, id="toolu_01A", chunk=7),
                usage=Usage(
                    input_tokens=12, output_tokens=40, cache_read_input_tokens=3000, cache_creation_input_tokens=250
                ),
            )
        )
    )
    model = BedrockModel(_client(fake), MODEL_ID)
    events, acc = await _run(model, _request(thinking={"type": "enabled", "budget_tokens": 2048}))
    assert all(isinstance(e, dict) for e in events)
    msg = acc.message
    assert msg["content"] == [
        {"type": "thinking", "thinking": "", "signature": "EqQBCkYIARgCIkDsig=="},
        {"type": "text", "text": "검색해 볼게요."},
        {
            "type": "tool_use",
            "id": "toolu_01A",
            "name": "search_documents",
            "input": {"query": "2023년 매출", "project_id": "p-1"},
        },
    ]
    assert msg["stop_reason"] == "tool_use"
    assert msg["usage"]["cache_read_input_tokens"] == 3000
    assert msg["usage"]["cache_creation_input_tokens"] == 250
    assert msg["usage"]["output_tokens"] == 40
    # what went over the wire
    [req] = fake.requests
    assert req.path == f"/model/{MODEL_ID}/invoke-with-response-stream"
    assert req.headers["Authorization"].startswith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
    body = req.body
    assert body["anthropic_version"]  # set by the SDK for Bedrock
    assert "model" not in body and "stream" not in body
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert [t["name"] for t in body["tools"]] == ["list_documents", "read_page", "search_documents"]
    assert body["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert body["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    assert "anthropic_beta" not in body


async def test_betas_and_compaction_use_the_beta_endpoint_and_pass_blocks_back(fake: FakeBedrock) -> None:
    fake.push(
        [
            {
                "type": "message_start",
                "message": {
                    "id": "m1",
                    "type": "message",
                    "role": "assistant",
                    "model": MODEL_ID,
                    "content": [],
                    "stop_reason": None,
                    "usage": {"input_tokens": 9, "output_tokens": 1},
                },
            },
            {"type": "content_block_start", "index": 0, "content_block": {"type": "compaction", "content": ""}},
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "compaction_delta", "content": "요약: 사용자는 매출을 물었다."},
            },
            {"type": "content_block_stop", "index": 0},
            {
                "type": "content_block_start",
                "index": 1,
                "content_block": {"type": "redacted_thinking", "data": "ENCRYPTED=="},
            },
            {"type": "content_block_stop", "index": 1},
            {"type": "content_block_start", "index": 2, "content_block": {"type": "text", "text": ""}},
            {"type": "content_block_delta", "index": 2, "delta": {"type": "text_delta", "text": "12% [S1]"}},
            {"type": "content_block_stop", "index": 2},
            {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 7}},
            {"type": "message_stop"},
        ]
    )
    model = BedrockModel(_client(fake), "us.anthropic.claude-sonnet-4-6")
    assert model.supports_compaction
    cm = {"edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 150000}}]}
    _, acc = await _run(model, _request(context_management=cm))
    assert acc.message["content"] == [
        {"type": "compaction", "content": "요약: 사용자는 매출을 물었다."},
        {"type": "redacted_thinking", "data": "ENCRYPTED=="},
        {"type": "text", "text": "12% [S1]"},
    ]
    body = fake.requests[0].body
    assert body["anthropic_beta"] == [COMPACTION_BETA]
    assert body["context_management"] == cm


async def test_extra_betas_are_passed_through(fake: FakeBedrock) -> None:
    fake.push(_events(Reply(Text("ok"))))
    model = BedrockModel(_client(fake), MODEL_ID)
    await _run(model, _request(betas=("interleaved-thinking-2025-05-14",)))
    assert fake.requests[0].body["anthropic_beta"] == ["interleaved-thinking-2025-05-14"]


async def test_throttling_exception_frame_mid_stream(fake: FakeBedrock) -> None:
    events = _events(Reply(Text("부분 답변입니다.", chunk=100)))
    fake.push([*events[:3], ExceptionFrame("throttlingException", "Too many tokens")])
    model = BedrockModel(_client(fake), MODEL_ID)
    acc = MessageAccumulator()
    with pytest.raises(Throttled):
        async for e in model.stream(_request()):
            acc.feed(e)
    assert acc.text == "부분 답변입니다."


async def test_model_stream_error_frame_is_upstream_error(fake: FakeBedrock) -> None:
    fake.push([*_events(Reply(Text("x")))[:1], ExceptionFrame("modelStreamErrorException", "model crashed")])
    model = BedrockModel(_client(fake), MODEL_ID)
    with pytest.raises(UpstreamError) as info:
        await model.complete(_request())
    assert not isinstance(info.value, Throttled)


async def test_http_errors_are_translated(fake: FakeBedrock) -> None:
    model = BedrockModel(_client(fake), MODEL_ID)
    fake.push_http_error(429, "ThrottlingException", "Too many requests")
    with pytest.raises(Throttled):
        await model.complete(_request())
    fake.push_http_error(400, "ValidationException", "messages: tool_result without tool_use")
    with pytest.raises(UpstreamError) as info:
        await model.complete(_request())
    assert "tool_result" in info.value.message
    fake.push_http_error(503, "ServiceUnavailableException", "busy")
    with pytest.raises(Throttled):
        await model.complete(_request())


async def test_unreachable_endpoint_is_upstream_error() -> None:
    client = anthropic.AsyncAnthropicBedrock(
        aws_access_key="AKIDEXAMPLE",
        aws_secret_key="x",
        aws_region="us-east-1",
        base_url="http://127.0.0.1:9",
        max_retries=0,
    )
    with pytest.raises(UpstreamError):
        await BedrockModel(client, MODEL_ID).complete(_request())


def test_client_and_model_built_from_settings(tmp_path) -> None:
    settings = Settings.from_env(
        env={},
        data_dir=tmp_path,
        chat_model="bedrock",
        bedrock_region="eu-central-1",
        bedrock_base_url="http://127.0.0.1:1",
        bedrock_model_id="eu.anthropic.claude-opus-4-6-v1",
    )
    client = build_bedrock_client(settings)
    assert client.aws_region == "eu-central-1"
    assert str(client.base_url).startswith("http://127.0.0.1:1")
    model = build_chat_model(settings)
    assert isinstance(model, BedrockModel)
    assert model.model_id == "eu.anthropic.claude-opus-4-6-v1"
    assert model.supports_compaction
    title = build_chat_model(settings, purpose="title")
    assert title.model_id == settings.chat.bedrock_title_model_id
    assert not model_supports_compaction(settings.chat.bedrock_title_model_id)
    off = build_chat_model(settings.with_overrides(bedrock_compaction=False))
    assert not off.supports_compaction


async def test_stopping_early_closes_the_stream(fake: FakeBedrock) -> None:
    fake.push(_events(Reply(Text("긴 답변 " * 200, chunk=10))))
    fake.push(_events(Reply(Text("다음"))))
    model = BedrockModel(_client(fake), MODEL_ID)
    gen = model.stream(_request())
    async for e in gen:
        if e["type"] == "content_block_delta":
            break
    await gen.aclose()
    # the connection pool is still usable for the next request
    msg = await model.complete(_request())
    assert msg["content"] == [{"type": "text", "text": "다음"}]


# --- tables reach Claude as Markdown ----------------------------------------------------------------------

SALES_MD = (
    "Table 1: Net sales (in millions)\n| Region | 2023 | 2022 |\n|---|---|---|\n"
    "| Americas | $120 | $110 |\n| Europe | 80 | 75 |"
)
#: a table chunk as the chunker writes it: caption, header, separator, a run of rows
CHUNK_MD = "Table 1: Net sales (in millions)\n| Region | 2023 | 2022 |\n|---|---|---|\n| Americas | $120 | $110 |"


def _table_page() -> dict:
    """A stored segment: a heading, a caption + table (lines with boxes, and its table grid), a sentence."""
    table = Table(
        page=2,
        columns=3,
        header=[["Region", "2023", "2022"]],
        rows=[["Americas", "$120", "$110"], ["Europe", "80", "75"]],
        caption="Table 1: Net sales (in millions)",
        unit="(in millions)",
        caption_bbox=(72, 110, 260, 120),
        header_boxes=[[(72, 125, 110, 135), (300, 125, 330, 135), (370, 125, 400, 135)]],
        row_boxes=[
            [(72, 137, 120, 147), (300, 137, 330, 147), (370, 137, 400, 147)],
            [(72, 149, 110, 159), (310, 149, 330, 159), (380, 149, 400, 159)],
        ],
    )
    lines = [
        ("Results by region", (72, 80, 200, 90)),
        ("Table 1: Net sales (in millions)", (72, 110, 260, 120)),
        ("Region 2023 2022", (72, 125, 400, 135)),
        ("Americas $ 120 $ 110", (72, 137, 400, 147)),
        ("Europe 80 75", (72, 149, 400, 159)),
        ("Sales grew in both regions.", (72, 180, 300, 190)),
    ]
    return {
        "page": 2,
        "text": "\n".join(t for t, _ in lines),
        "table_grids": [table.to_json()],
        "lines": [{"text": t, "bbox": list(b)} for t, b in lines],
    }


class _TableSearch:
    async def search(self, query: str, flt: SearchFilter, *, k: int = 8, mode: str = "hybrid") -> list[Hit]:
        return [Hit("d1:00003", "d1", "annual.pdf", 2, 2, CHUNK_MD, 1.0, "p1", bbox=BBox(2, 72.0, 110.0, 400.0, 147.0))]


async def _ask_over_bedrock(fake: FakeBedrock, tmp_path: Path, ingest: FakeIngest, question: str) -> list:
    """One question through the real agent, app and BedrockModel against the fake runtime; the SSE events."""
    settings = settings_for(tmp_path)
    model = BedrockModel(_client(fake), MODEL_ID)
    chat = ChatService(
        settings=settings, sessions=session_store(settings), model=model, retriever=_TableSearch(), ingest=ingest
    )
    app = create_app(
        settings,
        services=Services(settings=settings, dependencies={"chat": chat}, on_start=[chat.start], on_stop=[chat.stop]),
    )
    async with serve(app) as base, httpx.AsyncClient(base_url=base, headers=ALICE, timeout=20) as c:
        sid = (await c.post("/v1/sessions", json={"project_id": "p1"})).json()["session_id"]
        r = await c.post(f"/v1/sessions/{sid}/messages", json={"text": question})
    return parse_sse(r.content)


async def test_markdown_tables_in_tool_results_reach_bedrock_intact(fake: FakeBedrock, tmp_path: Path) -> None:
    """A search hit with a table chunk and a read_page of a page with a table, through the real agent and
    request layout: the request body Bedrock receives has both tables' Markdown verbatim in their elements."""
    page = page_text(_table_page())  # what ingest's read_page returns for this page
    assert SALES_MD in page and "Americas $ 120" not in page
    ingest = FakeIngest(projects={"p1": "alice"})
    ingest.docs["d1"] = Doc("d1", "p1", "alice", "annual.pdf", ["Cover page", page])
    fake.push(
        _events(
            Reply(
                ToolUse("search_documents", {"query": "net sales by region"}, id="toolu_S"),
                ToolUse("read_page", {"document_id": "d1", "page": 2}, id="toolu_P"),
            )
        )
    )
    fake.push(_events(Reply(Text("Americas net sales were $120 million in 2023 [S1]."))))
    events = await _ask_over_bedrock(fake, tmp_path, ingest, "What were net sales in the Americas?")
    assert events[-1][0] == "done" and events[-1][1]["stop_reason"] == "end_turn", events[-1]
    assert len(fake.requests) == 2
    results = {
        b["tool_use_id"]: b["content"]
        for b in fake.requests[1].body["messages"][-1]["content"]
        if b["type"] == "tool_result"
    }
    assert set(results) == {"toolu_S", "toolu_P"}
    search, read = results["toolu_S"], results["toolu_P"]
    if isinstance(search, list):  # a tool_result content may travel as text blocks
        search = "".join(b["text"] for b in search)
    if isinstance(read, list):
        read = "".join(b["text"] for b in read)
    doc = re.search(
        r'<document ref="S1" document_id="d1" file_name="annual.pdf" page="2"[^>]*>\n(.*?)\n</document>',
        search,
        re.DOTALL,
    )
    assert doc is not None and doc.group(1) == CHUNK_MD, search
    pg = re.search(
        r'<page ref="P1" document_id="d1" file_name="annual.pdf" page="2" page_count="2">\n(.*?)\n</page>',
        read,
        re.DOTALL,
    )
    assert pg is not None and pg.group(1) == page, read
    assert "Results by region\n\n" + SALES_MD + "\n\nSales grew in both regions." in pg.group(1)


async def test_the_answer_rules_reach_bedrock_and_a_decline_cites_nothing(fake: FakeBedrock, tmp_path: Path) -> None:
    """The system block Bedrock receives carries the reader's rules (decline in the user's language, the question's
    named document picks the document, a receipt's total is the grand total, tables read by row × header), and a
    scripted decline after a search that found only another company's figures ends with no citation."""
    ingest = FakeIngest(projects={"p1": "alice"})
    ingest.docs["d1"] = Doc("d1", "p1", "alice", "annual.pdf", ["Cover page", "Apple net sales"])
    fake.push(_events(Reply(ToolUse("search_documents", {"query": "Tesla revenue 2022"}, id="toolu_S"))))
    decline = "The documents don't say what Tesla's revenue in 2022 was; they are Apple's filings."
    fake.push(_events(Reply(Text(decline))))
    events = await _ask_over_bedrock(fake, tmp_path, ingest, "What was Tesla's revenue in 2022?")
    assert events[-1][0] == "done", events[-1]
    assert not [e for e in events if e[0] == "citation"], events
    system = fake.requests[0].body["system"]
    text = system if isinstance(system, str) else "".join(b["text"] for b in system)
    assert text == SYSTEM_PROMPT
    for rule in (
        "If no tool result supports an answer",  # decline …
        "say so plainly in the user's language",
        "cite nothing",
        "Never answer with figures of a different company",
        "that picks the document, it is not what is asked",  # … a named document …
        "A receipt's total is the grand total charged",  # … the grand total …
        "read a value by its row label and column header",  # … tables
    ):
        assert rule in text, rule
    assert fake.requests[0].body["tools"] and {t["name"] for t in fake.requests[0].body["tools"]} >= {
        "search_documents",
        "read_page",
    }
