"""Shared fixtures for the ingest tests: real SQLite item table, file blobs, SQLite queue, a fake clock."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import pytest

from ingest.queue import SqliteJobQueue
from retrieval.types import Chunk
from store.blobs import FileBlobStore
from store.config import Settings
from store.schema import WORKFLOW_TABLE
from store.sqlite_items import SqliteItemTable
from store.workflows import WorkflowStore


class Clock:
    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


class RecordingIndexer:
    """A ChunkIndexer double that keeps the index state (by chunk id) and every call, and can fail on cue."""

    def __init__(self) -> None:
        self.index: dict[str, Chunk] = {}
        self.vectors: set[str] = set()  # the chunk ids that have a vector (the others are keyword-only)
        self.upserts = 0
        self.keyword_writes = 0
        self.fail_next: list[BaseException] = []

    async def index_keywords(self, chunks: Sequence[Chunk]) -> None:
        self.keyword_writes += len(chunks)
        for c in chunks:
            self.index[c.chunk_id] = c
            self.vectors.discard(c.chunk_id)

    async def index_chunks(self, chunks: Sequence[Chunk], progress: Callable[[int, int], None] | None = None) -> None:
        if self.fail_next:
            raise self.fail_next.pop(0)
        for start in range(0, len(chunks), 8):  # like the Retriever: a progress tick per embedding round
            for c in chunks[start:start + 8]:
                self.index[c.chunk_id] = c
                self.vectors.add(c.chunk_id)
            self.upserts += len(chunks[start:start + 8])
            if progress is not None:
                await asyncio.to_thread(progress, min(start + 8, len(chunks)), len(chunks))

    async def delete_document(self, project_id: str, document_id: str) -> None:
        for cid in [k for k, c in self.index.items() if c.document_id == document_id]:
            del self.index[cid]
            self.vectors.discard(cid)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings.from_env(env={}, data_dir=tmp_path / "data", queue_visibility_seconds=30, queue_max_receives=3,
                             chunk_tokens=64, chunk_overlap_tokens=8, parse_timeout_seconds=60.0)


@pytest.fixture
def items(tmp_path):
    table = SqliteItemTable(tmp_path / "wf.db", WORKFLOW_TABLE, purge_interval_s=None)
    yield table
    table.close()


@pytest.fixture
def blobs(tmp_path) -> FileBlobStore:
    return FileBlobStore(tmp_path / "blobs")


@pytest.fixture
def store(items, clock) -> WorkflowStore:
    return WorkflowStore(items, clock=clock)


@pytest.fixture
def queue(tmp_path, clock):
    q = SqliteJobQueue(tmp_path / "q.db", max_receives=3, clock=clock, poll_interval=0.01)
    yield q
    q.close()


@pytest.fixture
def indexer() -> RecordingIndexer:
    return RecordingIndexer()
