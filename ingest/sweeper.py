"""The sweeper: the jobs nobody would run otherwise, sent (again) — safe to run in every process.

Two kinds of stuck workflow (issue 13 item 4):

* **never sent** — the workflow was written but its message was not (the send failed, or the process
  died in between): the outbox (``store/workflow_outbox.py``, a sparse GSI2) lists it once it is older
  than ``queue_outbox_grace_seconds``; if it is still ``pending`` its job is sent, then it leaves the
  outbox. (A workflow that ran anyway just leaves it.)
* **worker died, message gone** — ``in_progress`` with a lease long expired (``ingest.worker.sweep``).

Both only ever *send*; a duplicate message is a no-op for the worker (its claim is a conditional write),
so two sweepers racing each other, or a sweep racing the original send, do no harm. That is what lets the
API processes run it too (aws mode: the workers scale to zero when the queues are empty, which is exactly
when an unsent job would otherwise wait for ever).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from ingest.jobs import enqueue
from ingest.queue import JobQueue
from ingest.worker import sweep
from store.config import Settings
from store.logging import get_logger
from store.workflows import WorkflowStore

log = get_logger(__name__)


def send_unsent(store: WorkflowStore, queue: JobQueue, settings: Settings) -> int:
    """Send the job of every workflow left in the outbox for longer than the grace period; returns how many."""
    sent = 0
    cursor: str | None = None
    while True:
        page = store.unsent(older_than_s=settings.queue.queue_outbox_grace_seconds, limit=100, cursor=cursor)
        for ref in page.items:
            wf = store.outbox_record(ref)
            if wf is None:
                continue
            if wf.status != "pending":  # it ran (or was reset and sent) after all
                store.mark_enqueued(ref.document_id, ref.workflow_id)
                continue
            enqueue(queue, settings, workflow_id=ref.workflow_id, document_id=ref.document_id,
                    project_id=wf.project_id, page_count=wf.page_count, store=store)
            sent += 1
            log.warning("outbox_job_sent", workflow_id=ref.workflow_id)
        if page.cursor is None:
            return sent
        cursor = page.cursor


def sweep_all(store: WorkflowStore, queue: JobQueue, settings: Settings) -> int:
    """One pass of both sweeps (blocking); returns the number of jobs sent."""
    return send_unsent(store, queue, settings) + sweep(store, queue, settings)


@dataclass
class Sweeper:
    """``sweep_all`` every ``interval_s`` seconds (default: the outbox grace period) until stopped."""

    settings: Settings
    store: WorkflowStore
    queue: JobQueue
    interval_s: float | None = None
    _stop: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False)
    _task: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    @property
    def every(self) -> float:
        return self.interval_s if self.interval_s is not None else self.settings.queue.queue_outbox_grace_seconds

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=self.every)
            if stop.is_set():
                return
            try:
                await asyncio.to_thread(sweep_all, self.store, self.queue, self.settings)
            except Exception as exc:
                log.warning("sweep_failed", error_type=type(exc).__name__, error=str(exc))

    async def start(self) -> None:
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self.run(self._stop), name="ingest-sweeper")

    async def stop(self) -> None:
        self._stop.set()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
