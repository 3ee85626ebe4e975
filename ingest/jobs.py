"""The job a workflow becomes on the queue: its message and its lane (small documents go first)."""

from __future__ import annotations

from ingest.queue import JobQueue, Priority
from store.config import Settings


def lane_for(settings: Settings, page_count: int) -> Priority:
    """``high`` for a document of at most ``small_document_pages`` pages, else ``low``."""
    return "high" if page_count <= settings.ingest.small_document_pages else "low"


def enqueue(queue: JobQueue, settings: Settings, *, workflow_id: str, document_id: str, project_id: str | None,
            page_count: int) -> Priority:
    """Send the workflow's job on its lane (blocking; call it off the event loop). Returns the lane."""
    priority = lane_for(settings, page_count)
    queue.send({"workflow_id": workflow_id, "document_id": document_id, "project_id": project_id},
               priority=priority)
    return priority
