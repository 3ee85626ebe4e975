"""document_summarizer in the pipeline: the embedded extractive summary and Claude's map-reduce summary against
the fake Bedrock runtime (throttling retried, failures → the extractive summary and a failed step, never a
failed document), stored on the document item and returned by the document endpoints' store calls."""

from __future__ import annotations

import json
from collections.abc import Iterator

import anthropic
import pytest

from chat.models.replies import Reply, Text, reply_events
from ingest.pipeline import Pipeline
from ingest.results import original_key
from ingest.steps.summarize import PageDigest
from ingest.steps.summarize_bedrock import AnthropicSummaryModel, Budget, bedrock_summary, page_inputs
from ingest.worker import Worker
from store.errors import Conflict
from store.workflows import NewDocument
from tests.chat.fake_bedrock import FakeBedrock
from tests.ingest.docfactory import styled_pdf

MODEL_ID = "us.anthropic.claude-haiku-4-5-20251001-v1:0"
BODY = [
    "The inspection covered every span of the harbor bridge during the spring survey.",
    "Corrosion was found on the north pylon and on two expansion joints of the deck.",
    "Call the site office at john@example.com before any repair work starts on the deck.",
]
PAGES = [
    [(24, "Harbor Bridge Inspection Report"), (11, BODY[0]), (11, BODY[1])],
    [(16, "1. Findings"), (11, BODY[2]), (11, BODY[1])],
    [(16, "2. Recommendations"), (11, BODY[0])],
]


@pytest.fixture
def fake() -> Iterator[FakeBedrock]:
    with FakeBedrock() as server:
        yield server


def _client(fake: FakeBedrock) -> anthropic.AsyncAnthropicBedrock:
    return anthropic.AsyncAnthropicBedrock(aws_access_key="AKIDEXAMPLE", aws_secret_key="x" * 40,
                                           aws_region="us-east-1", base_url=fake.url, max_retries=0)


def _push_text(fake: FakeBedrock, text: str) -> None:
    fake.push([e for e in reply_events(Reply(Text(text)), model=MODEL_ID, message_id="msg_1", input_tokens=100)
               if isinstance(e, dict)])


def _submit(store, blobs, queue, tmp_path, pages=PAGES):
    pid = store.create_project("alice", "P")["project_id"]
    data = styled_pdf(pages)
    key = original_key(pid, "d", ".pdf")
    blobs.put(key, data)
    created = store.create_workflow(NewDocument(
        owner="alice", project_id=pid, file_name="bridge.pdf", file_type="application/pdf", file_kind="pdf",
        file_key=key, file_uri="blob://" + key, size=len(data), sha256="a" * 64, page_count=len(pages),
        language="en", priority="high"))
    queue.send({"workflow_id": created.workflow_id, "document_id": created.document_id, "project_id": pid},
               priority="high")
    return pid, created


async def _run(settings, store, blobs, queue, indexer, clock, model=None):
    pipeline = Pipeline(settings, store, blobs, indexer, summary_model=model)
    return await Worker(store=store, queue=queue, pipeline=pipeline, settings=settings, clock=clock).run_once()


async def test_embedded_default_stores_an_extractive_summary_on_the_document(
        settings, store, blobs, queue, indexer, clock, tmp_path):
    pid, c = _submit(store, blobs, queue, tmp_path)
    assert await _run(settings, store, blobs, queue, indexer, clock) == "completed"
    step = store.get_workflow("alice", c.workflow_id)["steps"]["document_summarizer"]
    assert step["status"] == "completed" and "extractive" in step["reason"]
    [doc] = store.list_documents(pid).items
    summary = doc["summary"]
    assert doc["status"] == "completed" and summary == store.document_summary(pid, c.document_id)
    assert summary["kind"] == "extractive" and summary["title"] == "Harbor Bridge Inspection Report"
    assert [(h["level"], h["text"], h["page"]) for h in summary["outline"]] == [
        (1, "Harbor Bridge Inspection Report", 1), (2, "1. Findings", 2), (2, "2. Recommendations", 3)]
    assert summary["lead"][:2] == BODY[:2] and BODY[0] in summary["text"]


async def test_bedrock_summary_from_masked_pages_through_the_fake_runtime(
        settings, store, blobs, queue, indexer, clock, tmp_path, fake):
    settings = settings.with_overrides(analysis_model="bedrock")
    pid, c = _submit(store, blobs, queue, tmp_path)
    fake.push_http_error(429, "ThrottlingException", "Too many requests")  # retried
    _push_text(fake, "An inspection report of the harbor bridge: corrosion on the north pylon; write [EMAIL_1].")
    model = AnthropicSummaryModel(_client(fake), MODEL_ID)
    assert await _run(settings, store, blobs, queue, indexer, clock, model) == "completed"
    summary = store.document_summary(pid, c.document_id)
    assert summary["kind"] == "generated" and summary["model"] == MODEL_ID
    assert summary["text"].startswith("An inspection report of the harbor bridge")
    assert summary["outline"][0]["text"] == "Harbor Bridge Inspection Report"  # the owner's view
    assert summary["usage"]["calls"] == 1 and summary["usage"]["input_tokens"] == 100
    assert len(fake.requests) == 2  # one throttled, one answered: the whole document fits one call
    sent = json.dumps([r.body for r in fake.requests])
    assert "john@example.com" not in sent and "[EMAIL_1]" in sent and BODY[1] in sent
    body = fake.requests[-1].body
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    step = store.get_workflow("alice", c.workflow_id)["steps"]["document_summarizer"]
    assert step["status"] == "completed" and "1 calls" in step["reason"]


async def test_a_failing_bedrock_summary_keeps_the_document_and_stores_the_extractive_one(
        settings, store, blobs, queue, indexer, clock, tmp_path, fake):
    settings = settings.with_overrides(analysis_model="bedrock")
    pid, c = _submit(store, blobs, queue, tmp_path)
    fake.push_http_error(400, "ValidationException", "malformed request")
    model = AnthropicSummaryModel(_client(fake), MODEL_ID)
    assert await _run(settings, store, blobs, queue, indexer, clock, model) == "completed"
    view = store.get_workflow("alice", c.workflow_id)
    assert view["status"] == "completed"
    step = view["steps"]["document_summarizer"]
    assert step["status"] == "failed" and "extractive summary was stored instead" in step["error"]
    assert store.document_summary(pid, c.document_id)["kind"] == "extractive"


class CountingModel:
    model_id = "counting"

    def __init__(self) -> None:
        self.prompts: list[str] = []

    async def complete(self, system: str, prompt: str, *, max_tokens: int):
        from ingest.steps.summarize_bedrock import Completion

        self.prompts.append(prompt)
        return Completion(f"summary {len(self.prompts)}", {"input_tokens": len(prompt) // 4, "output_tokens": 5})


async def test_long_documents_are_summarised_part_by_part_within_the_budget() -> None:
    digests = [PageDigest(p, body=[f"Page {p} talks about topic {p}. " * 200]) for p in range(1, 301)]
    budget = Budget(call_input_tokens=4000, output_tokens=200, document_tokens=60_000, concurrency=3)
    model = CountingModel()
    rec = await bedrock_summary(model, digests, file_name="long.pdf", page_count=300, mask=lambda t: t,
                                budget=budget, sleep=lambda s: None)
    parts = [p for p in model.prompts if p.startswith("Summarise this part")]
    reduces = [p for p in model.prompts if p.startswith("These are summaries")]
    assert len(parts) > 1 and len(reduces) >= 1 and rec["text"] == f"summary {len(model.prompts)}"
    assert all(len(p) // 4 <= budget.call_input_tokens for p in model.prompts)
    sent = sum(len(p) // 4 for p in model.prompts) + budget.output_tokens * len(model.prompts)
    assert sent <= budget.document_tokens  # 300 pages × 1.2k tokens are clipped to fit
    assert "Page 300" in " ".join(parts)  # every page is represented, none dropped
    assert rec["usage"]["calls"] == len(model.prompts)


def test_page_inputs_use_the_page_summary_when_the_analysis_wrote_one() -> None:
    digests = [PageDigest(1, body=["long text"], summary="short page summary"), PageDigest(2, body=["other"])]
    budget = Budget(4000, 200, 60_000)
    assert page_inputs(digests, lambda t: t.upper(), budget) == [(1, "SHORT PAGE SUMMARY"), (2, "OTHER")]


async def test_storing_a_summary_needs_the_current_claim(settings, store, blobs, queue, tmp_path):
    pid, c = _submit(store, blobs, queue, tmp_path)
    _, claim = store.claim(c.document_id, c.workflow_id, lease_s=30)
    store.put_document_summary(claim, {"kind": "extractive", "text": "x"})
    stale = type(claim)(claim.workflow_id, claim.document_id, claim.project_id, "someone-else", 1, claim.item)
    with pytest.raises(Conflict):
        store.put_document_summary(stale, {"kind": "extractive", "text": "y"})
    assert store.document_summary(pid, c.document_id)["text"] == "x"
