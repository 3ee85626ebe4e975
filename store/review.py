"""The human review queue (issue 15, seed 004): one ``REVIEW#`` item per doubtful field, in the workflow table.

=========================  =========================  =========================================================
PK                         SK                         what
=========================  =========================  =========================================================
``REVIEW#{pid}``           ``DOC#{did}#F#{field}``    ``status`` open|claimed|resolved, ``data`` {document_id,
                                                      workflow_id, field, value, normalized, confidence, page,
                                                      bbox, reasons, decision, corrected}; ``claimed_by``
                                                      ``GSI2PK=REVIEWQ#{pid}#{status}``,
                                                      ``GSI2SK={created}#{did}#{field}``
``REVIEWER#{user}``         ``PROJ#{pid}``             a project shared with ``user`` for review: ``data``
                                                      {project_id, owner, name} (what "Projects shared with me"
                                                      lists with one query; the project's META stays the truth)
=========================  =========================  =========================================================

The queue is read through the sparse GSI2 (``REVIEW_INDEX``) by project and status — never a scan: only review
items carry a ``REVIEWQ#`` key, and the key moves with the status. Claiming is a conditional write
(``status = open``), so two reviewers never hold the same item; resolving requires holding the claim.
Items are keyed by document and field, so re-running extraction refreshes an open item instead of adding one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from store.errors import Conflict, NotFound
from store.items import And, Equals, Item, ItemTable, KeyRange, NotExists, Or, Page, query_all
from store.schema import REVIEW_INDEX
from store.workflow_types import now_iso

Status = Literal["open", "claimed", "resolved"]
Decision = Literal["accept", "correct", "unreadable"]
DOCUMENT_FIELD = "_document"  # a review of the whole document (a required field is missing)


def queue_key(project_id: str, status: str) -> str:
    return f"REVIEWQ#{project_id}#{status}"


class ReviewStore:
    def __init__(self, items: ItemTable, *, clock: Callable[[], float] = time.time) -> None:
        self.items = items
        self.clock = clock

    @staticmethod
    def _sk(document_id: str, field: str) -> str:
        return f"DOC#{document_id}#F#{field}"

    def open_items(self, project_id: str, document_id: str, workflow_id: str,
                   flagged: Sequence[Mapping[str, Any]]) -> int:
        """Open (or refresh, while still open) one item per flagged field; returns how many were written.
        An item a reviewer holds or has resolved is left alone."""
        n = 0
        ts = now_iso(self.clock)
        for f in flagged:
            field = str(f.get("field") or DOCUMENT_FIELD)
            data = {"document_id": document_id, "workflow_id": workflow_id, "field": field,
                    **{k: f.get(k) for k in ("value", "normalized", "confidence", "page", "bbox", "reasons",
                                              "source", "currency")}}
            try:
                self.items.put(
                    {"PK": f"REVIEW#{project_id}", "SK": self._sk(document_id, field), "status": "open",
                     "created_at": ts, "data": data, REVIEW_INDEX.pk: queue_key(project_id, "open"),
                     REVIEW_INDEX.sk: f"{ts}#{document_id}#{field}"},
                    condition=Or((NotExists("PK"), Equals("status", "open"))),
                )
                n += 1
            except Conflict:
                continue
        return n

    def list(self, project_id: str, status: Status = "open", *, limit: int = 50, cursor: str | None = None) -> Page:
        page = self.items.query(queue_key(project_id, status), index=REVIEW_INDEX.name, limit=limit, cursor=cursor)
        return Page([self.view(it) for it in page.items], page.cursor)

    def get(self, project_id: str, item_id: str) -> Item:
        document_id, _, field = item_id.partition(":")
        item = self.items.get(f"REVIEW#{project_id}", self._sk(document_id, field)) if field else None
        if item is None:
            raise NotFound("no such review item")
        return item

    def claim(self, project_id: str, item_id: str, reviewer: str) -> Item:
        """``open`` → ``claimed`` by ``reviewer``; 409 when someone else got there first."""
        item = self.get(project_id, item_id)
        try:
            new = self.items.update(
                item["PK"], item["SK"],
                set={"status": "claimed", "claimed_by": reviewer, "claimed_at": now_iso(self.clock),
                     REVIEW_INDEX.pk: queue_key(project_id, "claimed")},
                condition=Or((Equals("status", "open"),
                              And((Equals("status", "claimed"), Equals("claimed_by", reviewer))))),
            )
        except Conflict:
            raise Conflict("the review item is already claimed or resolved") from None
        return self.view(new)

    def resolve(self, project_id: str, item_id: str, reviewer: str, decision: Decision,
                corrected: str | None = None) -> Item:
        """``claimed`` (by ``reviewer``) → ``resolved`` with the decision; 409 when not holding the claim."""
        item = self.get(project_id, item_id)
        data = dict(item.get("data") or {}, decision=decision, corrected=corrected)
        try:
            new = self.items.update(
                item["PK"], item["SK"],
                set={"status": "resolved", "resolved_by": reviewer, "resolved_at": now_iso(self.clock),
                     "data": data, REVIEW_INDEX.pk: queue_key(project_id, "resolved")},
                condition=And((Equals("status", "claimed"), Equals("claimed_by", reviewer))),
            )
        except Conflict:
            raise Conflict("claim the review item before deciding it") from None
        return self.view(new)

    def delete_document(self, project_id: str, document_id: str) -> None:
        """The document is gone: its review items go with it (the audit log keeps the history)."""
        page = self.items.query(f"REVIEW#{project_id}", sk=KeyRange(begins_with=f"DOC#{document_id}#F#"))
        self.items.batch_write(deletes=[(str(it["PK"]), str(it["SK"])) for it in page.items])

    # --- who reviews a project -----------------------------------------------------------------------

    def delete_project(self, project_id: str, reviewers: Sequence[str]) -> None:
        """The project is being deleted: its ``REVIEWER#`` index items (one per reviewer in the owner's list)
        and whatever review items are left in its queue go with it."""
        deletes = [(f"REVIEWER#{u}", f"PROJ#{project_id}") for u in sorted(set(reviewers))]
        deletes += [(str(it["PK"]), str(it["SK"])) for it in query_all(self.items, f"REVIEW#{project_id}")]
        if deletes:
            self.items.batch_write(deletes=deletes)

    def set_shares(self, project_id: str, *, owner: str, name: str, before: Sequence[str],
                   after: Sequence[str]) -> None:
        """One ``REVIEWER#`` item per reviewer the project is shared with (the owner's list in the project's META
        is written first; this index follows it, and a reader checks META, so a leftover item shows nothing)."""
        data = {"project_id": project_id, "owner": owner, "name": name}
        puts = [{"PK": f"REVIEWER#{u}", "SK": f"PROJ#{project_id}", "data": data} for u in sorted(set(after))]
        deletes = [(f"REVIEWER#{u}", f"PROJ#{project_id}") for u in sorted(set(before) - set(after))]
        if puts or deletes:
            self.items.batch_write(puts=puts, deletes=deletes)

    def shared_with(self, user: str, *, limit: int = 200) -> Sequence[Item]:
        """The projects shared with ``user`` as the ``REVIEWER#`` index has them (callers check each META)."""
        page = self.items.query(f"REVIEWER#{user}", sk=KeyRange(begins_with="PROJ#"), limit=limit)
        return [dict(it.get("data") or {}) for it in page.items]

    @staticmethod
    def view(item: Item) -> Item:
        data = item.get("data") or {}
        return {"item_id": f"{data.get('document_id')}:{data.get('field')}", "status": item.get("status"),
                "claimed_by": item.get("claimed_by"), "created_at": item.get("created_at"),
                "resolved_by": item.get("resolved_by"), **data}
