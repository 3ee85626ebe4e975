"""Ingest's pieces built from settings in one place — for ``docchat up`` (``chat/app/wiring.py``),
``docchat worker`` (``ingest/cli.py``), the tests and the benchmarks.

``build_ingest`` wires the workflow store, the queue and the pipeline once and hands out the pieces that
use them: ``uploads`` and ``documents`` (what the HTTP handlers depend on), ``reader`` (what chat reads),
``masker`` (what chat masks personal data with) and ``runner()`` (the worker pool and sweeper). Nothing here
starts anything: the caller owns the lifecycle (start the retriever, start/stop a runner, ``close`` the queue).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ingest.documents import Documents
from ingest.pii.service import DocumentMasker
from ingest.pipeline import ChunkIndexer, Pipeline
from ingest.queue import JobQueue, SqliteJobQueue, SqsJobQueue
from ingest.reader import IngestReader
from ingest.results import blob_uri
from ingest.runner import WorkerRunner
from ingest.uploads import Uploads
from store.blobs import BlobStore
from store.config import Settings
from store.items import ItemTable
from store.metrics import MetricsRecorder
from store.usage_limits import UsageLimits
from store.workflows import WorkflowStore


def build_queue(settings: Settings) -> JobQueue:
    if settings.server.backend == "aws":
        from store import aws_client

        q = settings.queue
        return SqsJobQueue(aws_client(settings, "sqs"), q.queue_high_url or "", q.queue_low_url or "",
                           high_share=q.high_priority_share)
    return SqliteJobQueue(settings.server.data_dir / "queue.db", max_receives=settings.queue.queue_max_receives,
                          high_share=settings.queue.high_priority_share)


def analysis_model_factory(settings: Settings) -> Callable[[], Any] | None:
    """``DOCCHAT_ANALYSIS_MODEL=bedrock``: a factory of the Claude page analyzer (a client per run)."""
    if settings.ingest.analysis_model != "bedrock":
        return None

    def make() -> Any:
        from ingest.analysis.bedrock import BedrockPageAnalyzer
        from store.clients import anthropic_bedrock_client

        # our own retries (throttling, malformed answers): none inside the SDK
        return BedrockPageAnalyzer.from_settings(anthropic_bedrock_client(settings).with_options(max_retries=0),
                                                 settings)

    return make


@dataclass(frozen=True)
class IngestParts:
    settings: Settings
    store: WorkflowStore
    blobs: BlobStore
    queue: JobQueue
    index: ChunkIndexer
    pipeline: Pipeline
    uploads: Uploads
    documents: Documents
    reader: IngestReader
    #: what chat masks a document's text with before a remote model sees it (``ingest.pii``)
    masker: DocumentMasker | None = None

    def runner(self, **options: Any) -> WorkerRunner:
        """A worker runner over this store, queue and pipeline (``options``: see ``WorkerRunner``)."""
        return WorkerRunner(self.settings, self.store, self.queue, self.pipeline, **options)

    async def close(self) -> None:
        self.uploads.parse_pool.close()
        await asyncio.to_thread(self.queue.close)


def build_ingest(settings: Settings, *, items: ItemTable, blobs: BlobStore, index: ChunkIndexer,
                 queue: JobQueue | None = None, limits: UsageLimits | None = None,
                 metrics: MetricsRecorder | None = None) -> IngestParts:
    """Wire ingest over an item table and blob store; ``index`` is the retriever (chunks in, deletes)."""
    store = WorkflowStore(items)
    queue = queue if queue is not None else build_queue(settings)
    pipeline = Pipeline(settings, store, blobs, index, uri_for=lambda key: blob_uri(settings, key),
                        analysis_model=analysis_model_factory(settings))
    pause, resume = getattr(index, "pause_background", None), getattr(index, "resume_background", None)
    if callable(pause) and callable(resume):  # the retriever's one-time model build waits for keyword paths
        pipeline.keyword_first.listen(pause, resume)
    from ingest.sandbox_spares import SPARES

    pipeline.keyword_first.listen(SPARES.hold, SPARES.release)  # spares start after the text paths
    uploads = Uploads(settings, store=store, blobs=blobs, queue=queue, limits=limits)
    documents = Documents(settings, store=store, blobs=blobs, queue=queue, index=index)
    uploads.keyword_first = pipeline.keyword_first  # an upload's check is on the path to searchable too
    pipeline.metrics = uploads.metrics = metrics  # the read models (issue 17): the workers read pipeline.metrics
    return IngestParts(settings, store, blobs, queue, index, pipeline, uploads, documents,
                       IngestReader(uploads, documents), masker=DocumentMasker(settings, store=store, blobs=blobs))
