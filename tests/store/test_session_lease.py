"""The generation lease contract (store/session_lease.py) on every session-table backend.

One suite, run against SQLite, moto DynamoDB and DynamoDB Local (``DOCCHAT_TOOLS_DIR``): taking the lease is
exclusive while its owner is live, free again once it is done or expired, the stop flag and the watchers are
seen by the owner, the checkpoint belongs to one generation, and deleting the session takes the lease away.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from store.schema import SESSIONS_TABLE
from store.session_lease import EVENTS_SK, LEASE_SK, SessionLeases
from store.sessions import SessionStore
from tests.conftest import make_blob_store, make_item_table

BACKENDS = ["sqlite", "moto", "dynamodb-local"]


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=BACKENDS)
def env(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[SessionStore, SessionLeases, Clock]:
    items = make_item_table(request.param, SESSIONS_TABLE, request, tmp_path)
    store = SessionStore(items, make_blob_store("file", request, tmp_path))
    clock = Clock()
    return store, SessionLeases(items, clock=clock), clock


def take(leases: SessionLeases, sid: str, gen: str, turn: str = "t1", owner: str = "p1") -> Any:
    return leases.acquire(sid, generation_id=gen, turn_id=turn, user_id="alice", owner=owner, lease_s=10.0)


def test_one_live_owner_and_the_lease_items_sit_in_the_session(env: Any) -> None:
    store, leases, _ = env
    sid = store.create_session("alice")
    won, lease = take(leases, sid, "g1")
    assert won and lease.generation_id == "g1" and lease.state == "running" and lease.owner == "p1"
    won2, held = take(leases, sid, "g2", turn="t2", owner="p2")
    assert not won2 and held.generation_id == "g1" and held.turn_id == "t1"  # the caller decides: retry or 409
    assert store.items.get(f"SESSION#{sid}", LEASE_SK) is not None
    assert leases.read_checkpoint(sid) is None  # the owner writes the first one, off the critical path
    assert leases.write_checkpoint(sid, generation_id="g1", turn_id="t1", user_id="alice", events="", last_n=0,
                                   finished=False, first=True)
    ck = leases.read_checkpoint(sid)
    assert ck is not None and ck.generation_id == "g1" and ck.events == "" and not ck.finished
    # the session's message listing never shows them
    assert store.list_messages(sid)["items"] == [] and store.load_messages(sid) == []


def test_done_or_expired_lease_is_free_again(env: Any) -> None:
    store, leases, clock = env
    sid = store.create_session("alice")
    take(leases, sid, "g1")
    assert leases.release(sid, "g1") is True
    won, lease = take(leases, sid, "g2", turn="t2")
    leases.write_checkpoint(sid, generation_id="g2", turn_id="t2", user_id="alice", events="", last_n=0,
                            finished=False, first=True)
    assert won and lease.generation_id == "g2"
    clock.now += 11  # g2's owner crashed: nobody renewed it
    assert leases.get(sid) is not None and not leases.get(sid).live(clock.now)
    won, lease = take(leases, sid, "g3", turn="t3", owner="p2")
    assert won and lease.owner == "p2"
    leases.write_checkpoint(sid, generation_id="g3", turn_id="t3", user_id="alice", events="", last_n=0,
                            finished=False, first=True)
    # the old owners learn it on their next write
    assert leases.renew(sid, "g2", 10.0) is None and leases.release(sid, "g2") is False
    assert leases.write_checkpoint(sid, generation_id="g2", turn_id="t2", user_id="alice", events="[]", last_n=1,
                                   finished=True) is False
    assert leases.read_checkpoint(sid).generation_id == "g3"


def test_renewal_keeps_it_live_and_returns_the_flags(env: Any) -> None:
    store, leases, clock = env
    sid = store.create_session("alice")
    take(leases, sid, "g1")
    clock.now += 8
    renewed = leases.renew(sid, "g1", 10.0)
    assert renewed is not None and renewed.lease_until == clock.now + 10.0
    clock.now += 8
    assert not take(leases, sid, "g2", turn="t2")[0]  # renewed, so still held
    assert leases.watch(sid, "g1", clock.now + 2.0)
    stopped = leases.request_stop(sid)
    assert stopped is not None and stopped.generation_id == "g1" and stopped.stop
    seen = leases.get(sid)
    assert seen.stop and seen.watched_until == clock.now + 2.0
    leases.release(sid, "g1")
    assert leases.request_stop(sid) is None  # nothing running: nothing to stop


def test_checkpoint_round_trip_belongs_to_one_generation(env: Any) -> None:
    store, leases, _ = env
    sid = store.create_session("alice")
    take(leases, sid, "g1")
    assert not leases.write_checkpoint(sid, generation_id="g1", turn_id="t1", user_id="alice", events="",
                                       last_n=0, finished=False)  # only the owner's first write creates it
    leases.write_checkpoint(sid, generation_id="g1", turn_id="t1", user_id="alice", events="", last_n=0,
                            finished=False, first=True)
    frames = '[["t",2,"héllo wörld",[5,6]]]'
    assert leases.write_checkpoint(sid, generation_id="g1", turn_id="t1", user_id="alice", events=frames, last_n=3,
                                   finished=False)
    ck = leases.read_checkpoint(sid)
    assert (ck.events, ck.last_n, ck.finished, ck.user_id, ck.turn_id) == (frames, 3, False, "alice", "t1")
    assert leases.write_checkpoint(sid, generation_id="g1", turn_id="t1", user_id="alice", events=frames, last_n=4,
                                   finished=True)
    assert leases.read_checkpoint(sid).finished


def test_concurrent_takers_get_exactly_one_owner(env: Any) -> None:
    store, leases, _ = env
    sid = store.create_session("alice")

    def attempt(i: int) -> bool:
        won, _ = take(leases, sid, f"g{i}", turn=f"t{i}", owner=f"p{i}")
        return bool(won)

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(attempt, range(8)))
    assert results.count(True) == 1
    holder = leases.get(sid)
    assert holder is not None and f"g{results.index(True)}" == holder.generation_id


def test_deleting_the_session_takes_the_lease_away(env: Any) -> None:
    store, leases, _ = env
    sid = store.create_session("alice")
    take(leases, sid, "g1")
    leases.write_checkpoint(sid, generation_id="g1", turn_id="t1", user_id="alice", events="", last_n=0,
                            finished=False, first=True)
    store.delete_session(sid)
    assert leases.get(sid) is None and leases.read_checkpoint(sid) is None
    assert store.items.get(f"SESSION#{sid}", EVENTS_SK) is None
    assert leases.renew(sid, "g1", 10.0) is None  # the owner notices on its next tick
    assert leases.request_stop(sid) is None and leases.watch(sid, "g1", 1.0) is False


def test_no_lease_means_nothing_to_read(env: Any) -> None:
    store, leases, _ = env
    sid = store.create_session("alice")
    assert leases.get(sid) is None and leases.read_checkpoint(sid) is None
    assert leases.renew(sid, "nope", 10.0) is None  # never creates a lease by renewing
    assert leases.get(sid) is None


def test_finish_is_the_final_checkpoint_and_the_release_at_once(env: Any) -> None:
    store, leases, _ = env
    sid = store.create_session("alice")
    take(leases, sid, "g1")
    # never checkpointed before (nobody followed it): the final one replaces whatever was there
    assert leases.finish(sid, generation_id="g1", turn_id="t1", user_id="alice", events="[]", last_n=9, first=True)
    lease, ck = leases.get(sid), leases.read_checkpoint(sid)
    assert lease.state == "done" and not lease.live(1e12) and lease.done_at is not None
    assert ck.generation_id == "g1" and ck.finished and ck.last_n == 9
    assert leases.finish(sid, generation_id="g1", turn_id="t1", user_id="alice", events="[]", last_n=9)  # idempotent
    # a former owner that lost the lease changes nothing, not even with first=True
    take(leases, sid, "g2", turn="t2")
    assert not leases.finish(sid, generation_id="g1", turn_id="t1", user_id="alice", events="x", last_n=1,
                             first=True)
    assert not leases.write_checkpoint(sid, generation_id="g1", turn_id="t1", user_id="alice", events="x",
                                       last_n=1, finished=False, first=True)
    assert leases.get(sid).generation_id == "g2" and leases.get(sid).state == "running"
    assert leases.read_checkpoint(sid).generation_id == "g1" and leases.read_checkpoint(sid).events == "[]"


def test_a_live_lease_whose_owner_process_is_gone_is_taken_over_at_once(env: Any) -> None:
    """kill -9 of the answering server: the restarted one need not wait out the lease (issue 13, faults suite)."""
    import os
    import socket
    import subprocess
    import sys

    from chat.core.shared import owner_gone

    store, leases, _ = env
    here = socket.gethostname()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    dead_owner = f"{here}:{int(dead.stdout)}:abc123"  # a process that has exited
    sid = store.create_session("alice")
    assert take(leases, sid, "g1", owner=dead_owner)[0]
    won, lease = leases.acquire(sid, generation_id="g2", turn_id="t2", user_id="alice", owner="p2", lease_s=10.0,
                                owner_gone=owner_gone)
    assert won and lease.generation_id == "g2"
    # a live owner (here: the parent of this test process), another host, or no check: the lease holds
    live = f"{here}:{os.getppid()}:def456"
    for owner, check in ((live, owner_gone), ("elsewhere:12345:x", owner_gone), (dead_owner, None)):
        sid = store.create_session("alice")
        assert take(leases, sid, "g1", owner=owner)[0]
        won, held = leases.acquire(sid, generation_id="g2", turn_id="t2", user_id="alice", owner="p2",
                                   lease_s=10.0, owner_gone=check)
        assert not won and held.generation_id == "g1"
