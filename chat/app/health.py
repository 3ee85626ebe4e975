"""Is the server starved? Two probes that ``/healthz`` reports on.

* **event loop:** a task sleeps ``interval`` and measures how late it wakes up (a CPU-bound handler, a
  blocking call on the loop or a machine out of CPU all show up as lag);
* **request thread pool:** a no-op is sent to the loop's default executor — the pool every
  ``asyncio.to_thread`` store call of a request waits for — and its queueing delay is measured. A probe
  still waiting counts as lagging by how long it has waited (a pool that never frees up is caught too).

``/healthz`` answers 503 when either lag over the last ``window`` seconds exceeds
``DOCCHAT_HEALTH_MAX_LAG_SECONDS``, so a load balancer takes a starved task out instead of sending it more.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from dataclasses import dataclass

from store.logging import get_logger

log = get_logger(__name__)


def _noop() -> None:
    return None


@dataclass(frozen=True, slots=True)
class Lag:
    loop_s: float
    pool_s: float

    def worst(self) -> float:
        return max(self.loop_s, self.pool_s)


class StarvationProbe:
    def __init__(self, max_lag_s: float, *, interval_s: float = 0.2, window_s: float = 5.0) -> None:
        self.max_lag_s = max_lag_s
        self.interval_s = interval_s
        self.window_s = window_s
        self._loop_samples: deque[tuple[float, float]] = deque()
        self._pool_samples: deque[tuple[float, float]] = deque()
        self._pool_waiting_since: float | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._starved = False

    @property
    def enabled(self) -> bool:
        return self.max_lag_s > 0

    async def start(self) -> None:
        if not self.enabled or self._tasks:
            return
        self._tasks = [asyncio.create_task(self._watch_loop(), name="health-loop-probe"),
                       asyncio.create_task(self._watch_pool(), name="health-pool-probe")]

    async def stop(self) -> None:
        tasks, self._tasks = self._tasks, []
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t

    async def _watch_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(self.interval_s)
            now = loop.time()
            self._add(self._loop_samples, now, max(0.0, now - start - self.interval_s))

    async def _watch_pool(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = self._pool_waiting_since = loop.time()
            await loop.run_in_executor(None, _noop)
            now = loop.time()
            self._pool_waiting_since = None
            self._add(self._pool_samples, now, now - start)
            await asyncio.sleep(self.interval_s)

    def _add(self, samples: deque[tuple[float, float]], now: float, lag: float) -> None:
        samples.append((now, lag))
        while samples and samples[0][0] < now - self.window_s:
            samples.popleft()

    def lag(self) -> Lag:
        """The worst lag of each probe over the last ``window_s`` (call on the loop)."""
        now = asyncio.get_running_loop().time()
        since = now - self.window_s
        loop_lag = max((lag for t, lag in self._loop_samples if t >= since), default=0.0)
        # a loop probe overdue right now is lag too (we are answering late)
        if self._loop_samples:
            loop_lag = max(loop_lag, now - self._loop_samples[-1][0] - self.interval_s)
        pool_lag = max((lag for t, lag in self._pool_samples if t >= since), default=0.0)
        if self._pool_waiting_since is not None:
            pool_lag = max(pool_lag, now - self._pool_waiting_since)
        return Lag(round(loop_lag, 3), round(pool_lag, 3))

    def report(self) -> tuple[bool, Lag]:
        """``(healthy, lag)``; logs once when the server becomes starved and once when it recovers."""
        lag = self.lag()
        starved = self.enabled and lag.worst() > self.max_lag_s
        if starved != self._starved:
            self._starved = starved
            if starved:
                log.warning("server_starved", loop_lag_s=lag.loop_s, pool_lag_s=lag.pool_s, max_lag_s=self.max_lag_s)
            else:
                log.info("server_recovered", loop_lag_s=lag.loop_s, pool_lag_s=lag.pool_s)
        return not starved, lag
