"""OpenSearch index (Amazon OpenSearch Service ``es`` or Serverless ``aoss``) over ``AsyncOpenSearch``.

Request bodies and response parsing live in ``retrieval/opensearch_bodies.py``. Hybrid search runs the
``hybrid`` query through a search pipeline with the normalization processor (created idempotently by
``ensure``). Upserts use the async bulk helper with per-item error reporting.

Idempotent upserts: on a managed domain (``es``) the chunk id is the document ``_id``, so re-indexing
overwrites. Serverless *vector* collections reject custom ``_id`` values, so there (``aoss``) an upsert
first deletes the documents carrying those chunk ids (found with a ``terms`` query) and then indexes with
generated ids; deleting a document also goes through search + bulk delete (no ``_delete_by_query``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from retrieval import opensearch_bodies as bodies
from retrieval.types import Chunk, Hit, SearchFilter, SearchMode
from store.config import Settings
from store.errors import InvalidInput, RetryableError, UpstreamError
from store.logging import get_logger

log = get_logger(__name__)

PAGE = 500  # ids fetched per search page when deleting / replacing





def _translate(exc: Exception, what: str) -> Exception:
    from opensearchpy.exceptions import ConnectionError as OsConnectionError
    from opensearchpy.exceptions import ConnectionTimeout, TransportError

    if isinstance(exc, ConnectionTimeout | OsConnectionError):
        return RetryableError(f"OpenSearch {what}: {exc}")
    if isinstance(exc, TransportError):
        status = exc.status_code if isinstance(exc.status_code, int) else 0
        if status == 429 or status >= 500:
            return RetryableError(f"OpenSearch {what} failed ({status}): {exc.error}")
        return UpstreamError(f"OpenSearch {what} failed ({status}): {exc.error}: {exc.info}")
    return UpstreamError(f"OpenSearch {what} failed: {exc}")


class OpenSearchIndex:
    def __init__(
        self,
        client: Any,
        index: str,
        dimension: int,
        *,
        serverless: bool = False,
        analyzers: Mapping[str, str] | None = None,
        engine: str = "faiss",
        space_type: str = "cosinesimil",
        keyword_weight: float = 0.7,
        refresh: bool | str = False,
        bulk_retries: int = 3,
        bulk_backoff_s: float = 1.0,
    ) -> None:
        self._bulk_retries = bulk_retries
        self._bulk_backoff = bulk_backoff_s
        self._client = client
        self.index = index
        self.pipeline = f"{index}-hybrid"
        self._dim = dimension
        self._serverless = serverless
        self._analyzers = dict(analyzers if analyzers is not None else {"ko": "nori", "ja": "kuromoji"})
        self._engine = engine
        self._space = space_type
        self._keyword_weight = keyword_weight
        self._refresh = refresh

    @classmethod
    def from_settings(cls, client: Any, settings: Settings, *, dimension: int) -> OpenSearchIndex:
        return cls(
            client,
            settings.retrieval.opensearch_index,
            dimension,
            serverless=settings.retrieval.opensearch_service == "aoss",
            analyzers=bodies.parse_analyzers(settings.retrieval.opensearch_analyzers),
            engine=settings.retrieval.opensearch_knn_engine,
            space_type=settings.retrieval.opensearch_space_type,
            keyword_weight=settings.retrieval.hybrid_keyword_weight,
        )

    def index_body(self) -> dict[str, Any]:
        return bodies.index_body(self._dim, analyzers=self._analyzers, engine=self._engine, space_type=self._space)

    # --- lifecycle -----------------------------------------------------------------
    async def ensure(self) -> None:
        from opensearchpy.exceptions import RequestError, TransportError

        try:
            if not await self._client.indices.exists(index=self.index):
                try:
                    await self._client.indices.create(index=self.index, body=self.index_body())
                    log.info("opensearch_index_created", index=self.index, dimension=self._dim)
                except RequestError as exc:
                    if exc.error != "resource_already_exists_exception":  # lost a creation race: fine
                        raise
            else:
                await self.ensure_mapping()
            await self.ensure_pipeline()
        except TransportError as exc:
            raise _translate(exc, "ensure") from exc

    async def ensure_mapping(self) -> None:
        """Add the fields an index created by an older release lacks (stored, not indexed)."""
        got = await self._client.indices.get_mapping(index=self.index)
        have: set[str] = set()
        for spec in got.values():  # keyed by the concrete index name (an alias may point elsewhere)
            have |= set((spec.get("mappings") or {}).get("properties") or {})
        missing = {k: v for k, v in bodies.LAYOUT_MAPPING.items() if k not in have}
        if missing:
            await self._client.indices.put_mapping(index=self.index, body={"properties": missing})
            log.info("opensearch_mapping_updated", index=self.index, added=",".join(sorted(missing)))

    async def ensure_pipeline(self) -> None:
        """Create or update the hybrid search pipeline when it is missing or different."""
        from opensearchpy.exceptions import NotFoundError

        want = bodies.pipeline_body(self._keyword_weight)
        try:
            have = await self._client.search_pipeline.get(id=self.pipeline)
            if have.get(self.pipeline, {}).get("phase_results_processors") == want["phase_results_processors"]:
                return
        except NotFoundError:
            pass
        await self._client.search_pipeline.put(id=self.pipeline, body=want)
        log.info("opensearch_pipeline_put", pipeline=self.pipeline, keyword_weight=self._keyword_weight)

    async def close(self) -> None:
        await self._client.close()

    # --- writes --------------------------------------------------------------------
    async def upsert_text(self, chunks: Sequence[Chunk]) -> None:
        """Index chunks without the ``vector`` field: BM25 finds them at once, k-NN skips a document that has no
        vector until ``upsert`` rewrites it with one (issue 18)."""
        await self._write(chunks, [None] * len(chunks))

    async def upsert(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        if len(chunks) != len(vectors):
            raise InvalidInput(f"{len(chunks)} chunks but {len(vectors)} vectors")
        await self._write(chunks, vectors)

    async def _write(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float] | None]) -> None:
        for c, v in zip(chunks, vectors, strict=True):
            if v is not None and len(v) != self._dim:
                raise InvalidInput(f"chunk {c.chunk_id} has a {len(v)}-d vector, the index expects {self._dim}")
        latest = {c.chunk_id: (c, v) for c, v in zip(chunks, vectors, strict=True)}
        if not latest:
            return
        if self._serverless:
            await self._delete_ids(await self._ids_for({"terms": {"chunk_id": list(latest)}}))
        actions = []
        for cid, (c, v) in latest.items():
            source = bodies.document_source(c, v)
            action: dict[str, Any] = {"_op_type": "index", "_index": self.index, "_source": source}
            if not self._serverless:
                action["_id"] = cid
            actions.append(action)
        await self._bulk(actions, "upsert")

    async def _bulk(self, actions: list[dict[str, Any]], what: str) -> None:
        from opensearchpy.exceptions import TransportError
        from opensearchpy.helpers import async_bulk

        try:
            ok, errors = await async_bulk(
                self._client,
                actions,
                raise_on_error=False,
                raise_on_exception=False,
                refresh=self._refresh,
                max_retries=self._bulk_retries,  # 429s are retried by the helper with exponential backoff
                initial_backoff=self._bulk_backoff,
            )
        except TransportError as exc:
            raise _translate(exc, what) from exc
        failed = bodies.bulk_errors(errors if isinstance(errors, list) else [])
        if what == "delete":  # deleting something already gone is fine
            failed = [f for f in failed if f[1] != 404]
        for doc_id, status, reason in failed[:20]:
            log.warning("opensearch_bulk_item_failed", op=what, id=doc_id, status=status, reason=reason)
        if failed:
            retryable = all(s == 429 or s >= 500 for _, s, _ in failed)
            cls = RetryableError if retryable else UpstreamError
            raise cls(
                f"OpenSearch {what}: {len(failed)} of {len(actions)} items failed "
                f"(first: {failed[0][0]} {failed[0][1]} {failed[0][2]})",
                failed=[f[0] for f in failed],
            )
        log.debug("opensearch_bulk_done", op=what, ok=ok)

    async def _ids_for(self, query: dict[str, Any]) -> list[str]:
        from opensearchpy.exceptions import TransportError

        ids: list[str] = []
        search_after: list[Any] | None = None
        try:
            while True:
                body: dict[str, Any] = {"size": PAGE, "_source": False, "query": query, "sort": [{"chunk_id": "asc"}]}
                if search_after is not None:
                    body["search_after"] = search_after
                resp = await self._client.search(index=self.index, body=body)
                hits = resp.get("hits", {}).get("hits", [])
                ids.extend(h["_id"] for h in hits)
                if len(hits) < PAGE:
                    return ids
                search_after = hits[-1].get("sort")
        except TransportError as exc:
            raise _translate(exc, "lookup") from exc

    async def _delete_ids(self, ids: Sequence[str]) -> None:
        if ids:
            await self._bulk([{"_op_type": "delete", "_index": self.index, "_id": i} for i in ids], "delete")

    async def delete_document(self, project_id: str, document_id: str) -> None:
        query = {"bool": {"filter": [{"term": {"project_id": project_id}}, {"term": {"document_id": document_id}}]}}
        ids = await self._ids_for(query)
        await self._delete_ids(ids)
        log.info("opensearch_document_deleted", document_id=document_id, chunks=len(ids))

    # --- search --------------------------------------------------------------------
    def search_request(
        self, text: str, vector: Sequence[float] | None, flt: SearchFilter, *, k: int, mode: SearchMode
    ) -> dict[str, Any]:
        """The keyword arguments of the ``client.search`` call for this search."""
        if k < 1:
            raise InvalidInput("k must be >= 1")
        if vector is not None and len(vector) != self._dim:
            raise InvalidInput(f"query vector has {len(vector)} dimensions, the index {self._dim}")
        req: dict[str, Any] = {
            "index": self.index,
            "body": bodies.search_body(text, vector, flt, k=k, mode=mode, analyzers=self._analyzers),
        }
        if mode == "hybrid":
            req["params"] = {"search_pipeline": self.pipeline}
        return req

    async def search(
        self,
        text: str,
        vector: Sequence[float] | None,
        flt: SearchFilter,
        *,
        k: int = 10,
        mode: SearchMode = "hybrid",
    ) -> list[Hit]:
        from opensearchpy.exceptions import TransportError

        req = self.search_request(text, vector, flt, k=k, mode=mode)
        try:
            resp = await self._client.search(**req)
        except TransportError as exc:
            raise _translate(exc, f"{mode} search") from exc
        return bodies.parse_hits(resp, mode)
