"""Workers: idempotent claims, crash + redelivery finishing exactly once, retry vs permanent, DLQ."""

from __future__ import annotations

import pytest

from ingest.pipeline import Pipeline
from ingest.results import original_key
from ingest.sample_docs import write_text_pdf
from ingest.worker import Worker, backoff_seconds, classify, sweep
from store.errors import InvalidInput, NotFound, PermanentError, RetryableError, Throttled
from store.workflows import NewDocument

PAGES = 3


class Crash(BaseException):
    """A simulated worker death (not an Exception: nothing in the worker may catch and 'handle' it)."""


def _submit(store, blobs, queue, tmp_path, *, pages=PAGES, name="doc.pdf", sha="f" * 64):
    pid = store.create_project("alice", "P")["project_id"]
    path = write_text_pdf(tmp_path / name, pages, lines=12)
    key = original_key(pid, "d", ".pdf")
    blobs.put(key, path.read_bytes())
    created = store.create_workflow(NewDocument(
        owner="alice", project_id=pid, file_name=name, file_type="application/pdf", file_kind="pdf", file_key=key,
        file_uri="blob://" + key, size=path.stat().st_size, sha256=sha, page_count=pages, language="en",
        priority="high"))
    queue.send({"workflow_id": created.workflow_id, "document_id": created.document_id, "project_id": pid},
               priority="high")
    return pid, created


def _worker(settings, store, blobs, queue, indexer, clock, fault=None):
    pipeline = Pipeline(settings, store, blobs, indexer, fault=fault)
    return Worker(store=store, queue=queue, pipeline=pipeline, settings=settings, clock=clock)


async def test_a_job_runs_every_step_and_completes(settings, store, blobs, queue, indexer, clock, tmp_path):
    pid, c = _submit(store, blobs, queue, tmp_path)
    worker = _worker(settings, store, blobs, queue, indexer, clock)
    assert await worker.run_once() == "completed"
    view = store.get_workflow("alice", c.workflow_id)
    assert view["status"] == "completed" and view["progress"] == 1.0 and view["total_segments"] == PAGES
    steps = view["steps"]
    for name in ("segment_prep", "format_parser", "segment_builder", "segment_analyzer", "chunking", "indexing"):
        assert steps[name]["status"] == "completed" and steps[name]["ended_at"], name
    assert steps["paddleocr_processor"]["status"] == "skipped"  # every page has a text layer
    for name in ("bda_processor", "transcribe", "webcrawler", "graph_builder"):
        assert steps[name]["status"] == "skipped" and steps[name]["reason"], name
    assert steps["document_summarizer"]["status"] == "completed"  # the extractive summary (embedded default)
    summary = store.list_documents(pid).items[0]["summary"]
    assert summary["kind"] == "extractive" and summary["page_count"] == PAGES and summary["text"]
    segs = store.list_segments(c.workflow_id).items
    assert [s["segment_index"] for s in segs] == [1, 2, 3] and all(s["source"] == "text_layer" for s in segs)
    assert blobs.exists(f"workflows/{c.workflow_id}/pages/0002.png")
    ids = sorted(indexer.index)
    assert ids and ids == [f"{c.document_id}:{i:05d}" for i in range(len(ids))]
    assert {ch.page_start for ch in indexer.index.values()} >= {1, 2, 3}
    assert queue.depth("high") == 0
    assert store.get_project("alice", pid)["counts"]["completed"] == 1


async def test_duplicate_message_is_a_noop(settings, store, blobs, queue, indexer, clock, tmp_path):
    pid, c = _submit(store, blobs, queue, tmp_path)
    queue.send({"workflow_id": c.workflow_id, "document_id": c.document_id}, priority="high")  # duplicate
    worker = _worker(settings, store, blobs, queue, indexer, clock)
    assert await worker.run_once() == "completed"
    upserts = indexer.upserts
    assert await worker.run_once() == "noop"
    assert indexer.upserts == upserts and queue.depth("high") == 0
    assert store.get_project("alice", pid)["counts"] == {"pending": 0, "in_progress": 0, "completed": 1, "failed": 0}


@pytest.mark.parametrize("point", [("segment_prep", 2), ("format_parser", 2), ("segment_builder:item", 2),
                                   ("chunking", None), ("indexing", None)])
async def test_crash_at_any_step_then_redelivery_finishes_exactly_once(
        point, settings, store, blobs, queue, indexer, clock, tmp_path):
    pid, c = _submit(store, blobs, queue, tmp_path)
    step, page = point

    def fault(name, n):
        if name == step and (page is None or n == page):
            raise Crash(name)

    with pytest.raises(Crash):
        await _worker(settings, store, blobs, queue, indexer, clock, fault=fault).run_once()
    assert store.get_workflow("alice", c.workflow_id)["status"] == "in_progress"
    survivor = _worker(settings, store, blobs, queue, indexer, clock)
    assert await survivor.run_once() is None  # message still invisible, lease still held
    clock.t += settings.queue.queue_visibility_seconds + 1  # the dead worker's lease and visibility run out
    assert await survivor.run_once() == "completed"
    view = store.get_workflow("alice", c.workflow_id)
    assert view["status"] == "completed" and view["attempts"] == 2
    assert store.get_project("alice", pid)["counts"] == {"pending": 0, "in_progress": 0, "completed": 1, "failed": 0}
    assert [s["segment_index"] for s in store.list_segments(c.workflow_id).items] == [1, 2, 3]
    ids = sorted(indexer.index)
    assert ids == [f"{c.document_id}:{i:05d}" for i in range(len(ids))]  # no duplicates, no gaps
    assert queue.depth("high") == 0
    assert await survivor.run_once() is None


async def test_retryable_error_backs_off_then_succeeds(settings, store, blobs, queue, indexer, clock, tmp_path):
    _, c = _submit(store, blobs, queue, tmp_path)
    indexer.fail_next = [Throttled("embedding service throttled")]
    worker = _worker(settings, store, blobs, queue, indexer, clock)
    assert await worker.run_once() == "retry"
    view = store.get_workflow("alice", c.workflow_id)
    assert view["status"] == "failed" and "throttled" in view["error"]
    assert await worker.run_once() is None  # backing off
    clock.t += 400
    assert await worker.run_once() == "completed"
    assert store.get_workflow("alice", c.workflow_id)["status"] == "completed"


async def test_retryable_errors_dead_letter_after_max_receives(settings, store, blobs, queue, indexer, clock,
                                                               tmp_path):
    _, c = _submit(store, blobs, queue, tmp_path)
    indexer.fail_next = [RetryableError("index unavailable") for _ in range(10)]
    worker = _worker(settings, store, blobs, queue, indexer, clock)
    outcomes = []
    for _ in range(4):
        outcomes.append(await worker.run_once())
        clock.t += 400
    assert outcomes == ["retry", "retry", "failed", None]
    view = store.get_workflow("alice", c.workflow_id)
    assert view["status"] == "failed" and view["error"].startswith("gave up after 3 attempts")
    assert queue.dead_letters("high") == [{"workflow_id": c.workflow_id, "document_id": c.document_id,
                                           "project_id": view["project_id"]}]
    assert store.claim(c.document_id, c.workflow_id, lease_s=30) == ("failed", None)


async def test_permanent_error_fails_at_once_with_the_reason(settings, store, blobs, queue, indexer, clock,
                                                             tmp_path):
    _, c = _submit(store, blobs, queue, tmp_path)
    indexer.fail_next = [PermanentError("the document is broken beyond repair")]
    worker = _worker(settings, store, blobs, queue, indexer, clock)
    assert await worker.run_once() == "failed"
    view = store.get_workflow("alice", c.workflow_id)
    assert view["status"] == "failed" and view["error"] == "the document is broken beyond repair"
    assert view["steps"]["indexing"]["status"] == "failed"
    assert queue.depth("high") == 0 and queue.dead_letters("high") == []


async def test_sweeper_requeues_a_workflow_whose_worker_and_message_vanished(
        settings, store, blobs, queue, indexer, clock, tmp_path):
    _, c = _submit(store, blobs, queue, tmp_path)
    msg = queue.receive(visibility_seconds=30)
    store.claim(c.document_id, c.workflow_id, lease_s=30)
    queue.delete(msg)  # the message is gone, the workflow is stuck in_progress
    assert sweep(store, queue, settings, now=clock.t) == 0  # lease still live
    clock.t += 100
    assert sweep(store, queue, settings, now=clock.t) == 1
    assert await _worker(settings, store, blobs, queue, indexer, clock).run_once() == "completed"


def test_error_classes_and_backoff():
    assert classify(Throttled()) == "retryable" and classify(TimeoutError()) == "retryable"
    assert classify(ConnectionResetError()) == "retryable"
    assert classify(InvalidInput("bad")) == "permanent" and classify(NotFound()) == "permanent"
    assert classify(PermanentError()) == "permanent"
    delays = [backoff_seconds(n) for n in (1, 2, 3, 10)]
    assert 5 <= delays[0] < delays[1] < delays[2] and delays[3] <= 375


async def test_parallel_rendering_renders_every_page_once(settings, store, blobs, queue, indexer, clock, tmp_path,
                                                          monkeypatch):
    import ingest.pipeline as pipeline_mod

    monkeypatch.setattr(pipeline_mod, "PARALLEL_MIN_PAGES", 1)
    rendered = []

    def fault(name, n):
        if name == "segment_prep":
            rendered.append(n)

    _, c = _submit(store, blobs, queue, tmp_path, pages=4)
    assert await _worker(settings, store, blobs, queue, indexer, clock, fault=fault).run_once() == "completed"
    assert sorted(rendered) == [1, 2, 3, 4]  # progress ticks: one per page, across both children
    assert all(blobs.exists(f"workflows/{c.workflow_id}/pages/{p:04d}.png") for p in range(1, 5))
    assert store.get_workflow("alice", c.workflow_id)["steps"]["segment_prep"]["done"] == 4


async def test_tables_are_detected_only_where_likely_and_kept_as_rows(settings, store, blobs, queue, indexer, clock,
                                                                     tmp_path, monkeypatch):
    import ingest.steps.table_grid as grid_mod
    import ingest.steps.tables as tables_mod

    asked = []

    def fake_find_tables(words, page):
        assert words  # read with the text layer, in the same sandboxed child (issue 18)
        asked.append([page])
        return [[["Item", "Qty"], ["bolts", "12"]]]

    def no_second_sandbox(*a, **k):
        raise AssertionError("the words of a likely table page come with the text layer")

    monkeypatch.setattr(grid_mod, "find_tables", fake_find_tables)
    monkeypatch.setattr(tables_mod, "pdf_tables", no_second_sandbox)
    rows = iter([["Quarterly figures"] + [f"{q} {q * 10} {q * 20} {q * 30}" for q in range(1, 6)],
                 ["Just prose on this page, nothing tabular at all."]])
    pid = store.create_project("alice", "T")["project_id"]
    path = write_text_pdf(tmp_path / "t.pdf", 2, text_for=rows)
    key = original_key(pid, "t", ".pdf")
    blobs.put(key, path.read_bytes())
    c = store.create_workflow(NewDocument(
        owner="alice", project_id=pid, file_name="t.pdf", file_type="application/pdf", file_kind="pdf", file_key=key,
        file_uri=key, size=1, sha256="7" * 64, page_count=2, language="en", priority="high"))
    queue.send({"workflow_id": c.workflow_id, "document_id": c.document_id}, priority="high")
    assert await _worker(settings, store, blobs, queue, indexer, clock).run_once() == "completed"
    assert asked == [[1]]
    import json

    seg1 = json.loads(blobs.get(f"workflows/{c.workflow_id}/segments/0001.json"))
    seg2 = json.loads(blobs.get(f"workflows/{c.workflow_id}/segments/0002.json"))
    assert seg1["tables"] == [[["Item", "Qty"], ["bolts", "12"]]] and seg2["tables"] == []
    assert store.get_segment(c.workflow_id, 1)["tables"] == 1
    # what chat's read_page gets: the page text, then the table (bare rows, no boxes to place it by) as Markdown
    from ingest.documents import Documents

    documents = Documents(settings, store=store, blobs=blobs, queue=queue, index=indexer)
    page1 = await documents.read_page("alice", c.document_id, 1)
    assert page1.text == seg1["text"] + "\n\n| Item | Qty |\n|---|---|\n| bolts | 12 |"
    assert (await documents.read_page("alice", c.document_id, 2)).text == seg2["text"]


async def test_sweeper_gives_up_on_a_document_that_keeps_killing_its_worker(
        settings, store, blobs, queue, indexer, clock, tmp_path):
    _, c = _submit(store, blobs, queue, tmp_path)

    def fault(name, n):
        raise Crash(name)

    for _ in range(settings.queue.queue_max_receives):
        with pytest.raises(Crash):
            await _worker(settings, store, blobs, queue, indexer, clock, fault=fault).run_once()
        clock.t += settings.queue.queue_visibility_seconds + 1
    assert await _worker(settings, store, blobs, queue, indexer, clock).run_once() is None  # dead-lettered
    assert queue.dead_letters("high")
    clock.t += 100
    assert sweep(store, queue, settings, now=clock.t) == 0
    view = store.get_workflow("alice", c.workflow_id)
    assert view["status"] == "failed" and "crashed or ran out of memory" in view["error"]


async def test_heartbeat_keeps_a_long_job_invisible_and_claimed(settings, store, blobs, queue, indexer, clock,
                                                                tmp_path):
    import time

    _, c = _submit(store, blobs, queue, tmp_path)
    seen = {}

    def fault(name, n):
        if name == "segment_builder:item" and n == 1:
            clock.t += settings.queue.queue_visibility_seconds + 5  # the job outlives its first lease…
            time.sleep(0.4)  # …while heartbeats (every 0.05 s here) extend lease and visibility
        if name == "segment_builder:item" and n == 2:
            seen["receive"] = queue.receive(visibility_seconds=30)
            seen["claim"] = store.claim(c.document_id, c.workflow_id, lease_s=30)

    pipeline = Pipeline(settings, store, blobs, indexer, fault=fault)
    worker = Worker(store=store, queue=queue, pipeline=pipeline, settings=settings, clock=clock,
                    heartbeat_seconds=0.05)
    assert await worker.run_once() == "completed"
    assert seen == {"receive": None, "claim": ("busy", None)}
    assert store.get_workflow("alice", c.workflow_id)["attempts"] == 1


async def test_a_big_document_never_holds_up_a_small_one(settings, store, blobs, queue, indexer, clock, tmp_path):
    """The service runs a worker reserved for the high lane: a 1-page upload finishes while a big one runs."""
    import asyncio
    import threading

    small_done = threading.Event()

    def hold_big(name, n):
        if name == "segment_prep" and not small_done.is_set():
            assert small_done.wait(30), "the small document was held up behind the big one"

    general = Worker(store=store, queue=queue, pipeline=Pipeline(settings, store, blobs, indexer, fault=hold_big),
                     settings=settings, clock=clock)
    reserved = Worker(store=store, queue=queue, pipeline=Pipeline(settings, store, blobs, indexer),
                      settings=settings, clock=clock, lanes=("high",))
    _, big = _submit(store, blobs, queue, tmp_path, pages=3, name="big.pdf", sha="b" * 64)
    msg = queue.receive(visibility_seconds=30)  # re-send the big one on the low lane, as the service would
    queue.delete(msg)
    queue.send(msg.body, priority="low")
    big_run = asyncio.create_task(general.run_once())
    await asyncio.sleep(0.5)
    queue.send({"workflow_id": "another-big-one", "document_id": "x"}, priority="low")  # waits its turn
    pid = store.create_project("alice", "S")["project_id"]
    path = write_text_pdf(tmp_path / "small.pdf", 1)
    key = original_key(pid, "s", ".pdf")
    blobs.put(key, path.read_bytes())
    small = store.create_workflow(NewDocument(
        owner="alice", project_id=pid, file_name="small.pdf", file_type="application/pdf", file_kind="pdf",
        file_key=key, file_uri=key, size=1, sha256="5" * 64, page_count=1, language="en", priority="high"))
    queue.send({"workflow_id": small.workflow_id, "document_id": small.document_id}, priority="high")
    assert await reserved.run_once(wait_seconds=5) == "completed"
    assert store.get_workflow("alice", big.workflow_id)["status"] == "in_progress"
    assert queue.depth("low") == 1  # the reserved worker never takes big documents
    small_done.set()
    assert await big_run == "completed"
