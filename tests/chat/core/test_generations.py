from __future__ import annotations

import asyncio
import time

import pytest

from chat.core import events
from chat.core.events import KEEPALIVE, SSEParser
from chat.core.generations import Generation, GenerationRegistry
from store.errors import Conflict


async def collect(gen: Generation, after: int, keepalive: float = 5.0) -> list[bytes]:
    return [chunk async for chunk in gen.relay(after, keepalive)]


async def test_relay_replays_from_a_position_and_follows_live() -> None:
    reg = GenerationRegistry()
    release = asyncio.Event()

    async def run(g: Generation) -> None:
        for i in range(3):
            g.publish("text", events.text(str(i)))
        await release.wait()
        g.publish("done", events.done(7, "end_turn"))

    gen = reg.begin(generation_id="g", session_id="s", user_id="u", turn_id="t", run=run)
    await asyncio.sleep(0)
    reader = asyncio.create_task(collect(gen, 1))
    await asyncio.sleep(0.01)
    release.set()
    chunks = await asyncio.wait_for(reader, 2)
    msgs = SSEParser().feed(b"".join(chunks))
    assert [m.id for m in msgs] == ["g.2", "g.3", "g.4"]
    assert msgs[-1].event == "done"
    assert gen.finished


async def test_keepalive_comment_when_silent() -> None:
    reg = GenerationRegistry()
    release = asyncio.Event()

    async def run(g: Generation) -> None:
        await release.wait()

    gen = reg.begin(generation_id="g", session_id="s", user_id="u", turn_id="t", run=run)
    it = gen.relay(0, 0.02)
    assert await asyncio.wait_for(it.__anext__(), 1) == KEEPALIVE
    release.set()
    await gen.task  # type: ignore[misc]
    with pytest.raises(StopAsyncIteration):
        await it.__anext__()


async def test_bounded_buffer_reports_a_gap() -> None:
    gen = Generation(generation_id="g", session_id="s", user_id="u", turn_id="t", max_events=10)
    for i in range(25):
        gen.publish("text", events.text(str(i)))
    gen.finish()
    msgs = SSEParser().feed(b"".join(await collect(gen, 0)))
    assert msgs[0].event == "error" and "replay_gap" in msgs[0].data
    assert len(gen._events) <= 10
    assert msgs[-1].id == "g.25"


async def test_one_running_generation_per_session() -> None:
    reg = GenerationRegistry()
    forever = asyncio.Event()

    async def run(g: Generation) -> None:
        await forever.wait()

    gen = reg.begin(generation_id="a", session_id="s", user_id="u", turn_id="t", run=run)
    with pytest.raises(Conflict):
        reg.begin(generation_id="b", session_id="s", user_id="u", turn_id="t2", run=run)
    await reg.stop(gen)
    assert gen.finished and reg.running("s") is None
    assert reg.get("s") is gen  # still replayable after it finished


async def _started(run_body: asyncio.Event, reg: GenerationRegistry) -> tuple[Generation, list[str]]:
    seen: list[str] = []

    async def run(g: Generation) -> None:
        try:
            await run_body.wait()
            seen.append("finished")
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise

    gen = reg.begin(generation_id="g", session_id="s", user_id="u", turn_id="t", run=run)
    await asyncio.sleep(0)
    return gen, seen


async def test_partial_policy_cancels_after_grace_unless_a_client_returns() -> None:
    reg = GenerationRegistry(policy="partial", grace_s=0.05)
    body = asyncio.Event()
    gen, seen = await _started(body, reg)
    reg.subscribe(gen)
    reg.unsubscribe(gen)
    await asyncio.sleep(0.01)
    reg.subscribe(gen)  # reconnected within the grace period: keeps running
    await asyncio.sleep(0.1)
    assert not gen.finished
    reg.unsubscribe(gen)
    await asyncio.sleep(0.1)
    assert seen == ["cancelled"] and gen.finished


async def test_a_watch_that_lapses_between_two_lease_reads_does_not_stop_the_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The owner sees a follower's watch only when it reads its lease (every poll interval): the renewal may
    be in the lease already when the watch it knows lapses. Only a read begun after the lapse ends it."""
    monkeypatch.setattr("chat.core.generations.WATCH_LATE_S", 0.0)
    reg = GenerationRegistry(policy="partial", grace_s=0.01)
    body = asyncio.Event()
    gen, seen = await _started(body, reg)
    gen.role = "owner"
    gen.watch_read_at = time.time()  # the owner's last read: watched for another 0.1 s
    gen.watched_until = gen.watch_read_at + 0.1
    reg.subscribe(gen)
    reg.unsubscribe(gen)  # the client went to a follower on another process
    await asyncio.sleep(0.3)  # the watch lapsed; the owner has not read its lease since
    assert seen == [] and not gen.finished
    gen.watch_read_at = time.time()  # its next read: renewed by the follower meanwhile
    gen.watched_until = gen.watch_read_at + 0.1
    await asyncio.sleep(0.3)
    assert seen == [] and not gen.finished
    gen.watch_read_at = time.time()  # a read after the lapse, no renewal: nobody reads it any more
    await asyncio.sleep(0.2)
    assert seen == ["cancelled"] and gen.finished


async def _owner_watched_elsewhere(watched_for: float) -> tuple[Generation, list[str]]:
    """An owner's running generation whose client left for a follower that watches it ``watched_for`` s more."""
    reg = GenerationRegistry(policy="partial", grace_s=0.01)
    gen, seen = await _started(asyncio.Event(), reg)
    gen.role = "owner"
    gen.watch_read_at = time.time()
    gen.watched_until = gen.watch_read_at + watched_for
    reg.subscribe(gen)
    reg.unsubscribe(gen)
    return gen, seen


async def test_a_follower_that_renews_late_keeps_the_answer_running(monkeypatch: pytest.MonkeyPatch) -> None:
    """A follower slowed by its store renews after the owner has read the lapsed watch: within WATCH_LATE_S of
    the lapse the owner still waits for it; past that, with no renewal, the answer stops."""
    monkeypatch.setattr("chat.core.generations.WATCH_LATE_S", 0.3)
    gen, seen = await _owner_watched_elsewhere(0.05)
    await asyncio.sleep(0.1)
    gen.watch_read_at = time.time()  # a read after the lapse saw no renewal yet
    await asyncio.sleep(0.1)
    assert seen == [] and not gen.finished  # 0.15 s past the lapse: the renewal may still come
    gen.watch_read_at = time.time()  # …and it came, late
    gen.watched_until = gen.watch_read_at + 0.05
    await asyncio.sleep(0.2)
    assert seen == [] and not gen.finished
    gen.watch_read_at = time.time()  # no renewal any more
    await asyncio.sleep(0.6)
    assert seen == ["cancelled"] and gen.finished


async def test_a_lapsed_watch_the_owner_cannot_confirm_ends_after_a_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("chat.core.generations.WATCH_CONFIRM_S", 0.2)
    monkeypatch.setattr("chat.core.generations.WATCH_LATE_S", 0.0)
    gen, seen = await _owner_watched_elsewhere(0.05)
    await asyncio.sleep(0.15)  # lapsed, unconfirmed (the owner's reads fail): still running
    assert seen == [] and not gen.finished
    await asyncio.sleep(0.3)
    assert seen == ["cancelled"] and gen.finished


async def test_finish_policy_keeps_running_without_clients() -> None:
    reg = GenerationRegistry(policy="finish", grace_s=0.0)
    body = asyncio.Event()
    gen, seen = await _started(body, reg)
    reg.subscribe(gen)
    reg.unsubscribe(gen)
    await asyncio.sleep(0.02)
    body.set()
    await asyncio.sleep(0.02)
    assert seen == ["finished"]


async def test_finished_generations_are_evicted_after_retention() -> None:
    reg = GenerationRegistry(retention_s=0.01)

    async def run(g: Generation) -> None:
        g.publish("done", events.done(1, "end_turn"))

    reg.begin(generation_id="g", session_id="s", user_id="u", turn_id="t", run=run)
    await asyncio.sleep(0.05)
    assert reg.get("s") is None and len(reg) == 0


async def test_a_crashing_run_publishes_an_error_event() -> None:
    reg = GenerationRegistry()

    async def run(g: Generation) -> None:
        raise RuntimeError("boom")

    gen = reg.begin(generation_id="g", session_id="s", user_id="u", turn_id="t", run=run)
    await asyncio.sleep(0.01)
    msgs = SSEParser().feed(b"".join(await collect(gen, 0)))
    assert [m.event for m in msgs] == ["error"]
    assert "boom" not in msgs[0].data  # internal details are not sent to the client


async def test_keepalive_counts_from_the_last_frame_not_from_the_first_wait() -> None:
    gen = Generation(generation_id="g", session_id="s", user_id="u", turn_id="t")
    loop = asyncio.get_running_loop()
    it = gen.relay(0, 0.2)
    first = asyncio.ensure_future(it.__anext__())
    await asyncio.sleep(0.15)  # the relay has been parked for 0.15 s of its 0.2 s
    gen.publish("text", events.text("a"))
    assert b"event: text" in await asyncio.wait_for(first, 1)
    sent_at = loop.time()
    nxt = await asyncio.wait_for(it.__anext__(), 2)  # silence from here on
    assert nxt == KEEPALIVE
    assert loop.time() - sent_at >= 0.19  # not 0.05 s after the frame, when the first timer was due
    gen.finish()
    with pytest.raises(StopAsyncIteration):
        await it.__anext__()


async def test_wait_changed_returns_on_publish_and_on_finish() -> None:
    gen = Generation(generation_id="g", session_id="s", user_id="u", turn_id="t")
    waiter = asyncio.ensure_future(gen.wait_changed())
    await asyncio.sleep(0)
    assert not waiter.done()
    gen.publish("text", events.text("x"))
    await asyncio.wait_for(waiter, 1)
    waiter = asyncio.ensure_future(gen.wait_changed())
    await asyncio.sleep(0)
    gen.finish()
    await asyncio.wait_for(waiter, 1)
