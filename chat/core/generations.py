"""The in-process generation registry: one running answer per session, decoupled from HTTP.

A *generation* is the work of answering one user turn. It runs as its own
``asyncio`` task and publishes events into a bounded buffer; HTTP responses are
only *subscribers* that relay the buffer (from any position, for
``Last-Event-ID``) and may come and go. So a client disconnect never cancels
the model call by accident — it detaches a subscriber, and the registry then
applies the disconnect policy explicitly:

* ``partial`` (seed 002 option B, default): when the last subscriber has been
  gone for ``disconnect_grace_seconds``, the generation is cancelled and the
  agent saves the partial answer;
* ``finish`` (option C): the generation runs to the end in the background.

A finished generation stays replayable for ``generation_retention_seconds``.

Across processes (several API tasks) one generation per session is held by a lease in the session table
(``chat.core.shared``): the process holding it runs the generation (role ``owner``); another process that
serves a resume or a retried ``turn_id`` of it runs a *follower* (role ``follower``) that republishes the
owner's checkpointed events here, with their original positions.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from chat.core import events
from chat.core.events import KEEPALIVE, ChatEvent, EventName
from store.errors import Conflict
from store.logging import get_logger

log = get_logger(__name__)

DisconnectPolicy = Literal["partial", "finish"]
#: a watch that lapsed unconfirmed is looked at again this often (the owner reads its lease every poll interval)
WATCH_RECHECK_S = 0.05
#: at most this long past its lapse a watch counts as possibly renewed (``generation_poll_seconds`` is ≤ 2 s)
WATCH_CONFIRM_S = 5.0
#: a follower renews its watch shortly before it lapses, but one whose store stalls (a throttled retry, a pause
#: of DynamoDB) renews late: a watch seen lapsed counts as possibly renewed this long after its lapse
WATCH_LATE_S = 1.5
Role = Literal["local", "owner", "follower"]


@dataclass(slots=True)
class Generation:
    generation_id: str
    session_id: str
    user_id: str
    turn_id: str
    max_events: int = 20_000
    _events: list[ChatEvent] = field(default_factory=list)
    _base: int = 1  # n of _events[0]
    _next: int = 1
    _waiters: list[asyncio.Future[None]] = field(default_factory=list)  # relays parked until the next publish
    finished: bool = False
    finished_at: float | None = None
    stop_requested: bool = False
    subscribers: int = 0
    task: asyncio.Task[None] | None = None
    _grace_handle: asyncio.TimerHandle | None = None
    #: ``local`` (no lease: one process), ``owner`` (holds the session's lease), ``follower`` (mirrors an owner)
    role: Role = "local"
    #: epoch seconds until which a follower on another process has clients reading (owner: no disconnect stop)
    watched_until: float = 0.0
    #: owner: epoch seconds when it began the lease read that ``watched_until`` comes from. A watch that lapsed
    #: after that read may have been renewed since (the follower renews it shortly before it lapses): only a
    #: read begun after the lapse says that nobody watches any more
    watch_read_at: float = 0.0
    #: set once the lease outcome is known (owner / follower / refused); ``claim_error`` says why it was refused
    claimed: asyncio.Event = field(default_factory=asyncio.Event)
    claim_error: BaseException | None = None
    #: the owner learnt that it no longer holds the lease (the session was deleted, or it stalled past expiry)
    lease_lost: bool = False
    #: owner: set once the lease is released; ``done`` reaches clients only then, so a client's next question
    #: on any process never finds the lease still held
    released: asyncio.Event | None = None
    #: a ``done`` or ``error`` event was published: the stream ends the way the SSE contract says it must
    ended: bool = False
    #: sees every published event (the read models' answer metrics: chat/core/answer_metrics.py)
    observer: Callable[[EventName, dict[str, Any]], None] | None = None

    # --- publishing --------------------------------------------------------------

    def publish(self, event: EventName, data: dict[str, Any]) -> ChatEvent:
        if self.finished:
            raise RuntimeError("generation already finished")
        ev = events.make_event(self.generation_id, self._next, event, data)
        if self.observer is not None:
            try:
                self.observer(event, data)
            except Exception as exc:  # metrics never break an answer
                log.warning("generation_observer_failed", error_type=type(exc).__name__)
        self._append(ev)
        return ev

    def mirror(self, n: int, event: str, data: dict[str, Any]) -> None:
        """A follower republishes the owner's event ``n`` (already seen or after the end: ignored)."""
        if self.finished or n < self._next or event not in events.EVENT_NAMES:
            return
        if n > self._next:  # the owner's checkpoint no longer holds what lies between: restart the buffer there
            self._events.clear()
            self._base = self._next = n
        self._append(events.make_event(self.generation_id, n, event, data))  # type: ignore[arg-type]

    def _append(self, ev: ChatEvent) -> None:
        self._next = ev.n + 1
        self._events.append(ev)
        if ev.event in ("done", "error"):
            self.ended = True
        if len(self._events) > self.max_events:
            drop = len(self._events) - self.max_events // 2
            del self._events[:drop]
            self._base += drop
        self._wake()

    def buffered(self) -> list[ChatEvent]:
        """The events still in the bounded buffer, oldest first."""
        return list(self._events)

    def finish(self) -> None:
        if not self.finished:
            self.finished = True
            self.finished_at = time.monotonic()
            self._wake()

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    async def wait_changed(self) -> None:
        """Return after the next ``publish`` or ``finish``."""
        fut = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        await fut

    @property
    def last_n(self) -> int:
        return self._next - 1

    def events_after(self, n: int) -> tuple[list[ChatEvent], bool]:
        """Events with position > ``n``, and whether some of them fell out of the bounded buffer."""
        start = n + 1 - self._base
        if start < 0:
            return list(self._events), True
        return self._events[start:], False

    # --- subscribing ---------------------------------------------------------------

    async def relay(self, after: int, keepalive_s: float) -> AsyncIterator[bytes]:
        """Encoded frames after position ``after`` until the generation finishes (batched per wake-up).

        A comment line is sent after ``keepalive_s`` of silence. The caller must hold a subscription
        (``GenerationRegistry.subscribe``). Per event this costs one future; the keep-alive timer is
        armed once per quiet period, not once per wait (at 25,000 events/s that difference is a core).
        """
        loop = asyncio.get_running_loop()
        cursor = after
        last_sent = loop.time()
        parked: asyncio.Future[None] | None = None
        timer: asyncio.TimerHandle | None = None

        def keepalive_due() -> None:
            nonlocal timer
            timer = None
            if parked is not None and not parked.done():
                parked.set_result(None)

        try:
            while True:
                batch, gap = self.events_after(cursor)
                if gap:
                    gap_ev = events.make_event(
                        self.generation_id,
                        cursor,
                        "error",
                        events.error("replay_gap", "some events are no longer buffered; reload the messages"),
                    )
                    yield gap_ev.wire
                if batch:
                    if self.released is not None and batch[-1].event == "done" and not self.released.is_set():
                        await self.released.wait()
                        continue  # re-read: nothing is lost, the batch is taken again from the cursor
                    cursor = batch[-1].n
                    yield b"".join(e.wire for e in batch) if len(batch) > 1 else batch[0].wire
                    last_sent = loop.time()
                    continue
                if self.finished:
                    return
                if loop.time() - last_sent >= keepalive_s:
                    yield KEEPALIVE
                    last_sent = loop.time()
                if timer is None:
                    timer = loop.call_at(last_sent + keepalive_s, keepalive_due)
                parked = loop.create_future()
                self._waiters.append(parked)
                await parked
        finally:
            if timer is not None:
                timer.cancel()


class GenerationRegistry:
    """Generations by session id (running, or finished and still within the retention window)."""

    def __init__(
        self,
        *,
        policy: DisconnectPolicy = "partial",
        grace_s: float = 5.0,
        retention_s: float = 120.0,
        max_events: int = 20_000,
    ) -> None:
        self.policy = policy
        self.grace_s = grace_s
        self.retention_s = retention_s
        self.max_events = max_events
        self._by_session: dict[str, Generation] = {}

    def __len__(self) -> int:
        return len(self._by_session)

    def streams_open(self) -> int:
        """SSE relays attached right now (``/metrics``)."""
        return sum(g.subscribers for g in self._by_session.values())

    def get(self, session_id: str) -> Generation | None:
        self._evict()
        return self._by_session.get(session_id)

    def running(self, session_id: str) -> Generation | None:
        gen = self.get(session_id)
        return gen if gen is not None and not gen.finished else None

    def begin(
        self,
        *,
        generation_id: str,
        session_id: str,
        user_id: str,
        turn_id: str,
        run: Callable[[Generation], Awaitable[None]],
    ) -> Generation:
        """Register a generation and start ``run(gen)`` as a task; one running generation per session."""
        gen = self.reserve(generation_id=generation_id, session_id=session_id, user_id=user_id, turn_id=turn_id)
        gen.claimed.set()
        self.launch(gen, run)
        return gen

    def reserve(self, *, generation_id: str, session_id: str, user_id: str, turn_id: str) -> Generation:
        """Register a generation that has no task yet (it counts as running); ``Conflict`` if one is running."""
        if self.running(session_id) is not None:
            raise Conflict("a generation is already running for this session; stop it or resume its stream")
        gen = Generation(
            generation_id=generation_id,
            session_id=session_id,
            user_id=user_id,
            turn_id=turn_id,
            max_events=self.max_events,
        )
        self._by_session[session_id] = gen
        return gen

    def discard(self, gen: Generation) -> None:
        """Forget ``gen`` (a refused claim, a follower nobody reads) and end it for any relay still attached."""
        if self._by_session.get(gen.session_id) is gen:
            del self._by_session[gen.session_id]
        gen.finish()

    def launch(
        self,
        gen: Generation,
        run: Callable[[Generation], Awaitable[None]],
        on_done: Callable[[Generation], Awaitable[None]] | None = None,
    ) -> None:
        """Run ``run(gen)`` as the generation's task; ``on_done(gen)`` runs after it, whatever happened."""
        session_id, generation_id = gen.session_id, gen.generation_id

        async def runner() -> None:
            try:
                await run(gen)
            except asyncio.CancelledError:
                log.info("generation_cancelled", session_id=session_id, generation_id=generation_id)
                if not gen.ended and not gen.finished and gen.role != "follower":
                    # the last line of the SSE contract: a cancel that reached here unhandled (a bug in ``run``)
                    # must not leave the client's stream ending without ``done``
                    log.warning("generation_ended_without_done", session_id=session_id, generation_id=generation_id)
                    gen.publish("done", events.done(None, "interrupted"))
            except Exception as exc:  # the agent reports its own errors; this is the last line
                log.error("generation_crashed", session_id=session_id, error_type=type(exc).__name__, exc_info=exc)
                if not gen.finished:
                    gen.publish("error", events.error("internal", "the answer failed"))
            finally:
                gen.finish()
                if on_done is not None:
                    try:
                        await asyncio.shield(on_done(gen))
                    except asyncio.CancelledError:
                        pass
                    except Exception as exc:
                        log.warning("generation_cleanup_failed", session_id=session_id, error_type=type(exc).__name__)

        gen.task = asyncio.get_running_loop().create_task(runner(), name=f"generation:{generation_id}")
        gen.task.add_done_callback(lambda _t: gen.finish())  # also when cancelled before it ever ran

    def subscribe(self, gen: Generation) -> None:
        gen.subscribers += 1
        if gen._grace_handle is not None:
            gen._grace_handle.cancel()
            gen._grace_handle = None

    def unsubscribe(self, gen: Generation) -> None:
        """The explicit disconnect rule: the last subscriber leaving starts the grace timer (policy ``partial``)."""
        gen.subscribers = max(0, gen.subscribers - 1)
        if gen.subscribers or gen.finished or self.policy == "finish":
            return
        log.info("stream_detached", session_id=gen.session_id, generation_id=gen.generation_id, policy=self.policy)
        if self.grace_s <= 0:
            self._cancel(gen)
        else:
            gen._grace_handle = asyncio.get_running_loop().call_later(self.grace_s, self._cancel, gen)

    async def stop(self, gen: Generation, *, timeout_s: float = 10.0) -> None:
        """Cancel a running generation and wait until the agent has saved the partial answer."""
        gen.stop_requested = True
        self._cancel(gen)
        if gen.task is not None and not gen.task.done():
            _, pending = await asyncio.wait({gen.task}, timeout=timeout_s)
            if pending:
                log.warning("generation_stop_slow", session_id=gen.session_id)

    def cancel(self, gen: Generation) -> None:
        """Stop ``gen`` now without waiting (a stop flag seen in the lease, a lost lease)."""
        gen.stop_requested = True
        self._cancel(gen)

    def _cancel(self, gen: Generation) -> None:
        gen._grace_handle = None
        if gen.subscribers and not gen.stop_requested:
            return
        now = time.time()
        if not gen.stop_requested and self._watched(gen, now):
            # clients of a follower on another process are reading it: look again when their watch lapses
            delay = max(WATCH_RECHECK_S, gen.watched_until - now)
            gen._grace_handle = asyncio.get_running_loop().call_later(delay, self._cancel, gen)
            return
        if gen.role == "follower":  # a follower nobody reads stops following; the owner is not touched
            if self._by_session.get(gen.session_id) is gen:
                del self._by_session[gen.session_id]
        if gen.task is not None and not gen.task.done():
            gen.task.cancel()

    @staticmethod
    def _watched(gen: Generation, now: float) -> bool:
        """Whether a follower elsewhere may still be reading ``gen``: its watch runs, or it lapsed after the
        owner's last lease read (a renewal may be in the lease, unseen yet) less than ``WATCH_CONFIRM_S`` ago
        (the bound, for an owner that cannot read its lease at all), or it lapsed less than ``WATCH_LATE_S``
        ago (a slowed follower may still renew it)."""
        if gen.watched_until > now:
            return True
        if gen.watched_until <= 0:
            return False
        lapsed_for = now - gen.watched_until
        if lapsed_for < WATCH_LATE_S:
            return True
        return gen.watched_until > gen.watch_read_at and lapsed_for < WATCH_CONFIRM_S

    def _evict(self) -> None:
        now = time.monotonic()
        stale = [
            sid
            for sid, g in self._by_session.items()
            if g.finished and g.finished_at is not None and now - g.finished_at > self.retention_s
        ]
        for sid in stale:
            del self._by_session[sid]

    async def close(self) -> None:
        """Stop every running generation (server shutdown): partial answers are saved."""
        running = [g for g in self._by_session.values() if not g.finished]
        for g in running:
            g.stop_requested = True
            self._cancel(g)
        tasks = [g.task for g in running if g.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=10.0)
