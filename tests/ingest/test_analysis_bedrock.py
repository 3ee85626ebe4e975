"""Claude segment analysis against the loopback fake Bedrock runtime (the real AsyncAnthropicBedrock client):
the request (image, masked text, cached system prompt and tool schema), the layout it yields, throttling and
malformed answers (retried, then a failed step — never a hung workflow), the token budget, usage."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import anthropic
import pytest

from chat.models.replies import Reply, Text, ToolUse, Usage, reply_events
from ingest.analysis.bedrock import TOOL_NAME, AnalysisFailed, AnalysisThrottled, BedrockPageAnalyzer
from ingest.pipeline import Pipeline
from ingest.results import analysis_key
from ingest.worker import Worker
from tests.chat.fake_bedrock import FakeBedrock
from tests.ingest.test_worker import _submit

MODEL = "us.anthropic.claude-haiku-4-5-20251001-v1:0"


@pytest.fixture
def fake() -> Iterator[FakeBedrock]:
    with FakeBedrock() as server:
        yield server


def _client(fake: FakeBedrock) -> anthropic.AsyncAnthropicBedrock:
    return anthropic.AsyncAnthropicBedrock(aws_access_key="AKIDEXAMPLE", aws_secret_key="secret",
                                           aws_region="us-east-1", base_url=fake.url, max_retries=0)


def _answer(page: int, **usage: int) -> list[Any]:
    layout = {"summary": f"Page {page} reports revenue.",
              "blocks": [{"type": "heading", "level": 1, "text": "Revenue", "bbox": [72, 60, 300, 80], "lines": [0]},
                         {"type": "paragraph", "text": "Revenue grew.", "bbox": [72, 90, 500, 120], "lines": [1]},
                         {"type": "figure", "text": "", "bbox": [72, 130, 500, 900],
                          "description": "A bar chart of revenue: 2022 $10M, 2023 $12M."}],
              "key_values": [{"key": "Contact", "value": "[PHONE_1]", "bbox": [72, 700, 300, 710]}]}
    return reply_events(Reply(ToolUse(TOOL_NAME, layout), usage=Usage(**usage) if usage else None),
                        model=MODEL, message_id=f"msg_{page}", input_tokens=100)


def _inputs(pages: list[int]) -> dict[int, dict[str, Any]]:
    return {p: {"page": p, "width": 612, "height": 792, "png": b"\x89PNG fake",
                "lines": [{"text": "Revenue", "bbox": [72, 60, 300, 80]},
                          {"text": "Call [PHONE_1] for details.", "bbox": [72, 90, 500, 120]}],
                "local": {"text_source": "text_layer"}} for p in pages}


def _analyzer(fake: FakeBedrock, **kw: Any) -> BedrockPageAnalyzer:
    return BedrockPageAnalyzer(_client(fake), model_id=MODEL, backoff_s=0.01, close_client=True, **kw)


async def _run(analyzer: BedrockPageAnalyzer, pages: list[int]) -> tuple[dict[int, Any], dict[str, Any]]:
    inputs = _inputs(pages)
    out: dict[int, Any] = {}
    usage = await asyncio.wait_for(analyzer.analyze_pages(pages, inputs.__getitem__, out.__setitem__), 30)
    return out, usage


async def test_pages_come_back_as_layout_json_with_cached_prompt_and_usage(fake: FakeBedrock) -> None:
    for p in (1, 2):
        fake.push(_answer(p, input_tokens=300, output_tokens=120, cache_read_input_tokens=2000))
    out, usage = await _run(_analyzer(fake, concurrency=2), [1, 2])
    assert sorted(out) == [1, 2]
    lay = out[1]
    assert lay["source"] == "bedrock" and lay["model"] == MODEL and lay["summary"]
    assert [b["type"] for b in lay["blocks"]] == ["heading", "paragraph", "figure"]
    assert lay["blocks"][0]["level"] == 1 and lay["blocks"][0]["lines"] == [0]
    assert lay["blocks"][2]["bbox"] == [72.0, 130.0, 500.0, 792.0]  # clamped to the page
    assert "bar chart" in lay["blocks"][2]["description"]
    assert lay["reading_order"] == ["p1-b1", "p1-b2", "p1-b3"]
    assert usage["requests"] == 2 and usage["pages"] == 2 and usage["retries"] == 0
    assert usage["input_tokens"] == 600 and usage["cache_read_input_tokens"] == 4000 and usage["output_tokens"] > 0
    req = fake.requests[0]
    assert req.path == f"/model/{MODEL}/invoke-with-response-stream"
    body = req.body
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert body["tools"][0]["name"] == TOOL_NAME and body["tool_choice"] == {"type": "tool", "name": TOOL_NAME}
    content = body["messages"][0]["content"]
    assert content[0]["type"] == "image" and content[0]["source"]["media_type"] == "image/png"
    assert "L1 [72,90,500,120] Call [PHONE_1] for details." in content[1]["text"]
    # the system prompt and schema are byte-identical across pages: one cached prefix
    assert fake.requests[1].body["system"] == body["system"] and fake.requests[1].body["tools"] == body["tools"]


async def test_throttling_is_retried_with_backoff(fake: FakeBedrock) -> None:
    fake.push_http_error(429, "ThrottlingException", "Too many requests")
    fake.push_http_error(503, "ServiceUnavailableException", "busy")
    fake.push(_answer(1))
    out, usage = await _run(_analyzer(fake, max_retries=3), [1])
    assert list(out) == [1] and usage["retries"] == 2 and usage["throttled"] == 2 and usage["requests"] == 3


async def test_throttled_throughout_fails_retryable(fake: FakeBedrock) -> None:
    for _ in range(3):
        fake.push_http_error(429, "ThrottlingException", "Too many requests")
    with pytest.raises(AnalysisThrottled):
        await _run(_analyzer(fake, max_retries=2), [1])
    assert len(fake.requests) == 3


async def test_malformed_answers_are_asked_again_then_fail(fake: FakeBedrock) -> None:
    bad_json = reply_events(Reply(ToolUse(TOOL_NAME, {"blocks": []})), model=MODEL, message_id="m", input_tokens=5)
    for e in bad_json:  # cut the tool input: JSON that does not parse
        if isinstance(e, dict) and e.get("type") == "content_block_delta":
            e["delta"]["partial_json"] = '{"blocks": [{"type": '
    fake.push(bad_json)
    fake.push(reply_events(Reply(Text("Here is the layout.")), model=MODEL, message_id="m", input_tokens=5))
    fake.push(reply_events(Reply(ToolUse(TOOL_NAME, {"blocks": [{"type": "sidebar", "text": "x", "bbox": [0, 0, 1, 1]}],
                                                     "summary": ""})), model=MODEL, message_id="m", input_tokens=5))
    with pytest.raises(AnalysisFailed, match="does not fit the schema after 3 attempts"):
        await _run(_analyzer(fake, max_retries=2), [1])
    assert len(fake.requests) == 3


async def test_the_token_budget_stops_new_pages(fake: FakeBedrock) -> None:
    fake.push(_answer(1, input_tokens=900, output_tokens=200))
    out, usage = await _run(_analyzer(fake, concurrency=1, token_budget=1000), [1, 2, 3])
    assert list(out) == [1] and usage["pages_over_budget"] == 2 and len(fake.requests) == 1


# --- through the pipeline ------------------------------------------------------------------------------


def _bedrock_worker(settings, store, blobs, queue, indexer, clock, fake, **kw):
    settings = settings.with_overrides(analysis_model="bedrock", **kw)
    pipeline = Pipeline(settings, store, blobs, indexer,
                        analysis_model=lambda: BedrockPageAnalyzer.from_settings(_client(fake), settings))
    return Worker(store=store, queue=queue, pipeline=pipeline, settings=settings, clock=clock)


async def test_pipeline_writes_bedrock_layouts_and_figure_descriptions_are_searched(
        settings, store, blobs, queue, indexer, clock, tmp_path, fake):
    for p in range(1, 4):
        fake.push(_answer(p, input_tokens=50, output_tokens=40))
    _pid, c = _submit(store, blobs, queue, tmp_path)
    worker = _bedrock_worker(settings, store, blobs, queue, indexer, clock, fake, analysis_concurrency=2)
    assert await asyncio.wait_for(worker.run_once(), 60) == "completed"
    view = store.get_workflow("alice", c.workflow_id)
    step = view["steps"]["segment_analyzer"]
    assert step["status"] == "completed" and step["usage"]["pages"] == 3 and step["usage"]["requests"] == 3
    lay = json.loads(blobs.get(analysis_key(c.workflow_id, 2)))
    assert lay["source"] == "bedrock" and lay["summary"].endswith("reports revenue.")  # answers arrive in any order
    seg = store.get_segment(c.workflow_id, 2)
    assert seg["analysis_key"].endswith(analysis_key(c.workflow_id, 2))
    assert seg["image_analysis"][0]["description"].startswith("A bar chart of revenue")
    texts = [ch.text for ch in indexer.index.values()]
    assert any("Figure: A bar chart of revenue: 2022 $10M, 2023 $12M." in t for t in texts)
    # every page image went to the model
    assert all(r.body["messages"][0]["content"][0]["type"] == "image" for r in fake.requests)


async def test_pipeline_fails_the_step_on_malformed_answers(settings, store, blobs, queue, indexer, clock, tmp_path,
                                                           fake):
    for _ in range(8):
        fake.push(reply_events(Reply(Text("no tool")), model=MODEL, message_id="m", input_tokens=5))
    _pid, c = _submit(store, blobs, queue, tmp_path)
    worker = _bedrock_worker(settings, store, blobs, queue, indexer, clock, fake, analysis_max_retries=1,
                             analysis_concurrency=1)
    outcome = await asyncio.wait_for(worker.run_once(), 60)
    assert outcome != "completed"
    view = store.get_workflow("alice", c.workflow_id)
    step = view["steps"]["segment_analyzer"]
    assert step["status"] == "failed" and "no tool call after 2 attempts" in step["error"]
    assert view["status"] == "failed"


async def test_the_model_never_gets_an_unmasked_value(settings, store, blobs, queue, indexer, clock, tmp_path, fake):
    from ingest.results import original_key
    from store.workflows import NewDocument
    from tests.ingest.docfactory import text_pdf

    values = ["john@example.com", "010-1234-5678", "4111 1111 1111 1111"]
    pdf = text_pdf([["Contact report", f"Write to {values[0]} or call {values[1]}.", f"Card {values[2]} on file.",
                     "Revenue grew in the quarter."]])
    pid = store.create_project("alice", "P")["project_id"]
    key = original_key(pid, "d", ".pdf")
    blobs.put(key, pdf)
    created = store.create_workflow(NewDocument(
        owner="alice", project_id=pid, file_name="c.pdf", file_type="application/pdf", file_kind="pdf", file_key=key,
        file_uri="blob://" + key, size=len(pdf), sha256="a" * 64, page_count=1, language="en", priority="high"))
    queue.send({"workflow_id": created.workflow_id, "document_id": created.document_id, "project_id": pid},
               priority="high")
    fake.push(_answer(1))
    worker = _bedrock_worker(settings, store, blobs, queue, indexer, clock, fake)
    assert await asyncio.wait_for(worker.run_once(), 60) == "completed"
    [req] = fake.requests
    sent = json.dumps(req.body, ensure_ascii=False)
    assert not any(v in sent for v in values)
    assert "[EMAIL_1]" in sent and "[PHONE_1]" in sent
    # the owner's own view keeps the original text
    seg = json.loads(blobs.get(f"workflows/{created.workflow_id}/segments/0001.json"))
    assert values[0] in seg["text"]


def test_masked_lines_keep_the_line_count() -> None:
    from ingest.pii.masking import Placeholders
    from ingest.steps.segment_analyzer import masked_lines, plain_lines

    seg = {"lines": [{"text": "Call 010-1234-5678"}, {"text": "or mail a@b.example.com"}]}
    out = masked_lines(Placeholders())(seg)
    assert len(out) == 2 and "010-1234-5678" not in out[0] and "a@b.example.com" not in out[1]
    assert plain_lines(seg)[0] == "Call 010-1234-5678"
