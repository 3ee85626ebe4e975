"""``GET /metrics`` (Prometheus text format) and the per-request middleware (latency by route, request id).

Built on ``prometheus_client`` with one ``CollectorRegistry`` per app rather than Litestar's Prometheus plugin:
the plugin keeps its metrics in class-level caches on the process-global default registry (two apps in one
process — the tests, the benchmarks — collide), and it only knows HTTP requests, while this registry also
carries what the app does between requests: SSE streams open, queue depth, ingest step durations (in-process
workers), model tokens and errors (fed by the read-model recorder's listener, ``store/metrics.py``).

The middleware binds ``request_id`` with structlog's contextvars once per request (every log line of the
request carries it; the answer task of a question inherits it together with ``session_id``) and returns it as
``X-Request-ID``.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import structlog
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from store.logging import get_logger

log = get_logger(__name__)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)
_VALID_ID = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


class _QueueDepth(Collector):
    def __init__(self, depth: Callable[[], Mapping[str, int]]) -> None:
        self.depth = depth

    def collect(self) -> Iterable[GaugeMetricFamily]:
        family = GaugeMetricFamily("docchat_queue_depth", "Jobs waiting in each ingest lane", labels=["lane"])
        try:
            for lane, n in self.depth().items():
                family.add_metric([lane], n)
        except Exception as exc:  # a scrape never fails on a queue hiccup
            log.warning("queue_depth_unavailable", error_type=type(exc).__name__)
        yield family


class Prom:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Histogram("docchat_http_request_duration_seconds", "HTTP request latency (streams: their "
                                  "whole duration)", ["method", "route", "status"], buckets=LATENCY_BUCKETS,
                                  registry=r)
        self.sse_open = Gauge("docchat_sse_streams_open", "SSE answer streams open", registry=r)
        self.steps = Histogram("docchat_ingest_step_duration_seconds", "Ingest pipeline step duration", ["step"],
                               buckets=LATENCY_BUCKETS, registry=r)
        self.tokens = Counter("docchat_model_tokens", "Model tokens", ["kind"], registry=r)
        self.errors = Counter("docchat_errors", "Errors by code (answers and ingest jobs)", ["code"], registry=r)
        self.questions = Counter("docchat_questions", "Questions asked", registry=r)
        self.ttft = Histogram("docchat_time_to_first_token_seconds", "Time to the first answer token",
                              buckets=LATENCY_BUCKETS, registry=r)
        self.pages = Counter("docchat_ingest_pages", "Pages processed", registry=r)

    def watch_queue(self, depth: Callable[[], Mapping[str, int]]) -> None:
        self.registry.register(_QueueDepth(depth))

    def watch_streams(self, count: Callable[[], int]) -> None:
        self.sse_open.set_function(lambda: float(count()))

    def listener(self, counts: Mapping[str, float], timings: Mapping[str, float]) -> None:
        """The read-model recorder's listener: the same events, as Prometheus series."""
        for name, value in counts.items():
            if name == "tokens_in":
                self.tokens.labels("input").inc(value)
            elif name == "tokens_out":
                self.tokens.labels("output").inc(value)
            elif name in ("cache_read", "cache_write"):
                self.tokens.labels(name).inc(value)
            elif name.startswith("errors."):
                self.errors.labels(name[7:]).inc(value)
            elif name == "questions":
                self.questions.inc(value)
            elif name == "pages_processed":
                self.pages.inc(value)
        for name, seconds in timings.items():
            if name.startswith("step_seconds."):
                self.steps.labels(name[13:]).observe(seconds)
            elif name == "ttft_seconds":
                self.ttft.observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)


def request_id_of(headers: Iterable[tuple[bytes, bytes]]) -> str:
    for k, v in headers:
        if k.lower() == b"x-request-id":
            text = v.decode("latin-1")[:64]
            if text and all(c in _VALID_ID for c in text):
                return text
    return uuid.uuid4().hex[:16]


def request_middleware(prom: Prom) -> Callable[[Any], Any]:
    """A plain ASGI middleware factory: times each HTTP request by route template and binds its request id."""

    def factory(app: Any) -> Any:
        async def middleware(scope: Any, receive: Any, send: Any) -> None:
            if scope.get("type") != "http":
                await app(scope, receive, send)
                return
            rid = request_id_of(scope.get("headers") or [])
            structlog.contextvars.clear_contextvars()
            structlog.contextvars.bind_contextvars(request_id=rid)
            status = [500]
            t0 = time.perf_counter()

            async def send_with_id(message: Any) -> None:
                if message.get("type") == "http.response.start":
                    status[0] = int(message.get("status", 500))
                    message = {**message, "headers": [*message.get("headers", []), (b"x-request-id", rid.encode())]}
                await send(message)

            try:
                await app(scope, receive, send_with_id)
            finally:
                route = str(scope.get("path_template") or "unmatched")
                prom.requests.labels(scope.get("method", "GET"), route, str(status[0])).observe(
                    time.perf_counter() - t0)
                structlog.contextvars.clear_contextvars()

        return middleware

    return factory
