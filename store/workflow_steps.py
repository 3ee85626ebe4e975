"""A workflow's state machine (seed 004): reads, the claim and its lease, steps, completion, failure and
reprocessing, each transition one transaction over the five items that mirror the status — the workflow
half of ``WorkflowStore``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from store.errors import Conflict, NotFound, TransactionConflict
from store.items import And, Equals, In, Item, ItemTable, KeyRange, Update, WriteOp
from store.workflow_outbox import outbox_entry
from store.workflow_types import (
    Claim,
    ClaimOutcome,
    RefPage,
    WorkflowRecord,
    WorkflowRef,
    key_id,
    new_id,
    now_iso,
    safe_id,
)
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


class StepsMixin:
    items: ItemTable
    clock: Callable[[], float]

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

    def list_by_status(self, status: Status, *, limit: int = 100, cursor: str | None = None) -> RefPage:
        """Workflows in ``status`` via GSI1 (``STEP#ANALYSIS_STATUS``) — e.g. the sweeper's in-progress scan."""
        page = self.items.query(
            ANALYSIS_STATUS_PK, sk=KeyRange(begins_with=status), index="GSI1", limit=limit, cursor=cursor
        )
        refs = [WorkflowRef(key_id(step["PK"], "WF#"), str(step.get("document_id"))) for step in page.items]
        return RefPage(refs, page.cursor)

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
        usage: Mapping[str, Any] | None = None,
    ) -> Item:
        """Write one step's state on ``WF#/STEP`` (conditional on the claim)."""
        if name not in STEP_NAMES:
            raise ValueError(name)
        step = self.items.get(f"WF#{claim.workflow_id}", "STEP") or {}
        cur = dict(step.get(name) or new_step(dict(STEPS)[name]))
        now = now_iso(self.clock)
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
        if usage is not None:  # model usage of the step (tokens, requests, retries)
            cur["usage"] = dict(usage)
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

    def reset_for_reprocess(self, owner: str, workflow_id: str) -> WorkflowRecord:
        """``completed``/``failed`` → ``pending`` with fresh steps (the worker re-runs every step)."""
        step = self.step_item(workflow_id)
        if step is None or step.get("owner") != owner:
            raise NotFound("no such workflow")
        return self.reset_workflow(str(step["document_id"]), workflow_id)

    def reset_workflow(self, document_id: str, workflow_id: str) -> WorkflowRecord:
        """``completed``/``failed`` → ``pending`` with fresh steps and attempts, back in the outbox until its
        job is sent (reprocess; an operator's dead-letter redrive). Whoever's it is: callers check access."""
        wf = self.workflow_item(document_id, workflow_id)
        if wf is None:
            raise NotFound("no such workflow")
        status = str(wf.get("status"))
        if status not in TERMINAL:
            raise Conflict("the workflow is still running; reprocess it once it has completed or failed")
        cond = And((Equals("status", status), Equals("claim_id", wf.get("claim_id") or "")))
        fresh = {name: new_step(label) for name, label in STEPS}
        self._transition(wf, status, "pending", cond=cond,
                         wf_set={"claim_id": "", "lease_until": 0, "retryable": False, "attempts": 0,
                                 **outbox_entry(now_iso(self.clock), workflow_id)},
                         data_set={"error": None, "total_segments": 0},
                         step_set={"claim_id": "", "error": None, **fresh})
        return WorkflowRecord.of(wf)  # as it was before the reset (its page count and project for the re-send)

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
        did = key_id(wf["PK"], "DOC#")
        wid = key_id(wf["SK"], "WF#")
        now = now_iso(self.clock)
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
