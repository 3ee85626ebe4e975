"""The read models' store and recorder built from settings (``store/metrics.py``): ``metrics.db`` in the
data dir locally, the workflow table on AWS (``store/metrics_dynamo.py``) — the one table both the API and the
ingest workers may write (the workers' role has no access to chat sessions; ``OPS#`` keys collide with nothing)."""

from __future__ import annotations

from store.config import Settings
from store.metrics import MetricsRecorder, MetricsStore, SqliteMetricsStore


def open_metrics_store(settings: Settings) -> MetricsStore:
    """``metrics.db`` in the data dir locally; the workflow table on AWS (``store/metrics_dynamo.py``)."""
    if settings.server.backend == "aws":
        from store.clients import aws_client
        from store.metrics_dynamo import DynamoMetricsStore

        return DynamoMetricsStore(aws_client(settings, "dynamodb"), settings.store.workflow_table)
    return SqliteMetricsStore(settings.server.data_dir / "metrics.db")


def open_recorder(settings: Settings, store: MetricsStore | None = None) -> MetricsRecorder | None:
    """The process's recorder from settings (None when ``metrics_enabled`` is off)."""
    m = settings.metrics
    if not m.metrics_enabled:
        return None
    return MetricsRecorder(store if store is not None else open_metrics_store(settings),
                           flush_seconds=m.metrics_flush_seconds,
                           usage_flush_seconds=m.metrics_usage_flush_seconds, raw_ttl_s=m.metrics_raw_ttl_hours * 3600,
                           bucket_ttl_s=m.metrics_bucket_ttl_hours * 3600,
                           usage_ttl_s=m.metrics_usage_ttl_days * 86400)

