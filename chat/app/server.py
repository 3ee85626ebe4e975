"""Running the app: ``docchat up`` (embedded defaults) and ``docchat serve`` (production)."""

from __future__ import annotations

import gc

import uvicorn

from chat.app.factory import create_app
from store.config import Settings
from store.process import limit_malloc_arenas


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


def run_up(settings: Settings) -> int:
    # before any thread exists: in-process ingest workers embed and render on pool threads (see the worker)
    limit_malloc_arenas(settings.server.malloc_arena_max)
    settings.server.data_dir.mkdir(parents=True, exist_ok=True)
    app = create_app(settings)
    srv = settings.server
    print(f"docchat is up: http://{srv.host}:{srv.port}/  (data in {srv.data_dir})", flush=True)
    tune_gc(settings.server.gc_gen0_threshold)
    uvicorn.run(app, host=settings.server.host, port=settings.server.port, log_level="warning")
    return 0


def run_serve(settings: Settings) -> int:
    limit_malloc_arenas(settings.server.malloc_arena_max)
    app = create_app(settings)
    tune_gc(settings.server.gc_gen0_threshold)
    uvicorn.run(app, host=settings.server.host, port=settings.server.port, proxy_headers=True, log_level="info")
    return 0
