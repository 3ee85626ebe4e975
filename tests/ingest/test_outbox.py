"""Issue 13 item 4: a job whose send failed (or never happened) is still processed, exactly once; a worker killed
mid-document is replaced after the short lease, not the queue's visibility timeout; a live one keeps its job."""

from __future__ import annotations

import asyncio
import hashlib
import time

import pytest

from ingest.pipeline import Pipeline
from ingest.queue import SqliteJobQueue
from ingest.runner import WorkerRunner
from ingest.sample_docs import write_text_pdf
from ingest.sweeper import send_unsent, sweep_all
from ingest.upload import ReceivedFile
from ingest.uploads import Uploads
from ingest.worker import Worker
from store.errors import RetryableError
from store.workflows import WorkflowStore
from tests.ingest.test_worker import Crash, _submit, _worker


class FlakySend:
    """A queue whose next ``failures`` sends fail as SQS does when it cannot be reached; the rest goes through."""

    def __init__(self, inner, failures: int = 1) -> None:
        self.inner = inner
        self.failures = failures

    def send(self, body, *, priority):
        if self.failures:
            self.failures -= 1
            raise RetryableError("SQS send_message failed: EndpointConnectionError", op="send_message")
        return self.inner.send(body, priority=priority)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def _received(tmp_path, pages=3, name="doc.pdf") -> ReceivedFile:
    path = write_text_pdf(tmp_path / name, pages, lines=12)
    data = path.read_bytes()
    return ReceivedFile(path=path, file_name=name, size=len(data), sha256=hashlib.sha256(data).hexdigest(),
                        head=data[:4096])


def _assert_chunks_once(indexer, document_id):
    ids = sorted(indexer.index)
    assert ids and ids == [f"{document_id}:{i:05d}" for i in range(len(ids))]  # no duplicates, no gaps


async def test_a_failed_send_is_sent_by_the_sweeper_and_processed_once(settings, store, blobs, queue, indexer,
                                                                       clock, tmp_path):
    uploads = Uploads(settings, store=store, blobs=blobs, queue=FlakySend(queue))
    pid = store.create_project("alice", "P")["project_id"]
    result = await uploads.accept_upload("alice", pid, _received(tmp_path))
    assert result.created and result.status == "pending"  # accepted: the outbox will send it
    assert queue.depth("high") == 0
    worker = _worker(settings, store, blobs, queue, indexer, clock)
    assert await worker.run_once() is None  # nothing on the queue
    assert send_unsent(store, queue, settings) == 0  # within the grace period (the upload might still send it)
    clock.t += settings.queue.queue_outbox_grace_seconds + 1
    assert send_unsent(store, queue, settings) == 1
    assert send_unsent(store, queue, settings) == 0  # sent once: out of the outbox
    assert await worker.run_once() == "completed"
    assert store.get_workflow("alice", result.workflow_id)["status"] == "completed"
    _assert_chunks_once(indexer, result.document_id)
    assert queue.depth("high") == 0


async def test_a_sent_job_leaves_the_outbox(settings, store, blobs, queue, indexer, clock, tmp_path):
    uploads = Uploads(settings, store=store, blobs=blobs, queue=queue)
    pid = store.create_project("alice", "P")["project_id"]
    await uploads.accept_upload("alice", pid, _received(tmp_path))
    clock.t += 3600
    assert store.unsent(older_than_s=0).items == []
    assert send_unsent(store, queue, settings) == 0 and queue.depth("high") == 1


async def test_sent_twice_is_processed_once(settings, store, blobs, queue, indexer, clock, tmp_path, monkeypatch):
    """The send went through but the outbox mark did not (a crash in between): the sweeper sends a duplicate."""
    uploads = Uploads(settings, store=store, blobs=blobs, queue=queue)
    monkeypatch.setattr(store, "mark_enqueued", lambda did, wid: (_ for _ in ()).throw(RetryableError("lost")))
    pid = store.create_project("alice", "P")["project_id"]
    result = await uploads.accept_upload("alice", pid, _received(tmp_path))
    monkeypatch.undo()
    clock.t += settings.queue.queue_outbox_grace_seconds + 1
    assert send_unsent(store, queue, settings) == 1
    assert queue.depth("high") == 2
    worker = _worker(settings, store, blobs, queue, indexer, clock)
    assert sorted([await worker.run_once(), await worker.run_once()]) == ["completed", "noop"]
    upserts = indexer.upserts
    assert await worker.run_once() is None and indexer.upserts == upserts
    _assert_chunks_once(indexer, result.document_id)
    view = store.get_workflow("alice", result.workflow_id)
    assert view["status"] == "completed" and view["attempts"] == 1
    assert store.get_project("alice", pid)["counts"] == {"pending": 0, "in_progress": 0, "completed": 1, "failed": 0}


async def test_an_outbox_entry_of_a_workflow_that_ran_anyway_is_dropped(settings, store, blobs, queue, indexer,
                                                                        clock, tmp_path):
    _submit(store, blobs, queue, tmp_path)  # sent directly, never marked (as an old release did)
    assert await _worker(settings, store, blobs, queue, indexer, clock).run_once() == "completed"
    clock.t += 3600
    assert sweep_all(store, queue, settings) == 0 and queue.depth("high") == 0
    assert store.unsent(older_than_s=0).items == []


async def test_reprocess_whose_send_fails_is_sent_later(settings, store, blobs, queue, indexer, clock, tmp_path):
    from ingest.documents import Documents

    _, c = _submit(store, blobs, queue, tmp_path)
    assert await _worker(settings, store, blobs, queue, indexer, clock).run_once() == "completed"
    documents = Documents(settings, store=store, blobs=blobs, queue=FlakySend(queue), index=indexer)
    assert (await documents.reprocess("alice", c.workflow_id))["status"] == "pending"
    assert queue.depth("high") == 0
    clock.t += settings.queue.queue_outbox_grace_seconds + 1
    assert send_unsent(store, queue, settings) == 1
    assert await _worker(settings, store, blobs, queue, indexer, clock).run_once() == "completed"
    _assert_chunks_once(indexer, c.document_id)


async def test_a_killed_worker_is_replaced_after_the_short_lease(settings, store, blobs, queue, indexer, clock,
                                                                 tmp_path):
    settings = settings.with_overrides(queue_visibility_seconds=300, queue_lease_seconds=5)
    _, c = _submit(store, blobs, queue, tmp_path)

    def fault(name, n):
        if name == "segment_builder:item" and n == 2:
            raise Crash(name)  # kill -9 mid-document: no cleanup, no heartbeat any more

    with pytest.raises(Crash):
        await _worker(settings, store, blobs, queue, indexer, clock, fault=fault).run_once()
    survivor = _worker(settings, store, blobs, queue, indexer, clock)
    clock.t += 4
    assert await survivor.run_once() is None  # the dead worker's lease still runs
    clock.t += 2  # 6 s after the kill, far below the queue's 300 s visibility timeout
    assert await survivor.run_once() == "completed"
    view = store.get_workflow("alice", c.workflow_id)
    assert view["status"] == "completed" and view["attempts"] == 2
    assert [s["segment_index"] for s in store.list_segments(c.workflow_id).items] == [1, 2, 3]
    _assert_chunks_once(indexer, c.document_id)


async def test_a_live_worker_keeps_its_job_past_the_short_lease_in_real_time(settings, items, blobs, indexer,
                                                                             tmp_path):
    """Real clock, 3 s lease: a step that takes 4 s keeps its job (the heartbeat renews message and claim)."""
    settings = settings.with_overrides(queue_lease_seconds=3)
    store = WorkflowStore(items)
    queue = SqliteJobQueue(tmp_path / "real-q.db", max_receives=3, poll_interval=0.01)
    try:
        _, c = _submit(store, blobs, queue, tmp_path)
        rival = []

        def slow(name, n):
            if name == "segment_builder:item" and n == 1:
                for _ in range(8):
                    time.sleep(0.5)
                    rival.append((queue.receive(visibility_seconds=3),
                                  store.claim(c.document_id, c.workflow_id, lease_s=3)[0]))

        worker = Worker(store=store, queue=queue, pipeline=Pipeline(settings, store, blobs, indexer, fault=slow),
                        settings=settings)
        assert worker.heartbeat_seconds == 1.0
        assert await worker.run_once() == "completed"
        assert rival == [(None, "busy")] * 8
        assert store.get_workflow("alice", c.workflow_id)["attempts"] == 1
    finally:
        queue.close()


async def test_the_runner_sends_a_job_whose_send_failed_in_real_time(settings, items, blobs, indexer, tmp_path):
    settings = settings.with_overrides(queue_outbox_grace_seconds=0.2)
    store = WorkflowStore(items)
    queue = SqliteJobQueue(tmp_path / "runner-q.db", max_receives=3, poll_interval=0.01)
    uploads = Uploads(settings, store=store, blobs=blobs, queue=FlakySend(queue))
    pid = store.create_project("alice", "P")["project_id"]
    result = await uploads.accept_upload("alice", pid, _received(tmp_path))
    runner = WorkerRunner(settings, store, queue, Pipeline(settings, store, blobs, indexer), concurrency=1,
                          wait_seconds=0.1)
    stop = asyncio.Event()
    run = asyncio.create_task(runner.run(stop))
    try:
        deadline = time.monotonic() + 30
        while store.get_workflow("alice", result.workflow_id)["status"] != "completed":
            assert time.monotonic() < deadline, "the unsent job was never processed"
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        await asyncio.wait_for(run, 10)
        queue.close()
    _assert_chunks_once(indexer, result.document_id)


async def test_the_heartbeat_does_not_queue_behind_busy_steps(settings, items, blobs, indexer, tmp_path):
    """Every thread of the loop's default executor busy (here: its only one, running the slow step) — the beat
    still goes out on its own thread, so a 3 s lease survives a 4 s step."""
    from concurrent.futures import ThreadPoolExecutor

    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
    try:
        await test_a_live_worker_keeps_its_job_past_the_short_lease_in_real_time(settings, items, blobs, indexer,
                                                                                  tmp_path)
    finally:
        loop.set_default_executor(ThreadPoolExecutor())
