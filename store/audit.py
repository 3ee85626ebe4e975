"""The audit log (issue 15): append-only ``AUDIT#`` items, one per change a person or the system made to a
document's content or status — upload, analysis, correction, review decision, reprocess, delete.

``PK=AUDIT#{pid}``, ``SK={iso time}#{event id}``: its own partition, so deleting a document (or the project's
``PROJ#`` items) never touches it; each item expires by TTL after ``audit_retention_days``. Written with
``attribute_not_exists`` (never overwritten) and never updated or deleted by the application. Content is
recorded as hashes (``before``/``after`` of text: ``sha256:…``), field values as values.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from store.items import ItemTable, NotExists, Page
from store.workflow_types import now_iso

ACTIONS = ("upload", "analysis", "correction", "review_decision", "reprocess", "delete", "share")


def content_hash(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    return "sha256:" + hashlib.sha256(data).hexdigest()


class AuditLog:
    def __init__(self, items: ItemTable, *, retention_days: int = 3650,
                 clock: Callable[[], float] = time.time) -> None:
        self.items = items
        self.retention_days = retention_days
        self.clock = clock

    def record(self, project_id: str, *, actor: str, action: str, document_id: str | None = None,
               what: str | None = None, before: Any = None, after: Any = None,
               extra: Mapping[str, Any] | None = None) -> str:
        """Append one event; returns its id. ``action`` is one of ``ACTIONS``."""
        if action not in ACTIONS:
            raise ValueError(action)
        now = self.clock()
        event_id = uuid.uuid4().hex[:16]
        ts = now_iso(lambda: now)
        item = {"PK": f"AUDIT#{project_id}", "SK": f"{ts}#{event_id}", "expire_at": int(now + self.retention_days
                                                                                        * 86400),
                "data": {"event_id": event_id, "at": ts, "actor": actor, "action": action,
                         "document_id": document_id, "what": what, "before": before, "after": after,
                         **(dict(extra) if extra else {})}}
        self.items.put(item, condition=NotExists("PK"))
        return event_id

    def list(self, project_id: str, *, limit: int = 100, cursor: str | None = None,
             newest_first: bool = True) -> Page:
        page = self.items.query(f"AUDIT#{project_id}", forward=not newest_first, limit=limit, cursor=cursor)
        return Page([dict(it.get("data") or {}) for it in page.items], page.cursor)
