"""Operations views over the read models (issue 17, seed 003) and ``GET /metrics``.

* ``GET /v1/ops/summary?window=1h`` — ``LATEST`` plus the window's totals (admins);
* ``GET /v1/ops/series?metric=…&window=1h|6h|12h|24h`` — one metric's points (admins);
* ``GET /v1/usage?days=7`` — the caller's own usage by day (any user);
* ``GET /metrics`` — Prometheus text; it needs a token like every route (in aws mode: an admin's).

Every JSON answer says ``items_read``: a fixed number of precomputed items (``store/metrics_views.py``),
whatever the traffic. Admins are ``ingest.dlq.Admins`` (``DOCCHAT_ADMIN_USERS``; aws mode: the ``admin`` group).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Annotated, Any

from litestar import Request, Response, get
from litestar.di import NamedDependency
from litestar.params import QueryParameter

from chat.app.prom import CONTENT_TYPE, Prom
from ingest.dlq import Admins
from store import metrics_views
from store.errors import InvalidInput
from store.metrics import MetricsRecorder, MetricsStore


@dataclass
class Ops:
    store: MetricsStore
    admins: Admins
    prom: Prom
    recorder: MetricsRecorder | None = None
    aws: bool = False


def _user(request: Request[Any, Any, Any]) -> str:
    user = request.user
    if not isinstance(user, str) or not user:
        raise InvalidInput("no user on the request")
    return user


def _timed(result: dict[str, Any], t0: float) -> dict[str, Any]:
    result["read_ms"] = round((time.perf_counter() - t0) * 1000, 2)
    return result


@get("/v1/ops/summary", tags=["ops"])
async def ops_summary(request: Request[Any, Any, Any], ops: NamedDependency[Ops],
                      window: Annotated[str, QueryParameter()] = "1h") -> dict[str, Any]:
    """Current state (queue depth per lane, documents by status, workers busy, DLQ, last error) and the
    window's totals, p95s, step latencies and errors by code."""
    ops.admins.require(_user(request), request.auth)
    t0 = time.perf_counter()
    return _timed(await asyncio.to_thread(metrics_views.summary, ops.store, window), t0)


@get("/v1/ops/series", tags=["ops"])
async def ops_series(request: Request[Any, Any, Any], ops: NamedDependency[Ops],
                     metric: Annotated[str, QueryParameter()],
                     window: Annotated[str, QueryParameter()] = "1h") -> dict[str, Any]:
    """One metric over the window: 1 h from 1-minute items, 6/12/24 h from 5-minute buckets (≤ 288)."""
    ops.admins.require(_user(request), request.auth)
    t0 = time.perf_counter()
    return _timed(await asyncio.to_thread(metrics_views.series, ops.store, metric, window), t0)


@get("/v1/usage", tags=["ops"])
async def my_usage(request: Request[Any, Any, Any], ops: NamedDependency[Ops],
                   days: Annotated[int, QueryParameter(ge=1, le=31)] = 7) -> dict[str, Any]:
    """The caller's uploads, pages, questions, tokens and cache-hit ratio by UTC day."""
    user = _user(request)
    t0 = time.perf_counter()
    return _timed(await asyncio.to_thread(metrics_views.usage, ops.store, user=user, days=days), t0)


@get("/metrics", tags=["ops"], include_in_schema=False)
async def prometheus_metrics(request: Request[Any, Any, Any], ops: NamedDependency[Ops]) -> Response[bytes]:
    if ops.aws:
        ops.admins.require(_user(request), request.auth)
    return Response(ops.prom.render(), media_type=CONTENT_TYPE)


ROUTES = (ops_summary, ops_series, my_usage, prometheus_metrics)
