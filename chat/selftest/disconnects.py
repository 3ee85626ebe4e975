"""Random client disconnects against a running server (``DOCCHAT_DISCONNECT_GRACE_SECONDS=0``, so leaving
cuts the answer): clients leave after a random number of events or a random delay, some ask again at once
(racing the partial save). No process dies, so every session's stored turns themselves must be a valid
request history ending with an answer, and every session must still answer."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from pathlib import Path

import httpx

from chat.selftest.client import Answer, ask, check_history, client, new_session
from chat.selftest.report import Result
from store import open_session_store
from store.config import Settings

QUESTIONS = ("What was the revenue in 2024?", "How many people work there?", "Where does the office move?")


async def _settled(c: httpx.AsyncClient, sid: str, within_s: float = 15.0) -> bool:
    """True once nothing is generating on ``sid`` (``GET /v1/sessions/{id}`` says ``generating: false``)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        r = await c.get(f"/v1/sessions/{sid}", timeout=5)
        if r.status_code == 200 and not r.json().get("generating"):
            return True
        await asyncio.sleep(0.1)
    return False


async def _session(c: httpx.AsyncClient, sid: str, cuts: int, rng: random.Random, result: Result,
                   seen: Counter[str]) -> None:
    for j in range(cuts):
        text = QUESTIONS[j % len(QUESTIONS)]
        if rng.random() < 0.5:
            target = rng.randint(1, 8)

            def leave(a: Answer, target: int = target) -> bool:
                return len(a.events) >= target

            a = await ask(c, sid, text, leave=leave)
        else:
            try:
                a = await asyncio.wait_for(ask(c, sid, text), timeout=rng.uniform(0.0, 0.08))
            except TimeoutError:
                a = Answer(cut=True)
        seen["cut" if a.cut else ("answered" if a.done else f"status_{a.status or 'error'}")] += 1
        if rng.random() < 0.7:  # else ask again at once, racing the cut answer's partial save
            await _settled(c, sid, 5.0)


async def _run(port: int, data: Path, disconnects: int, sessions: int, seed: int, result: Result) -> None:
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    async with client(port, "dora", timeout_s=30) as c:
        sids = [await new_session(c) for _ in range(sessions)]
        per = [disconnects // sessions + (1 if i < disconnects % sessions else 0) for i in range(sessions)]
        await asyncio.gather(*(_session(c, sid, n, random.Random(rng.random()), result, seen)
                               for sid, n in zip(sids, per, strict=True)))
        result.attempts = sum(per)
        for sid in sids:
            if not await _settled(c, sid):
                result.fail(f"{sid}: still generating 15 s after its last client left")
            a = await ask(c, sid, QUESTIONS[0])
            if not a.done:
                result.fail(f"{sid}: does not answer after the disconnects: {a.error()}")
    store = open_session_store(Settings(data_dir=data))
    try:
        for sid in sids:
            problem, _ = check_history(store, sid, strict=True)
            if problem:
                result.fail(problem)
    finally:
        store.close()
    result.notes.update(sessions=sessions, **dict(seen))


def run(port: int, data: Path, *, disconnects: int = 200, sessions: int = 20, seed: int = 0) -> Result:
    """Against the server on ``port`` whose data folder is ``data`` (started with a 0 s disconnect grace)."""
    result = Result("random client disconnects")
    t0 = time.monotonic()
    asyncio.run(_run(port, data, disconnects, sessions, seed, result))
    result.seconds = time.monotonic() - t0
    return result
