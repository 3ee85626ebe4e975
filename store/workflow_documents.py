"""Documents — creating one (all its items in one transaction), listing, finding by content hash, and
deleting — the document half of ``WorkflowStore``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from store.errors import Conflict, NotFound, TransactionConflict
from store.items import (
    And,
    ConditionCheck,
    Delete,
    Equals,
    Exists,
    Item,
    ItemTable,
    KeyRange,
    NotExists,
    Page,
    Put,
    Update,
    WriteOp,
    query_all,
)
from store.workflow_outbox import outbox_entry
from store.workflow_types import Claim, Created, NewDocument, WorkflowRecord, key_id, new_id, now_iso, safe_id
from store.workflow_views import ANALYSIS_STATUS_PK, STEPS, Status, new_step


class DocumentsMixin:
    items: ItemTable
    clock: Callable[[], float]

    def find_by_hash(self, project_id: str, sha256: str) -> Created | None:
        item = self.items.get(f"PROJ#{project_id}", f"HASH#{sha256}")
        if item is None:
            return None
        wf = self.items.get(f"DOC#{item['document_id']}", f"WF#{item['workflow_id']}")
        status = str(wf.get("status", "pending")) if wf else "pending"
        return Created(str(item["document_id"]), str(item["workflow_id"]), created=False, status=status)

    def create_workflow(self, doc: NewDocument) -> Created:
        """All of a new document's items in ONE transaction; the same bytes again → the existing ids."""
        did = doc.document_id or new_id()
        wid = doc.workflow_id or new_id()
        now = now_iso(self.clock)
        pid = doc.project_id
        status: Status = "pending"
        wf_data = {
            "project_id": pid,
            "file_uri": doc.file_uri,
            "file_key": doc.file_key,
            "file_name": doc.file_name,
            "file_type": doc.file_type,
            "file_kind": doc.file_kind,
            "size": doc.size,
            "sha256": doc.sha256,
            "page_count": doc.page_count,
            "language": doc.language,
            "priority": doc.priority,
            "status": status,
            "total_segments": 0,
            "preprocess": {"ocr": "pending", "bda": "skipped", "transcribe": "skipped", "webcrawler": "skipped"},
            "error": None,
        }
        step_item: Item = {
            "PK": f"WF#{wid}",
            "SK": "STEP",
            "GSI1PK": ANALYSIS_STATUS_PK,
            "GSI1SK": status,
            "document_id": did,
            "project_id": pid,
            "owner": doc.owner,
            "status": status,
            "claim_id": "",
            "created_at": now,
            "updated_at": now,
            **{name: new_step(label) for name, label in STEPS},
        }
        ops: list[WriteOp] = [
            ConditionCheck(f"PROJ#{pid}", "META", Equals("owner", doc.owner)),
            Put({"PK": f"PROJ#{pid}", "SK": f"HASH#{doc.sha256}", "document_id": did, "workflow_id": wid,
                 "created_at": now}, NotExists()),
            Put({"PK": f"PROJ#{pid}", "SK": f"DOC#{did}", "status": status, "created_at": now,
                 "data": {"file_name": doc.file_name, "file_type": doc.file_type, "page_count": doc.page_count,
                          "size": doc.size, "workflow_id": wid, "status": status, "created_at": now}}, NotExists()),
            Put({"PK": f"PROJ#{pid}", "SK": f"WF#{wid}", "status": status, "created_at": now,
                 "data": {"file_name": doc.file_name, "status": status, "document_id": did}}, NotExists()),
            Put({"PK": f"DOC#{did}", "SK": f"WF#{wid}", "data": wf_data, "status": status, "owner": doc.owner,
                 "claim_id": "", "lease_until": 0, "retryable": False, "attempts": 0,
                 "created_at": now, "updated_at": now, **outbox_entry(now, wid)}, NotExists()),
            Put(step_item, NotExists()),
            Update(f"PROJ#{pid}", "STATS", add={"documents": 1, "pages": doc.page_count, status: 1}),
        ]
        try:
            self.items.transact_write(ops)
        except (TransactionConflict, Conflict):
            meta = self.items.get(f"PROJ#{pid}", "META")
            if meta is None or meta.get("owner") != doc.owner:
                raise NotFound("no such project") from None
            existing = self.find_by_hash(pid, doc.sha256)
            if existing is None:
                raise
            return existing
        return Created(did, wid, created=True, status=status)

    def list_documents(self, project_id: str, *, limit: int = 100, cursor: str | None = None) -> Page:
        page = self.items.query(f"PROJ#{project_id}", sk=KeyRange(begins_with="DOC#"), limit=limit, cursor=cursor)
        docs = []
        for it in page.items:
            data = it.get("data") or {}
            doc = {"document_id": key_id(it["SK"], "DOC#"), **data}
            if it.get("summary"):
                doc["summary"] = it["summary"]
            if it.get("identity"):
                doc["identity"] = it["identity"]
            docs.append(doc)
        return Page(docs, page.cursor)

    # --- the document summary (document_summarizer) ----------------------------------------------

    def put_document_summary(self, claim: Claim, summary: Mapping[str, Any]) -> None:
        """Store the summary on the document item (``PROJ#/DOC#``, top-level ``summary``: no transition rewrites
        it), conditional on the claim like every other write of a running workflow."""
        self._put_document_attribute(claim, "summary", summary)

    def put_document_identity(self, claim: Claim, identity: Mapping[str, Any]) -> None:
        """Store whose document it is (``ingest.steps.identity``: ``company``, ``tickers``, ``former_names``; an
        empty map when the cover names nobody) on the document item, top-level ``identity``, like the summary."""
        self._put_document_attribute(claim, "identity", identity)

    def backfill_document_identity(self, project_id: str, document_id: str, identity: Mapping[str, Any]) -> None:
        """Store an identity read for a document processed before identities were (no claim: it does not race a
        workflow's write, which would store the same map); nothing when the document item is gone."""
        try:
            self.items.update(f"PROJ#{project_id}", f"DOC#{document_id}", set={"identity": dict(identity)},
                              condition=Exists("PK"))
        except Conflict:
            pass

    def document_identity(self, project_id: str, document_id: str) -> tuple[dict[str, Any] | None, str | None]:
        """The stored identity (``{}``: the cover names nobody; None: none stored yet) and the document's workflow
        id (None: no such document in the project)."""
        item = self.items.get(f"PROJ#{project_id}", f"DOC#{document_id}", consistent=False)
        if item is None:
            return None, None
        identity = item.get("identity")
        wid = (item.get("data") or {}).get("workflow_id")
        return (dict(identity) if isinstance(identity, Mapping) else None), (str(wid) if wid else None)

    def _put_document_attribute(self, claim: Claim, name: str, value: Mapping[str, Any]) -> None:
        ops: list[WriteOp] = [
            ConditionCheck(f"DOC#{claim.document_id}", f"WF#{claim.workflow_id}", Equals("claim_id", claim.claim_id)),
            Update(f"PROJ#{claim.project_id}", f"DOC#{claim.document_id}", set={name: dict(value)},
                   condition=Exists("PK")),
        ]
        try:
            self.items.transact_write(ops)
        except (TransactionConflict, Conflict):
            raise Conflict(f"the workflow's claim was lost (or the document deleted) before its {name} was stored") \
                from None

    def document_summary(self, project_id: str, document_id: str) -> dict[str, Any] | None:
        item = self.items.get(f"PROJ#{project_id}", f"DOC#{document_id}")
        summary = (item or {}).get("summary")
        return dict(summary) if isinstance(summary, Mapping) else None

    def document_workflow(self, owner: str, document_id: str) -> WorkflowRecord:
        """The newest workflow of a document the owner may see."""
        if not safe_id(document_id):
            raise NotFound("no such document")
        page = self.items.query(f"DOC#{document_id}", sk=KeyRange(begins_with="WF#"), consistent=True)
        items = [it for it in page.items if it.get("owner") == owner]
        if not items:
            raise NotFound("no such document")
        return WorkflowRecord.of(max(items, key=lambda it: str(it.get("created_at", ""))))

    # --- deleting a document ----------------------------------------------------------------------

    def document_for_delete(self, owner: str, project_id: str, document_id: str) -> list[WorkflowRecord]:
        """The document's workflows, checked for deletion: 404 unless ``owner``'s, 409 while processing."""
        meta = self.items.get(f"PROJ#{project_id}", "META") if safe_id(project_id) else None
        if meta is None or meta.get("owner") != owner or not safe_id(document_id):
            raise NotFound("no such document")
        if self.items.get(f"PROJ#{project_id}", f"DOC#{document_id}", consistent=True) is None:
            raise NotFound("no such document")
        wfs = query_all(self.items, f"DOC#{document_id}", sk=KeyRange(begins_with="WF#"), consistent=True)
        if any(wf.get("status") == "in_progress" for wf in wfs):
            raise Conflict("the document is being processed; delete it once it has completed or failed")
        return [WorkflowRecord.of(wf) for wf in wfs]

    def delete_document_items(self, project_id: str, document_id: str, wfs: Sequence[WorkflowRecord]) -> None:
        """Remove the document from the table in one transaction (links, hash, workflow, steps, counters),
        each workflow only if it is still in the state it was checked in; then its ``SEG#`` pointers."""
        ops: list[WriteOp] = [Delete(f"PROJ#{project_id}", f"DOC#{document_id}")]
        pages = max((wf.page_count for wf in wfs), default=0)
        counters: dict[str, int | float] = {"documents": -1, "pages": -pages}
        for wf in wfs:
            wid = wf.workflow_id
            status = wf.status
            ops += [
                Delete(f"DOC#{document_id}", f"WF#{wid}",
                       And((Equals("status", status), Equals("claim_id", wf.item.get("claim_id") or "")))),
                Delete(f"WF#{wid}", "STEP"),
                Delete(f"PROJ#{project_id}", f"WF#{wid}"),
            ]
            if wf.data.get("sha256"):
                ops.append(Delete(f"PROJ#{project_id}", f"HASH#{wf.data['sha256']}"))
            counters[status] = counters.get(status, 0) - 1
        ops.append(Update(f"PROJ#{project_id}", "STATS", add=counters))
        try:
            self.items.transact_write(ops)
        except (TransactionConflict, Conflict):
            raise Conflict("the document changed while it was being deleted (processing started); try again") from None
        for wf in wfs:
            segs = query_all(self.items, f"WF#{wf.workflow_id}", sk=KeyRange(begins_with="SEG#"))
            self.items.batch_write(deletes=[(str(it["PK"]), str(it["SK"])) for it in segs])
