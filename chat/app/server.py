"""Running the app: ``docchat up`` (embedded defaults) and ``docchat serve`` (production).

Both serve through uvicorn with :func:`uvicorn_options`: a protocol that times out slow request *headers*
(``DOCCHAT_HEADER_TIMEOUT_SECONDS``, 408; uvicorn itself waits forever for a request that never finishes
its headers) and caps their size (431), the keep-alive timeout from settings, and in aws mode an access log
that never shows query values (an ``?access_token=`` would be a credential in the log). Slow *bodies* are
timed out by ``chat.app.guards``.
"""

from __future__ import annotations

import asyncio
import copy
import gc
import logging
from typing import Any

import uvicorn
from uvicorn.config import LOGGING_CONFIG
from uvicorn.protocols.http.h11_impl import H11Protocol

from chat.app.factory import create_app
from store.config import Settings
from store.process import limit_malloc_arenas

try:  # uvicorn's default when installed (a dependency of docchat)
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools missing: h11 only
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

#: request line + headers larger than this are refused (431) before they are complete
MAX_HEADER_BYTES = 64 * 1024


def tune_gc(gen0_threshold: int) -> None:
    """Make garbage collection cheap for a streaming server; call once, right before serving.

    Hundreds of concurrent answers keep a large live heap (buffered events, histories, requests), and
    CPython's default (a young-generation pass every 700 allocations, full passes over everything that
    survived) then stalls every stream at once: p99 gap between SSE events was 130-210 ms at 500 streams
    with the defaults, 33 ms with this (``python -m bench.chat_server concurrent``). ``gc.freeze`` moves what
    start-up created (modules, the app, models) out of the collector's sight; a larger young generation
    collects less often. ``gen0_threshold`` 0 leaves Python's defaults alone.
    """
    if gen0_threshold <= 0:
        return
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(gen0_threshold, gen1, gen2)


# --- slow headers ---------------------------------------------------------------------------------------


class _HeaderDeadline:
    """Mixin for a uvicorn HTTP protocol: a request's headers must be complete ``header_timeout`` seconds
    after its first byte (or after the connection opened), and at most ``MAX_HEADER_BYTES`` long."""

    header_timeout: float = 10.0
    transport: asyncio.Transport
    _header_timer: asyncio.TimerHandle | None = None
    _header_bytes: int = 0

    def _arm_header_deadline(self) -> None:
        if self._header_timer is None:
            self._header_bytes = 0
            self._header_timer = asyncio.get_running_loop().call_later(self.header_timeout, self._header_too_slow)

    def _headers_done(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_too_slow(self) -> None:
        self._header_timer = None
        self._refuse(408, "Request Timeout", f"the request headers did not arrive within {self.header_timeout:g} s")

    def _count_header_bytes(self, n: int) -> None:
        if self._header_timer is not None:
            self._header_bytes += n

    def _check_header_size(self) -> None:
        if self._header_timer is not None and self._header_bytes > MAX_HEADER_BYTES:
            self._headers_done()
            self._refuse(431, "Request Header Fields Too Large", "the request headers are too large")

    def _refuse(self, status: int, reason: str, message: str) -> None:
        if self.transport.is_closing():
            return
        body = message.encode()
        self.transport.write(
            f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
            f"content-length: {len(body)}\r\n\r\n".encode() + body
        )
        self.transport.close()


def _httptools_protocol(base: type[Any], header_timeout: float) -> type[asyncio.Protocol]:
    class Protocol(_HeaderDeadline, base):  # type: ignore[misc]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.header_timeout = header_timeout
            self._arm_header_deadline()

        def connection_lost(self, exc: Exception | None) -> None:
            self._headers_done()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            self._count_header_bytes(len(data))
            super().data_received(data)
            self._check_header_size()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm_header_deadline()

        def on_headers_complete(self) -> None:
            self._headers_done()
            super().on_headers_complete()

    return Protocol


def _h11_protocol(header_timeout: float) -> type[asyncio.Protocol]:
    import h11

    class Protocol(_HeaderDeadline, H11Protocol):
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.header_timeout = header_timeout
            self._arm_header_deadline()

        def connection_lost(self, exc: Exception | None) -> None:
            self._headers_done()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self.conn.their_state is h11.IDLE:
                self._arm_header_deadline()  # a new request begins
            self._count_header_bytes(len(data))
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._headers_done()
            self._check_header_size()

    return Protocol


def http_protocol(settings: Settings) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools when installed, like uvicorn's "auto") with the header deadline."""
    timeout = settings.server.header_timeout_seconds
    if HttpToolsProtocol is not None:
        return _httptools_protocol(HttpToolsProtocol, timeout)
    return _h11_protocol(timeout)  # pragma: no cover - httptools is a dependency


# --- access log -----------------------------------------------------------------------------------------


def redact_query(path: str) -> str:
    """``/v1/x?access_token=abc&limit=5`` → ``/v1/x?access_token=…&limit=…``: names stay, values go."""
    base, sep, query = path.partition("?")
    if not sep:
        return path
    names = [part.split("=", 1)[0] for part in query.split("&") if part]
    return base + "?" + "&".join(f"{n}=…" for n in names)


class RedactQueryFilter(logging.Filter):
    """On uvicorn's access log: the request path without query values."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], redact_query(args[2]), *args[3:])
        return True


def log_config(settings: Settings) -> dict[str, Any]:
    """uvicorn's logging config; in aws mode its access log loses query values."""
    config = copy.deepcopy(LOGGING_CONFIG)
    if settings.server.backend == "aws":
        config.setdefault("filters", {})["redact_query"] = {"()": RedactQueryFilter}
        config["handlers"]["access"]["filters"] = ["redact_query"]
    return config


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.run`` / ``uvicorn.Config`` (host, port, timeouts, protocol, logs)."""
    srv = settings.server
    return {
        "host": srv.host,
        "port": srv.port,
        "http": http_protocol(settings),
        "timeout_keep_alive": srv.keep_alive_timeout_seconds,
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
        "log_config": log_config(settings),
    }


def run_up(settings: Settings) -> int:
    # before any thread exists: in-process ingest workers embed and render on pool threads (see the worker)
    limit_malloc_arenas(settings.server.malloc_arena_max)
    settings.server.data_dir.mkdir(parents=True, exist_ok=True)
    app = create_app(settings)
    srv = settings.server
    print(f"docchat is up: http://{srv.host}:{srv.port}/  (data in {srv.data_dir})", flush=True)
    tune_gc(settings.server.gc_gen0_threshold)
    uvicorn.run(app, **uvicorn_options(settings), log_level="warning")
    return 0


def run_serve(settings: Settings) -> int:
    limit_malloc_arenas(settings.server.malloc_arena_max)
    app = create_app(settings)
    tune_gc(settings.server.gc_gen0_threshold)
    uvicorn.run(app, **uvicorn_options(settings), proxy_headers=True, log_level="info")
    return 0
