"""The ``ingest`` component: upload → workflow → queue, status reads, and in-process workers in local mode.

``build_ingest_service(settings, items=…, blobs=…, retriever=…)`` wires it; ``chat/app/wiring.py`` registers
it under the name ``"ingest"``. The chat side uses ``get_project``, ``list_projects``, ``read_page`` and
``document_info``; the HTTP API (``ingest/api.py``) uses the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ingest.filetypes import EXTENSION, MIME, describe_unknown, sniff
from ingest.pipeline import ChunkIndexer, Pipeline
from ingest.queue import JobQueue, Priority, SqliteJobQueue, SqsJobQueue
from ingest.results import meta_key, original_key, page_png_key, segment_key
from ingest.upload import ReceivedFile
from ingest.worker import Worker, sweep
from store.blobs import BlobStore
from store.config import Settings
from store.errors import Conflict, NotFound, UnsupportedMediaType
from store.items import ItemTable
from store.logging import get_logger
from store.workflow_views import TERMINAL
from store.workflows import NewDocument, WorkflowStore

log = get_logger(__name__)


@dataclass(frozen=True, slots=True)
class PageContent:
    """One page's text for the chat's ``read_page`` tool."""

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


@dataclass(frozen=True, slots=True)
class UploadResult:
    document_id: str
    workflow_id: str
    status: str
    created: bool
    page_count: int | None = None


class IngestService:
    name = "ingest"

    def __init__(
        self,
        settings: Settings,
        *,
        store: WorkflowStore,
        blobs: BlobStore,
        retriever: Any,
        queue: JobQueue,
        run_workers: bool,
    ) -> None:
        self.settings = settings
        self.store = store
        self.blobs = blobs
        self.retriever = retriever
        self.queue = queue
        self.run_workers = run_workers
        self.pipeline = Pipeline(settings, store, blobs, retriever, uri_for=self.blob_uri)
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    # --- component ----------------------------------------------------------------------------------

    def route_handlers(self) -> list[Any]:
        from ingest.api import IngestController

        return [IngestController]

    async def start(self) -> None:
        start = getattr(self.retriever, "start", None)
        if start is not None:
            await start()
        if not self.run_workers:
            return
        self._stop = asyncio.Event()
        for worker in self.workers():
            self._tasks.append(asyncio.create_task(worker.run(self._stop, wait_seconds=2.0), name=worker.name))
        self._tasks.append(asyncio.create_task(self._sweeper(), name="ingest-sweeper"))

    async def stop(self) -> None:
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        await asyncio.to_thread(self.queue.close)

    def workers(self) -> list[Worker]:
        """``worker_concurrency`` workers on both lanes (70/30) plus one reserved for small documents,
        so a 500-page PDF never holds up a 1-page upload."""
        out = [Worker(store=self.store, queue=self.queue, pipeline=self.pipeline, settings=self.settings,
                      name=f"worker-{i}") for i in range(max(1, self.settings.worker_concurrency))]
        out.append(Worker(store=self.store, queue=self.queue, pipeline=self.pipeline, settings=self.settings,
                          lanes=("high",), name="worker-high"))
        return out

    async def _sweeper(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stop.wait(), timeout=60.0)
            if self._stop.is_set():
                return
            try:
                await asyncio.to_thread(sweep, self.store, self.queue, self.settings)
            except Exception as exc:
                log.warning("sweep_failed", error=str(exc))

    def blob_uri(self, key: str) -> str:
        if self.settings.backend == "aws":
            return f"s3://{self.settings.documents_bucket}/{key}"
        return f"blob://documents/{key}"

    # --- projects -----------------------------------------------------------------------------------

    async def create_project(self, user_id: str, name: str, language: str = "en") -> dict[str, Any]:
        return await asyncio.to_thread(self.store.create_project, user_id, name, language)

    async def get_project(self, user_id: str, project_id: str) -> dict[str, Any]:
        return await asyncio.to_thread(self.store.get_project, user_id, project_id)

    async def list_projects(self, user_id: str) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.store.list_projects, user_id)

    # --- upload -------------------------------------------------------------------------------------

    async def accept_upload(self, user_id: str, project_id: str, received: ReceivedFile) -> UploadResult:
        """Validate the received file, store it, create its workflow (one transaction) and enqueue it."""
        from ingest.inspect import inspect_document

        try:
            project = await self.get_project(user_id, project_id)
            kind = sniff(received.head)
            if kind is None:
                raise UnsupportedMediaType(describe_unknown(received.head))
            existing = await asyncio.to_thread(self.store.find_by_hash, project_id, received.sha256)
            if existing is not None:
                return UploadResult(existing.document_id, existing.workflow_id, existing.status, created=False)
            info = await asyncio.to_thread(inspect_document, received.path, kind, self.settings)
            from store.workflows import new_id

            did, wid = new_id(), new_id()
            key = original_key(project_id, did, EXTENSION[kind])
            await asyncio.to_thread(self._put_file, key, received.path, MIME[kind])
            priority: Priority = "high" if info.page_count <= self.settings.small_document_pages else "low"
            doc = NewDocument(
                owner=user_id, project_id=project_id, file_name=received.file_name, file_type=MIME[kind],
                file_kind=kind, file_key=key, file_uri=self.blob_uri(key), size=received.size,
                sha256=received.sha256, page_count=info.page_count, language=str(project.get("language") or "en"),
                priority=priority, document_id=did, workflow_id=wid,
            )
            try:
                created = await asyncio.to_thread(self.store.create_workflow, doc)
            except BaseException:
                await asyncio.to_thread(self.blobs.delete, key)  # nothing refers to it
                raise
            if not created.created:  # lost a race with the same bytes: keep the first
                await asyncio.to_thread(self.blobs.delete, key)
                return UploadResult(created.document_id, created.workflow_id, created.status, created=False)
            await asyncio.to_thread(self.queue.send, {"workflow_id": wid, "document_id": did,
                                                      "project_id": project_id}, priority=priority)
            log.info("document_accepted", project_id=project_id, document_id=did, workflow_id=wid,
                     pages=info.page_count, kind=kind, priority=priority)
            return UploadResult(did, wid, "pending", created=True, page_count=info.page_count)
        finally:
            received.cleanup()

    def _put_file(self, key: str, path: Path, content_type: str) -> None:
        with path.open("rb") as fh:
            self.blobs.put(key, fh, content_type)

    # --- reads --------------------------------------------------------------------------------------

    async def list_documents(self, user_id: str, project_id: str, *, cursor: str | None = None,
                             limit: int = 100) -> dict[str, Any]:
        await self.get_project(user_id, project_id)
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
            out.append({
                "segment_index": idx,
                "page": seg.get("page", idx),
                "source": seg.get("source"),
                "text": seg.get("text", ""),
                "lines": seg.get("lines", []),
                "tables": seg.get("tables", []),
                "width": seg.get("width"),
                "height": seg.get("height"),
                "image_url": f"/v1/documents/{view['document_id']}/pages/{idx}.png",
            })
        return {"workflow_id": workflow_id, "items": out, "next_cursor": page.cursor}

    def _json(self, key: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.blobs.get(key))
        return data

    async def page_png(self, user_id: str, document_id: str, page: int) -> bytes:
        return (await self.page_image(user_id, document_id, page)).png

    async def page_image(self, user_id: str, document_id: str, page: int) -> PageImage:
        """The rendered page and its size in PDF points (the unit of segment and citation boxes)."""
        wf = await asyncio.to_thread(self.store.document_workflow, user_id, document_id)
        count = int((wf.get("data") or {}).get("page_count") or 0)
        if not 1 <= page <= count:
            raise NotFound(f"page {page} does not exist (the document has {count} pages)")
        wid = str(wf["SK"]).removeprefix("WF#")
        try:
            png = await asyncio.to_thread(self.blobs.get, page_png_key(wid, page))
        except NotFound:
            raise NotFound(f"page {page} has not been rendered yet") from None
        return await asyncio.to_thread(self._page_size, wid, page, png)

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

    async def reprocess(self, user_id: str, workflow_id: str) -> dict[str, Any]:
        wf = await asyncio.to_thread(self.store.reset_for_reprocess, user_id, workflow_id)
        data = wf.get("data") or {}
        did = str(wf["PK"]).removeprefix("DOC#")
        await asyncio.to_thread(self.blobs.delete_prefix, f"workflows/{workflow_id}/")
        pages = int(data.get("page_count") or 0)
        priority: Priority = "high" if pages <= self.settings.small_document_pages else "low"
        await asyncio.to_thread(self.queue.send, {"workflow_id": workflow_id, "document_id": did,
                                                  "project_id": data.get("project_id")}, priority=priority)
        return {"workflow_id": workflow_id, "document_id": did, "status": "pending"}

    async def delete_document(self, user_id: str, project_id: str, document_id: str) -> None:
        """Forget a document: search first (no answer may cite it again), then its files, then its items.

        Refused (409) while it is being processed. Each part is idempotent, so a retry after a crash
        finishes the job; the items go last, so until then the document still lists and can be deleted.
        """
        wfs = await asyncio.to_thread(self.store.document_for_delete, user_id, project_id, document_id)
        await self.retriever.delete_document(project_id, document_id)
        for wf in wfs:
            wid = str(wf["SK"]).removeprefix("WF#")
            await asyncio.to_thread(self.blobs.delete_prefix, f"workflows/{wid}/")
            file_key = (wf.get("data") or {}).get("file_key")
            if file_key:
                await asyncio.to_thread(self.blobs.delete, str(file_key))
        await asyncio.to_thread(self.store.delete_document_items, project_id, document_id, wfs)
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
        await asyncio.to_thread(self.store.delete_project_items, user_id, project_id)
        log.info("project_deleted", project_id=project_id, documents=len(docs))

    # --- for chat -----------------------------------------------------------------------------------

    async def document_info(self, user_id: str, document_id: str) -> dict[str, Any]:
        wf = await asyncio.to_thread(self.store.document_workflow, user_id, document_id)
        data = wf.get("data") or {}
        return {
            "document_id": document_id,
            "workflow_id": str(wf["SK"]).removeprefix("WF#"),
            "project_id": data.get("project_id"),
            "file_name": data.get("file_name"),
            "file_type": data.get("file_type"),
            "page_count": int(data.get("page_count") or 0),
            "status": wf.get("status"),
            "total_segments": int(data.get("total_segments") or 0),
        }

    async def read_page(self, user_id: str, document_id: str, page: int) -> PageContent:
        info = await self.document_info(user_id, document_id)
        if not 1 <= page <= info["page_count"]:
            raise NotFound(f"page {page} does not exist (the document has {info['page_count']} pages)")
        try:
            seg = await asyncio.to_thread(self._json, segment_key(info["workflow_id"], page))
        except NotFound:
            raise NotFound(f"page {page} has not been processed yet (status: {info['status']})") from None
        return PageContent(document_id, str(info["file_name"]), page, str(seg.get("text") or ""),
                           info["page_count"])


def build_queue(settings: Settings) -> JobQueue:
    if settings.backend == "aws":
        from store import aws_client

        return SqsJobQueue(aws_client(settings, "sqs"), settings.queue_high_url or "", settings.queue_low_url or "",
                           high_share=settings.high_priority_share)
    return SqliteJobQueue(settings.data_dir / "queue.db", max_receives=settings.queue_max_receives,
                          high_share=settings.high_priority_share)


def build_ingest_service(
    settings: Settings,
    *,
    items: ItemTable,
    blobs: BlobStore,
    retriever: ChunkIndexer | Any,
    queue: JobQueue | None = None,
    run_workers: bool | None = None,
) -> IngestService:
    """Wire the component. Local mode runs workers in-process; aws mode leaves that to ``docchat worker``."""
    return IngestService(
        settings,
        store=WorkflowStore(items),
        blobs=blobs,
        retriever=retriever,
        queue=queue if queue is not None else build_queue(settings),
        run_workers=(settings.backend == "local") if run_workers is None else run_workers,
    )
