"""``docchat worker``: the worker runner (``ingest/runner.py``) as a process of its own, against the
configured backend (SQS + DynamoDB on AWS, the embedded SQLite queue locally), until SIGINT/SIGTERM; and
``docchat dlq list|redrive`` (``ingest/dlq.py``) straight against the same backend."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
from typing import Any, TextIO

from ingest.dlq import Admins, DeadLetters
from ingest.queue import PRIORITIES, JobQueue, Priority
from store.config import Settings
from store.process import limit_malloc_arenas

LANES: dict[str, tuple[Priority, ...]] = {"both": PRIORITIES, "high": ("high",), "low": ("low",)}


async def _run_workers(settings: Settings, concurrency: int, lanes: str) -> None:
    from ingest.build import build_ingest
    from ingest.pii.service import embedding_masker
    from retrieval.search import build_retriever
    from store import open_blob_store, open_item_table
    from store.metrics_open import open_recorder

    retriever = build_retriever(settings, remote_text=embedding_masker(settings))  # seed 004: PII masked for Titan
    metrics = open_recorder(settings)  # the read models (issue 17): LATEST and the 1/5-minute aggregates
    ingest = build_ingest(settings, items=open_item_table(settings, "workflows"),
                          blobs=open_blob_store(settings, "documents"), index=retriever, metrics=metrics)
    # dedicated pools: only the lanes asked for, no reserved high-lane worker; long polls (10 s) between jobs
    runner = ingest.runner(lanes=LANES[lanes], concurrency=concurrency, reserve_high=False, wait_seconds=10.0)
    await retriever.start()
    await retriever.settle()  # a restart's model load (~0.4 s) done before the first job, not beside it
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    backend = settings.server.backend
    print(f"docchat worker: {concurrency} worker(s) on the {lanes} lane(s), backend {backend}", flush=True)
    if metrics is not None:
        metrics.start()
    try:
        await runner.run(stop)
    finally:
        if metrics is not None:
            await asyncio.to_thread(metrics.stop)
        await ingest.close()
        await retriever.close()


def run_worker(settings: Settings, *, concurrency: int | None = None, lanes: str = "both") -> int:
    limit_malloc_arenas(settings.server.malloc_arena_max)
    if settings.server.backend == "local":
        settings.server.data_dir.mkdir(parents=True, exist_ok=True)
    asyncio.run(_run_workers(settings, concurrency or max(1, settings.queue.worker_concurrency), lanes))
    return 0


# --- ``docchat dlq list|redrive`` ------------------------------------------------------------------------

def _dead_letters(settings: Settings) -> tuple[DeadLetters, JobQueue]:
    from ingest.build import build_queue
    from store import open_item_table
    from store.workflows import WorkflowStore

    queue = build_queue(settings)
    store = WorkflowStore(open_item_table(settings, "workflows"))
    # the command line runs with the operator's own credentials: it is the admin
    return DeadLetters(settings, store=store, queue=queue, admins=Admins(settings)), queue


def _table(rows: list[dict[str, Any]]) -> str:
    cols = [("document_id", "DOCUMENT"), ("project_id", "PROJECT"), ("owner", "OWNER"), ("lane", "LANE"),
            ("attempts", "ATTEMPTS"), ("failed_at", "FAILED AT"), ("reason", "REASON")]
    cells = [[str(r.get(k) if r.get(k) is not None else "-") for k, _ in cols] for r in rows]
    widths = [max([len(h)] + [len(c[i]) for c in cells]) for i, (_, h) in enumerate(cols)]
    widths[-1] = len(cols[-1][1])  # the reason is last: never padded
    line = "  ".join(h.ljust(w) for (_, h), w in zip(cols, widths, strict=True)).rstrip()
    body = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    return "\n".join([line, *body])


def run_dlq(settings: Settings, action: str, document_ids: list[str], *, all_documents: bool = False,
            as_json: bool = False, out: TextIO | None = None) -> int:
    """``docchat dlq list`` / ``docchat dlq redrive (--all | DOCUMENT_ID…)`` against the configured backend."""
    out = out or sys.stdout
    if action == "redrive" and all_documents == bool(document_ids):
        print("docchat dlq redrive: give --all or one or more DOCUMENT_IDs (not both)", file=sys.stderr)
        return 2
    dlq, queue = _dead_letters(settings)
    try:
        if action == "list":
            rows = dlq.list()
            if as_json:
                print(json.dumps({"items": rows}, indent=2), file=out)
            elif not rows:
                print("no dead-lettered documents", file=out)
            else:
                print(_table(rows), file=out)
            return 0
        result = dlq.redrive(None if all_documents else document_ids)
        if as_json:
            print(json.dumps(result, indent=2), file=out)
        else:
            for item in result["items"]:
                print(f"{item['document_id']}  {item['result']}", file=out)
            print(f"{result['redriven']} document(s) redriven", file=out)
        return 0 if all(i["result"] != "not_dead_lettered" for i in result["items"]) else 1
    finally:
        queue.close()
