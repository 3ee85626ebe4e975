"""A user's documents once uploaded: listing, workflow status and its change events, segments, page images,
reprocessing, deleting (a document or a whole project) and the page text chat reads. Handlers receive it
as ``documents``; every read checks ownership (another user's document is ``NotFound``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ingest.jobs import enqueue
from ingest.page_text import page_text
from ingest.pipeline import ChunkIndexer
from ingest.queue import JobQueue
from ingest.results import analysis_key, meta_key, page_png_key, segment_key, workflow_prefix
from ingest.steps.identity import COVER_PAGES, IDENTITY_READ, document_identity, with_listed_symbols
from store.audit import AuditLog
from store.blobs import BlobStore
from store.config import Settings
from store.errors import Conflict, NotFound, RetryableError
from store.logging import get_logger
from store.review import ReviewStore
from store.workflow_views import TERMINAL
from store.workflows import WorkflowStore

log = get_logger(__name__)


@dataclass(frozen=True, slots=True)
class PageContent:
    """One page's text for the chat's ``read_page`` tool (tables as Markdown, see ``ingest.page_text``)."""

    document_id: str
    file_name: str
    page: int
    text: str
    page_count: int


@dataclass(frozen=True, slots=True)
class PageImage:
    """A rendered page PNG with the page size in PDF points (None when unknown) and the render DPI."""

    png: bytes
    width_pt: float | None = None
    height_pt: float | None = None
    dpi: float | None = None


class Documents:
    def __init__(self, settings: Settings, *, store: WorkflowStore, blobs: BlobStore, queue: JobQueue,
                 index: ChunkIndexer) -> None:
        self.settings = settings
        self.store = store
        self.blobs = blobs
        self.queue = queue
        self.index = index  # search entries go first when a document is deleted
        self.audit = AuditLog(store.items, retention_days=settings.ingest.audit_retention_days, clock=store.clock)

    # --- listing and status -------------------------------------------------------------------------

    async def list_documents(self, user_id: str, project_id: str, *, cursor: str | None = None,
                             limit: int = 100) -> dict[str, Any]:
        await asyncio.to_thread(self.store.get_project, user_id, project_id)  # 404 unless the user's
        page = await asyncio.to_thread(self.store.list_documents, project_id, limit=limit, cursor=cursor)
        return {"items": page.items, "next_cursor": page.cursor}

    async def workflow_status(self, user_id: str, workflow_id: str) -> dict[str, Any]:
        return await asyncio.to_thread(self.store.get_workflow, user_id, workflow_id)

    async def workflow_events(self, user_id: str, workflow_id: str, *, poll_s: float = 0.5,
                              keepalive_s: float = 15.0) -> AsyncIterator[tuple[str, str]]:
        """(event, json) pairs: the status whenever it changes, until a terminal status; ``("", "")`` keep-alives."""
        last = ""
        idle = 0.0
        while True:
            view = await self.workflow_status(user_id, workflow_id)
            view.pop("updated_at", None)
            body = json.dumps(view, sort_keys=True)
            terminal = view["status"] in TERMINAL
            if body != last:
                last = body
                idle = 0.0
                yield (str(view["status"]) if terminal else "progress"), body
            elif idle >= keepalive_s:
                idle = 0.0
                yield "", ""
            if terminal:
                return
            await asyncio.sleep(poll_s)
            idle += poll_s

    async def segments(self, user_id: str, workflow_id: str, *, cursor: str | None = None,
                       limit: int = 20) -> dict[str, Any]:
        view = await self.workflow_status(user_id, workflow_id)
        page = await asyncio.to_thread(self.store.list_segments, workflow_id, limit=max(1, min(limit, 100)),
                                       cursor=cursor)
        out = []
        for item in page.items:
            idx = int(item["segment_index"])
            seg = await asyncio.to_thread(self._json, segment_key(workflow_id, idx))
            layout = await asyncio.to_thread(self._json_or_none, analysis_key(workflow_id, idx))
            out.append({
                "segment_index": idx,
                "page": seg.get("page", idx),
                "source": seg.get("source"),
                "text": seg.get("text", ""),
                "lines": seg.get("lines", []),
                "tables": seg.get("tables", []),
                "table_grids": seg.get("table_grids", []),  # Table.to_json(): cells, boxes, headers, Markdown
                "width": seg.get("width"),
                "height": seg.get("height"),
                "image_url": f"/v1/documents/{view['document_id']}/pages/{idx}.png",
                "pii": item.get("pii", []),  # personal data found: type, page, bbox, start, end (ingest.pii)
                "analysis": layout,  # segment_analyzer's layout JSON (blocks, reading order, key-values), or None
                "image_analysis": item.get("image_analysis") or [],
            })
        return {"workflow_id": workflow_id, "items": out, "next_cursor": page.cursor}

    def _json_or_none(self, key: str) -> dict[str, Any] | None:
        from store.errors import NotFound

        try:
            return self._json(key)
        except NotFound:
            return None

    def _json(self, key: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.blobs.get(key))
        return data

    # --- pages --------------------------------------------------------------------------------------

    async def page_image(self, user_id: str, document_id: str, page: int) -> PageImage:
        """The rendered page and its size in PDF points (the unit of segment and citation boxes)."""
        wf = await asyncio.to_thread(self.store.document_workflow, user_id, document_id)
        if not 1 <= page <= wf.page_count:
            raise NotFound(f"page {page} does not exist (the document has {wf.page_count} pages)")
        try:
            png = await asyncio.to_thread(self.blobs.get, page_png_key(wf.workflow_id, page))
        except NotFound:
            # a text-layer PDF's pages are rendered after its vectors (issue 18): this one is rendered now
            from ingest.page_render import render_now

            found = await asyncio.to_thread(render_now, self.settings, self.blobs, wf.workflow_id, wf.data, page)
            if found is None:
                raise NotFound(f"page {page} has not been rendered yet") from None
            png = found
        return await asyncio.to_thread(self._page_size, wf.workflow_id, page, png)

    def _page_size(self, wid: str, page: int, png: bytes) -> PageImage:
        """Size from the render metadata written next to the PNG (else the segment's width/height)."""
        width = height = 0.0
        width_px = 0
        for key in (meta_key(wid, page), segment_key(wid, page)):
            try:
                meta = self._json(key)
            except (NotFound, ValueError):
                continue
            width = float(meta.get("width_pt") or meta.get("width") or 0.0)
            height = float(meta.get("height_pt") or meta.get("height") or 0.0)
            width_px = int(meta.get("width_px") or 0)
            if width > 0 and height > 0:
                break
        if not (width > 0 and height > 0):
            return PageImage(png)
        dpi = round(width_px * 72.0 / width, 3) if width_px else None
        return PageImage(png, width_pt=width, height_pt=height, dpi=dpi)

    async def document_info(self, user_id: str, document_id: str) -> dict[str, Any]:
        wf = await asyncio.to_thread(self.store.document_workflow, user_id, document_id)
        data = wf.data
        return {
            "document_id": document_id,
            "workflow_id": wf.workflow_id,
            "project_id": wf.project_id,
            "file_name": data.get("file_name"),
            "file_type": data.get("file_type"),
            "page_count": wf.page_count,
            "status": wf.item.get("status"),
            "total_segments": int(data.get("total_segments") or 0),
        }

    async def document(self, user_id: str, document_id: str) -> dict[str, Any]:
        """``GET /v1/documents/{id}``: the document with its summary (``document_summarizer``; None until then) and
        its identity (``ingest.steps.identity``)."""
        info = await self.document_info(user_id, document_id)
        info["summary"] = await asyncio.to_thread(self.store.document_summary, str(info["project_id"]), document_id)
        ids = await self.document_identities(user_id, {document_id: str(info["project_id"])})
        info["identity"] = ids[document_id]  # whose document it is ({}: its cover names nobody)
        return info

    async def document_summaries(self, user_id: str, project_ids: Sequence[str], *,
                                 limit: int = 200) -> list[dict[str, Any]]:
        """The documents of the user's projects with their summaries (what chat's ``list_documents`` tool shows)."""
        out: list[dict[str, Any]] = []
        for pid in project_ids:
            await asyncio.to_thread(self.store.get_project, user_id, pid)  # NotFound unless the user's
            cursor: str | None = None
            while len(out) < limit:
                page = await asyncio.to_thread(self.store.list_documents, pid, limit=100, cursor=cursor)
                out += [{"project_id": pid, **d} for d in page.items]
                cursor = page.cursor
                if cursor is None:
                    break
        out = out[:limit]
        await asyncio.gather(*(self._refresh_identity(d) for d in out))
        return out

    async def _refresh_identity(self, doc: dict[str, Any]) -> None:
        """A completed document whose stored identity an older reading wrote (``"read"`` below ``IDENTITY_READ``)
        or none at all: read again from its first pages and kept, so a search by owner names it (a listing's
        identities decide which documents a question's company owns)."""
        wid = doc.get("workflow_id")
        if not wid or doc.get("status") != "completed" or not _stale(doc.get("identity")):
            return
        read = await asyncio.to_thread(self._backfill_identity, str(doc["project_id"]), str(doc["document_id"]),
                                       str(wid))
        if read is not None:
            doc["identity"] = read

    async def document_identities(self, user_id: str, docs: Mapping[str, str | None]) -> dict[str, dict[str, Any]]:
        """Whose document each is (``ingest.steps.identity``): ``{document_id: identity}`` for ``{document_id:
        project_id}`` — a project the caller's tools already checked to be the user's; ``None`` for one not known,
        looked up through the user's own documents (``NotFound`` otherwise). A document processed before identities
        were stored, or whose identity an older reading stored (``"read"`` below ``IDENTITY_READ``: without the
        period), gets one read from its first pages now, and kept; one not segmented yet has none (``{}``)."""

        async def one(document_id: str, project_id: str | None) -> tuple[str, dict[str, Any]]:
            if project_id is None:
                project_id = str((await self.document_info(user_id, document_id))["project_id"])
            identity, wid = await asyncio.to_thread(self.store.document_identity, project_id, document_id)
            if wid and _stale(identity):  # none, or an older reading
                identity = await asyncio.to_thread(self._backfill_identity, project_id, document_id, wid) or identity
            return document_id, {k: v for k, v in (identity or {}).items() if k != "read"}  # "read": storage's mark

        return dict(await asyncio.gather(*(one(d, p) for d, p in docs.items())))

    def _backfill_identity(self, project_id: str, document_id: str, workflow_id: str) -> dict[str, Any] | None:
        segments: list[dict[str, Any]] = []
        for page in range(1, COVER_PAGES + 1):
            try:
                segments.append(self._json(segment_key(workflow_id, page)))
            except NotFound:
                break
        if not segments:
            return None  # not segmented yet: its workflow stores the identity when it chunks (or deleted since)
        identity = with_listed_symbols(document_identity([page_text(seg) for seg in segments]),
                                       self._page_texts(workflow_id))
        self.store.backfill_document_identity(project_id, document_id, identity)
        return identity

    def _page_texts(self, workflow_id: str) -> Iterator[str]:
        """Every stored page's text, first to last, read one at a time (``with_listed_symbols`` reads them only
        while the cover has named no symbol)."""
        page = 1
        while True:
            try:
                yield page_text(self._json(segment_key(workflow_id, page)))
            except NotFound:
                return
            page += 1

    async def read_page(self, user_id: str, document_id: str, page: int) -> PageContent:
        """The page's text with its tables as Markdown (caption, header, rows) — ``ingest.page_text``."""
        info = await self.document_info(user_id, document_id)
        if not 1 <= page <= info["page_count"]:
            raise NotFound(f"page {page} does not exist (the document has {info['page_count']} pages)")
        try:
            seg = await asyncio.to_thread(self._json, segment_key(info["workflow_id"], page))
        except NotFound:
            raise NotFound(f"page {page} has not been processed yet (status: {info['status']})") from None
        return PageContent(document_id, str(info["file_name"]), page, page_text(seg), info["page_count"])

    # --- reprocess and delete -----------------------------------------------------------------------

    async def reprocess(self, user_id: str, workflow_id: str) -> dict[str, Any]:
        wf = await asyncio.to_thread(self.store.reset_for_reprocess, user_id, workflow_id)
        await asyncio.to_thread(self.blobs.delete_prefix, workflow_prefix(workflow_id))
        try:
            await asyncio.to_thread(enqueue, self.queue, self.settings, workflow_id=workflow_id,
                                    document_id=wf.document_id, project_id=wf.project_id, page_count=wf.page_count,
                                    store=self.store)
        except RetryableError as exc:  # it is in the outbox: the sweeper sends its job later
            log.warning("enqueue_deferred", workflow_id=workflow_id, error=exc.message)
        await asyncio.to_thread(self.audit.record, str(wf.project_id), actor=user_id, action="reprocess",
                                document_id=wf.document_id, extra={"workflow_id": workflow_id})
        return {"workflow_id": workflow_id, "document_id": wf.document_id, "status": "pending"}

    async def delete_document(self, user_id: str, project_id: str, document_id: str) -> None:
        """Forget a document: search first (no answer may cite it again), then its files, then its items.

        Refused (409) while it is being processed. Each part is idempotent, so a retry after a crash
        finishes the job; the items go last, so until then the document still lists and can be deleted.
        """
        wfs = await asyncio.to_thread(self.store.document_for_delete, user_id, project_id, document_id)
        await self.index.delete_document(project_id, document_id)
        for wf in wfs:
            await asyncio.to_thread(self.blobs.delete_prefix, workflow_prefix(wf.workflow_id))
            if wf.file_key:
                await asyncio.to_thread(self.blobs.delete, wf.file_key)
        await asyncio.to_thread(self.store.delete_document_items, project_id, document_id, wfs)
        # its review items go; the audit log stays (its own partition, TTL-retained), with this deletion in it
        await asyncio.to_thread(ReviewStore(self.store.items).delete_document, project_id, document_id)
        await asyncio.to_thread(self.audit.record, project_id, actor=user_id, action="delete", document_id=document_id,
                                extra={"workflows": [wf.workflow_id for wf in wfs]})
        log.info("document_deleted", project_id=project_id, document_id=document_id, workflows=len(wfs))

    async def delete_project(self, user_id: str, project_id: str) -> None:
        """Delete every document of the project (see ``delete_document``), then the project itself.

        Refused (409) before anything is removed while one of its documents is being processed."""
        await asyncio.to_thread(self.store.get_project, user_id, project_id)  # 404 unless the user's
        docs: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            page = await asyncio.to_thread(self.store.list_documents, project_id, limit=100, cursor=cursor)
            docs += page.items
            cursor = page.cursor
            if cursor is None:
                break
        if any(d.get("status") == "in_progress" for d in docs):
            raise Conflict("a document of this project is being processed; delete the project once it has finished")
        for doc in docs:
            await self.delete_document(user_id, project_id, str(doc["document_id"]))
        # the reviewers' index items go before the project's META (a retry still finds the list there)
        meta = await asyncio.to_thread(self.store.items.get, f"PROJ#{project_id}", "META")
        reviewers = [str(r) for r in ((meta or {}).get("data") or {}).get("reviewers") or []]
        await asyncio.to_thread(ReviewStore(self.store.items).delete_project, project_id, reviewers)
        await asyncio.to_thread(self.store.delete_project_items, user_id, project_id)
        log.info("project_deleted", project_id=project_id, documents=len(docs))


def _stale(identity: Any) -> bool:
    """No identity stored, or one an older reading wrote (``"read"`` below ``IDENTITY_READ``)."""
    return not isinstance(identity, Mapping) or identity.get("read", 1) < IDENTITY_READ
