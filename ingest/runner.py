"""The worker runner: a pool of queue workers plus the sweeper loop, until told to stop.

One runner serves both ways of processing documents: ``docchat up`` starts it in-process next to the API
(``start``/``stop`` are the app's lifecycle hooks; local mode only), and ``docchat worker`` runs it as
the whole process (``run`` until a signal sets the event).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field

from ingest.pipeline import Pipeline
from ingest.queue import PRIORITIES, JobQueue, Priority
from ingest.sweeper import Sweeper
from ingest.worker import Worker
from store.config import Settings
from store.logging import get_logger
from store.workflows import WorkflowStore

log = get_logger(__name__)

#: ``start`` (``docchat up``'s start-up hook, before the server takes requests) waits at most this long for the
#: sandbox spares' start-ups and the text path's imports (~0.3 s on 2 idle cores): the first upload then finds
#: them done, as the second does, instead of paying them beside its own path (issue 18). Past it they go on in
#: the background and the first upload takes them as they are.
START_WARM_WAIT_S = 3.0


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
        if self._warm is None:
            self._warm_up()
        await asyncio.gather(self._sweeper(stop), *(w.run(stop, wait_seconds=self.wait_seconds)
                                                    for w in self.workers()))

    async def _sweeper(self, stop: asyncio.Event) -> None:
        await Sweeper(self.settings, self.store, self.queue, interval_s=self.sweep_seconds).run(stop)

    # --- in-process (``docchat up``) -----------------------------------------------------------------

    def _warm_up(self) -> asyncio.Task[float]:
        from ingest.sandbox_spares import prestart

        prestart(self.settings.ingest.sandbox_spares)  # the first upload's sandboxes start no interpreter
        from ingest.warm import import_text_path

        # the first upload's steps find their modules imported
        self._warm = asyncio.create_task(asyncio.to_thread(import_text_path), name="ingest-warm-imports")
        return self._warm

    async def start(self) -> None:
        """Start the workers, once the warm-up is done or ``START_WARM_WAIT_S`` has passed."""
        from ingest.sandbox_spares import wait_imported

        self._stop = asyncio.Event()
        t0 = time.perf_counter()
        warm = self._warm_up()
        ready = not self.settings.ingest.sandbox_spares or await asyncio.to_thread(wait_imported, START_WARM_WAIT_S)
        left = max(0.0, START_WARM_WAIT_S - (time.perf_counter() - t0))
        done, _ = await asyncio.wait({warm}, timeout=left)
        log.info("ingest_warmed", seconds=round(time.perf_counter() - t0, 3), spares_ready=ready,
                 imported=bool(done))
        self._task = asyncio.create_task(self.run(self._stop), name="ingest-workers")

    async def stop(self) -> None:
        self._stop.set()
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
