"""Two real API processes (``docchat serve``, local mode) sharing one data dir, i.e. one SQLite session table.

Proves across processes: a second question on the other process → 409; a resume with ``Last-Event-ID`` on the
other process follows the answer to its end; ``POST …/stop`` on the other process stops it (partial saved);
20 concurrent retries of one ``turn_id`` spread over both processes all get the one answer.
The processes run ``tests/chat/app/slow_serve.py``: ``docchat serve`` with a slow scripted model. Marked slow:
two server start-ups take 5-20 s on a busy machine (the scenario itself ~5 s); the same scenarios run in the
default suite with two in-process services (``test_shared_generations.py``).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.chat.app.slow_serve import ANSWER
from tests.chat.chat_harness import ALICE, EventReader, free_port, parse_sse

REPO = Path(__file__).resolve().parents[3]
START_TIMEOUT_S = 120

pytestmark = pytest.mark.slow


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[tuple[str, str]]:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "DOCCHAT_DATA_DIR": str(tmp_path / "data"),
        "DOCCHAT_BACKEND": "local",
        "DOCCHAT_GENERATION_POLL_SECONDS": "0.1",
        "DOCCHAT_DISCONNECT_GRACE_SECONDS": "2",
        "DOCCHAT_LOG_LEVEL": "WARNING",
    }
    ports = [free_port(), free_port()]
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.chat.app.slow_serve", "--port", str(p)],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(tmp_path / f"serve-{p}.log", "wb"),
        )
        for p in ports
    ]
    urls = [f"http://127.0.0.1:{p}" for p in ports]
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        for proc, url in zip(procs, urls, strict=True):
            while True:
                if proc.poll() is not None:
                    log = (tmp_path / f"serve-{url.rsplit(':', 1)[1]}.log").read_text(errors="replace")
                    pytest.fail(f"docchat serve exited with {proc.returncode}: {log[-2000:]}")
                try:
                    if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    pytest.fail(f"docchat serve did not start within {START_TIMEOUT_S} s")
                time.sleep(0.1)
        yield urls[0], urls[1]
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _text(events: list[tuple[str, dict, str | None]]) -> str:
    return "".join(e[1]["delta"] for e in events if e[0] == "text")


async def test_conflict_resume_stop_and_retries_across_two_serve_processes(servers: tuple[str, str]) -> None:
    url_a, url_b = servers
    async with (
        httpx.AsyncClient(base_url=url_a, headers=ALICE, timeout=20) as a,
        httpx.AsyncClient(base_url=url_b, headers=ALICE, timeout=20) as b,
    ):
        sid = (await a.post("/v1/sessions", json={})).json()["session_id"]

        # 1. A answers; a second question on B → 409; the client moves to B and resumes there to the end
        async with a.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "first"}) as r:
            reader = EventReader(r)
            seen = await reader.until("text")
            busy = await b.post(f"/v1/sessions/{sid}/messages", json={"text": "second"})
            assert busy.status_code == 409, busy.text
            seen += await reader.until("text")
        last_id = reader.last_id
        assert last_id is not None
        rest = parse_sse((await b.get(f"/v1/sessions/{sid}/stream", headers={"Last-Event-ID": last_id})).content)
        gen_id, n = last_id.rsplit(".", 1)
        assert rest[0][2] == f"{gen_id}.{int(n) + 1}"
        assert rest[-1][0] == "done" and rest[-1][1]["stop_reason"] == "end_turn"
        assert _text(seen + rest) == ANSWER  # nothing lost, nothing twice, though A's client left

        # 2. B answers now; POST /stop on A stops it and returns once the partial answer is stored
        async with b.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "third"}) as r:
            reader = EventReader(r)
            await reader.until("text")
            stopped = (await a.post(f"/v1/sessions/{sid}/stop")).json()
            tail = await reader.until("done")
        assert stopped["stopped"] is True
        assert tail[-1][1]["stop_reason"] == "interrupted"
        items = (await a.get(f"/v1/sessions/{sid}/messages")).json()["items"]
        assert [i["role"] for i in items] == ["user", "assistant", "user", "assistant"]
        assert items[-1]["interrupted"] is True

        # 3. twenty concurrent retries of one turn_id, spread over both processes: one answer, replayed to all
        body = {"text": "fourth", "turn_id": "retry-1"}
        rs = await asyncio.gather(
            *((a if i % 2 else b).post(f"/v1/sessions/{sid}/messages", json=body) for i in range(20))
        )
        assert [r.status_code for r in rs] == [200] * 20
        assert {_text(parse_sse(r.content)) for r in rs} == {ANSWER}
        items = (await b.get(f"/v1/sessions/{sid}/messages")).json()["items"]
        assert [i["role"] for i in items] == ["user", "assistant"] * 3
