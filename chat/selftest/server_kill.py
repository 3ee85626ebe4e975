"""kill -9 of the server at random points of N answers (tool rounds included), then a restart on the same
store: every session must still answer, and what its next request is sent must be a valid history.

Answers run ``concurrency`` at a time (one per session), so one kill cuts several answers at different points.
Each kill picks one of three moments: as soon as any stream shows a ``tool`` event (inside a tool round),
after a random number of events of one stream, or after a random delay from the first request."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from chat.selftest.client import Answer, ask, check_history, client, new_session, seed_project
from chat.selftest.procs import Processes
from chat.selftest.report import Result
from store import open_session_store
from store.config import Settings

QUESTION = "What was the revenue in 2024?"
MOMENTS = ("in_tool_round", "after_events", "after_delay")
#: the default generation_lease_seconds (15) and a margin: a session refused longer than this fails
LEASE_BOUND_S = 25.0


async def _cut_batch(port: int, sids: list[str], rng: random.Random, moment: str, kill: asyncio.Event,
                     round_no: int) -> list[Answer]:
    """Start one answer per session and set ``kill`` at the chosen moment; returns what the clients saw."""
    target = rng.randint(1, 6)

    def watch(a: Answer) -> bool:
        if moment == "in_tool_round" and a.names[-1] == "tool":
            kill.set()
        if moment == "after_events" and len(a.events) >= target:
            kill.set()
        return False

    async with client(port, "alice", timeout_s=30) as c:
        tasks = [asyncio.create_task(ask(c, sid, QUESTION, turn_id=f"k{round_no}-{i}", leave=watch))
                 for i, sid in enumerate(sids)]
        if moment == "after_delay":
            await asyncio.sleep(rng.uniform(0.0, 0.4))
            kill.set()
        done, _ = await asyncio.wait(tasks, timeout=60)
        return [t.result() for t in done]


async def _answer_after_restart(c: httpx.AsyncClient, sid: str, turn_id: str, blocked: list[float]) -> Answer:
    """The session's next question after a restart. The killed process's generation lease (chat.core.shared)
    is not renewed any more but stays live until ``generation_lease_seconds`` (15 s) after its last renewal:
    until then the question gets 409 "already running". That wait is recorded in ``blocked`` (a finding in
    the notes); a session still refused after the lease's bound fails."""
    t0 = time.monotonic()
    while True:
        a = await ask(c, sid, QUESTION, turn_id=turn_id)
        if a.status != 409 or time.monotonic() - t0 > LEASE_BOUND_S:
            break
        await asyncio.sleep(0.5)
    if time.monotonic() - t0 > 0.5:
        blocked.append(time.monotonic() - t0)
    return a


def run(procs: Processes, work: Path, *, answers: int = 100, concurrency: int = 10, seed: int = 0,
        budget_s: float = 900.0, seed_pages: int = 2, **server: Any) -> tuple[Result, int]:
    """Starts ``docchat up`` on ``work/data`` (with ``server`` settings) and leaves the last one running:
    returns the result and that server's port. The sessions belong to a project holding one processed
    ``seed_pages``-page report (0: no project — the tool rounds then find nothing, and no embedding model loads)."""
    result = Result("server kill -9 during answers")
    t0 = time.monotonic()
    rng = random.Random(seed)
    data = work / "data"
    moments: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    child, port = procs.server("api", data, **server)

    async def setup() -> list[str]:
        async with client(port, "alice") as c:
            project_id = await seed_project(c, work, pages=seed_pages) if seed_pages else None
            return [await new_session(c, project_id) for _ in range(concurrency)]

    sids = asyncio.run(setup())
    cut = kills = 0
    blocked: list[float] = []  # seconds a session answered 409 "already running" after a restart
    while cut < answers and time.monotonic() - t0 < budget_s:
        batch = sids[: min(concurrency, answers - cut)]
        moment = MOMENTS[kills % len(MOMENTS)]
        moments[moment] += 1
        kill = asyncio.Event()

        async def cut_round(batch: list[str] = batch, moment: str = moment, kill: asyncio.Event = kill,
                            round_no: int = kills, port: int = port) -> list[Answer]:
            killer = asyncio.create_task(kill.wait())
            work_task = asyncio.create_task(_cut_batch(port, batch, rng, moment, kill, round_no))
            await asyncio.wait([killer], timeout=30)
            procs.kill9(child)  # noqa: B023 - the current server, killed from inside this round
            killer.cancel()
            return await work_task

        outcomes = asyncio.run(cut_round())
        kills += 1
        for a in outcomes:
            seen["done_before_kill" if "done" in a.names else
                 ("cut_in_tool_round" if "tool" in a.names else "cut_before_tool")] += 1
        cut += len(batch)
        child, port = procs.server("api", data, port=port, **server)

        async def follow_up(batch: list[str] = batch, round_no: int = kills,
                            port: int = port) -> list[tuple[str, Answer]]:
            async with client(port, "alice") as c:
                return [(sid, await _answer_after_restart(c, sid, f"f{round_no}-{i}", blocked))
                        for i, sid in enumerate(batch)]

        for sid, a in asyncio.run(follow_up()):
            result.attempts += 1
            if not a.done:
                result.fail(f"after kill {kills} ({moment}) session {sid} does not answer: {a.error()}")
    sessions = open_session_store(Settings(data_dir=data))
    repaired = 0
    for sid in sids:
        problem, repairs = check_history(sessions, sid, strict=False)
        repaired += bool(repairs)
        if problem:
            result.fail(problem)
    sessions.close()
    result.notes.update(kills=kills, **dict(moments), **dict(seen), sessions=len(sids),
                        sessions_repaired_on_load=repaired, blocked_by_stale_lease=len(blocked),
                        longest_block_s=round(max(blocked, default=0.0), 1))
    result.seconds = time.monotonic() - t0
    return result, port
