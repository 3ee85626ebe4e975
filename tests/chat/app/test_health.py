"""``/healthz`` notices a starved server: a blocked event loop or a request thread pool with no free thread."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from chat.app.health import StarvationProbe
from chat.models.scripted import ScriptedModel
from tests.chat.chat_harness import make_harness, serve


async def _health(c: httpx.AsyncClient) -> httpx.Response:
    return await c.get("/healthz")


async def test_healthz_is_503_while_the_request_pool_is_full(tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(max_workers=2)  # a small machine's default pool
    loop.set_default_executor(pool)
    h = make_harness(tmp_path, ScriptedModel(["x"]), health_max_lag_seconds=0.3)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, timeout=10) as c:
        await asyncio.sleep(0.5)
        r = await _health(c)
        assert r.status_code == 200 and r.json()["status"] == "ok", r.text
        # every pool thread busy (as slow blocking work on to_thread would keep them)
        blockers = [loop.run_in_executor(None, time.sleep, 1.5) for _ in range(2)]
        await asyncio.sleep(0.8)
        r = await _health(c)
        assert r.status_code == 503, r.text
        assert r.json()["status"] == "starved" and r.json()["pool_lag_s"] > 0.3
        await asyncio.gather(*blockers)


async def test_probe_sees_a_blocked_event_loop() -> None:
    probe = StarvationProbe(0.2, interval_s=0.05, window_s=2.0)
    await probe.start()
    try:
        await asyncio.sleep(0.2)
        assert probe.report()[0]
        time.sleep(0.5)  # noqa: ASYNC251 - blocking the loop on purpose
        await asyncio.sleep(0.1)
        healthy, lag = probe.report()
        assert not healthy and lag.loop_s >= 0.4
        await asyncio.sleep(2.3)  # the window passes: healthy again
        assert probe.report()[0]
    finally:
        await probe.stop()


async def test_probe_off_when_the_setting_is_zero(tmp_path: Path) -> None:
    probe = StarvationProbe(0.0)
    await probe.start()
    assert not probe.enabled and probe.report()[0]
    await probe.stop()
    h = make_harness(tmp_path, ScriptedModel(["x"]), health_max_lag_seconds=0.0)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base) as c:
        assert (await _health(c)).json() == {"status": "ok"}
