"""The seed-000 steps in order, each recorded on ``WF#/STEP``, with bounded memory and fixed result keys.

``segment_prep`` → ``format_parser`` → ``paddleocr_processor`` (only the pages that need it) →
``segment_builder`` → ``pii`` (personal data per segment, ``ingest.pii``) → ``segment_analyzer`` (page
layout JSON at ``…/analysis/0007.json``; the text sent to Bedrock is masked) → (``bda_processor``,
``transcribe``, ``webcrawler``, ``graph_builder``: recorded ``skipped`` with a reason for now) →
``chunking`` (heading paths, no headers/footers) → ``keyword_indexing`` (the chunks without vectors:
BM25-searchable, the workflow's "searchable" moment) → ``indexing`` (the vectors filled in behind it; "ready" when
the workflow completes), with ``field_extractor`` and the rendering (``segment_prep``) running beside it →
``document_summarizer`` (``ingest.steps.summarize_step``: extractive locally, Claude with
``DOCCHAT_ANALYSIS_MODEL=bedrock`` on the masked text; stored on the document item).

Every result lives at a key fixed by workflow and page (``workflows/{wid}/pages/0007.png``,
``…/text/0007.json``, ``…/ocr/0007.json``, ``…/segments/0007.json``, ``WF#/SEG#0007``) and chunk ids are
deterministic, so a crash at any point followed by a redelivery resumes: completed steps are skipped,
pages whose result exists are not redone, and rewriting a result only overwrites it. Pages stream one at
a time (rendering happens in a sandboxed child that holds one page); the document is never in memory.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, cast

from ingest.filetypes import FileKind
from ingest.keyword_first import KeywordFirst
from ingest.page_render import store_rendered
from ingest.pipeline_steps import PipelineSteps
from ingest.results import (
    meta_key,
    ocr_key,
    ocr_pages_key,
    page_png_key,
    rebuild,
    segment_key,
    text_key,
)
from retrieval.types import Chunk
from store.blobs import BlobStore
from store.config import Settings
from store.errors import DocchatError
from store.logging import get_logger
from store.metrics import MetricsRecorder, record_safely
from store.workflows import Claim, WorkflowStore

log = get_logger(__name__)

#: rendering of long documents is split over this many sandboxed children (pages interleaved)
RENDER_PROCESSES = 2
PARALLEL_MIN_PAGES = 8
#: the text layer (the path to searchable) is read by two children only from this many pages: a second child costs
#: ~0.12 s of CPU (interpreter, imports, the document parsed again), more than it saves below this (issue 18)
TEXT_PARALLEL_MIN_PAGES = 64
#: nice increment of the rendering children of a PDF: the text path (segments, keyword index, embedding) first
RENDER_NICE = 5
#: pages whose segments are built together (table detection is batched per window)
BUILD_WINDOW = 32
#: steps not built yet (later issue) — recorded as skipped with this reason
DEFERRED = {
    "bda_processor": "Bedrock Data Automation is not enabled in this deployment",
    "transcribe": "audio/video uploads are not supported yet",
    "webcrawler": "web sources are not supported yet",
    "graph_builder": "the entity graph comes with segment analysis in a later release",
}


class ChunkIndexer(Protocol):
    """The part of ``retrieval.search.Retriever`` the pipeline uses."""

    async def index_keywords(self, chunks: Sequence[Chunk]) -> None:
        """Write chunks without vectors (keyword-searchable at once); ``index_chunks`` later adds the vectors."""

    async def index_chunks(
        self, chunks: Sequence[Chunk], progress: Callable[[int, int], None] | None = None
    ) -> None: ...

    async def delete_document(self, project_id: str, document_id: str) -> None: ...


class ClaimLost(Exception):
    """Another worker took the workflow over (our lease expired); stop without writing anything."""


FaultHook = Callable[[str, int], None]


class Job:
    """Per-run state: the claim, the local copy of the original, cancellation."""

    def __init__(self, claim: Claim, path: Path) -> None:
        self.claim = claim
        self.path = path
        data = claim.item.get("data") or {}
        self.kind = cast(FileKind, data.get("file_kind") or "pdf")
        self.page_count = int(data.get("page_count") or 0)
        self.language = str(data.get("language") or "en")
        self.file_name = str(data.get("file_name") or "document")
        self.lost = threading.Event()
        self.stop = threading.Event()  # another step of this run failed: background work stops
        self.wid = claim.workflow_id
        self.render_pids: set[int] = set()  # the rendering children running now
        self.render_idle = False  # no page needs OCR: rendering runs at RENDER_IDLE_NICE
        self.render_lock = threading.Lock()

    def check(self) -> None:
        if self.lost.is_set() or self.stop.is_set():
            raise ClaimLost(self.wid)


class Pipeline(PipelineSteps):
    def __init__(
        self,
        settings: Settings,
        store: WorkflowStore,
        blobs: BlobStore,
        indexer: ChunkIndexer,
        *,
        uri_for: Callable[[str], str] | None = None,
        fault: FaultHook | None = None,
        analysis_model: Callable[[], Any] | None = None,
        summary_model: Any | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.blobs = blobs
        self.indexer = indexer
        self.uri_for = uri_for or (lambda key: key)
        self.fault = fault
        self.analysis_model = analysis_model  # a factory of ingest.analysis.bedrock.BedrockPageAnalyzer
        self.summary_model = summary_model  # a ``SummaryModel`` (tests); None = built from settings when needed
        self._engines: dict[str, Any] = {}
        self._engine_lock = threading.Lock()
        self.metrics: MetricsRecorder | None = None  # read models (store/metrics.py); set by build_ingest
        self.keyword_first = KeywordFirst()  # the workers' text slots: vector fills wait while one is held
        self.render_turns = asyncio.Semaphore(1)  # background renderings (viewer pages), one document at a time

    # --- driver --------------------------------------------------------------------------------------

    async def run(self, claim: Claim, *, lost: threading.Event | None = None,
                  searchable: Callable[[], None] | None = None) -> int:
        """Run (or resume) every step; returns ``total_segments``. ``searchable()``: called once the document is
        keyword-searchable (the worker then takes its next document; see ``ingest/keyword_first.py``)."""
        step_item = await asyncio.to_thread(self.store.step_item, claim.workflow_id) or {}
        done = {name for name, val in step_item.items() if isinstance(val, dict) and val.get("status") in
                ("completed", "skipped")}
        tmp = Path(tempfile.mkdtemp(prefix="docchat-job-"))
        try:
            job = Job(claim, tmp / "original")
            if lost is not None:
                job.lost = lost
            await asyncio.to_thread(self._download, claim, job.path)
            for name, reason in DEFERRED.items():
                if name not in done:
                    await asyncio.to_thread(self.store.record_step, claim, name, "skipped", reason=reason)
            # rendering (for the viewer and OCR) and field extraction run behind the text path and the vector fill
            # (issue 18): they start once every vector is written (none of their CPU on the path to the first
            # answer or beside the embedder), rendering at once only when a page needs OCR; a page the viewer
            # asks for before then is rendered on demand (``Documents.page_image``); both are over before the
            # workflow completes
            behind: dict[str, asyncio.Task[None]] = {}

            def start(*names: str, gated: bool = False) -> None:
                for name in names:
                    if name not in behind and name not in done:
                        fn = self._segment_prep if name == "segment_prep" else self._field_extractor
                        behind[name] = asyncio.create_task(self._behind(job, name, fn, gated))

            def on_searchable() -> None:  # the worker takes the next queued document's text path
                if searchable is not None:
                    searchable()

            try:
                if job.kind != "pdf":  # an image: every page is OCR'd from its rendering
                    start("segment_prep")
                if "format_parser" not in done:
                    await self._step(job, "format_parser", self._format_parser)
                if "segment_prep" not in done:
                    if await asyncio.to_thread(self._needs_pages, job):
                        start("segment_prep")
                        await behind["segment_prep"]
                    else:
                        self._render_behind(job)
                for name, fn in (("paddleocr_processor", self._ocr), ("segment_builder", self._segment_builder),
                                 ("pii", self._pii), ("segment_analyzer", self._segment_analyzer)):
                    if name not in done:
                        await self._step(job, name, fn)
                if "chunking" not in done or "indexing" not in done:
                    current = ["chunking"]
                    try:
                        await self._chunk_and_index(job, current, keywords_done="keyword_indexing" in done,
                                                    searchable=on_searchable)
                    except Exception as exc:
                        await self._record_failure(job, current[0], exc)
                        raise
                start("segment_prep", "field_extractor", gated=True)  # after the queued documents' text paths
                try:
                    for task in list(behind.values()):
                        await task
                except Exception:
                    await self._unindex(job)  # a document that fails must not stay searchable
                    raise
            finally:  # all finish before an error propagates (the renderer writes into this job's blobs)
                if any(not t.done() for t in behind.values()):
                    job.stop.set()
                await asyncio.gather(*behind.values(), return_exceptions=True)
            if "document_summarizer" not in done:
                await self._summarize(job)
            return job.page_count
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    async def _step(self, job: Job, name: str, fn: Callable[[Job], None]) -> None:
        job.check()
        t0 = time.perf_counter()
        await asyncio.to_thread(self.store.record_step, job.claim, name, "in_progress")
        try:
            await asyncio.to_thread(fn, job)
        except Exception as exc:
            await self._record_failure(job, name, exc)
            raise
        seconds = time.perf_counter() - t0
        log.info("step_done", workflow_id=job.wid, step=name, seconds=round(seconds, 3))
        record_safely(self.metrics, timings={f"step_seconds.{name}": seconds})

    async def _record_failure(self, job: Job, name: str, exc: Exception) -> None:
        if isinstance(exc, ClaimLost):
            return
        msg = exc.message if isinstance(exc, DocchatError) else f"{type(exc).__name__}: {exc}"
        try:
            await asyncio.to_thread(self.store.record_step, job.claim, name, "failed", error=msg[:500])
        except Exception:  # the original error matters more
            log.warning("step_record_failed", workflow_id=job.wid, step=name)

    def _progress(self, job: Job, name: str, done: int, total: int, last_write: list[float]) -> None:
        self._hit(name, done)
        job.check()
        now = time.monotonic()
        if done == total or now - last_write[0] >= 0.5:
            last_write[0] = now
            self.store.step_progress(job.claim, name, done, total)

    def _hit(self, step: str, page: int) -> None:
        if self.fault is not None:
            self.fault(step, page)

    def _download(self, claim: Claim, dest: Path) -> None:
        key = str((claim.item.get("data") or {}).get("file_key"))
        with self.blobs.open(key) as src, dest.open("wb") as out:
            shutil.copyfileobj(src, out, 1024 * 1024)

    # --- steps ---------------------------------------------------------------------------------------

    def _segment_prep(self, job: Job) -> None:
        """Render every page not rendered yet; long documents in ``RENDER_PROCESSES`` interleaved sandboxes."""
        from ingest.steps.segment_prep import render_pages

        total = job.page_count
        todo = [p for p in range(1, total + 1) if not self.blobs.exists(meta_key(job.wid, p))]
        done = [total - len(todo)]
        mark = [0.0]
        lock = threading.Lock()

        def render(pages: list[int]) -> None:
            mine: list[int] = []
            try:
                for rp in render_pages(job.path, job.kind, pages, self.settings.ingest.render_dpi,
                                       settings=self.settings, nice=RENDER_NICE if job.kind == "pdf" else 0,
                                       on_child=lambda pid: self._render_child(job, pid, mine)):
                    put(rp)
            finally:
                with job.render_lock:
                    job.render_pids.difference_update(mine)

        def put(rp: Any) -> None:
            store_rendered(self.blobs, job.wid, rp)
            with lock:
                done[0] += 1
                self._progress(job, "segment_prep", done[0], total, mark)

        _fan_out(render, todo, "render")
        self.store.record_step(job.claim, "segment_prep", "completed", done=total, total=total)

    def _format_parser(self, job: Job) -> None:
        total = job.page_count
        if job.kind != "pdf":
            self._put_json(ocr_pages_key(job.wid), list(range(1, total + 1)))
            self.store.record_step(job.claim, "format_parser", "skipped", reason="an image has no text layer")
            return
        from ingest.steps.text_layer import iter_text_and_words

        todo = [p for p in range(1, total + 1) if not self.blobs.exists(text_key(job.wid, p))]
        done = [total - len(todo)]
        mark = [0.0]
        lock = threading.Lock()

        need: set[int] = set()

        def read(pages: list[int]) -> None:
            for record in iter_text_and_words(job.path, pages, settings=self.settings):
                # a likely table page's words come from the same child: segment_builder needs no sandbox of its own
                page = int(record["page"])
                self._put_json(text_key(job.wid, page), record)
                with lock:
                    if record.get("needs_ocr"):
                        need.add(page)
                    done[0] += 1
                    self._progress(job, "format_parser", done[0], total, mark)

        # the text layer is the critical path (segments, then searchable): long documents over two children
        _fan_out(read, todo, "text", min_pages=TEXT_PARALLEL_MIN_PAGES)
        fresh = set(todo)
        need.update(p for p in range(1, total + 1) if p not in fresh  # read by an earlier run of this workflow
                    and self._get_json(text_key(job.wid, p)).get("needs_ocr"))
        self._put_json(ocr_pages_key(job.wid), sorted(need))
        self.store.record_step(job.claim, "format_parser", "completed", done=total, total=total)

    def _engine(self, language: str) -> Any:
        from ingest.steps.ocr import select_engine

        with self._engine_lock:
            if language not in self._engines:
                self._engines[language] = select_engine(language, self.settings)
            return self._engines[language]

    def _ocr(self, job: Job) -> None:
        need = [int(p) for p in self._get_json(ocr_pages_key(job.wid), default=[])]
        if not need:
            self.store.update_preprocess(job.claim, "ocr", "skipped")
            self.store.record_step(job.claim, "paddleocr_processor", "skipped",
                                   reason="every page has a usable text layer")
            return
        from ingest.steps.ocr import ocr_available

        ok, why = ocr_available(job.language, settings=self.settings)
        if not ok:
            self.store.update_preprocess(job.claim, "ocr", "unavailable")
            self.store.record_step(job.claim, "paddleocr_processor", "skipped",
                                   reason=f"OCR is not available for language {job.language!r}: {why}")
            return
        engine = self._engine(job.language)
        total = len(need)
        todo = [p for p in need if not self.blobs.exists(ocr_key(job.wid, p))]
        done = total - len(todo)
        mark = [0.0]
        self.store.record_step(job.claim, "paddleocr_processor", "in_progress", done=done, total=total)
        from ingest.steps.ocr_batch import batches, recognize_pages

        for run in batches(todo, self.settings.ingest.ocr_batch_pages):  # pages per engine call (GPU: one predict)
            pngs = [self.blobs.get(page_png_key(job.wid, page)) for page in run]
            for page, result in zip(run, recognize_pages(engine, pngs, language=job.language), strict=True):
                self._put_json(ocr_key(job.wid, page), dataclasses.asdict(result))
                done += 1
                record_safely(self.metrics, counts={"ocr_pages": 1})
                self._progress(job, "paddleocr_processor", done, total, mark)
        self.store.update_preprocess(job.claim, "ocr", "completed")
        self.store.record_step(job.claim, "paddleocr_processor", "completed", done=total, total=total)

    def _segment_builder(self, job: Job) -> None:
        """One segment per page (text layer or OCR lines, tables as grids), in windows of ``BUILD_WINDOW`` pages."""
        from ingest.steps.format_parser import Line, PageText
        from ingest.steps.ocr import OcrLine, OcrResult
        from ingest.steps.segment_builder import build_segment

        total = job.page_count
        mark = [0.0]
        for start in range(1, total + 1, BUILD_WINDOW):
            window = range(start, min(total, start + BUILD_WINDOW - 1) + 1)
            texts: dict[int, Any] = {}
            ocrs: dict[int, Any] = {}
            metas: dict[int, dict[str, Any]] = {}
            words: dict[int, list[Any]] = {}
            for page in window:
                text_raw = self._get_json(text_key(job.wid, page), default=None)
                if text_raw and text_raw.get("table_words") is not None:
                    words[page] = text_raw["table_words"]
                ocr_raw = self._get_json(ocr_key(job.wid, page), default=None)
                metas[page] = self._page_meta(job, page, text_raw)
                texts[page] = rebuild(PageText, text_raw, {"lines": Line}) if text_raw else None
                ocrs[page] = rebuild(OcrResult, ocr_raw, {"lines": OcrLine}) if ocr_raw else None
            tables = self._tables(job, texts, ocrs, words)
            for page in window:
                meta = metas[page]
                seg = build_segment(page, texts[page], ocrs[page], width_pt=meta["width_pt"],
                                    height_pt=meta["height_pt"], width_px=meta["width_px"],
                                    height_px=meta["height_px"], tables=tables.get(page))
                key = segment_key(job.wid, page)
                self._put_json(key, seg)
                self._hit("segment_builder:item", page)
                self.store.put_segment(
                    job.claim, page, s3_key=self.uri_for(key), image_uri=self.uri_for(page_png_key(job.wid, page)),
                    meta={"page": page, "source": seg.get("source"), "chars": len(seg.get("text") or ""),
                          "lines": len(seg.get("lines") or ()), "tables": len(seg.get("tables") or ())},
                )
                self._progress(job, "segment_builder", page, total, mark)
        self.store.record_step(job.claim, "segment_builder", "completed", done=total, total=total)

    # --- blob helpers ----------------------------------------------------------------------------------

    def _put_json(self, key: str, value: Any) -> None:
        self.blobs.put(key, json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(),
                       "application/json")

    def _get_json(self, key: str, default: Any = ...) -> Any:
        from store.errors import NotFound

        try:
            return json.loads(self.blobs.get(key))
        except NotFound:
            if default is ...:
                raise
            return default


def _fan_out(work: Callable[[list[int]], None], pages: list[int], name: str, *, min_pages: int | None = None) -> None:
    """``work`` over ``pages``: in one go for a short document (under ``min_pages``, default twice
    ``PARALLEL_MIN_PAGES``), else interleaved over ``RENDER_PROCESSES`` threads (each drives its own sandbox child);
    the first error is raised."""
    n = RENDER_PROCESSES if len(pages) >= (2 * PARALLEL_MIN_PAGES if min_pages is None else min_pages) else 1
    if n == 1:
        work(pages)
        return
    with ThreadPoolExecutor(n, thread_name_prefix=name) as pool:
        for fut in [pool.submit(work, pages[i::n]) for i in range(n)]:
            fut.result()
