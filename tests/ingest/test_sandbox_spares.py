"""Spare sandbox children (issue 18): started ahead, one request each, the same limits as a fresh child."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from ingest import sandbox_spares
from ingest.sandbox import Limits, iter_sandboxed, run_sandboxed
from ingest.sandbox_spares import Spares
from store.errors import PermanentError

FAST = Limits(timeout_s=20.0, memory_mb=1024)


def pid_and_nice() -> tuple[int, int]:
    return os.getpid(), os.nice(0)


def allocate(mb: int) -> int:
    return len(bytearray(mb * 1024 * 1024))


def modules_loaded() -> bool:
    import sys

    return all(name in sys.modules for name in sandbox_spares.SPARE_MODULES)


def plain_pages(n: int) -> Iterator[dict[str, object]]:
    for i in range(n):
        yield {"page": i + 1, "lines": [{"text": "ä", "bbox": (1.0, 2.0, 3.0, 4.0)}]}


def sleep_forever() -> None:
    time.sleep(3600)


def _wait_idle(pool: Spares, count: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with pool._lock:
            if len(pool._idle) >= count and not pool._starting:
                return
        time.sleep(0.02)
    raise AssertionError("spares did not start")


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[Spares]:
    """A pool of this test's own in place of the process's (earlier tests' pipelines hold and configure that one)."""
    fresh = Spares()
    monkeypatch.setattr(sandbox_spares, "SPARES", fresh)
    yield fresh
    fresh.close()


@pytest.fixture
def spares(pool: Spares) -> Spares:
    pool.configure(2)
    pool.refill()
    _wait_idle(pool, 2)
    return pool


def test_a_call_takes_a_spare_that_has_its_modules_imported_and_serves_only_that_call(spares: Spares) -> None:
    taken = spares.taken
    idle = {s.proc.pid for s in spares._idle}
    first, nice = run_sandboxed(pid_and_nice, limits=FAST)
    assert first in idle and spares.taken == taken + 1 and nice == os.nice(0)
    assert run_sandboxed(modules_loaded, limits=FAST) is True
    second, _ = run_sandboxed(pid_and_nice, limits=FAST)
    assert second != first  # one request per child: a hostile file never meets a later one's parse
    _wait_idle(spares, 2)  # each call's end started a new spare


def test_a_spare_applies_the_calls_nice_and_memory_limit(spares: Spares) -> None:
    _pid, nice = run_sandboxed(pid_and_nice, limits=Limits(timeout_s=20, memory_mb=1024, nice=5))
    assert nice == os.nice(0) + 5
    assert run_sandboxed(allocate, 50, limits=Limits(timeout_s=20, memory_mb=400)) == 50 * 1024 * 1024
    with pytest.raises(PermanentError, match=r"memory limit"):
        run_sandboxed(allocate, 2000, limits=Limits(timeout_s=20, memory_mb=400))


def test_a_spare_times_out_like_a_fresh_child(spares: Spares) -> None:
    started = time.monotonic()
    with pytest.raises(PermanentError, match=r"took longer than 1 s"):
        run_sandboxed(sleep_forever, limits=Limits(timeout_s=1.0))
    assert time.monotonic() - started < 10


def test_a_spare_that_died_while_waiting_is_replaced_by_a_fresh_child(spares: Spares) -> None:
    for spare in list(spares._idle):
        os.kill(spare.proc.pid, 9)
        spare.proc.wait(5)
    pid, _ = run_sandboxed(pid_and_nice, limits=FAST)
    assert pid != os.getpid()


def test_a_spare_killed_after_take_falls_back_to_a_fresh_child(spares: Spares, monkeypatch) -> None:
    real = spares.take

    def take_dead():  # alive when taken, dead before the request arrives
        spare = real()
        if spare is not None:
            os.kill(spare.proc.pid, 9)
            spare.proc.wait(5)
            monkeypatch.setattr(spare.proc, "poll", lambda: None)
        return spare

    monkeypatch.setattr(spares, "take", take_dead)
    assert run_sandboxed(pid_and_nice, limits=FAST)[0] != os.getpid()


def test_plain_json_items_come_back_as_json_values(spares: Spares) -> None:
    got = list(iter_sandboxed(plain_pages, 2, limits=FAST, plain_json=True))
    assert got == [{"page": 1, "lines": [{"text": "ä", "bbox": [1.0, 2.0, 3.0, 4.0]}]},
                   {"page": 2, "lines": [{"text": "ä", "bbox": [1.0, 2.0, 3.0, 4.0]}]}]


def test_without_spares_every_call_starts_its_own_child(pool: Spares) -> None:
    pool.configure(0)
    assert run_sandboxed(pid_and_nice, limits=FAST)[0] != os.getpid()
    assert pool.taken == 0 and pool.started == 0 and not pool._idle


def test_a_stopped_spare_exits() -> None:
    spare = sandbox_spares.spawn()
    spare.sender.close()  # as when this process exits: end of file on its request pipe
    assert spare.proc.wait(30) == 0
    spare.discard()


def test_while_held_no_spare_starts_and_the_release_starts_them(spares: Spares) -> None:
    """Issue 18: a spare started while a document is on its way to searchable serves no call of that path (its
    check and text layer have their children): its start-up waits for the release."""
    spares.hold()
    try:
        started = spares.started
        run_sandboxed(pid_and_nice, limits=FAST)
        run_sandboxed(pid_and_nice, limits=FAST)  # none left idle: still none starts beside the path
        spares.refill()
        time.sleep(sandbox_spares.REFILL_DELAY_S + 0.3)  # the calls' own delayed refills have run
        assert spares.started == started and not spares._idle and not spares._starting
    finally:
        spares.release()
    _wait_idle(spares, 2)
    assert spares.started == started + 2


def test_the_start_up_refill_starts_every_spare_even_while_held(pool: Spares) -> None:
    """The first upload after start may hold a slot before the spares have started: they start all the same."""
    pool.configure(2)
    pool.hold()
    try:
        pool.refill(start_up=True)
        _wait_idle(pool, 2)
        assert pool.started == 2
    finally:
        pool.release()


def test_wait_imported_returns_once_every_spare_has_its_modules_and_calls_still_run(pool: Spares) -> None:
    """Issue 18: the runner's start-up waits for its spares' start-ups (each says "imported" when done), so the
    first upload's check and text layer start no interpreter on their path; a call then skips that frame."""
    pool.configure(2)
    assert not pool.wait_imported(0.0)  # none started yet
    pool.refill(start_up=True)
    assert pool.wait_imported(30.0)
    assert len(pool._idle) == 2
    taken = pool.taken
    assert run_sandboxed(pid_and_nice, limits=FAST)[0] != os.getpid()
    assert pool.taken == taken + 1
