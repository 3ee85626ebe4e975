"""The worker runner: a pool of queue workers plus the sweeper loop, until told to stop.

One runner serves both ways of processing documents: ``docchat up`` starts it in-process next to the API
(``start``/``stop`` are the app's lifecycle hooks; local mode only), and ``docchat worker`` runs it as
the whole process (``run`` until a signal sets the event).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from ingest.pipeline import Pipeline
from ingest.queue import PRIORITIES, JobQueue, Priority
from ingest.sweeper import Sweeper
from ingest.worker import Worker
from store.config import Settings
from store.logging import get_logger
from store.workflows import WorkflowStore

log = get_logger(__name__)


@dataclass
class WorkerRunner:
    """``concurrency`` workers (default ``worker_concurrency``) on ``lanes`` (both: 70/30), plus — with
    ``reserve_high`` — one worker for the high lane only, so a 500-page PDF never holds up a 1-page upload.
    Every ``sweep_seconds`` (default ``queue_outbox_grace_seconds``) the sweeper (``ingest/sweeper.py``) sends
    the jobs never sent and re-enqueues workflows whose worker died."""

    settings: Settings
    store: WorkflowStore
    queue: JobQueue
    pipeline: Pipeline
    lanes: tuple[Priority, ...] = PRIORITIES
    concurrency: int | None = None
    reserve_high: bool = True
    wait_seconds: float = 2.0  # a receive's long poll: how long a stop may wait for an idle worker
    sweep_seconds: float | None = None
    _stop: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False)
    _task: asyncio.Task[None] | None = field(default=None, init=False, repr=False)
    _warm: asyncio.Task[float] | None = field(default=None, init=False, repr=False)  # held: not collected early

    def workers(self) -> list[Worker]:
        count = max(1, self.concurrency or self.settings.queue.worker_concurrency)
        out = [self._worker(self.lanes, f"worker-{i}") for i in range(count)]
        if self.reserve_high:
            out.append(self._worker(("high",), "worker-high"))
        return out

    def _worker(self, lanes: tuple[Priority, ...], name: str) -> Worker:
        return Worker(store=self.store, queue=self.queue, pipeline=self.pipeline, settings=self.settings,
                      lanes=lanes, name=name)

    async def run(self, stop: asyncio.Event) -> None:
        """Work until ``stop`` is set."""
        from ingest.sandbox_spares import prestart

        prestart(self.settings.ingest.sandbox_spares)  # the first upload's sandboxes start no interpreter
        from ingest.warm import import_text_path

        # the first upload's steps find their modules imported
        self._warm = asyncio.create_task(asyncio.to_thread(import_text_path), name="ingest-warm-imports")
        await asyncio.gather(self._sweeper(stop), *(w.run(stop, wait_seconds=self.wait_seconds)
                                                    for w in self.workers()))

    async def _sweeper(self, stop: asyncio.Event) -> None:
        await Sweeper(self.settings, self.store, self.queue, interval_s=self.sweep_seconds).run(stop)

    # --- in-process (``docchat up``) -----------------------------------------------------------------

    async def start(self) -> None:
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self.run(self._stop), name="ingest-workers")

    async def stop(self) -> None:
        self._stop.set()
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
