"""One generation per session across processes: the lease and progress items of seed 002's session table.

Items (table ``sessions``, next to the session's messages, so ``delete_session`` removes them)::

    PK=SESSION#<sid>  SK=LEASE          generation_id, turn_id, user_id, owner (process), state running|done,
                                        lease_until (epoch s), stop (bool), watched_until (epoch s), done_at
    PK=SESSION#<sid>  SK=LEASE#EVENTS   generation_id, turn_id, user_id, events (encoded frames, bounded),
                                        last_n, finished, updated_at

The LEASE item is small (it is read every poll interval by the generating process, for the stop flag);
the LEASE#EVENTS item is the checkpoint of what the generation has emitted so far, rewritten by its owner
when something new was emitted while a process follows the generation for a client (``watched_until``
set), and once at the end together with the release (``finish``, one transaction).

Taking the lease is a conditional put: ``NotExists`` on a session without one, else ``Equals`` on the
generation id that was read (compare-and-swap) when that lease is done or expired. Every later write of the
owner is conditional on its generation id, so a process that lost the lease (it stalled past
``lease_until`` and another took over, or the session was deleted) learns it on its next renewal. The
items' ``expire_at`` is the session TTL, never the lease expiry: DynamoDB removes expired items lazily
and a condition still sees them, so expiry of the lease is an attribute compared in code.
``Conflict`` (the adapters' translation of ``ConditionalCheckFailedException``) never leaves this module
except as the documented outcomes below. Synchronous and thread-safe, like ``SessionStore``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from store.errors import Conflict, SessionConflict
from store.items import ConditionCheck, Equals, Item, ItemTable, NotExists, Put, Update
from store.logging import get_logger
from store.session_keys import check_sid, session_pk

log = get_logger(__name__)

LEASE_SK = "LEASE"
EVENTS_SK = "LEASE#EVENTS"
_ACQUIRE_ATTEMPTS = 5

LeaseState = Literal["running", "done"]


@dataclass(frozen=True, slots=True)
class Lease:
    session_id: str
    generation_id: str
    turn_id: str
    user_id: str
    owner: str
    state: LeaseState
    lease_until: float
    stop: bool = False
    watched_until: float = 0.0
    done_at: float | None = None

    def live(self, now: float) -> bool:
        """Held by a running owner that renewed it in time (a crashed owner's lease stops being live)."""
        return self.state == "running" and self.lease_until > now


@dataclass(frozen=True, slots=True)
class Checkpoint:
    session_id: str
    generation_id: str
    turn_id: str
    user_id: str
    events: str  # the encoded frames (chat.core.checkpoints); opaque here
    last_n: int
    finished: bool
    updated_at: float


def _lease(session_id: str, item: Mapping[str, Any]) -> Lease:
    done_at = item.get("done_at")
    return Lease(
        session_id=session_id,
        generation_id=str(item["generation_id"]),
        turn_id=str(item.get("turn_id", "")),
        user_id=str(item.get("user_id", "")),
        owner=str(item.get("owner", "")),
        state="done" if item.get("state") == "done" else "running",
        lease_until=float(item.get("lease_until") or 0.0),
        stop=bool(item.get("stop")),
        watched_until=float(item.get("watched_until") or 0.0),
        done_at=float(done_at) if done_at is not None else None,
    )


def _checkpoint(session_id: str, item: Mapping[str, Any]) -> Checkpoint:
    return Checkpoint(
        session_id=session_id,
        generation_id=str(item["generation_id"]),
        turn_id=str(item.get("turn_id", "")),
        user_id=str(item.get("user_id", "")),
        events=str(item.get("events") or ""),
        last_n=int(item.get("last_n") or 0),
        finished=bool(item.get("finished")),
        updated_at=float(item.get("updated_at") or 0.0),
    )


class SessionLeases:
    """The generation lease of each session, its stop flag and its progress checkpoint, over any ``ItemTable``."""

    def __init__(self, items: ItemTable, *, ttl_days: int = 90, clock: Callable[[], float] = time.time) -> None:
        self.items = items
        self.ttl_seconds = ttl_days * 86400
        self._clock = clock

    # --- the lease -------------------------------------------------------------------------

    def acquire(
        self, session_id: str, *, generation_id: str, turn_id: str, user_id: str, owner: str, lease_s: float,
        owner_gone: Callable[[str], bool] | None = None,
    ) -> tuple[bool, Lease]:
        """Take the session's lease: ``(True, ours)``, or ``(False, the live lease someone else holds)``.

        The new generation's first checkpoint is the owner's to write (``write_checkpoint(first=True)``),
        off the question's critical path; until then a follower waits on the live lease. Raises
        ``SessionConflict`` only when the lease keeps changing under us (several takers in a tight race,
        each time someone else won and already finished).
        """
        check_sid(session_id)
        pk = session_pk(session_id)
        for _ in range(_ACQUIRE_ATTEMPTS):
            current = self.get(session_id)
            now = self._clock()
            if current is not None and current.live(now):
                # a live lease whose owner is known to be gone (its process no longer exists: kill -9, a crash)
                # is taken over at once instead of after its expiry
                if owner_gone is None or current.owner == owner or not owner_gone(current.owner):
                    return False, current
                log.info("lease_taken_over", session_id=session_id, generation_id=current.generation_id)
            item: Item = {
                "PK": pk,
                "SK": LEASE_SK,
                "generation_id": generation_id,
                "turn_id": turn_id,
                "user_id": user_id,
                "owner": owner,
                "state": "running",
                "lease_until": now + lease_s,
                "stop": False,
                "watched_until": 0.0,
                "expire_at": int(now) + self.ttl_seconds,
            }
            cond = NotExists("PK") if current is None else Equals("generation_id", current.generation_id)
            try:
                self.items.put(item, condition=cond)
            except Conflict:
                continue  # someone else took or changed it between our read and our write: look again
            log.debug("lease_acquired", session_id=session_id, generation_id=generation_id)
            return True, _lease(session_id, item)
        raise SessionConflict("the session's answer lease is contended; retry", session_id=session_id)

    def get(self, session_id: str) -> Lease | None:
        check_sid(session_id)
        item = self.items.get(session_pk(session_id), LEASE_SK, consistent=True)
        return _lease(session_id, item) if item is not None else None

    def renew(self, session_id: str, generation_id: str, lease_s: float) -> Lease | None:
        """Extend our lease; returns it (with the stop flag and watchers), or None when we no longer hold it."""
        try:
            item = self.items.update(
                session_pk(session_id),
                LEASE_SK,
                set={"lease_until": self._clock() + lease_s},
                condition=Equals("generation_id", generation_id),
            )
        except Conflict:
            return None  # deleted with its session, or taken over after we let it expire
        return _lease(session_id, item)

    def release(self, session_id: str, generation_id: str) -> bool:
        """Mark our generation done (the next question may take the lease); False when it was not ours any more."""
        try:
            self.items.update(session_pk(session_id), LEASE_SK, set=self._done(),
                              condition=Equals("generation_id", generation_id))
        except Conflict:
            return False
        return True

    def finish(
        self,
        session_id: str,
        *,
        generation_id: str,
        turn_id: str,
        user_id: str,
        events: str,
        last_n: int,
        first: bool = False,
    ) -> bool:
        """The final checkpoint and the release in one transaction (one round trip; followers never see one
        without the other). ``first``: no checkpoint of ours exists yet. False when the lease was not ours."""
        pk = session_pk(session_id)
        item = self._checkpoint_item(session_id, generation_id, turn_id, user_id, events, last_n, finished=True)
        ours = Equals("generation_id", generation_id)
        try:
            self.items.transact_write(
                [
                    Put(item, condition=None if first else ours),
                    Update(pk, LEASE_SK, set=self._done(), condition=ours),
                ]
            )
        except Conflict:
            return False
        return True

    def _done(self) -> dict[str, Any]:
        now = self._clock()
        return {"state": "done", "done_at": now, "lease_until": now}

    def request_stop(self, session_id: str) -> Lease | None:
        """Set the stop flag of the live generation; returns its lease, or None when none is running."""
        current = self.get(session_id)
        if current is None or not current.live(self._clock()):
            return None
        try:
            item = self.items.update(
                session_pk(session_id),
                LEASE_SK,
                set={"stop": True},
                condition=Equals("generation_id", current.generation_id),
            )
        except Conflict:
            return None  # it ended (or the session went) between our read and our write
        return _lease(session_id, item)

    def watch(self, session_id: str, generation_id: str, until: float) -> bool:
        """A follower's clients are still reading this generation: tell the owner not to apply its disconnect rule."""
        try:
            self.items.update(
                session_pk(session_id),
                LEASE_SK,
                set={"watched_until": until},
                condition=Equals("generation_id", generation_id),
            )
        except Conflict:
            return False
        return True

    # --- the progress checkpoint ---------------------------------------------------------------

    def write_checkpoint(
        self,
        session_id: str,
        *,
        generation_id: str,
        turn_id: str,
        user_id: str,
        events: str,
        last_n: int,
        finished: bool,
        first: bool = False,
    ) -> bool:
        """Replace our generation's checkpoint; False when a newer generation (or a delete) replaced it.

        ``first``: the owner's first write replaces the previous generation's checkpoint, in one transaction
        with a check that the lease is still ours (a stalled former owner never overwrites its successor's).
        """
        item = self._checkpoint_item(session_id, generation_id, turn_id, user_id, events, last_n, finished=finished)
        ours = Equals("generation_id", generation_id)
        try:
            if first:
                self.items.transact_write([ConditionCheck(session_pk(session_id), LEASE_SK, ours), Put(item)])
            else:
                self.items.put(item, condition=ours)
        except Conflict:
            return False
        return True

    def _checkpoint_item(
        self, session_id: str, generation_id: str, turn_id: str, user_id: str, events: str, last_n: int, *,
        finished: bool,
    ) -> Item:
        now = self._clock()
        return {
            "PK": session_pk(session_id),
            "SK": EVENTS_SK,
            "generation_id": generation_id,
            "turn_id": turn_id,
            "user_id": user_id,
            "events": events,
            "last_n": last_n,
            "finished": finished,
            "updated_at": now,
            "expire_at": int(now) + self.ttl_seconds,
        }

    def read_checkpoint(self, session_id: str) -> Checkpoint | None:
        check_sid(session_id)
        item = self.items.get(session_pk(session_id), EVENTS_SK, consistent=True)
        return _checkpoint(session_id, item) if item is not None else None

    def clear(self, session_id: str) -> None:
        """Drop both items (tests and tooling; ``delete_session`` removes them with the rest of the session)."""
        pk = session_pk(session_id)
        self.items.batch_write(deletes=[(pk, LEASE_SK), (pk, EVENTS_SK)])


__all__ = ["EVENTS_SK", "LEASE_SK", "Checkpoint", "Lease", "SessionLeases"]
