"""One generation per session across processes: the lease, the stop flag and the progress checkpoints.

``SharedGenerations`` puts the in-process ``GenerationRegistry`` behind the session's lease
(``store.session_lease``, through ``chat.core.ports.GenerationLeasePort``):

* **asking** takes the lease (a conditional write). Held by a live owner for another question → 409 on
  every process; held for the *same* ``turn_id`` (a retry) → this process follows that generation and
  replays it, so concurrent retries never get 409 and never answer twice.
* **the owner** keeps the lease while it generates: every ``generation_poll_seconds`` it reads the lease
  (renewing it when half of ``generation_lease_seconds`` is gone), acts on the stop flag, and — once a
  follower asked for it — checkpoints the events it has published (``chat.core.checkpoints``) when there
  are new ones. When it ends it writes the final checkpoint and marks the lease done in one transaction.
  A crashed owner stops renewing: its lease expires.
* **stop** on any process sets the stop flag and waits (bounded) until the owner has ended the generation.
* **resume** on a process that does not hold the generation starts a *follower*: a ``Generation`` fed from
  the checkpoints (same ids and positions) until the owner finishes. While a follower has clients it marks
  the lease watched, so the owner's disconnect rule does not stop an answer somebody reads elsewhere.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from chat.core import checkpoints, events
from chat.core.generations import Generation, GenerationRegistry
from chat.core.ports import GenerationLeasePort
from store.config import ChatSettings
from store.errors import Conflict, DocchatError
from store.logging import get_logger
from store.session_lease import Lease

log = get_logger(__name__)

Run = Callable[[Generation], Awaitable[None]]
BUSY = "a generation is already running for this session; stop it or resume its stream"


def process_owner() -> str:
    """This process's name in the leases it holds: host, pid and a random tail (pids are reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


def owner_gone(owner: str) -> bool:
    """Whether the process named by a lease's ``owner`` (``host:pid:tail``) is known to be gone: it ran on this
    host and no process has its pid any more. Unknown (another host, a pid in use — perhaps reused) → False,
    and the lease is left to expire."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False  # this process (another service in it, as in tests), or an earlier one with our pid: unknown
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # exists, not ours to signal
        return False
    return False


class SharedGenerations:
    """Begin, resume and stop generations so that they hold across processes (``leases`` None: this process only)."""

    def __init__(
        self,
        registry: GenerationRegistry,
        leases: GenerationLeasePort | None,
        settings: ChatSettings,
        *,
        owner: str | None = None,
    ) -> None:
        self.registry = registry
        self.leases = leases
        self.poll_s = settings.generation_poll_seconds
        self.lease_s = settings.generation_lease_seconds
        self.max_bytes = settings.generation_checkpoint_max_bytes
        self.retention_s = settings.generation_retention_seconds
        self.grace_s = settings.disconnect_grace_seconds
        self.watch_s = 3 * self.poll_s + 1.0  # how long one watch of a follower lasts
        self.owner = owner or process_owner()
        self._keepers: dict[str, asyncio.Task[None]] = {}  # generation_id -> its lease keeper
        self._checkpointed: set[str] = set()  # owned generations with a checkpoint of their own already

    # --- asking ------------------------------------------------------------------------------

    async def begin(self, *, session_id: str, user_id: str, turn_id: str, run: Run) -> Generation:
        """Answer ``turn_id`` here, or follow it where it already runs; ``Conflict`` when another question runs."""
        current = self.registry.get(session_id)
        if current is not None and current.turn_id == turn_id and current.user_id == user_id:
            return await self.claimed(current)  # a retry of the same request: replay it instead of answering twice
        generation_id = uuid.uuid4().hex[:16]
        if self.leases is None:
            return self.registry.begin(
                generation_id=generation_id, session_id=session_id, user_id=user_id, turn_id=turn_id, run=run
            )
        gen = self.registry.reserve(generation_id=generation_id, session_id=session_id, user_id=user_id,
                                    turn_id=turn_id)
        try:
            won, lease = await asyncio.to_thread(
                self.leases.acquire,
                session_id,
                generation_id=generation_id,
                turn_id=turn_id,
                user_id=user_id,
                owner=self.owner,
                lease_s=self.lease_s,
                owner_gone=owner_gone,
            )
            if won:
                gen.role = "owner"
                gen.released = asyncio.Event()
                self.registry.launch(gen, run, on_done=self._finalize)
                self._keepers[generation_id] = asyncio.get_running_loop().create_task(
                    self._keep(gen), name=f"lease:{generation_id}"
                )
            elif lease.turn_id == turn_id and lease.user_id == user_id:
                gen.role = "follower"
                gen.generation_id = lease.generation_id
                self.registry.launch(gen, self._follow)
            else:
                raise Conflict(BUSY)
        except BaseException as exc:
            gen.claim_error = exc
            self.registry.discard(gen)
            raise
        finally:
            gen.claimed.set()
        return gen

    async def claimed(self, gen: Generation) -> Generation:
        """Wait until ``gen``'s lease outcome is known; raises what refused it (e.g. ``Conflict``)."""
        await gen.claimed.wait()
        if gen.claim_error is not None:
            if isinstance(gen.claim_error, DocchatError):
                raise gen.claim_error
            raise Conflict(BUSY)
        return gen

    # --- the owner ---------------------------------------------------------------------------

    async def _keep(self, gen: Generation) -> None:
        """The owner's loop: keep the lease, watch the stop flag and the watchers, checkpoint new events.

        Checkpoints are written only once a follower has asked for them (``watched_until`` set on the lease):
        an answer nobody follows elsewhere costs one small read per tick and one write at the end.
        """
        assert self.leases is not None
        leases = self.leases
        written = 0
        renewed = time.time()
        while not gen.finished:
            await asyncio.sleep(self.poll_s)
            if gen.finished:
                return
            try:
                read_at = time.time()  # the lease as of at least this moment (a watch renewed before it is seen)
                if read_at - renewed >= self.lease_s / 2:
                    lease = await asyncio.to_thread(leases.renew, gen.session_id, gen.generation_id, self.lease_s)
                    renewed = time.time()
                else:
                    lease = await asyncio.to_thread(leases.get, gen.session_id)
                    if lease is not None and lease.generation_id != gen.generation_id:
                        lease = None
                if lease is None:
                    self._lost(gen)
                    return
                gen.watched_until, gen.watch_read_at = lease.watched_until, read_at
                if lease.stop and not gen.stop_requested:
                    log.info("generation_stop_requested", session_id=gen.session_id, generation_id=gen.generation_id)
                    self.registry.cancel(gen)
                if lease.watched_until > 0 and gen.last_n > written and not gen.finished:
                    last = gen.last_n
                    first = gen.generation_id not in self._checkpointed
                    if not await self._checkpoint(gen, first=first):
                        self._lost(gen)
                        return
                    self._checkpointed.add(gen.generation_id)
                    written = last
            except DocchatError as exc:  # throttled, unreachable: try again next tick (the lease has slack)
                log.warning("lease_tick_failed", session_id=gen.session_id, error_type=type(exc).__name__)

    def _lost(self, gen: Generation) -> None:
        """The lease is gone (session deleted) or someone else's: end this generation quietly."""
        log.info("generation_lease_lost", session_id=gen.session_id, generation_id=gen.generation_id)
        gen.lease_lost = True
        self.registry.cancel(gen)

    async def _checkpoint(self, gen: Generation, *, first: bool) -> bool:
        assert self.leases is not None
        ok: bool = await asyncio.to_thread(
            self.leases.write_checkpoint,
            gen.session_id,
            generation_id=gen.generation_id,
            turn_id=gen.turn_id,
            user_id=gen.user_id,
            events=checkpoints.encode(gen.buffered(), self.max_bytes),
            last_n=gen.last_n,
            finished=False,
            first=first,
        )
        return ok

    async def _finalize(self, gen: Generation) -> None:
        """After the owner's run: the final checkpoint and the release, in one transaction."""
        first = gen.generation_id not in self._checkpointed
        self._checkpointed.discard(gen.generation_id)
        try:
            keeper = self._keepers.pop(gen.generation_id, None)
            if keeper is not None and not keeper.done():
                keeper.cancel()
                await asyncio.gather(keeper, return_exceptions=True)
            if gen.lease_lost or self.leases is None:
                return
            await asyncio.to_thread(
                self.leases.finish,
                gen.session_id,
                generation_id=gen.generation_id,
                turn_id=gen.turn_id,
                user_id=gen.user_id,
                events=checkpoints.encode(gen.buffered(), self.max_bytes),
                last_n=gen.last_n,
                first=first,
            )
        except DocchatError as exc:  # the lease expires on its own
            log.warning("lease_release_failed", session_id=gen.session_id, error_type=type(exc).__name__)
        finally:
            if gen.released is not None:
                gen.released.set()

    # --- followers ---------------------------------------------------------------------------

    async def _follow(self, gen: Generation) -> None:
        """Republish the owner's checkpointed events until it finishes (or stops, crashes, vanishes).

        While someone reads it here (or it has just started) the lease is marked watched: the owner then
        checkpoints every tick and does not apply its disconnect rule.
        """
        assert self.leases is not None
        leases = self.leases
        idle_since = time.monotonic()
        idle_limit = max(self.grace_s, 4 * self.poll_s, 2.0)
        watched_until = 0.0
        failures = settle = 0
        while True:
            try:
                # the lease first: a checkpoint read after the lease said done is the final one (one transaction)
                lease = await asyncio.to_thread(leases.get, gen.session_id)
                ck = await asyncio.to_thread(leases.read_checkpoint, gen.session_id)
            except DocchatError as exc:  # throttled or unreachable for a moment: the owner goes on regardless
                failures += 1
                log.warning("follow_read_failed", session_id=gen.session_id, error_type=type(exc).__name__)
                if failures * self.poll_s > self.lease_s:
                    self._end(gen, "interrupted", "this answer cannot be followed right now; reload the messages")
                    return
                await asyncio.sleep(self.poll_s)
                continue
            failures = 0
            now = time.time()
            ours = lease is not None and lease.generation_id == gen.generation_id
            if ck is not None and ck.generation_id == gen.generation_id:
                for n, name, data in checkpoints.decode(ck.events):
                    gen.mirror(n, name, data)
                if ck.finished:
                    return
            if ours and lease is not None and lease.state == "done" and settle < 25:
                settle += 1  # a store that does not isolate a transaction from reads (DynamoDB Local): read again
                await asyncio.sleep(0.02)
                continue
            if lease is None or not ours or lease.state == "done":
                self._end(gen, "generation_gone", "this answer is no longer available here; reload the messages")
                return
            if not lease.live(now):
                self._end(gen, "interrupted", "the server answering this question stopped; reload the messages")
                return
            if gen.subscribers:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > idle_limit:
                self.registry.discard(gen)  # nobody reads it here any more
                return
            if watched_until - now < self.watch_s / 2:  # early: the owner has several reads to see the renewal
                watched_until = now + self.watch_s
                try:
                    await asyncio.to_thread(leases.watch, gen.session_id, gen.generation_id, watched_until)
                except DocchatError as exc:
                    watched_until = 0.0
                    log.warning("follow_watch_failed", session_id=gen.session_id, error_type=type(exc).__name__)
            await asyncio.sleep(self.poll_s)

    @staticmethod
    def _end(gen: Generation, code: str, message: str) -> None:
        if not gen.finished:
            gen.publish("error", events.error(code, message))
            gen.publish("done", events.done(None, "interrupted"))

    def _start_follower(self, lease_user: str, session_id: str, generation_id: str, turn_id: str) -> Generation:
        gen = self.registry.reserve(generation_id=generation_id, session_id=session_id, user_id=lease_user,
                                    turn_id=turn_id)
        gen.role = "follower"
        gen.claimed.set()
        self.registry.launch(gen, self._follow)
        return gen

    # --- resume, stop, status ------------------------------------------------------------------

    async def resume(
        self, session_id: str, user_id: str, last: tuple[str, int] | None
    ) -> tuple[Generation, int] | None:
        """The generation to replay for ``GET …/stream`` (here, or followed from its owner) and where to start."""
        gen = self.registry.get(session_id)
        if gen is None and self.leases is not None:
            lease = await asyncio.to_thread(self.leases.get, session_id)
            ck = await asyncio.to_thread(self.leases.read_checkpoint, session_id)
            now = time.time()
            follow: tuple[str, str] | None = None  # (generation_id, turn_id)
            if (
                lease is not None
                and lease.user_id == user_id
                and lease.state == "running"
                and now - lease.lease_until <= self.retention_s  # crashed long ago: nothing to follow
            ):
                follow = (lease.generation_id, lease.turn_id)
                # before the client even attaches: the owner must not apply its disconnect rule
                await asyncio.to_thread(self.leases.watch, session_id, lease.generation_id, now + self.watch_s)
            elif ck is not None and ck.user_id == user_id and ck.finished and now - ck.updated_at <= self.retention_s:
                follow = (ck.generation_id, ck.turn_id)
            gen = self.registry.get(session_id)  # another request may have started one meanwhile
            if gen is None and follow is not None:
                gen = self._start_follower(user_id, session_id, *follow)
        if gen is None or gen.user_id != user_id:
            return None
        if last is not None and last[0] == gen.generation_id:
            return gen, last[1]
        return gen, 0  # unknown or older generation id: the whole current generation

    async def stop(self, session_id: str, *, timeout_s: float = 10.0) -> dict[str, Any]:
        """Stop the session's running generation wherever it runs; returns once its partial answer is saved."""
        gen = self.registry.running(session_id)
        if gen is not None and gen.role != "follower":
            await self.registry.stop(gen, timeout_s=timeout_s)
            return {"stopped": True, "turn_id": gen.turn_id}
        if self.leases is None:
            return {"stopped": False}
        lease = await asyncio.to_thread(self.leases.request_stop, session_id)
        if lease is None:
            return {"stopped": False}
        log.info("generation_stop_sent", session_id=session_id, generation_id=lease.generation_id)
        await self._wait_ended(lease, timeout_s)
        return {"stopped": True, "turn_id": lease.turn_id}

    async def _wait_ended(self, lease: Lease, timeout_s: float) -> None:
        assert self.leases is not None
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            cur = await asyncio.to_thread(self.leases.get, lease.session_id)
            if cur is None or cur.generation_id != lease.generation_id or not cur.live(time.time()):
                return
            await asyncio.sleep(min(0.1, self.poll_s))
        log.warning("generation_stop_slow", session_id=lease.session_id)

    async def generating(self, session_id: str) -> bool:
        """Whether an answer is being generated in the session, on any process."""
        gen = self.registry.running(session_id)
        if gen is not None:
            return True
        if self.leases is None:
            return False
        lease = await asyncio.to_thread(self.leases.get, session_id)
        return lease is not None and lease.live(time.time())

    async def answering(self, session_id: str, user_id: str, turn_id: str) -> bool:
        """Whether ``turn_id`` of ``user_id`` is being answered in the session already, here or on another process
        (a retry of it follows that answer: it is not a new question)."""
        gen = self.registry.get(session_id)
        if gen is not None and gen.turn_id == turn_id and gen.user_id == user_id:
            return True
        if self.leases is None:
            return False
        lease = await asyncio.to_thread(self.leases.get, session_id)
        return (lease is not None and lease.live(time.time()) and lease.turn_id == turn_id
                and lease.user_id == user_id)
