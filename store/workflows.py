"""Seed 000: projects, documents, workflows, steps and segments in one table.

Layout (``data`` holds the seed's fields; a few control attributes live at the top level because
conditions and atomic counters address top-level attributes only):

=========================  ===================  ==============================================================
PK                         SK                   what
=========================  ===================  ==============================================================
``PROJ#{pid}``             ``META``             ``data`` {name, language, owner, document_prompt, ocr_model};
                                                ``GSI2PK=USER#{owner}``, ``GSI2SK=PROJ#{created_at}#{pid}``
``PROJ#{pid}``             ``STATS``            read model (seed 003): ``documents``, ``pages`` and one counter
                                                per status, updated in the same transaction as every transition
``PROJ#{pid}``             ``DOC#{did}``        ``data`` {file_name, file_type, page_count, size, workflow_id, status,
                                                error (the failure reason, None otherwise)}
``PROJ#{pid}``             ``WF#{wid}``         ``data`` {file_name, status, document_id, error}
``PROJ#{pid}``             ``HASH#{sha256}``    content-hash claim: the same bytes in a project → the same ids
``DOC#{did}``              ``WF#{wid}``         ``data`` {project_id, file_uri, file_name, file_type, status,
                                                total_segments, preprocess, …}; ``status``, ``claim_id``,
                                                ``lease_until``, ``retryable``, ``attempts`` (the claim)
``WF#{wid}``               ``STEP``             ``GSI1PK=STEP#ANALYSIS_STATUS``, ``GSI1SK=<status>``; one top-level
                                                attribute per step {status, label, started_at, ended_at, error,
                                                done, total}
``WF#{wid}``               ``SEG#{index:04d}``  ``data`` {segment_index, s3_key, image_uri, image_analysis, …}
=========================  ===================  ==============================================================

A workflow's status is read from two items (``WF#/STEP`` and ``DOC#/WF#``) whatever the document's size.
Only the holder of the current claim (``claim_id``) writes a workflow's steps, segments and status; every
such write is conditional on it, so a worker that lost its lease cannot overwrite its successor.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from store.errors import Conflict, NotFound, TransactionConflict
from store.items import (
    And,
    ConditionCheck,
    Delete,
    Equals,
    In,
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
from store.workflow_projects import ProjectsMixin, safe_id
from store.workflow_views import (
    ANALYSIS_STATUS_PK,
    STEP_NAMES,
    STEPS,
    TERMINAL,
    Status,
    StepStatus,
    new_step,
    workflow_view,
)


def _now_iso(clock: Callable[[], float]) -> str:
    return datetime.fromtimestamp(clock(), UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_id() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True, slots=True)
class NewDocument:
    """Everything the upload path knows about a validated file."""

    owner: str
    project_id: str
    file_name: str
    file_type: str  # MIME type
    file_kind: str  # sniffed kind (pdf, png, …)
    file_key: str  # blob key of the original
    file_uri: str  # s3://… or file://… (display)
    size: int
    sha256: str
    page_count: int
    language: str
    priority: Literal["high", "low"]
    document_id: str = ""
    workflow_id: str = ""


@dataclass(frozen=True, slots=True)
class Created:
    document_id: str
    workflow_id: str
    created: bool  # False: the same bytes were already in the project
    status: str


@dataclass(frozen=True, slots=True)
class Claim:
    workflow_id: str
    document_id: str
    project_id: str
    claim_id: str
    attempts: int
    item: Item  # the DOC#/WF# item as claimed


ClaimOutcome = Literal["claimed", "completed", "busy", "failed", "missing"]


class WorkflowStore(ProjectsMixin):
    """Seed-000 state over any ``ItemTable`` (SQLite or DynamoDB)."""

    def __init__(self, items: ItemTable, *, clock: Callable[[], float] = time.time) -> None:
        self.items = items
        self.clock = clock

    # --- documents and workflows ------------------------------------------------------------------

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
        now = _now_iso(self.clock)
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
                 "created_at": now, "updated_at": now}, NotExists()),
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
            docs.append({"document_id": str(it["SK"]).removeprefix("DOC#"), **data})
        return Page(docs, page.cursor)

    def step_item(self, workflow_id: str) -> Item | None:
        return self.items.get(f"WF#{workflow_id}", "STEP") if safe_id(workflow_id) else None

    def workflow_item(self, document_id: str, workflow_id: str) -> Item | None:
        return self.items.get(f"DOC#{document_id}", f"WF#{workflow_id}")

    def get_workflow(self, owner: str, workflow_id: str) -> Item:
        """The status view — two item reads whatever the document's size (seed 003)."""
        step = self.step_item(workflow_id)
        if step is None or step.get("owner") != owner:
            raise NotFound("no such workflow")
        wf = self.workflow_item(str(step["document_id"]), workflow_id) or {}
        return workflow_view(step, wf)

    def document_workflow(self, owner: str, document_id: str) -> Item:
        """The newest ``DOC#/WF#`` item of a document the owner may see."""
        if not safe_id(document_id):
            raise NotFound("no such document")
        page = self.items.query(f"DOC#{document_id}", sk=KeyRange(begins_with="WF#"), consistent=True)
        items = [it for it in page.items if it.get("owner") == owner]
        if not items:
            raise NotFound("no such document")
        return max(items, key=lambda it: str(it.get("created_at", "")))

    def list_by_status(self, status: Status, *, limit: int = 100, cursor: str | None = None) -> Page:
        """Workflows in ``status`` via GSI1 (``STEP#ANALYSIS_STATUS``) — e.g. the sweeper's in-progress scan."""
        return self.items.query(
            ANALYSIS_STATUS_PK, sk=KeyRange(begins_with=status), index="GSI1", limit=limit, cursor=cursor
        )

    # --- the claim (seed 004) ---------------------------------------------------------------------

    def claim(self, document_id: str, workflow_id: str, *, lease_s: float) -> tuple[ClaimOutcome, Claim | None]:
        """Take the workflow: ``pending``, ``failed`` and retryable, or ``in_progress`` with an expired lease.

        A conditional write decides, so of two workers only one gets ``claimed``; everything else is
        a no-op outcome (``completed``, ``busy``, ``failed`` for a permanent failure, ``missing``).
        """
        wf = self.workflow_item(document_id, workflow_id)
        if wf is None:
            return "missing", None
        status = str(wf.get("status"))
        now = self.clock()
        if status == "completed":
            return "completed", None
        if status == "failed" and not wf.get("retryable"):
            return "failed", None
        if status == "in_progress" and float(wf.get("lease_until") or 0) > now:
            return "busy", None
        claim_id = new_id()
        cond = And((Equals("status", status), Equals("claim_id", wf.get("claim_id") or "")))
        attempts = int(wf.get("attempts", 0)) + 1
        extra_wf: dict[str, Any] = {"claim_id": claim_id, "lease_until": now + lease_s, "attempts": attempts}
        try:
            self._transition(wf, status, "in_progress", cond=cond, wf_set=extra_wf, step_set={"claim_id": claim_id},
                             data_set={"error": None})
        except (TransactionConflict, Conflict):
            return "busy", None
        data = dict(wf.get("data") or {})
        data.update(status="in_progress", error=None)
        item = {**wf, **extra_wf, "status": "in_progress", "data": data}
        return "claimed", Claim(workflow_id, document_id, str(data.get("project_id")), claim_id,
                                attempts, item)

    def heartbeat(self, claim: Claim, *, lease_s: float) -> bool:
        """Extend the lease; False when the claim was lost (another worker took over)."""
        try:
            self.items.update(f"DOC#{claim.document_id}", f"WF#{claim.workflow_id}",
                              set={"lease_until": self.clock() + lease_s},
                              condition=And((Equals("claim_id", claim.claim_id), Equals("status", "in_progress"))))
        except Conflict:
            return False
        return True

    def record_step(
        self,
        claim: Claim,
        name: str,
        status: StepStatus,
        *,
        error: str | None = None,
        done: int | None = None,
        total: int | None = None,
        reason: str | None = None,
    ) -> Item:
        """Write one step's state on ``WF#/STEP`` (conditional on the claim)."""
        if name not in STEP_NAMES:
            raise ValueError(name)
        step = self.items.get(f"WF#{claim.workflow_id}", "STEP") or {}
        cur = dict(step.get(name) or new_step(dict(STEPS)[name]))
        now = _now_iso(self.clock)
        if status == "in_progress" and cur.get("status") != "in_progress":
            cur["started_at"] = now
            cur["ended_at"] = None
        if status in ("completed", "failed", "skipped"):
            cur.setdefault("started_at", now)
            cur["started_at"] = cur["started_at"] or now
            cur["ended_at"] = now
        cur["status"] = status
        cur["error"] = error
        if reason is not None:
            cur["reason"] = reason
        if done is not None:
            cur["done"] = done
        if total is not None:
            cur["total"] = total
        self.items.update(f"WF#{claim.workflow_id}", "STEP", set={name: cur, "updated_at": now},
                          condition=Equals("claim_id", claim.claim_id))
        return cur

    def step_progress(self, claim: Claim, name: str, done: int, total: int) -> None:
        """Cheap progress write (a read-modify-write of one step attribute)."""
        self.record_step(claim, name, "in_progress", done=done, total=total)

    def update_preprocess(self, claim: Claim, key: str, value: str) -> None:
        wf = self.workflow_item(claim.document_id, claim.workflow_id) or {}
        data = dict(wf.get("data") or {})
        pre = dict(data.get("preprocess") or {})
        pre[key] = value
        data["preprocess"] = pre
        self.items.update(f"DOC#{claim.document_id}", f"WF#{claim.workflow_id}", set={"data": data},
                          condition=Equals("claim_id", claim.claim_id))

    def put_segment(self, claim: Claim, index: int, *, s3_key: str, image_uri: str, meta: Mapping[str, Any]) -> None:
        """``WF#/SEG#{index:04d}`` — a fixed key, so a redelivery overwrites rather than duplicates."""
        data = {"segment_index": index, "s3_key": s3_key, "image_uri": image_uri, "image_analysis": [], **meta}
        self.items.put({"PK": f"WF#{claim.workflow_id}", "SK": f"SEG#{index:04d}", "data": data})

    def list_segments(self, workflow_id: str, *, limit: int = 20, cursor: str | None = None) -> Page:
        page = self.items.query(f"WF#{workflow_id}", sk=KeyRange(begins_with="SEG#"), limit=limit, cursor=cursor)
        return Page([dict(it.get("data") or {}) for it in page.items], page.cursor)

    def get_segment(self, workflow_id: str, index: int) -> Item | None:
        it = self.items.get(f"WF#{workflow_id}", f"SEG#{index:04d}")
        return dict(it.get("data") or {}) if it else None

    def complete(self, claim: Claim, *, total_segments: int) -> bool:
        """``in_progress`` → ``completed`` exactly once (conditional on the claim). False if the claim was lost."""
        wf = self.workflow_item(claim.document_id, claim.workflow_id)
        if wf is None or wf.get("claim_id") != claim.claim_id or wf.get("status") != "in_progress":
            return False
        cond = And((Equals("status", "in_progress"), Equals("claim_id", claim.claim_id)))
        try:
            self._transition(wf, "in_progress", "completed", cond=cond, wf_set={"lease_until": 0},
                             data_set={"total_segments": total_segments, "error": None})
        except (TransactionConflict, Conflict):
            return False
        return True

    def fail(self, claim: Claim, *, error: str, retryable: bool) -> bool:
        wf = self.workflow_item(claim.document_id, claim.workflow_id)
        if wf is None or wf.get("claim_id") != claim.claim_id or wf.get("status") != "in_progress":
            return False
        cond = And((Equals("status", "in_progress"), Equals("claim_id", claim.claim_id)))
        try:
            self._transition(wf, "in_progress", "failed", cond=cond,
                             wf_set={"lease_until": 0, "retryable": retryable},
                             data_set={"error": error[:2000]}, step_set={"error": error[:2000]})
        except (TransactionConflict, Conflict):
            return False
        return True

    def reset_for_reprocess(self, owner: str, workflow_id: str) -> Item:
        """``completed``/``failed`` → ``pending`` with fresh steps (the worker re-runs every step)."""
        step = self.step_item(workflow_id)
        if step is None or step.get("owner") != owner:
            raise NotFound("no such workflow")
        wf = self.workflow_item(str(step["document_id"]), workflow_id)
        if wf is None:
            raise NotFound("no such workflow")
        status = str(wf.get("status"))
        if status not in TERMINAL:
            raise Conflict("the workflow is still running; reprocess it once it has completed or failed")
        cond = And((Equals("status", status), Equals("claim_id", wf.get("claim_id") or "")))
        fresh = {name: new_step(label) for name, label in STEPS}
        self._transition(wf, status, "pending", cond=cond,
                         wf_set={"claim_id": "", "lease_until": 0, "retryable": False, "attempts": 0},
                         data_set={"error": None, "total_segments": 0},
                         step_set={"claim_id": "", "error": None, **fresh})
        return wf

    # --- deleting a document ----------------------------------------------------------------------

    def document_for_delete(self, owner: str, project_id: str, document_id: str) -> list[Item]:
        """The document's ``DOC#/WF#`` items, checked for deletion: 404 unless ``owner``'s, 409 while processing."""
        meta = self.items.get(f"PROJ#{project_id}", "META") if safe_id(project_id) else None
        if meta is None or meta.get("owner") != owner or not safe_id(document_id):
            raise NotFound("no such document")
        if self.items.get(f"PROJ#{project_id}", f"DOC#{document_id}", consistent=True) is None:
            raise NotFound("no such document")
        wfs = query_all(self.items, f"DOC#{document_id}", sk=KeyRange(begins_with="WF#"), consistent=True)
        if any(wf.get("status") == "in_progress" for wf in wfs):
            raise Conflict("the document is being processed; delete it once it has completed or failed")
        return wfs

    def delete_document_items(self, project_id: str, document_id: str, wfs: list[Item]) -> None:
        """Remove the document from the table in one transaction (links, hash, workflow, steps, counters),
        each workflow only if it is still in the state it was checked in; then its ``SEG#`` pointers."""
        ops: list[WriteOp] = [Delete(f"PROJ#{project_id}", f"DOC#{document_id}")]
        pages = max((int((wf.get("data") or {}).get("page_count") or 0) for wf in wfs), default=0)
        counters: dict[str, int | float] = {"documents": -1, "pages": -pages}
        for wf in wfs:
            wid = str(wf["SK"]).removeprefix("WF#")
            wf_data = wf.get("data") or {}
            status = str(wf.get("status"))
            ops += [
                Delete(f"DOC#{document_id}", f"WF#{wid}",
                       And((Equals("status", status), Equals("claim_id", wf.get("claim_id") or "")))),
                Delete(f"WF#{wid}", "STEP"),
                Delete(f"PROJ#{project_id}", f"WF#{wid}"),
            ]
            if wf_data.get("sha256"):
                ops.append(Delete(f"PROJ#{project_id}", f"HASH#{wf_data['sha256']}"))
            counters[status] = counters.get(status, 0) - 1
        ops.append(Update(f"PROJ#{project_id}", "STATS", add=counters))
        try:
            self.items.transact_write(ops)
        except (TransactionConflict, Conflict):
            raise Conflict("the document changed while it was being deleted (processing started); try again") from None
        for wf in wfs:
            wid = str(wf["SK"]).removeprefix("WF#")
            segs = query_all(self.items, f"WF#{wid}", sk=KeyRange(begins_with="SEG#"))
            self.items.batch_write(deletes=[(str(it["PK"]), str(it["SK"])) for it in segs])

    # --- internals ------------------------------------------------------------------------------

    def _transition(
        self,
        wf: Item,
        old: str,
        new: Status,
        *,
        cond: And | Equals | In,
        wf_set: Mapping[str, Any] | None = None,
        data_set: Mapping[str, Any] | None = None,
        step_set: Mapping[str, Any] | None = None,
    ) -> None:
        """One transaction: DOC#/WF#, WF#/STEP (GSI1SK), PROJ#/DOC#, PROJ#/WF# and the STATS counters."""
        data = dict(wf.get("data") or {})
        pid = str(data["project_id"])
        did = str(wf["PK"]).removeprefix("DOC#")
        wid = str(wf["SK"]).removeprefix("WF#")
        now = _now_iso(self.clock)
        data.update(data_set or {})
        data["status"] = new
        doc_link = self.items.get(f"PROJ#{pid}", f"DOC#{did}") or {}
        wf_link = self.items.get(f"PROJ#{pid}", f"WF#{wid}") or {}
        # the listing items carry the failure reason too, so a project's document list needs no per-workflow reads
        reason = {"error": data.get("error")} if "error" in (data_set or {}) else {}
        doc_data = {**(doc_link.get("data") or {}), "status": new, **reason}
        if doc_data.get("workflow_id") not in (None, wid):  # an older workflow of a reprocessed document
            doc_data = dict(doc_link.get("data") or {})
        wf_link_data = {**(wf_link.get("data") or {}), "status": new, **reason}
        counters: dict[str, int | float] = {new: 1}
        if old != new:
            counters[old] = -1
        else:
            counters = {}
        ops: list[WriteOp] = [
            Update(f"DOC#{did}", f"WF#{wid}", set={"status": new, "data": data, "updated_at": now, **(wf_set or {})},
                   condition=cond),
            Update(f"WF#{wid}", "STEP", set={"status": new, "GSI1SK": new, "updated_at": now, **(step_set or {})}),
            Update(f"PROJ#{pid}", f"DOC#{did}", set={"status": doc_data.get("status", new), "data": doc_data}),
            Update(f"PROJ#{pid}", f"WF#{wid}", set={"status": new, "data": wf_link_data}),
        ]
        if counters:
            ops.append(Update(f"PROJ#{pid}", "STATS", add=counters))
        self.items.transact_write(ops)
