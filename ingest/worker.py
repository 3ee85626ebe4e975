"""Workers: take a job from the queue, claim its workflow, run the pipeline, finish exactly once (seed 004).

* The claim is a conditional write (``WorkflowStore.claim``): only ``pending``, ``failed``-and-retryable,
  or ``in_progress`` whose lease expired (its worker died) becomes ``in_progress`` under a new claim id.
  A duplicate message — the workflow is completed, permanently failed, or held by a live claim — is
  acknowledged and nothing else happens.
* While the job runs a heartbeat extends both the message's visibility and the claim's lease; if the
  lease was lost the run stops without writing.
* Errors are classified: permanent (a bad file) → ``failed`` with the reason, message deleted; retryable
  (throttling, timeouts, transient I/O) → ``failed``+retryable, the message comes back after an
  exponential backoff, and after ``max_receives`` deliveries it moves to the dead-letter queue (the
  workflow then says why it gave up).
* The lease is short (``queue_lease_seconds``, 30 s): a worker killed mid-document is replaced by the
  next receive after about that long, not after the queue's whole visibility timeout.
* A sweeper (``ingest/sweeper.py``) re-enqueues workflows whose worker died and whose message is gone
  (GSI1 ``in_progress`` with an expired lease), and sends jobs that were never sent (the outbox); since a
  duplicate is a no-op, re-enqueueing is always safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

import structlog

from ingest.jobs import enqueue
from ingest.keyword_first import MAX_BEHIND, KeywordFirst
from ingest.pipeline import ClaimLost, Pipeline
from ingest.queue import PRIORITIES, JobQueue, Message, Priority
from store.config import Settings
from store.errors import (
    Conflict,
    DocchatError,
    InvalidInput,
    NotFound,
    PermanentError,
    RetryableError,
    UpstreamError,
)
from store.logging import get_logger
from store.metrics import record_safely
from store.workflows import Claim, WorkflowStore

log = get_logger(__name__)

DEPTH_EVERY_S = 10.0  # how often a worker reads the queue depths for the LATEST item
ErrorClass = Literal["retryable", "permanent"]
Outcome = Literal["completed", "failed", "retry", "noop", "lost"]


def classify(exc: BaseException) -> ErrorClass:
    """Retryable: throttling, timeouts, transient I/O, upstream hiccups. Permanent: bad input, bugs in a file."""
    if isinstance(exc, (RetryableError, UpstreamError, TimeoutError, ConnectionError)):
        return "retryable"
    if isinstance(exc, (PermanentError, InvalidInput, NotFound, MemoryError, RecursionError)):
        return "permanent"
    if isinstance(exc, DocchatError):
        return "permanent"
    if isinstance(exc, OSError):
        return "retryable"
    return "retryable"  # unknown: retried a bounded number of times, then dead-lettered


def backoff_seconds(
    receive_count: int, *, base: float = 5.0, cap: float = 300.0, rng: random.Random | None = None
) -> int:
    """Exponential backoff with jitter for the ``receive_count``-th failed delivery."""
    r = rng or random
    delay = min(cap, base * 2 ** max(0, receive_count - 1))
    return int(delay + r.uniform(0, delay / 4))


def describe(exc: BaseException) -> str:
    if isinstance(exc, DocchatError):
        return exc.message
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Worker:
    def __init__(
        self,
        *,
        store: WorkflowStore,
        queue: JobQueue,
        pipeline: Pipeline,
        settings: Settings,
        lanes: tuple[Priority, ...] = PRIORITIES,
        name: str | None = None,
        heartbeat_seconds: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.queue = queue
        self.pipeline = pipeline
        self.settings = settings
        self.lanes = lanes
        self.name = name or f"worker-{uuid.uuid4().hex[:8]}"
        # the lease on a running job (message visibility and claim alike), renewed every third of it: a worker
        # killed mid-document is replaced after about ``queue_lease_seconds``, whatever the queue's own timeout
        self.visibility = int(settings.queue.queue_lease_seconds)
        self.heartbeat_seconds = heartbeat_seconds or max(1.0, self.visibility / 3)
        self.clock = clock
        self._depth_at = -DEPTH_EVERY_S
        self._beats = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"{self.name}-heartbeat")

    async def run_once(self, wait_seconds: float = 0.0) -> Outcome | None:
        msg = await asyncio.to_thread(
            self.queue.receive, wait_seconds=wait_seconds, visibility_seconds=self.visibility, lanes=self.lanes
        )
        if msg is None:
            return None
        return await self.handle(msg)

    async def run(self, stop: asyncio.Event, *, wait_seconds: float = 10.0) -> None:
        """Work until ``stop`` is set. Keyword first (``ingest/keyword_first.py``): once a job's document is
        keyword-searchable the job goes on in the background and the next queued document is taken at once;
        the background steps wait while any worker is on a text path."""
        log.info("worker_started", worker=self.name, lanes=",".join(self.lanes))
        gate: KeywordFirst | None = getattr(self.pipeline, "keyword_first", None)
        behind: set[asyncio.Task[Outcome]] = set()
        held = [False]
        polled_empty = [False]  # the last long poll found nothing: no slot is taken for the next one

        def hold(on: bool) -> None:
            if gate is not None and held[0] != on:
                held[0] = on
                if on:
                    gate.take()
                else:
                    gate.give()

        try:
            while not stop.is_set():
                try:
                    if gate is None:
                        await self.run_once(wait_seconds=wait_seconds)
                        continue
                    if len(behind) >= MAX_BEHIND:  # enough documents filling: let them, then take more
                        hold(False)
                        await asyncio.wait(behind, return_when=asyncio.FIRST_COMPLETED)
                        continue
                    msg = None
                    if not polled_empty[0]:  # straight on from a text path: the slot is handed to this receive
                        hold(True)
                        msg = await self._receive(0.0)
                    if msg is None:  # nothing queued: the background steps run while this worker long-polls
                        hold(False)
                        msg = await self._receive(wait_seconds)
                        if msg is None:
                            polled_empty[0] = True  # an idle worker does not toggle the slot on every poll
                            continue
                        hold(True)
                    polled_empty[0] = False
                    await self._until_searchable(msg, behind)
                except asyncio.CancelledError:
                    for task in behind:
                        task.cancel()
                    raise
                except Exception as exc:
                    log.warning("worker_loop_error", worker=self.name, error=describe(exc))
                    hold(False)
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(stop.wait(), timeout=2.0)
            hold(False)
            await asyncio.gather(*behind, return_exceptions=True)  # a stop lets the background jobs finish
        finally:
            hold(False)
            self._beats.shutdown(wait=False)
        log.info("worker_stopped", worker=self.name)

    async def _receive(self, wait_seconds: float) -> Message | None:
        return await asyncio.to_thread(self.queue.receive, wait_seconds=wait_seconds,
                                       visibility_seconds=self.visibility, lanes=self.lanes)

    async def _until_searchable(self, msg: Message, behind: set[asyncio.Task[Outcome]]) -> None:
        """Handle ``msg`` until its document is keyword-searchable (or the job ends); the rest goes on in ``behind``."""
        searchable = asyncio.Event()
        task = asyncio.create_task(self.handle(msg, searchable=searchable.set))
        waiter = asyncio.create_task(searchable.wait())
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
        if task.done():
            task.result()
        else:
            behind.add(task)
            task.add_done_callback(behind.discard)

    async def handle(self, msg: Message, *, searchable: Callable[[], None] | None = None) -> Outcome:
        """Claim and run the job of ``msg``; ``searchable()`` is called once its document is keyword-searchable."""
        wid = str(msg.body.get("workflow_id", ""))
        did = str(msg.body.get("document_id", ""))
        with structlog.contextvars.bound_contextvars(workflow_id=wid, document_id=did):
            return await self._handle(msg, wid, did, searchable)

    def _metrics(self, **event: Any) -> None:
        record_safely(getattr(self.pipeline, "metrics", None), **event)

    async def _queue_depths(self) -> dict[str, Any]:
        """``queue_depth.<lane>`` for ``LATEST``, read at most every ``DEPTH_EVERY_S`` per worker."""
        now = time.monotonic()
        if getattr(self.pipeline, "metrics", None) is None or now - self._depth_at < DEPTH_EVERY_S:
            return {}
        self._depth_at = now
        out: dict[str, Any] = {}
        for lane in PRIORITIES:
            with contextlib.suppress(Exception):
                out[f"queue_depth.{lane}"] = await asyncio.to_thread(self.queue.depth, lane)
        return out

    async def _handle(self, msg: Message, wid: str, did: str, searchable: Callable[[], None] | None = None) -> Outcome:
        outcome, claim = await asyncio.to_thread(self.store.claim, did, wid, lease_s=self.visibility)
        if claim is None:
            log.info("job_noop", worker=self.name, workflow_id=wid, state=outcome, receives=msg.receive_count)
            await asyncio.to_thread(self.queue.delete, msg)
            return "noop"
        log.info("job_claimed", worker=self.name, workflow_id=wid, attempt=claim.attempts, queue=msg.priority)
        self._metrics(latest_add={"workers_busy": 1, "docs.in_progress": 1,
                                  **({"docs.pending": -1} if claim.attempts <= 1 else {})},
                      latest_put=await self._queue_depths())
        try:
            return await self._run_claimed(msg, claim, wid, searchable)
        finally:
            self._metrics(latest_add={"workers_busy": -1, "docs.in_progress": -1})

    async def _run_claimed(self, msg: Message, claim: Claim, wid: str,
                           searchable: Callable[[], None] | None = None) -> Outcome:
        lost = threading.Event()
        beat = asyncio.create_task(self._heartbeat(msg, claim, lost))
        t0 = time.perf_counter()
        try:
            total = await self.pipeline.run(claim, lost=lost, **({"searchable": searchable} if searchable else {}))
        except ClaimLost:
            log.warning("job_claim_lost", worker=self.name, workflow_id=wid)
            return "lost"
        except Conflict:
            if lost.is_set() or not await asyncio.to_thread(self._still_ours, claim.document_id, wid, claim.claim_id):
                log.warning("job_claim_lost", worker=self.name, workflow_id=wid)
                return "lost"
            return await self._failed(msg, claim, PermanentError("a concurrent update conflicted with this job"))
        except Exception as exc:
            return await self._failed(msg, claim, exc)
        finally:
            beat.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await beat
        if not await asyncio.to_thread(self.store.complete, claim, total_segments=total):
            log.warning("job_complete_lost", worker=self.name, workflow_id=wid)
            return "lost"
        await asyncio.to_thread(self.queue.delete, msg)
        seconds = time.perf_counter() - t0
        log.info("job_completed", worker=self.name, workflow_id=wid, pages=total, seconds=round(seconds, 3))
        owner = str(claim.item.get("owner") or "") or None
        self._metrics(counts={"docs_completed": 1, "pages_processed": total}, timings={"job_seconds": seconds},
                      user=owner, project=claim.project_id, usage={"pages_processed": total},
                      latest_add={"docs.completed": 1})
        return "completed"

    def _still_ours(self, did: str, wid: str, claim_id: str) -> bool:
        wf = self.store.workflow_item(did, wid) or {}
        return wf.get("claim_id") == claim_id and wf.get("status") == "in_progress"

    async def _failed(self, msg: Message, claim: Claim, exc: BaseException) -> Outcome:
        kind = classify(exc)
        reason = describe(exc)
        code = exc.code if isinstance(exc, DocchatError) else type(exc).__name__
        last = kind == "permanent" or msg.receive_count >= self.queue.max_receives
        self._metrics(counts={f"errors.{code}": 1, **({"docs_failed": 1} if last else {})},
                      latest_add={"docs.failed": 1, **({"dlq": 1} if kind != "permanent" and last else {})}
                      if last else None,
                      latest_put={"last_error": {"workflow_id": claim.workflow_id, "code": code,
                                                 "reason": reason[:300], "at": round(self.clock(), 3)}})
        if kind == "permanent":
            await asyncio.to_thread(self.store.fail, claim, error=reason, retryable=False)
            await asyncio.to_thread(self.queue.delete, msg)
            log.info("job_failed", worker=self.name, workflow_id=claim.workflow_id, error_class=kind)
            return "failed"
        last = msg.receive_count >= self.queue.max_receives
        if last:
            reason = f"gave up after {msg.receive_count} attempts: {reason}"
        await asyncio.to_thread(self.store.fail, claim, error=reason, retryable=not last)
        delay = 0 if last else backoff_seconds(msg.receive_count)
        # not deleted: it comes back after the backoff; past max_receives the queue dead-letters it
        await asyncio.to_thread(self.queue.retry_later, msg, delay)
        log.warning("job_retry" if not last else "job_dead_letter", worker=self.name,
                    workflow_id=claim.workflow_id, receives=msg.receive_count, delay_s=delay,
                    error_type=type(exc).__name__)
        return "retry" if not last else "failed"

    async def _heartbeat(self, msg: Message, claim: Claim, lost: threading.Event) -> None:
        # its own thread: with a short lease a beat must not queue behind long steps in the shared default executor
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.heartbeat_seconds)
            try:
                ok = await loop.run_in_executor(self._beats, functools.partial(self.store.heartbeat, claim,
                                                                               lease_s=self.visibility))
                if not ok:
                    lost.set()
                    return
                await loop.run_in_executor(self._beats, self.queue.extend, msg, self.visibility)
            except Exception as exc:
                log.warning("heartbeat_failed", worker=self.name, workflow_id=claim.workflow_id,
                            error=describe(exc))


def sweep(store: WorkflowStore, queue: JobQueue, settings: Settings, *, now: float | None = None) -> int:
    """Re-enqueue in-progress workflows whose lease expired long ago (their worker died, message gone)."""
    now = time.time() if now is None else now
    requeued = 0
    cursor: str | None = None
    while True:
        page = store.list_by_status("in_progress", limit=100, cursor=cursor)
        for ref in page.items:
            wid, did = ref.workflow_id, ref.document_id
            wf = store.workflow_item(did, wid) or {}
            if wf.get("status") != "in_progress":
                continue
            # the lease ran out a while ago and nobody reclaimed it: its message is gone too (else a worker
            # would have received it again once its visibility — the same lease — ran out)
            lease = settings.queue.queue_lease_seconds
            if float(wf.get("lease_until") or 0) + 2 * lease > now:
                continue
            data = wf.get("data") or {}
            if int(wf.get("attempts") or 0) >= settings.queue.queue_max_receives:
                # it keeps killing its worker (crash, out of memory): stop trying, say why
                _, claim = store.claim(did, wid, lease_s=lease)
                if claim is not None:
                    store.fail(claim, retryable=False, error=(
                        f"processing stopped {claim.attempts - 1} times without finishing "
                        "(the worker crashed or ran out of memory on this document)"))
                    log.warning("workflow_abandoned", workflow_id=wid, attempts=claim.attempts - 1)
                continue
            enqueue(queue, settings, workflow_id=wid, document_id=did, project_id=data.get("project_id"),
                    page_count=int(data.get("page_count") or 0))
            requeued += 1
            log.warning("workflow_requeued", workflow_id=wid)
        if page.cursor is None:
            return requeued
        cursor = page.cursor
