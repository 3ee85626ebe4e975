"""Running the app: ``docchat up`` (embedded defaults) and ``docchat serve`` (production)."""

from __future__ import annotations

import uvicorn

from chat.app import create_app
from ingest.cli import limit_malloc_arenas
from store.config import Settings


def run_up(settings: Settings) -> int:
    # before any thread exists: in-process ingest workers embed and render on pool threads (see the worker)
    limit_malloc_arenas(settings.malloc_arena_max)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    app = create_app(settings)
    print(f"docchat is up: http://{settings.host}:{settings.port}/  (data in {settings.data_dir})", flush=True)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning")
    return 0


def run_serve(settings: Settings) -> int:
    limit_malloc_arenas(settings.malloc_arena_max)
    app = create_app(settings)
    uvicorn.run(app, host=settings.host, port=settings.port, proxy_headers=True, log_level="info")
    return 0
