"""The ingest outbox (issue 13 item 4): a workflow whose job has not been sent yet, found by an index.

Writing a workflow and sending its queue message cannot be one transaction (two services), so the
workflow's ``DOC#/WF#`` item carries the outbox entry itself: ``GSI2PK=OUTBOX#INGEST``,
``GSI2SK={when}#{wid}``, written in the same transaction that creates (or resets) the workflow. Once the
message is sent the entry is removed (the index is sparse: only unsent workflows are in it). If the send
fails, or the process dies first, the entry stays and the sweeper finds it with one ``Query`` on GSI2
(entries older than a grace period, oldest first — no scan) and sends it again. A message sent twice is
harmless: the worker's claim makes a duplicate a no-op.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from store.errors import Conflict
from store.items import Equals, ItemTable, KeyRange
from store.workflow_types import RefPage, WorkflowRecord, WorkflowRef, key_id, now_iso

OUTBOX_PK = "OUTBOX#INGEST"
OUTBOX_INDEX = "GSI2"


def outbox_entry(when_iso: str, workflow_id: str) -> dict[str, Any]:
    """The attributes that put a ``DOC#/WF#`` item into the outbox (written with the workflow)."""
    return {"GSI2PK": OUTBOX_PK, "GSI2SK": f"{when_iso}#{workflow_id}"}


class OutboxMixin:
    items: ItemTable
    clock: Callable[[], float]

    def mark_enqueued(self, document_id: str, workflow_id: str) -> bool:
        """The job was sent: take the workflow out of the outbox. False if it was not (or no longer) there."""
        try:
            self.items.update(f"DOC#{document_id}", f"WF#{workflow_id}", remove=["GSI2PK", "GSI2SK"],
                              condition=Equals("GSI2PK", OUTBOX_PK))
        except Conflict:
            return False
        return True

    def unsent(self, *, older_than_s: float, limit: int = 100, cursor: str | None = None) -> RefPage:
        """Workflows whose job was not sent for ``older_than_s`` seconds, oldest first (a GSI2 query)."""
        cutoff = now_iso(lambda: self.clock() - older_than_s)
        page = self.items.query(OUTBOX_PK, sk=KeyRange(op="<", value=cutoff), index=OUTBOX_INDEX, limit=limit,
                                cursor=cursor)
        refs = [WorkflowRef(key_id(it["SK"], "WF#"), key_id(it["PK"], "DOC#")) for it in page.items]
        return RefPage(refs, page.cursor)

    def outbox_record(self, ref: WorkflowRef) -> WorkflowRecord | None:
        """The workflow of an outbox entry, read consistently (the index is eventually consistent)."""
        item = self.items.get(f"DOC#{ref.document_id}", f"WF#{ref.workflow_id}", consistent=True)
        return WorkflowRecord.of(item) if item is not None else None
