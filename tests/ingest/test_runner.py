"""The worker runner shared by ``docchat up`` (in-process) and ``docchat worker``: the pool it builds, and
its workers and sweeper running until stopped."""

from __future__ import annotations

import asyncio
import time

from ingest.pipeline import Pipeline
from ingest.queue import SqliteJobQueue
from ingest.runner import WorkerRunner
from store.workflows import WorkflowStore
from tests.ingest.test_worker import _submit


def _runner(settings, store, blobs, queue, indexer, **options) -> WorkerRunner:
    return WorkerRunner(settings, store, queue, Pipeline(settings, store, blobs, indexer), **options)


def test_the_pool_up_runs_and_the_pool_docchat_worker_runs(settings, store, blobs, queue, indexer) -> None:
    up = _runner(settings, store, blobs, queue, indexer, concurrency=2)
    assert [(w.name, w.lanes) for w in up.workers()] == [
        ("worker-0", ("high", "low")), ("worker-1", ("high", "low")), ("worker-high", ("high",))]
    low_only = _runner(settings, store, blobs, queue, indexer, concurrency=3, lanes=("low",), reserve_high=False)
    assert [(w.name, w.lanes) for w in low_only.workers()] == [(f"worker-{i}", ("low",)) for i in range(3)]
    default = _runner(settings.with_overrides(worker_concurrency=4), store, blobs, queue, indexer, reserve_high=False)
    assert len(default.workers()) == 4


async def _until(predicate, within_s: float = 60.0) -> None:
    deadline = time.monotonic() + within_s
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def test_started_in_process_it_processes_jobs_until_stopped(settings, store, blobs, queue, indexer,
                                                                    tmp_path) -> None:
    runner = _runner(settings, store, blobs, queue, indexer, concurrency=1, wait_seconds=0.1)
    await runner.start()
    try:
        _, c = _submit(store, blobs, queue, tmp_path)
        await _until(lambda: store.get_workflow("alice", c.workflow_id)["status"] == "completed")
    finally:
        await runner.stop()
    tasks = [t for t in asyncio.all_tasks() if t.get_name() == "ingest-workers"]
    assert tasks == []  # nothing left running
    assert queue.depth("high") == 0
    await runner.stop()  # stopping twice is harmless


class _NoQueue:
    def send(self, body, *, priority):  # the job's message is lost before any worker sees it
        return "lost"


async def test_its_sweeper_requeues_a_stuck_workflow_and_its_workers_finish_it(settings, items, blobs, indexer,
                                                                                 tmp_path) -> None:
    store = WorkflowStore(items)
    dead = WorkflowStore(items, clock=lambda: time.time() - 10_000)  # a worker that died long ago
    _, c = _submit(store, blobs, _NoQueue(), tmp_path)
    assert dead.claim(c.document_id, c.workflow_id, lease_s=30)[0] == "claimed"
    queue = SqliteJobQueue(tmp_path / "sweep-q.db", max_receives=3, poll_interval=0.01)
    runner = _runner(settings, store, blobs, queue, indexer, concurrency=1, wait_seconds=0.1, sweep_seconds=0.05)
    stop = asyncio.Event()
    run = asyncio.create_task(runner.run(stop))  # as `docchat worker` runs it
    try:
        await _until(lambda: store.get_workflow("alice", c.workflow_id)["status"] == "completed")
    finally:
        stop.set()
        await asyncio.wait_for(run, 10)  # the event ends every loop: workers and sweeper
        queue.close()
    assert store.get_workflow("alice", c.workflow_id)["attempts"] == 2


async def test_a_started_runner_imports_the_text_path_before_the_first_upload(settings, store, blobs, queue,
                                                                              indexer, monkeypatch) -> None:
    """Issue 18: the first upload after start does not pay the step modules' imports on its path."""
    import ingest.warm as warm

    imported: list[tuple[str, ...]] = []
    monkeypatch.setattr(warm, "import_text_path", lambda modules=warm.TEXT_PATH_MODULES: imported.append(modules))
    runner = _runner(settings, store, blobs, queue, indexer, concurrency=1, wait_seconds=0.1)
    await runner.start()
    await _until(lambda: bool(imported), 10)
    await runner.stop()
    assert imported == [warm.TEXT_PATH_MODULES] and "ingest.steps.chunk" in imported[0]


def test_the_warm_import_names_real_modules_and_survives_a_missing_one() -> None:
    import sys

    from ingest.warm import TEXT_PATH_MODULES, import_text_path

    assert import_text_path(("ingest.no_such_module", *TEXT_PATH_MODULES)) >= 0  # logged, not raised
    assert all(name in sys.modules for name in TEXT_PATH_MODULES)


async def test_start_returns_once_the_spares_and_imports_are_ready(settings, store, blobs, queue, indexer,
                                                                   monkeypatch) -> None:
    """Issue 18: ``start`` (the app's start-up hook, before requests are served) waits, bounded, for the warm-up, so
    the first upload after start finds its sandbox children started and the step modules imported."""
    from ingest import sandbox_spares
    from ingest.sandbox_spares import Spares

    fresh = Spares()
    monkeypatch.setattr(sandbox_spares, "SPARES", fresh)
    runner = _runner(settings, store, blobs, queue, indexer, concurrency=1, wait_seconds=0.1)
    try:
        await runner.start()
        assert runner._warm is not None and runner._warm.done()
        assert fresh.target == settings.ingest.sandbox_spares > 0
        assert fresh.wait_imported(0.0)  # every spare idle and imported already
    finally:
        await runner.stop()
        fresh.close()
