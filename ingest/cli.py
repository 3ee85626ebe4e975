"""``docchat worker``: the worker runner (``ingest/runner.py``) as a process of its own, against the
configured backend (SQS + DynamoDB on AWS, the embedded SQLite queue locally), until SIGINT/SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import signal

from ingest.queue import PRIORITIES, Priority
from store.config import Settings
from store.process import limit_malloc_arenas

LANES: dict[str, tuple[Priority, ...]] = {"both": PRIORITIES, "high": ("high",), "low": ("low",)}


async def _run_workers(settings: Settings, concurrency: int, lanes: str) -> None:
    from ingest.build import build_ingest
    from retrieval.search import build_retriever
    from store import open_blob_store, open_item_table

    retriever = build_retriever(settings)
    ingest = build_ingest(settings, items=open_item_table(settings, "workflows"),
                          blobs=open_blob_store(settings, "documents"), index=retriever)
    # dedicated pools: only the lanes asked for, no reserved high-lane worker; long polls (10 s) between jobs
    runner = ingest.runner(lanes=LANES[lanes], concurrency=concurrency, reserve_high=False, wait_seconds=10.0)
    await retriever.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    backend = settings.server.backend
    print(f"docchat worker: {concurrency} worker(s) on the {lanes} lane(s), backend {backend}", flush=True)
    try:
        await runner.run(stop)
    finally:
        await ingest.close()
        await retriever.close()


def run_worker(settings: Settings, *, concurrency: int | None = None, lanes: str = "both") -> int:
    limit_malloc_arenas(settings.server.malloc_arena_max)
    if settings.server.backend == "local":
        settings.server.data_dir.mkdir(parents=True, exist_ok=True)
    asyncio.run(_run_workers(settings, concurrency or max(1, settings.queue.worker_concurrency), lanes))
    return 0
