"""LanceDB index — the embedded default, persistent under ``<data_dir>/lance/``.

One table ``chunks``: chunk metadata, the text, ``text_terms`` (CJK bigrams etc., see
``retrieval/textproc.py``) with a native full-text (BM25) index using a whitespace tokenizer, and the
vector. Hybrid = vector top-N and BM25 top-N, each min-max normalised and combined by a weighted arithmetic mean
(the same rule as the OpenSearch pipeline; z-score or reciprocal-rank fusion are options — see the
measurements in the README), all in ``retrieval/fusion.py``.
Filters (project, documents) are applied as pre-filters in both sub-searches, backed by scalar indices.
Upserts go through ``merge_insert`` on the deterministic ``chunk_id``, so re-indexing a document
replaces its chunks instead of duplicating them. ``upsert_text`` writes chunks with a null vector (searchable by
BM25 at once, issue 18); a later ``upsert`` of the same ids fills the vectors in. Once the table holds
``ann_min_rows`` chunks an ANN index (IVF + HNSW with scalar-quantised vectors, cosine) is built; below that,
exact search is fast enough. The LanceDB API is synchronous here; every call runs in a worker thread.

Another process (``docchat worker`` next to ``docchat serve``) writes to the same table, so reads are
opened with a bounded ``read_consistency_interval`` (``read_consistency_seconds``, default 1 s): a read that
comes more than that long after the last check first looks for a newer table version, so an API process sees
a worker's chunks within the bound without a restart (``None`` = never check: a single-process snapshot).
Measured with ``python -m bench.lance_consistency``; see the README.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa

from retrieval.fusion import normalized_hybrid, reciprocal_rank_fusion
from retrieval.layout import (
    decode_bboxes,
    decode_line_boxes,
    decode_page_offsets,
    encode_bboxes,
    encode_line_boxes,
    encode_page_offsets,
)
from retrieval.textproc import keyword_text
from retrieval.types import Chunk, Hit, SearchFilter, SearchMode
from store.errors import ConfigError, InvalidInput, UpstreamError
from store.logging import get_logger

log = get_logger(__name__)

TABLE = "chunks"
FUSIONS = ("min_max", "z_score", "rrf")
OPTIMIZE_EVERY_ROWS = 5_000  # fold unindexed rows into the FTS / ANN indices after this many writes
OPEN_CONFLICT_RETRIES = 5  # a fresh index opened by several processes at once: each may lose an index commit


#: Added after the first release (see ``retrieval/layout.py``); an older table gets them as all-null columns.
LAYOUT_FIELDS = (pa.field("page_offsets", pa.string()), pa.field("line_boxes", pa.string()))


def _schema(dim: int) -> pa.Schema:
    return pa.schema(
        [
            pa.field("chunk_id", pa.string(), nullable=False),
            pa.field("project_id", pa.string(), nullable=False),
            pa.field("document_id", pa.string(), nullable=False),
            pa.field("file_name", pa.string()),
            pa.field("workflow_id", pa.string()),
            pa.field("chunk_index", pa.int32()),
            pa.field("page_start", pa.int32()),
            pa.field("page_end", pa.int32()),
            pa.field("language", pa.string()),
            pa.field("bboxes", pa.string()),  # JSON list of [page, x0, y0, x1, y1]
            pa.field("text", pa.string()),
            pa.field("text_terms", pa.string()),
            pa.field("vector", pa.list_(pa.float32(), dim)),
            *LAYOUT_FIELDS,
        ]
    )


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def filter_sql(flt: SearchFilter) -> str:
    """The SQL predicate for a filter (values quoted; an empty document list matches nothing)."""
    projects = flt.projects
    if not projects:
        raise InvalidInput("a search needs a project id")
    if len(projects) == 1:
        expr = f"project_id = {_quote(projects[0])}"
    else:  # every project of the user in one query (issue 13 item 9), served by the project_id scalar index
        expr = "project_id IN (" + ", ".join(_quote(p) for p in projects) + ")"
    if flt.document_ids is not None:
        if not flt.document_ids:
            return expr + " AND false"
        expr += " AND document_id IN (" + ", ".join(_quote(d) for d in flt.document_ids) + ")"
    return expr


def _row(chunk: Chunk, vector: Sequence[float] | None, dim: int) -> dict[str, Any]:
    if vector is not None and len(vector) != dim:
        raise InvalidInput(f"chunk {chunk.chunk_id} has a {len(vector)}-d vector, the index expects {dim}")
    return {
        "chunk_id": chunk.chunk_id,
        "project_id": chunk.project_id,
        "document_id": chunk.document_id,
        "file_name": chunk.file_name,
        "workflow_id": chunk.workflow_id,
        "chunk_index": chunk.chunk_index,
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "language": chunk.language,
        "bboxes": encode_bboxes(chunk.bboxes),
        "text": chunk.text,
        "text_terms": keyword_text(chunk.text),
        "vector": None if vector is None else [float(x) for x in vector],
        "page_offsets": encode_page_offsets(chunk.page_offsets),
        "line_boxes": encode_line_boxes(chunk.line_boxes),
    }


def _hit(row: dict[str, Any], score: float, extra: dict[str, float]) -> Hit:
    boxes = decode_bboxes(row.get("bboxes"))
    return Hit(
        chunk_id=row["chunk_id"],
        document_id=row["document_id"],
        file_name=row.get("file_name") or "",
        page_start=int(row.get("page_start") or 0),
        page_end=int(row.get("page_end") or 0),
        text=row.get("text") or "",
        score=float(score),
        project_id=row.get("project_id") or "",
        bbox=boxes[0] if boxes else None,
        extra=extra,
        bboxes=boxes,
        page_offsets=decode_page_offsets(row.get("page_offsets")),
        line_boxes=decode_line_boxes(row.get("line_boxes")),
    )


_COLUMNS = ["chunk_id", "project_id", "document_id", "file_name", "page_start", "page_end", "text", "bboxes",
            "page_offsets", "line_boxes"]


class LanceIndex:
    """``Index`` over LanceDB. ``path`` is the database directory (``<data_dir>/lance``)."""

    def __init__(
        self,
        path: Path,
        dimension: int,
        *,
        ann_min_rows: int = 50_000,
        candidates: int = 50,
        nprobes: int = 20,
        refine_factor: int | None = 5,
        ef: int = 100,
        fusion: str = "min_max",
        keyword_weight: float = 0.7,
        read_consistency_seconds: float | None = 1.0,
    ) -> None:
        if fusion not in FUSIONS:
            raise ConfigError(f"unknown hybrid fusion {fusion!r} (expected one of {', '.join(FUSIONS)})")
        if not 0.0 <= keyword_weight <= 1.0:
            raise ConfigError("the keyword weight must be within [0, 1]")
        if read_consistency_seconds is not None and read_consistency_seconds < 0:
            raise ConfigError("the read consistency interval must be >= 0 seconds (or None: never re-check)")
        self._consistency = None if read_consistency_seconds is None else timedelta(seconds=read_consistency_seconds)
        self._fusion = fusion
        self._keyword_weight = keyword_weight
        self._path = path
        self._dim = dimension
        self._ann_min_rows = ann_min_rows
        self._candidates = candidates
        self._nprobes = nprobes
        self._refine = refine_factor
        self._ef = ef
        self._db: Any = None
        self._tbl: Any = None
        self._write_lock = threading.Lock()
        self._open_lock = threading.Lock()
        self._writes_since_optimize = 0

    # --- lifecycle -----------------------------------------------------------------
    async def ensure(self) -> None:
        await asyncio.to_thread(self._ensure)

    def _ensure(self) -> None:
        with self._open_lock:
            if self._tbl is None:
                self._open()

    def _open(self) -> None:
        import lancedb
        from lancedb.index import FTS, BTree

        self._path.mkdir(parents=True, exist_ok=True)
        try:
            self._db = lancedb.connect(str(self._path), read_consistency_interval=self._consistency)
            try:
                tbl = self._db.open_table(TABLE)
            except ValueError:  # not created yet (a concurrent creator is fine: exist_ok)
                tbl = self._db.create_table(TABLE, schema=_schema(self._dim), exist_ok=True)
            have = tbl.schema.field("vector").type.list_size
            if have != self._dim:
                raise InvalidInput(
                    f"the index at {self._path} holds {have}-d vectors but the embedder makes {self._dim}-d ones; "
                    "re-index into a fresh data directory after changing embedders"
                )
            tbl = self._migrate(tbl)
            for attempt in range(OPEN_CONFLICT_RETRIES + 1):
                try:
                    self._create_indices(tbl, FTS, BTree)
                    break
                except (OSError, RuntimeError, ValueError) as exc:
                    # processes opening a fresh index at once (`docchat up --aws-local`: API processes and a worker)
                    # each create the same index; the one that loses the commit reads the winner's and goes on
                    if attempt == OPEN_CONFLICT_RETRIES or "conflict" not in str(exc).lower():
                        raise
                    log.info("lance_index_open_conflict", attempt=attempt + 1)
                    time.sleep(0.05 * (attempt + 1))
                    tbl = self._db.open_table(TABLE)
        except (OSError, RuntimeError, ValueError) as exc:
            raise UpstreamError(f"could not open the LanceDB index at {self._path}: {exc}") from exc
        self._tbl = tbl
        log.info("lance_index_ready", path=str(self._path), rows=tbl.count_rows())

    @staticmethod
    def _create_indices(tbl: Any, fts: Any, btree: Any) -> None:
        names = {ix.name for ix in tbl.list_indices()}
        if "text_terms_idx" not in names:
            tbl.create_index(
                "text_terms",
                config=fts(base_tokenizer="whitespace", stem=True, remove_stop_words=True, max_token_length=64),
            )
        for col in ("project_id", "document_id", "chunk_id"):
            if f"{col}_idx" not in names:
                tbl.create_index(col, config=btree())

    def _migrate(self, tbl: Any) -> Any:
        """Add the layout columns to a table from before them (null = unknown; re-indexing fills them)."""
        missing = [f for f in LAYOUT_FIELDS if f.name not in tbl.schema.names]
        if not missing:
            return tbl
        try:
            tbl.add_columns(missing)
        except (OSError, RuntimeError, ValueError):
            tbl = self._db.open_table(TABLE)  # another process (worker / server) may have migrated it first
            if any(f.name not in tbl.schema.names for f in LAYOUT_FIELDS):
                raise
        log.info("lance_index_migrated", path=str(self._path), added=",".join(f.name for f in missing))
        return tbl

    async def warm(self) -> None:
        """Start the storage engine before the first write needs it (``ingest.warm``): one keyword search that
        matches nothing (no project has an empty id). Writes nothing."""
        await asyncio.to_thread(self._keyword_search, "warm", "project_id = ''", 1)

    async def close(self) -> None:
        self._tbl = None
        self._db = None

    def _table(self) -> Any:
        if self._tbl is None:
            self._ensure()
        return self._tbl

    # --- writes --------------------------------------------------------------------
    async def upsert(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        if len(chunks) != len(vectors):
            raise InvalidInput(f"{len(chunks)} chunks but {len(vectors)} vectors")
        if chunks:
            await asyncio.to_thread(self._upsert, chunks, vectors)

    async def upsert_text(self, chunks: Sequence[Chunk]) -> None:
        """Insert or replace chunks without their vectors (``vector`` null): BM25 finds them at once, vector
        search skips them until ``upsert`` fills the vector in (hybrid ranks them by their keyword score)."""
        if chunks:
            await asyncio.to_thread(self._upsert, chunks, [None] * len(chunks))

    def _upsert(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float] | None]) -> None:
        rows = [_row(c, v, self._dim) for c, v in zip(chunks, vectors, strict=True)]
        seen: dict[str, dict[str, Any]] = {r["chunk_id"]: r for r in rows}  # last one wins within a batch
        data = pa.Table.from_pylist(list(seen.values()), schema=_schema(self._dim))
        tbl = self._table()
        with self._write_lock:
            try:
                (tbl.merge_insert("chunk_id").when_matched_update_all().when_not_matched_insert_all()
                 .execute(data, on_bad_vectors="null"))
            except (OSError, RuntimeError, ValueError) as exc:
                raise UpstreamError(f"LanceDB upsert failed: {exc}") from exc
            self._writes_since_optimize += len(seen)
            if self._writes_since_optimize >= OPTIMIZE_EVERY_ROWS:
                self._maintain(tbl)

    def _maintain(self, tbl: Any) -> None:
        """Build the ANN index once big enough; fold new rows into existing indices."""
        self._writes_since_optimize = 0
        rows = tbl.count_rows()
        names = {ix.name for ix in tbl.list_indices()}
        if rows >= self._ann_min_rows and "vector_idx" not in names:
            self.build_ann_index(tbl, rows)
        tbl.optimize()
        log.info("lance_index_optimized", rows=rows)

    def build_ann_index(self, tbl: Any = None, rows: int | None = None) -> None:
        """IVF-HNSW-SQ over cosine distance; ~sqrt(rows)/2 partitions (at least one)."""
        from lancedb.index import HnswSq

        tbl = tbl if tbl is not None else self._table()
        rows = rows if rows is not None else tbl.count_rows()
        partitions = max(1, int(rows**0.5) // 2)
        tbl.create_index("vector", config=HnswSq(distance_type="cosine", num_partitions=partitions), replace=True)
        log.info("lance_ann_index_built", rows=rows, partitions=partitions)

    async def optimize(self) -> None:
        """Fold pending rows into the indices now (after a bulk load)."""
        await asyncio.to_thread(lambda: self._maintain(self._table()))

    async def delete_document(self, project_id: str, document_id: str) -> None:
        pred = f"project_id = {_quote(project_id)} AND document_id = {_quote(document_id)}"

        def run() -> None:
            with self._write_lock:
                self._table().delete(pred)

        await asyncio.to_thread(run)

    async def count(self, flt: SearchFilter | None = None) -> int:
        return int(await asyncio.to_thread(lambda: self._table().count_rows(filter_sql(flt) if flt else None)))

    # --- search --------------------------------------------------------------------
    async def search(
        self,
        text: str,
        vector: Sequence[float] | None,
        flt: SearchFilter,
        *,
        k: int = 10,
        mode: SearchMode = "hybrid",
    ) -> list[Hit]:
        if k < 1:
            raise InvalidInput("k must be >= 1")
        if mode not in ("hybrid", "vector", "keyword"):
            raise InvalidInput(f"unknown search mode {mode!r}")
        if mode != "keyword" and vector is None:
            raise InvalidInput(f"{mode} search needs a query vector")
        return await asyncio.to_thread(self.search_sync, text, vector, flt, k, mode)

    def search_sync(
        self, text: str, vector: Sequence[float] | None, flt: SearchFilter, k: int, mode: SearchMode
    ) -> list[Hit]:
        where = filter_sql(flt)
        n = max(k, self._candidates) if mode == "hybrid" else k
        vec_rows = self._vector_search(vector, where, n) if mode != "keyword" and vector is not None else []
        kw_rows = self._keyword_search(text, where, n) if mode != "vector" else []
        if mode == "vector":
            return [_hit(r, 1.0 - float(r["_distance"]), {"vector_rank": i}) for i, r in enumerate(vec_rows, 1)][:k]
        if mode == "keyword":
            return [_hit(r, float(r["_score"]), {"keyword_rank": i}) for i, r in enumerate(kw_rows, 1)][:k]
        by_id: dict[str, dict[str, Any]] = {}
        extra: dict[str, dict[str, float]] = {}
        for name, rows in (("vector", vec_rows), ("keyword", kw_rows)):
            for i, r in enumerate(rows, 1):
                by_id.setdefault(r["chunk_id"], r)
                extra.setdefault(r["chunk_id"], {})[f"{name}_rank"] = float(i)
        if self._fusion == "rrf":
            w = self._keyword_weight
            fused = reciprocal_rank_fusion(
                [[r["chunk_id"] for r in vec_rows], [r["chunk_id"] for r in kw_rows]], weights=[1.0 - w, w]
            )
        else:
            fused = normalized_hybrid(
                {r["chunk_id"]: float(r["_score"]) for r in kw_rows},
                {r["chunk_id"]: 1.0 - float(r["_distance"]) for r in vec_rows},
                keyword_weight=self._keyword_weight,
                technique=self._fusion,
            )
        return [_hit(by_id[cid], score, extra[cid]) for cid, score in fused[:k]]

    def _vector_search(self, vector: Sequence[float], where: str, n: int) -> list[dict[str, Any]]:
        if len(vector) != self._dim:
            raise InvalidInput(f"query vector has {len(vector)} dimensions, the index {self._dim}")
        q = (
            self._table()
            .search(list(vector), vector_column_name="vector")
            .distance_type("cosine")
            .where(where, prefilter=True)
            .select([*_COLUMNS, "_distance"])
            .limit(n)
            .nprobes(self._nprobes)
            .ef(max(self._ef, n * (self._refine or 1)))  # HNSW needs ef >= the rows it is asked for
        )
        if self._refine:
            q = q.refine_factor(self._refine)
        try:
            return q.to_list()  # type: ignore[no-any-return]
        except (OSError, RuntimeError, ValueError) as exc:
            raise UpstreamError(f"LanceDB vector search failed: {exc}") from exc

    def _keyword_search(self, text: str, where: str, n: int) -> list[dict[str, Any]]:
        terms = keyword_text(text)
        if not terms:
            return []
        try:
            q = (
                self._table()
                .search(terms, query_type="fts", fts_columns="text_terms")
                .where(where, prefilter=True)
                .select([*_COLUMNS, "_score"])
                .limit(n)
            )
            return q.to_list()  # type: ignore[no-any-return]
        except (OSError, RuntimeError, ValueError) as exc:
            raise UpstreamError(f"LanceDB keyword search failed: {exc}") from exc
