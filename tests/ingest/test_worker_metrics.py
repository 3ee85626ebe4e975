"""Workers update the read models as they work (issue 17): LATEST (workers busy, documents by status, queue
depth, DLQ, last error) and the aggregates (pages, documents completed/failed, step latency, errors by code),
and the owner's usage by day."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ingest.pipeline import Pipeline
from ingest.worker import Worker
from store.errors import PermanentError
from store.metrics import GLOBAL_PK, LATEST_SK, MetricsRecorder, SqliteMetricsStore, bucket_sk
from store.metrics_views import summary, usage
from tests.ingest.test_worker import PAGES, _submit


def _worker(settings: Any, store: Any, blobs: Any, queue: Any, indexer: Any, clock: Any, recorder: Any,
            fault: Any = None) -> Worker:
    pipeline = Pipeline(settings, store, blobs, indexer, fault=fault)
    pipeline.metrics = recorder
    return Worker(store=store, queue=queue, pipeline=pipeline, settings=settings, clock=clock)


async def test_a_completed_and_a_failed_job_update_latest_and_the_buckets(
        settings, store, blobs, queue, indexer, clock, tmp_path: Path) -> None:
    metrics = SqliteMetricsStore(tmp_path / "metrics.db")
    recorder = MetricsRecorder(metrics, flush_seconds=0)
    _submit(store, blobs, queue, tmp_path)
    assert await _worker(settings, store, blobs, queue, indexer, clock, recorder).run_once() == "completed"

    def fault(name: str, n: int) -> None:
        if name == "format_parser":
            raise PermanentError("the file is damaged")

    _submit(store, blobs, queue, tmp_path, name="bad.pdf", sha="e" * 64)
    assert await _worker(settings, store, blobs, queue, indexer, clock, recorder, fault=fault).run_once() == "failed"
    latest = metrics.get(GLOBAL_PK, LATEST_SK)
    assert latest is not None
    assert latest["workers_busy"] == 0 and latest["docs.in_progress"] == 0
    assert latest["docs.completed"] == 1 and latest["docs.failed"] == 1
    assert (latest["last_error"]["code"], latest["last_error"]["reason"]) == ("permanent", "the file is damaged")
    assert "queue_depth.high" in latest and "queue_depth.low" in latest
    s = summary(metrics, "1h")
    assert s["totals"]["docs_completed"] == 1 and s["totals"]["docs_failed"] == 1
    assert s["totals"]["pages_processed"] == PAGES and s["failure_rate"] == 0.5
    assert {"segment_prep", "format_parser", "segment_builder"} <= set(s["steps"])
    # the failed job's rendering runs in the background and is stopped with it (issue 18) unless it was done first
    assert s["steps"]["segment_prep"]["count"] in (1, 2) and s["steps"]["format_parser"]["count"] == 1  # failed: none
    assert s["errors"] == {"permanent": 1}
    assert usage(metrics, user="alice")["totals"]["pages_processed"] == PAGES
    assert metrics.get(GLOBAL_PK, bucket_sk(time.time())) is not None
