"""Projects and uploads: create/list/read a user's projects; accept an uploaded file — validate it, store it,
create its workflow (one transaction, with its outbox entry) and enqueue it. Handlers and chat receive it
as ``uploads``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ingest.filetypes import EXTENSION, MIME, describe_unknown, sniff
from ingest.jobs import enqueue, lane_for
from ingest.keyword_first import KeywordFirst
from ingest.parse_pool import ParsePool, upload_limits
from ingest.queue import JobQueue
from ingest.results import blob_uri, original_key
from ingest.upload import ReceivedFile
from store.audit import AuditLog
from store.blobs import BlobStore
from store.config import Settings
from store.errors import RetryableError, UnsupportedMediaType
from store.logging import get_logger
from store.metrics import MetricsRecorder, record_safely
from store.usage_limits import UsageLimits
from store.workflows import NewDocument, WorkflowStore, new_id

log = get_logger(__name__)


@dataclass(frozen=True, slots=True)
class UploadResult:
    document_id: str
    workflow_id: str
    status: str
    created: bool
    page_count: int | None = None


def _inspect(path: Path, kind: str, settings: Settings) -> Any:
    from ingest.inspect import inspect_document

    return inspect_document(path, kind, settings, limits=upload_limits(settings))  # type: ignore[arg-type]


class Uploads:
    def __init__(self, settings: Settings, *, store: WorkflowStore, blobs: BlobStore, queue: JobQueue,
                 limits: UsageLimits | None = None,
                 inspector: Callable[[Path, str, Settings], Any] | None = None) -> None:
        self.settings = settings
        self.store = store
        self.blobs = blobs
        self.queue = queue
        self.metrics: MetricsRecorder | None = None  # read models (store/metrics.py); set by build_ingest
        #: the workers' text slots (``ingest.keyword_first``; set by build_ingest): an upload's check holds one, so
        #: the background work (vector fills, the model build) yields to it as to a text path (issue 18)
        self.keyword_first: KeywordFirst | None = None
        self.limits = limits  # per-user limits (projects, uploads, pages: store/usage_limits.py); None = unlimited
        #: opens an uploaded file (``inspect_document`` at upload limits); runs on ``parse_pool``, never on
        #: the request pool (see ``ingest.parse_pool``)
        self.inspector = inspector or _inspect
        self.parse_pool = ParsePool.from_settings(settings)
        self.audit = AuditLog(store.items, retention_days=settings.ingest.audit_retention_days, clock=store.clock)

    # --- projects -----------------------------------------------------------------------------------

    async def create_project(self, user_id: str, name: str, language: str = "en") -> dict[str, Any]:
        if self.limits is None:
            return await asyncio.to_thread(self.store.create_project, user_id, name, language)
        refund = await self.limits.admit_project(user_id, lambda: len(self.store.list_projects(user_id)))
        try:
            return await asyncio.to_thread(self.store.create_project, user_id, name, language)
        except BaseException:
            await refund()
            raise

    async def project_deleted(self, user_id: str) -> None:
        """Give a deleted project's place back (the projects limit)."""
        if self.limits is not None:
            await self.limits.project_deleted(user_id)

    async def set_pii_mode(self, user_id: str, project_id: str, mode: str | None) -> dict[str, Any]:
        """The project's own personal-data mode (``mask``/``off``; None: ``DOCCHAT_PII_MODE``)."""
        project = await asyncio.to_thread(self.store.set_project_pii_mode, user_id, project_id, mode)
        log.info("project_pii_mode", project_id=project_id, pii_mode=mode or "default")
        return project

    async def get_project(self, user_id: str, project_id: str) -> dict[str, Any]:
        return await asyncio.to_thread(self.store.get_project, user_id, project_id)

    async def list_projects(self, user_id: str) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.store.list_projects, user_id)

    # --- upload -------------------------------------------------------------------------------------

    async def admit_upload(self, user_id: str) -> None:
        """Count an upload against the user's daily limit (before its body is read); ``LimitExceeded`` if over."""
        if self.limits is not None:
            await self.limits.admit_upload(user_id)

    async def accept_upload(self, user_id: str, project_id: str, received: ReceivedFile) -> UploadResult:
        """Validate the received file, store it, create its workflow (one transaction) and enqueue it."""
        refund_pages: Callable[[], Awaitable[None]] | None = None
        accepted = False
        try:
            project = await self.get_project(user_id, project_id)
            kind = sniff(received.head)
            if kind is None:
                raise UnsupportedMediaType(describe_unknown(received.head))
            existing = await asyncio.to_thread(self.store.find_by_hash, project_id, received.sha256)
            if existing is not None:
                return UploadResult(existing.document_id, existing.workflow_id, existing.status, created=False)
            slot = self.keyword_first
            if slot is not None:
                slot.take()
            try:
                info = await self.parse_pool.run(self.inspector, received.path, kind, self.settings)
            finally:
                if slot is not None:
                    slot.give()
            if self.limits is not None:  # pages per day, before anything is stored or queued
                refund_pages = await self.limits.admit_pages(user_id, int(info.page_count or 0))
            did, wid = new_id(), new_id()
            key = original_key(project_id, did, EXTENSION[kind])
            await asyncio.to_thread(self._put_file, key, received.path, MIME[kind])
            doc = NewDocument(
                owner=user_id, project_id=project_id, file_name=received.file_name, file_type=MIME[kind],
                file_kind=kind, file_key=key, file_uri=blob_uri(self.settings, key), size=received.size,
                sha256=received.sha256, page_count=info.page_count, language=str(project.get("language") or "en"),
                priority=lane_for(self.settings, info.page_count), document_id=did, workflow_id=wid,
            )
            try:
                created = await asyncio.to_thread(self.store.create_workflow, doc)
            except BaseException:
                await asyncio.to_thread(self.blobs.delete, key)  # nothing refers to it
                raise
            if not created.created:  # lost a race with the same bytes: keep the first
                await asyncio.to_thread(self.blobs.delete, key)
                return UploadResult(created.document_id, created.workflow_id, created.status, created=False)
            priority = lane_for(self.settings, info.page_count)
            try:
                await asyncio.to_thread(enqueue, self.queue, self.settings, workflow_id=wid, document_id=did,
                                        project_id=project_id, page_count=info.page_count, store=self.store)
            except RetryableError as exc:  # the workflow is in the outbox: the sweeper sends its job later
                log.warning("enqueue_deferred", workflow_id=wid, error=exc.message)
            log.info("document_accepted", project_id=project_id, document_id=did, workflow_id=wid,
                     pages=info.page_count, kind=kind, priority=priority)
            record_safely(self.metrics, counts={"uploads": 1}, user=user_id, project=project_id,
                          usage={"uploads": 1, "pages": int(info.page_count or 0)},
                          latest_add={"docs.pending": 1})
            accepted = True
            await asyncio.to_thread(self.audit.record, project_id, actor=user_id, action="upload", document_id=did,
                                    after=f"sha256:{received.sha256}", extra={"workflow_id": wid,
                                                                              "pages": info.page_count})
            return UploadResult(did, wid, "pending", created=True, page_count=info.page_count)
        finally:
            if refund_pages is not None and not accepted:  # a failed or duplicate upload costs no pages
                await refund_pages()
            received.cleanup()

    def _put_file(self, key: str, path: Path, content_type: str) -> None:
        with path.open("rb") as fh:
            self.blobs.put(key, fh, content_type)
