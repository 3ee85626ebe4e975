"""The pipeline's page helpers, its analysis steps (``pii``, ``segment_analyzer``, ``field_extractor``,
``document_summarizer``) and its indexing steps, apart from the driver (``ingest/pipeline.py``).

``keyword_indexing`` writes the chunks without vectors (BM25 finds the document at once: "searchable"), then
``indexing`` fills the vectors in, ``INDEX_BATCH`` chunks at a time ("ready" once the workflow completes);
a redelivery after the keyword write only fills the vectors (deterministic chunk ids: nothing lost or
duplicated). A document that fails after the keyword write is taken out of the index (``_unindex``). Page
sizes come from the text layer, so segments need no rendered page; table words come with the text layer.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable
from typing import Any, cast

from ingest.keyword_first import KeywordFirst
from ingest.results import SegmentSequence, meta_key, ocr_pages_key, page_png_key
from store.blobs import BlobStore
from store.config import Settings
from store.logging import get_logger
from store.workflows import WorkflowStore

log = get_logger(__name__)

#: the rendering children's nice value once ``format_parser`` found no page that needs OCR: the pages are only for
#: the viewer, so the vector fill runs at the embedder's own speed ahead of them (CFS weight 110 vs 1024: ~90% of
#: the cores to the embedder while both run); not 19, which starves rendering (and "ready") on a shared machine
RENDER_IDLE_NICE = 10
#: chunks per index call
INDEX_BATCH = 64
#: chunks per keyword-only write (no embedding: one write for most documents)
KEYWORD_BATCH = 1024


def _renice(pid: int, nice: int) -> None:
    """Lower a child's priority to ``nice`` (never raise it: an unprivileged process cannot); a child that has
    already exited, or a platform without ``setpriority``, is left as it is."""
    with contextlib.suppress(AttributeError, OSError):
        if os.getpriority(os.PRIO_PROCESS, pid) < nice:
            os.setpriority(os.PRIO_PROCESS, pid, nice)


class PipelineSteps:
    """Mixed into ``Pipeline`` (which sets these attributes and defines the helpers)."""

    settings: Settings
    store: WorkflowStore
    blobs: BlobStore
    indexer: Any  # ingest.pipeline.ChunkIndexer
    _get_json: Callable[..., Any]
    _progress: Callable[..., None]
    _hit: Callable[[str, int], None]
    _record_failure: Callable[..., Awaitable[None]]
    _step: Callable[..., Awaitable[None]]
    keyword_first: KeywordFirst
    render_turns: asyncio.Semaphore
    uri_for: Callable[[str], str]
    analysis_model: Callable[[], Any] | None
    summary_model: Any | None

    async def _behind(self, job: Any, name: str, fn: Callable[[Any], None], gated: bool) -> None:
        """A step beside the vector fill; ``gated``: after every queued document's text path (keyword first).
        Background renderings take turns (``render_turns``): the documents a worker keeps filling do not each
        start their rendering children at once."""
        if not gated:
            await self._step(job, name, fn)
            return
        await self.keyword_first.idle()
        if name != "segment_prep":
            await self._step(job, name, fn)
            return
        async with self.render_turns:
            await self._step(job, name, fn)

    def _render_child(self, job: Any, pid: int, mine: list[int]) -> None:
        with job.render_lock:
            mine.append(pid)
            job.render_pids.add(pid)
            if job.render_idle:  # started after format_parser said no page needs OCR
                _renice(pid, RENDER_IDLE_NICE)

    def _render_behind(self, job: Any) -> None:
        """No step waits for the rendered pages (no OCR): the rendering children yield to everything else."""
        with job.render_lock:
            job.render_idle = True
            for pid in job.render_pids:
                _renice(pid, RENDER_IDLE_NICE)

    async def _summarize(self, job: Any) -> None:
        from ingest.steps.summarize_step import run_summarizer

        job.check()
        try:
            await run_summarizer(self.settings, self.store, self.blobs, job.claim, file_name=job.file_name,
                                 page_count=job.page_count, model=self.summary_model)
        except Exception as exc:
            await self._record_failure(job, "document_summarizer", exc)
            raise

    def _pii(self, job: Any) -> None:
        """Personal data per segment and the document's placeholder numbering (``ingest.pii.step``)."""
        from ingest.pii.step import effective_mode, run_pii_step

        mode = effective_mode(self.settings.ingest.pii_mode, self.store.project_pii_mode(job.claim.project_id))
        mark = [0.0]
        run_pii_step(self.store, self.blobs, job.claim, job.page_count, mode=mode,
                     progress=lambda done, total: self._progress(job, "pii", done, total, mark))

    def _field_extractor(self, job: Any) -> None:
        """Key fields with confidence (``fields.json``); doubtful ones open review items (issue 15)."""
        from ingest.steps.field_step import run_field_extractor

        run_field_extractor(self, job)  # records the step

    def _segment_analyzer(self, job: Any) -> None:
        from ingest.steps.segment_analyzer import SegmentAnalyzerStep

        mark = [0.0]
        SegmentAnalyzerStep(self.settings, self.store, self.blobs, uri_for=self.uri_for, model=self.analysis_model).run(
            job.claim, job.page_count, lambda d, t: self._progress(job, "segment_analyzer", d, t, mark))

    def _needs_pages(self, job: Any) -> bool:
        """Whether the steps after ``format_parser`` need the rendered pages (OCR, image uploads, and Claude's
        segment analysis, which is sent each page's image)."""
        if self.settings.ingest.analysis_model == "bedrock" and self.analysis_model is not None:
            return True
        return job.kind != "pdf" or bool(self._get_json(ocr_pages_key(job.wid), default=[]))

    def _page_meta(self, job: Any, page: int, text_raw: dict[str, Any] | None) -> dict[str, Any]:
        """The page's size: from its text layer (no rendering needed), else from its rendered page."""
        from ingest.steps.segment_prep import pixel_size

        if text_raw and text_raw.get("width_pt") and text_raw.get("height_pt"):
            w_pt, h_pt = float(text_raw["width_pt"]), float(text_raw["height_pt"])
            w_px, h_px = pixel_size(w_pt, h_pt, self.settings.ingest.render_dpi)
            return {"width_pt": w_pt, "height_pt": h_pt, "width_px": w_px, "height_px": h_px}
        return cast(dict[str, Any], self._get_json(meta_key(job.wid, page)))

    def _tables(self, job: Any, texts: dict[int, Any], ocrs: dict[int, Any],
                words: dict[int, list[Any]] | None = None) -> dict[int, list[Any]]:
        """Tables on the pages where one is likely; a detection failure costs the tables, not the document.
        ``words``: those read with the text layer (``ingest.steps.text_layer``); other pages are read here."""
        from ingest.steps.table_grid import Word, find_tables
        from ingest.steps.tables import likely_table, pdf_tables, tables_from_ocr

        out: dict[int, list[Any]] = {}
        layer_pages = [p for p, t in texts.items() if t is not None and not t.needs_ocr and ocrs.get(p) is None
                       and likely_table(t)]
        for page in [p for p in layer_pages if words and p in words]:
            layer_pages.remove(page)
            try:
                found = find_tables([Word(*w) for w in (words or {})[page]], page)
            except Exception as exc:
                log.warning("tables_failed", workflow_id=job.wid, source="text_layer", error=type(exc).__name__)
                continue
            if found:
                out[page] = found
        if layer_pages and job.kind == "pdf":
            try:
                out.update(pdf_tables(job.path, layer_pages, settings=self.settings))
            except Exception as exc:
                log.warning("tables_failed", workflow_id=job.wid, source="text_layer", error=type(exc).__name__)
        for page, ocr in ocrs.items():
            if ocr is None or not ocr.lines or not likely_table(cast(Any, ocr)):
                continue
            try:
                meta = self._get_json(meta_key(job.wid, page))
                scale = (meta["width_pt"] / (ocr.width_px or meta["width_px"]),
                         meta["height_pt"] / (ocr.height_px or meta["height_px"]))
                out[page] = tables_from_ocr(self.blobs.get(page_png_key(job.wid, page)), ocr, page=page,
                                            scale=scale)
            except Exception as exc:
                log.warning("tables_failed", workflow_id=job.wid, source="ocr", page=page, error=type(exc).__name__)
        return out

    async def _unindex(self, job: Any) -> None:
        """Take the document's chunks out of the index; a redelivery indexes them again."""
        claim = job.claim
        try:
            await self.indexer.delete_document(claim.project_id, claim.document_id)
            for name in ("keyword_indexing", "indexing"):
                await asyncio.to_thread(self.store.record_step, claim, name, "pending")
        except Exception:  # the original error matters more
            log.warning("unindex_failed", workflow_id=job.wid)

    async def _chunk_and_index(self, job: Any, current: list[str], *, keywords_done: bool = False,
                               searchable: Callable[[], None] | None = None) -> None:
        """Chunk, write the chunks without vectors (searchable), then embed them in batches (ready). A redelivery
        after the keyword write keeps the document searchable and only fills the vectors (same chunk ids).
        ``searchable()`` is called once the document is keyword-searchable (the pipeline starts its rendering)."""
        from ingest.steps.chunk import chunk_segments
        from ingest.steps.identity import cover_identity, with_listed_symbols

        claim = job.claim
        job.check()
        await asyncio.to_thread(self.store.record_step, claim, "chunking", "in_progress")
        from ingest.steps.segment_analyzer import segment_with_layout

        segments = SegmentSequence(lambda page: segment_with_layout(self.blobs, job.wid, page), job.page_count)
        identity = await asyncio.to_thread(cover_identity, segments)  # whose document: its cover says
        chunks = await asyncio.to_thread(
            chunk_segments, segments, project_id=claim.project_id, document_id=claim.document_id,
            file_name=job.file_name, workflow_id=claim.workflow_id, max_tokens=self.settings.ingest.chunk_tokens,
            overlap_tokens=self.settings.ingest.chunk_overlap_tokens, language=job.language,
            root=str(identity.get("company") or ""),
        )
        # no symbol on the cover (an older 10-K): the sentence that says where its stock trades, read off the chunks
        identity = with_listed_symbols(identity, (chunk.text for chunk in chunks))
        await asyncio.to_thread(self.store.record_step, claim, "chunking", "completed", done=len(chunks),
                                total=len(chunks))
        self._hit("chunking", len(chunks))
        job.check()
        # stored before the document is searchable, so every hit shows it
        await asyncio.to_thread(self.store.put_document_identity, claim, identity)
        job.check()
        if not keywords_done:
            current[0] = "keyword_indexing"
            await asyncio.to_thread(self.store.record_step, claim, "keyword_indexing", "in_progress", done=0,
                                    total=len(chunks))
            # ids are deterministic: re-indexing overwrites; deleting first drops chunks a re-run no longer makes
            await self.indexer.delete_document(claim.project_id, claim.document_id)
            for start in range(0, len(chunks), KEYWORD_BATCH):
                job.check()
                await self.indexer.index_keywords(chunks[start:start + KEYWORD_BATCH])
            await asyncio.to_thread(self.store.record_step, claim, "keyword_indexing", "completed", done=len(chunks),
                                    total=len(chunks))
            log.info("document_searchable", workflow_id=job.wid, chunks=len(chunks))
            self._hit("keyword_indexing", len(chunks))
        if searchable is not None:
            searchable()
        job.check()
        current[0] = "indexing"
        await asyncio.to_thread(self.store.record_step, claim, "indexing", "in_progress", done=0, total=len(chunks))
        mark = [0.0]
        for start in range(0, len(chunks), INDEX_BATCH):
            await self.keyword_first.idle()  # no embedding while a queued document is on its way to searchable
            job.check()
            # progress per embedding round (a few chunks), written at most every 0.5 s: it keeps moving
            await self.indexer.index_chunks(
                chunks[start:start + INDEX_BATCH],
                progress=lambda d, _t, s=start: self._progress(job, "indexing", s + d, len(chunks), mark))
        await asyncio.to_thread(self.store.record_step, claim, "indexing", "completed", done=len(chunks),
                                total=len(chunks))
