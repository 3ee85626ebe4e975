"""The job a workflow becomes on the queue: its message and its lane (small documents go first)."""

from __future__ import annotations

from ingest.queue import JobQueue, Priority
from store.config import Settings
from store.logging import get_logger
from store.workflows import WorkflowStore

log = get_logger(__name__)


def lane_for(settings: Settings, page_count: int) -> Priority:
    """``high`` for a document of at most ``small_document_pages`` pages, else ``low``."""
    return "high" if page_count <= settings.ingest.small_document_pages else "low"


def enqueue(queue: JobQueue, settings: Settings, *, workflow_id: str, document_id: str, project_id: str | None,
            page_count: int, store: WorkflowStore | None = None) -> Priority:
    """Send the workflow's job on its lane (blocking; call it off the event loop). Returns the lane.

    With ``store``, the workflow then leaves the outbox (``store/workflow_outbox.py``); if the send raises,
    it stays there and the sweeper sends it later (a message sent twice is a no-op for the worker).
    """
    priority = lane_for(settings, page_count)
    queue.send({"workflow_id": workflow_id, "document_id": document_id, "project_id": project_id},
               priority=priority)
    if store is not None:
        try:
            store.mark_enqueued(document_id, workflow_id)
        except Exception as exc:  # sent; the sweeper will send a harmless duplicate
            log.warning("outbox_mark_failed", workflow_id=workflow_id, error_type=type(exc).__name__)
    return priority
