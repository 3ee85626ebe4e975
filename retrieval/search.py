"""The ``Retriever`` facade that ingest (indexing) and chat (searching) use, and its factory.

Embedding is CPU (or network) bound and blocking, so it always runs in a worker thread; the index
adapters are async themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from retrieval.embed_batcher import EmbedBatcher
from retrieval.model_build import BuildChild
from retrieval.query_expansion import Lexicon, expand_query, load_lexicon
from retrieval.types import Chunk, Embedder, Hit, Index, SearchFilter, SearchMode
from store.config import Settings
from store.errors import InvalidInput
from store.logging import get_logger

log = get_logger(__name__)

#: chunks per embedding call and upsert round: bounds memory (and the number of index writes). Progress ticks
#: come from inside the call (every few chunks), so an upload's "Index chunks n/N" keeps moving (issue 16)
EMBED_BATCH = 64


#: nice increment of the thread that builds the embedding model file at start-up (``Retriever.start``): the
#: rendering children's (``ingest.pipeline.RENDER_NICE``); at 10 the ~3 s of CPU took 110 s at load average 20
LOAD_NICE = 5
#: the longest start-up waits for a model load that only reads the built file (``Retriever.settle``)
START_LOAD_WAIT_S = 3.0
#: the longest a vector fill waits, between two session runs, for the searches running to finish
SEARCH_YIELD_S = 2.0


def _thread_cpu(fn: Callable[[], object]) -> float:
    """Run ``fn``; the CPU seconds this thread spent in it."""
    c0 = time.thread_time()
    fn()
    return time.thread_time() - c0


async def run_niced(fn: Callable[[], object], nice: int, *, name: str) -> float:
    """``fn()`` in a new thread whose scheduling priority is lowered by ``nice`` (Linux: a thread's nice value is
    its own; elsewhere it runs at normal priority); the thread ends with it, so no pooled thread stays niced.
    Returns the thread's CPU seconds; ``fn``'s exception is raised here."""
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[float] = loop.create_future()

    def body() -> None:
        try:
            with contextlib.suppress(AttributeError, OSError):
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), os.getpriority(
                    os.PRIO_PROCESS, threading.get_native_id()) + nice)
            result: float | BaseException = _thread_cpu(fn)
        except BaseException as exc:  # handed to the awaiting task
            result = exc
        loop.call_soon_threadsafe(_settle, fut, result)

    threading.Thread(target=body, name=name, daemon=True).start()
    return await fut


def _settle(fut: asyncio.Future[float], result: float | BaseException) -> None:
    if fut.done():
        return
    if isinstance(result, BaseException):
        fut.set_exception(result)
    else:
        fut.set_result(result)


#: a search query is cut to this many characters unless the settings say otherwise (``query_max_chars``)
QUERY_MAX_CHARS = 1000


def cap_query(query: str, max_chars: int) -> str:
    """``query`` cut to at most ``max_chars`` characters, at the last whitespace when there is one in the
    last fifth (so no half word is searched); shorter queries come back unchanged."""
    query = query.strip()
    if len(query) <= max_chars:
        return query
    cut = query[:max_chars]
    space = max(cut.rfind(" "), cut.rfind("\n"), cut.rfind("\t"))
    return (cut[:space] if space >= max_chars * 4 // 5 else cut).rstrip()


class Retriever:
    def __init__(
        self, embedder: Embedder, index: Index, lexicon: Lexicon = (), *, query_max_chars: int = QUERY_MAX_CHARS,
        remote_text: Callable[[str], str] | None = None,
    ) -> None:
        self.embedder = embedder
        #: what a text becomes before it leaves for a remote embedder (seed 004: personal data masked before an
        #: external model sees it — Titan on Bedrock); the index keeps the text as it is, so BM25 still finds
        #: a phone number or a name. None: texts are embedded as they are (the embedded ONNX model).
        self.remote_text = remote_text
        self.index = index
        self.lexicon = lexicon  # query expansion (retrieval/query_expansion.py)
        self.query_max_chars = query_max_chars
        self._warm: asyncio.Future[None] | None = None
        self.load_cpu_s = 0.0  # CPU seconds the background model load took (benchmarks)
        self._searching = 0
        self._no_search = threading.Event()
        self._no_search.set()
        # documents indexed at once share embed calls; the calls yield to searches (issue 18)
        self.batcher = EmbedBatcher(embedder, yield_to=self._yield_to_searches)
        self.model_build = BuildChild(LOAD_NICE)  # the int8 file's build: a child keyword indexing pauses
        self._paused = False  # a text path is running (``pause_background``): the model's load waits
        self._resumed: asyncio.Event | None = None

    async def start(self) -> None:
        """Open the index, and build/load the embedding model in the background (issue 18: the first upload
        after start-up must not pay for it; a first embed call meanwhile waits on the embedder's own lock).

        The model file is built (``prepare``: seconds of CPU on a fresh data directory) in a thread of its own at
        ``LOAD_NICE``, so the first upload's text path (segments, keyword index) keeps the cores; the session
        is then created at normal priority (its inference threads inherit the creating thread's priority)."""
        await self.index.ensure()
        warm = getattr(self.index, "warm", None)  # the index's first write does not pay its engine's start
        if callable(warm):
            try:
                await warm()
            except Exception as exc:  # the first real search or write raises it again, where it is handled
                log.warning("index_warm_failed", error=type(exc).__name__)
        load = getattr(self.embedder, "load", None)
        if callable(load) and self._warm is None:
            self._warm = asyncio.ensure_future(self._load(load, getattr(self.embedder, "prepare", None)))

    async def _load(self, load: Callable[[], object], prepare: Callable[..., object] | None) -> None:
        t0 = time.perf_counter()
        try:
            # not beside a text path either: the file's hash (and, on a fresh data directory, the build child's
            # start) is CPU in this process that the first upload after start would pay for (issue 18)
            await self._background_turn()
            if callable(prepare):
                build: Callable[[], object] = prepare
                if "builder" in inspect.signature(prepare).parameters:  # in a child that can be paused
                    build = functools.partial(prepare, builder=self.model_build.run)
                self.load_cpu_s += await run_niced(build, LOAD_NICE, name="embedder-prepare")
                self.load_cpu_s += self.model_build.cpu_s
            await self._background_turn()  # the session is created at normal priority: not beside a text path
            self.load_cpu_s += await asyncio.to_thread(_thread_cpu, load)
        except Exception as exc:  # the first embed call raises it again, where it is handled
            log.warning("embedder_preload_failed", error=type(exc).__name__)
            return
        log.info("embedder_preloaded", seconds=round(time.perf_counter() - t0, 2), cpu_s=round(self.load_cpu_s, 2))

    def model_loading(self) -> bool:
        """The background load is under way and nothing has built the model yet. A vector fill that ran before
        the load's turn came (``_background_turn``) built it on its own first embed call: searches use it then."""
        if self._warm is None or self._warm.done():
            return False
        return not bool(getattr(self.embedder, "loaded", False))

    async def settle(self, within_s: float = START_LOAD_WAIT_S) -> bool:
        """Start-up's last wait (issue 18): let a model load that only reads a built file finish before requests
        come (a restart: ~0.4 s of CPU that the first upload would otherwise share its cores with), at most
        ``within_s``. A load that builds the file (a fresh data directory: tens of seconds, in a child that
        keyword indexing pauses) is not waited for. Returns whether the model is loaded."""
        deadline = time.perf_counter() + within_s
        while self._warm is not None and not self._warm.done():
            if self.model_build.running or time.perf_counter() >= deadline:
                return False
            await asyncio.wait({self._warm}, timeout=0.02)
        return self._warm is not None and bool(getattr(self.embedder, "loaded", True))

    async def warmed(self) -> None:
        """Wait for the background model load (if any) to finish."""
        if self._warm is not None:
            await asyncio.shield(self._warm)

    def pause_background(self) -> None:
        """A document is on its way to keyword-searchable (``ingest.keyword_first``): stop the model build, and
        the model's load (the session, created at normal priority) waits for ``resume_background``."""
        self._paused = True
        if self._resumed is not None:
            self._resumed.clear()
        self.model_build.pause()

    def resume_background(self) -> None:
        self._paused = False
        if self._resumed is not None:
            self._resumed.set()
        self.model_build.resume()

    async def _background_turn(self) -> None:
        """Return once no text path holds the background work back (at once when none does)."""
        while self._paused:
            if self._resumed is None:
                self._resumed = asyncio.Event()
            await self._resumed.wait()

    async def close(self) -> None:
        self.model_build.release()
        if self._warm is not None and not self._warm.done():
            await asyncio.gather(self._warm, return_exceptions=True)  # a thread cannot be cancelled
        await self.index.close()

    async def index_keywords(self, chunks: Sequence[Chunk]) -> None:
        """Write ``chunks`` without vectors: keyword-searchable now, ``index_chunks`` fills the vectors in."""
        await self.index.upsert_text(chunks)

    async def index_chunks(self, chunks: Sequence[Chunk], progress: Callable[[int, int], None] | None = None) -> None:
        """Embed (off the event loop) and upsert in rounds of ``EMBED_BATCH``; the next round is embedding while
        the last one is written, so the embedder does not wait on the index (issue 18).

        ``progress(done, total)`` is called from inside each round's embed call (every few chunks, ``EmbedBatcher``)
        and after each write, always in a worker thread (it may block, e.g. to record the step's progress, and may
        raise to cancel); ``done`` counts embedded chunks and never goes back.
        """
        total = len(chunks)
        seen = [0]
        lock = threading.Lock()

        def report(done: int) -> None:
            with lock:
                if done <= seen[0]:
                    return
                seen[0] = done
            if progress is not None:
                progress(done, total)

        def embed(start: int) -> asyncio.Future[list[list[float]]]:
            part = chunks[start:start + EMBED_BATCH]
            tick = None if progress is None else (lambda d: report(start + d))
            # through the batcher: documents indexed at once share embed calls (issue 18)
            texts = [c.text for c in part] if self.remote_text is None else [self.remote_text(c.text) for c in part]
            return asyncio.ensure_future(self.batcher.embed_passages(texts, progress=tick))

        starts = list(range(0, total, EMBED_BATCH))
        ahead = embed(starts[0]) if starts else None
        try:
            for k, start in enumerate(starts):
                assert ahead is not None
                vectors = await ahead
                ahead = embed(starts[k + 1]) if k + 1 < len(starts) else None
                part = chunks[start:start + EMBED_BATCH]
                await self.index.upsert(part, vectors)
                if progress is not None:
                    await asyncio.to_thread(report, start + len(part))
        finally:
            if ahead is not None:
                ahead.cancel()
                await asyncio.gather(ahead, return_exceptions=True)
        if chunks:
            log.info("chunks_indexed", count=len(chunks), document_id=chunks[0].document_id)

    async def delete_document(self, project_id: str, document_id: str) -> None:
        await self.index.delete_document(project_id, document_id)

    async def search(self, query: str, flt: SearchFilter, *, k: int = 8, mode: SearchMode = "hybrid") -> list[Hit]:
        if not query.strip():
            raise InvalidInput("the search query is empty")
        if len(query) > self.query_max_chars:
            # long questions are searched by their head, not refused: the embedder reads ~512 tokens anyway, and
            # embedding and BM25 cost grow with the length (an 18,000-character question took 50 s)
            log.info("search_query_capped", chars=len(query), max_chars=self.query_max_chars)
            query = cap_query(query, self.query_max_chars)
        query = expand_query(query, self.lexicon)
        if mode == "hybrid" and self.model_loading():
            # the model is still loading (start-up): BM25 answers now instead of the question waiting for it
            log.info("search_keyword_while_model_loads")
            mode = "keyword"
        embedded = query if self.remote_text is None else self.remote_text(query)
        self._searching += 1  # the vector fill yields between its session runs while a search is on (issue 18)
        self._no_search.clear()
        try:
            vector = None if mode == "keyword" else await asyncio.to_thread(self.embedder.embed_query, embedded)
            return await self.index.search(query, vector, flt, k=k, mode=mode)
        finally:
            self._searching -= 1
            if not self._searching:
                self._no_search.set()

    def _yield_to_searches(self) -> None:
        """Called by the embed batcher between a vector fill's session runs (its thread): wait while a search is
        running (at most ``SEARCH_YIELD_S``), so a question asked during ingest is not queued behind the fill."""
        self._no_search.wait(SEARCH_YIELD_S)


def build_retriever(
    settings: Settings, *, embedder: Embedder | None = None, opensearch_client: Any = None,
    remote_text: Callable[[str], str] | None = None,
) -> Retriever:
    """Embedder and index from ``settings``; tests may pass either in. ``remote_text``: see ``Retriever``
    (the callers pass ``ingest.pii.service.embedding_masker(settings)``)."""
    if embedder is None:
        from retrieval.embeddings import build_embedder

        embedder = build_embedder(settings)
    index: Index
    if settings.retrieval.index_backend == "opensearch":
        from retrieval.opensearch_index import OpenSearchIndex
        from store.clients import opensearch_client as build_client

        client = opensearch_client if opensearch_client is not None else build_client(settings)
        index = OpenSearchIndex.from_settings(client, settings, dimension=embedder.dimension)
    else:
        from retrieval.lance_index import LanceIndex

        index = LanceIndex(
            settings.server.data_dir / "lance",
            embedder.dimension,
            ann_min_rows=settings.retrieval.ann_min_rows,
            fusion=settings.retrieval.hybrid_fusion,
            keyword_weight=settings.retrieval.hybrid_keyword_weight,
            read_consistency_seconds=settings.retrieval.index_read_consistency_seconds,
        )
    ret = settings.retrieval
    return Retriever(embedder, index, load_lexicon(ret.query_expansion, ret.query_lexicon_file),
                     query_max_chars=ret.query_max_chars, remote_text=remote_text)
