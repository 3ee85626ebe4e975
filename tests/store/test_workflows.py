"""WorkflowStore: seed-000 item layout, one-transaction creation, dedup, claims, read-model counters."""

from __future__ import annotations

import pytest

from store.errors import Conflict, InvalidInput, NotFound
from store.items import KeyRange
from store.workflow_views import STEP_NAMES, compute_progress
from store.workflows import NewDocument, WorkflowStore


class Clock:
    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def items(item_table):
    """The workflow table on every item-table backend: SQLite, DynamoDB on moto, DynamoDB Local (tests/conftest.py)."""
    return item_table


@pytest.fixture
def store(items, clock) -> WorkflowStore:
    return WorkflowStore(items, clock=clock)


def _doc(owner: str, pid: str, sha: str = "a" * 64, pages: int = 3) -> NewDocument:
    return NewDocument(owner=owner, project_id=pid, file_name="x.pdf", file_type="application/pdf", file_kind="pdf",
                       file_key=f"projects/{pid}/documents/d/original.pdf", file_uri="blob://x", size=10, sha256=sha,
                       page_count=pages, language="en", priority="high")


def test_project_items_and_user_listing(store, items):
    p = store.create_project("alice", "Contracts", "ko")
    meta = items.get(f"PROJ#{p['project_id']}", "META")
    assert meta["data"]["name"] == "Contracts" and meta["data"]["language"] == "ko"
    assert meta["owner"] == "alice" and meta["GSI2PK"] == "USER#alice"
    store.create_project("bob", "Other")
    assert [x["name"] for x in store.list_projects("alice")] == ["Contracts"]
    assert store.get_project("alice", p["project_id"])["counts"] == {
        "pending": 0, "in_progress": 0, "completed": 0, "failed": 0}
    with pytest.raises(NotFound):
        store.get_project("bob", p["project_id"])
    with pytest.raises(InvalidInput):
        store.create_project("alice", "  ")


def test_workflow_created_in_one_transaction_with_seed_layout(store, items):
    pid = store.create_project("alice", "P")["project_id"]
    c = store.create_workflow(_doc("alice", pid))
    assert c.created and c.status == "pending"
    did, wid = c.document_id, c.workflow_id
    wf = items.get(f"DOC#{did}", f"WF#{wid}")
    for key in ("project_id", "file_uri", "file_name", "file_type", "status", "total_segments", "preprocess"):
        assert key in wf["data"], key
    assert items.get(f"PROJ#{pid}", f"DOC#{did}")["data"]["workflow_id"] == wid
    assert items.get(f"PROJ#{pid}", f"WF#{wid}")["data"]["status"] == "pending"
    step = items.get(f"WF#{wid}", "STEP")
    assert step["GSI1PK"] == "STEP#ANALYSIS_STATUS" and step["GSI1SK"] == "pending"
    for name in STEP_NAMES:
        assert set(step[name]) >= {"status", "label", "started_at", "ended_at", "error"}
    pending = store.list_by_status("pending").items
    assert [(r.workflow_id, r.document_id) for r in pending] == [(wid, did)]
    stats = store.get_project("alice", pid)
    assert stats["documents"] == 1 and stats["pages"] == 3 and stats["counts"]["pending"] == 1


def test_same_bytes_return_existing_ids_and_no_new_items(store, items):
    pid = store.create_project("alice", "P")["project_id"]
    first = store.create_workflow(_doc("alice", pid))
    again = store.create_workflow(_doc("alice", pid))
    assert not again.created and (again.document_id, again.workflow_id) == (first.document_id, first.workflow_id)
    assert len(items.query(f"PROJ#{pid}", sk=KeyRange(begins_with="DOC#")).items) == 1
    assert store.get_project("alice", pid)["documents"] == 1
    other = store.create_workflow(_doc("alice", pid, sha="b" * 64))
    assert other.created and other.document_id != first.document_id


def test_create_workflow_in_someone_elses_project_is_not_found(store):
    pid = store.create_project("alice", "P")["project_id"]
    with pytest.raises(NotFound):
        store.create_workflow(_doc("mallory", pid))
    assert store.get_project("alice", pid)["documents"] == 0


def test_claim_is_exclusive_and_duplicates_are_noops(store, clock):
    pid = store.create_project("alice", "P")["project_id"]
    c = store.create_workflow(_doc("alice", pid))
    outcome, claim = store.claim(c.document_id, c.workflow_id, lease_s=60)
    assert outcome == "claimed" and claim is not None
    assert store.claim(c.document_id, c.workflow_id, lease_s=60) == ("busy", None)
    assert store.get_project("alice", pid)["counts"]["in_progress"] == 1
    assert store.list_by_status("in_progress").items[0].workflow_id == c.workflow_id
    assert store.complete(claim, total_segments=3)
    assert not store.complete(claim, total_segments=3)  # exactly once
    assert store.claim(c.document_id, c.workflow_id, lease_s=60) == ("completed", None)
    counts = store.get_project("alice", pid)["counts"]
    assert counts == {"pending": 0, "in_progress": 0, "completed": 1, "failed": 0}
    view = store.get_workflow("alice", c.workflow_id)
    assert view["status"] == "completed" and view["progress"] == 1.0 and view["total_segments"] == 3


def test_expired_lease_can_be_taken_over_and_old_claim_cannot_write(store, clock):
    pid = store.create_project("alice", "P")["project_id"]
    c = store.create_workflow(_doc("alice", pid))
    _, old = store.claim(c.document_id, c.workflow_id, lease_s=60)
    clock.t += 61
    outcome, new = store.claim(c.document_id, c.workflow_id, lease_s=60)
    assert outcome == "claimed" and new.claim_id != old.claim_id and new.attempts == 2
    assert not store.heartbeat(old, lease_s=60)
    with pytest.raises(Conflict):
        store.record_step(old, "segment_prep", "completed")
    assert not store.complete(old, total_segments=1)
    assert store.complete(new, total_segments=1)
    assert store.get_project("alice", pid)["counts"]["completed"] == 1


def test_failed_retryable_can_be_reclaimed_permanent_cannot(store):
    pid = store.create_project("alice", "P")["project_id"]
    a = store.create_workflow(_doc("alice", pid, sha="1" * 64))
    b = store.create_workflow(_doc("alice", pid, sha="2" * 64))
    _, ca = store.claim(a.document_id, a.workflow_id, lease_s=60)
    _, cb = store.claim(b.document_id, b.workflow_id, lease_s=60)
    assert store.fail(ca, error="throttled", retryable=True)
    assert store.fail(cb, error="the PDF is encrypted", retryable=False)
    assert store.claim(a.document_id, a.workflow_id, lease_s=60)[0] == "claimed"
    assert store.claim(b.document_id, b.workflow_id, lease_s=60) == ("failed", None)
    view = store.get_workflow("alice", b.workflow_id)
    assert view["status"] == "failed" and view["error"] == "the PDF is encrypted"
    counts = store.get_project("alice", pid)["counts"]
    assert counts["failed"] == 1 and counts["in_progress"] == 1


def test_document_listing_carries_the_failure_reason_without_workflow_reads(store, items):
    pid = store.create_project("alice", "P")["project_id"]
    ok = store.create_workflow(_doc("alice", pid, sha="1" * 64))
    bad = store.create_workflow(_doc("alice", pid, sha="2" * 64))
    _, c_ok = store.claim(ok.document_id, ok.workflow_id, lease_s=60)
    _, c_bad = store.claim(bad.document_id, bad.workflow_id, lease_s=60)
    store.complete(c_ok, total_segments=3)
    store.fail(c_bad, error="page 2 is corrupt", retryable=False)
    docs = {d["document_id"]: d for d in store.list_documents(pid).items}
    assert docs[bad.document_id]["status"] == "failed"
    assert docs[bad.document_id]["error"] == "page 2 is corrupt"
    assert docs[ok.document_id]["status"] == "completed" and not docs[ok.document_id].get("error")
    assert items.get(f"PROJ#{pid}", f"WF#{bad.workflow_id}")["data"]["error"] == "page 2 is corrupt"
    store.reset_for_reprocess("alice", bad.workflow_id)  # a reprocess clears the old reason
    docs = {d["document_id"]: d for d in store.list_documents(pid).items}
    assert docs[bad.document_id]["status"] == "pending" and docs[bad.document_id]["error"] is None


def test_steps_progress_and_reprocess(store):
    pid = store.create_project("alice", "P")["project_id"]
    c = store.create_workflow(_doc("alice", pid))
    _, claim = store.claim(c.document_id, c.workflow_id, lease_s=60)
    store.record_step(claim, "segment_prep", "in_progress", done=1, total=4)
    v1 = store.get_workflow("alice", c.workflow_id)
    assert v1["steps"]["segment_prep"]["status"] == "in_progress" and v1["steps"]["segment_prep"]["started_at"]
    store.record_step(claim, "segment_prep", "completed", done=4, total=4)
    store.record_step(claim, "bda_processor", "skipped", reason="not enabled")
    v2 = store.get_workflow("alice", c.workflow_id)
    assert 0 < v1["progress"] < v2["progress"] < 1
    assert v2["steps"]["bda_processor"]["reason"] == "not enabled" and v2["steps"]["segment_prep"]["ended_at"]
    with pytest.raises(Conflict):
        store.reset_for_reprocess("alice", c.workflow_id)  # still running
    store.complete(claim, total_segments=3)
    with pytest.raises(NotFound):
        store.reset_for_reprocess("bob", c.workflow_id)
    store.reset_for_reprocess("alice", c.workflow_id)
    v3 = store.get_workflow("alice", c.workflow_id)
    assert v3["status"] == "pending" and v3["steps"]["segment_prep"]["status"] == "pending"
    assert store.get_project("alice", pid)["counts"] == {"pending": 1, "in_progress": 0, "completed": 0, "failed": 0}


def test_segments_at_fixed_keys_paginate(store):
    pid = store.create_project("alice", "P")["project_id"]
    c = store.create_workflow(_doc("alice", pid, pages=5))
    _, claim = store.claim(c.document_id, c.workflow_id, lease_s=60)
    for i in (1, 2, 3, 4, 5, 3):  # a redelivery rewrites segment 3 in place
        store.put_segment(claim, i, s3_key=f"k{i}", image_uri=f"i{i}", meta={"page": i})
    first = store.list_segments(c.workflow_id, limit=2)
    assert [s["segment_index"] for s in first.items] == [1, 2] and first.cursor
    rest = store.list_segments(c.workflow_id, limit=10, cursor=first.cursor)
    assert [s["segment_index"] for s in rest.items] == [3, 4, 5] and rest.cursor is None


def test_compute_progress_is_pure_and_bounded():
    assert compute_progress("pending", {}) == 0.0
    assert compute_progress("completed", {}) == 1.0
    half = compute_progress("in_progress", {"segment_prep": {"status": "in_progress", "done": 5, "total": 10}})
    assert 0.1 < half < 0.15
    assert compute_progress("in_progress", {n: {"status": "completed"} for n in STEP_NAMES}) < 1.0


def test_delete_document_items_on_every_backend(item_table, clock) -> None:
    store = WorkflowStore(item_table, clock=clock)
    pid = store.create_project("alice", "P")["project_id"]
    keep = store.create_workflow(_doc("alice", pid, sha="b" * 64, pages=2))
    gone = store.create_workflow(_doc("alice", pid, sha="c" * 64, pages=5))
    _, claim = store.claim(gone.document_id, gone.workflow_id, lease_s=60)
    assert claim is not None
    with pytest.raises(Conflict, match="being processed"):
        store.document_for_delete("alice", pid, gone.document_id)
    for i in (1, 2):
        store.put_segment(claim, i, s3_key=f"k{i}", image_uri=f"i{i}", meta={"page": i})
    assert store.complete(claim, total_segments=2)

    with pytest.raises(NotFound):
        store.document_for_delete("bob", pid, gone.document_id)
    wfs = store.document_for_delete("alice", pid, gone.document_id)
    assert [(w.document_id, w.workflow_id, w.status, w.page_count) for w in wfs] == [
        (gone.document_id, gone.workflow_id, "completed", 5)]
    store.delete_document_items(pid, gone.document_id, wfs)

    assert [d["document_id"] for d in store.list_documents(pid).items] == [keep.document_id]
    assert item_table.query(f"DOC#{gone.document_id}").items == []
    assert item_table.query(f"WF#{gone.workflow_id}").items == []  # STEP and SEG# pointers
    assert store.find_by_hash(pid, "c" * 64) is None
    view = store.get_project("alice", pid)
    assert view["documents"] == 1 and view["pages"] == 2
    assert view["counts"] == {"pending": 1, "in_progress": 0, "completed": 0, "failed": 0}
    with pytest.raises(NotFound):
        store.document_for_delete("alice", pid, gone.document_id)


def test_delete_refuses_a_document_that_started_processing_meanwhile(store) -> None:
    pid = store.create_project("alice", "P")["project_id"]
    c = store.create_workflow(_doc("alice", pid))
    wfs = store.document_for_delete("alice", pid, c.document_id)  # pending: deletable
    store.claim(c.document_id, c.workflow_id, lease_s=60)  # a worker takes it before the delete commits
    with pytest.raises(Conflict, match="try again"):
        store.delete_document_items(pid, c.document_id, wfs)
    assert [d["document_id"] for d in store.list_documents(pid).items] == [c.document_id]


def test_a_project_with_documents_is_not_removed_by_delete_project_items(store) -> None:
    pid = store.create_project("alice", "P")["project_id"]
    store.create_workflow(_doc("alice", pid))
    with pytest.raises(Conflict, match="still has documents"):
        store.delete_project_items("alice", pid)
    with pytest.raises(NotFound):
        store.delete_project_items("bob", pid)
    empty = store.create_project("alice", "Empty")["project_id"]
    store.delete_project_items("alice", empty)
    assert [p["name"] for p in store.list_projects("alice")] == ["P"]


def test_project_pii_mode_override_and_segment_findings(store, items):
    pid = store.create_project("alice", "P")["project_id"]
    assert store.get_project("alice", pid)["pii_mode"] is None and store.project_pii_mode(pid) is None
    assert store.set_project_pii_mode("alice", pid, "off")["pii_mode"] == "off"
    assert store.project_pii_mode(pid) == "off" and store.list_projects("alice")[0]["pii_mode"] == "off"
    assert items.get(f"PROJ#{pid}", "META")["data"]["name"] == "P"  # the rest of the project is kept
    with pytest.raises(InvalidInput):
        store.set_project_pii_mode("alice", pid, "loud")
    with pytest.raises(NotFound):
        store.set_project_pii_mode("bob", pid, "mask")
    store.set_project_pii_mode("alice", pid, None)
    assert store.project_pii_mode(pid) is None and "pii_mode" not in items.get(f"PROJ#{pid}", "META")["data"]

    c = store.create_workflow(_doc("alice", pid))
    _, claim = store.claim(c.document_id, c.workflow_id, lease_s=60)
    store.put_segment(claim, 1, s3_key="k", image_uri="u", meta={"page": 1, "chars": 10})
    finding = {"type": "PHONE", "page": 1, "bbox": [72.0, 100.0, 150.0, 112.0], "start": 7, "end": 20}
    store.set_segment_pii(c.workflow_id, 1, [finding])
    seg = store.get_segment(c.workflow_id, 1)
    assert seg["pii"] == [finding] and seg["pii_count"] == 1 and seg["s3_key"] == "k" and seg["chars"] == 10
    store.set_segment_pii(c.workflow_id, 9, [finding])  # no such segment: nothing is created
    assert store.get_segment(c.workflow_id, 9) is None
    from store.workflow_segments import MAX_PII_FINDINGS

    store.set_segment_pii(c.workflow_id, 1, [finding] * (MAX_PII_FINDINGS + 5))  # a contact list: item stays small
    seg = store.get_segment(c.workflow_id, 1)
    assert len(seg["pii"]) == MAX_PII_FINDINGS and seg["pii_count"] == MAX_PII_FINDINGS + 5 and seg["pii_truncated"]


def test_document_summary_on_the_document_item_on_every_backend(store, items) -> None:
    pid = store.create_project("alice", "P")["project_id"]
    c = store.create_workflow(_doc("alice", pid))
    assert store.document_summary(pid, c.document_id) is None and "summary" not in store.list_documents(pid).items[0]
    _, claim = store.claim(c.document_id, c.workflow_id, lease_s=60)
    summary = {"kind": "extractive", "title": "Report", "text": "Revenue grew. 매출 증가.", "page_count": 3,
               "outline": [{"level": 1, "text": "Results", "page": 2}], "lead": ["Revenue grew."]}
    store.put_document_summary(claim, summary)
    assert store.complete(claim, total_segments=3)  # the completion transition keeps it
    assert store.document_summary(pid, c.document_id) == summary
    [doc] = store.list_documents(pid).items
    assert doc["summary"] == summary and doc["status"] == "completed"
    assert items.get(f"PROJ#{pid}", f"DOC#{c.document_id}")["summary"] == summary  # seed 000: the document item
    # only the claim holder writes it
    stale = type(claim)(claim.workflow_id, claim.document_id, claim.project_id, "old-claim", 1, claim.item)
    with pytest.raises(Conflict):
        store.put_document_summary(stale, {"kind": "extractive", "text": "overwritten"})
    wfs = store.document_for_delete("alice", pid, c.document_id)
    store.delete_document_items(pid, c.document_id, wfs)
    assert store.document_summary(pid, c.document_id) is None


def test_document_identity_on_the_document_item_on_every_backend(store, items) -> None:
    pid = store.create_project("alice", "P")["project_id"]
    c = store.create_workflow(_doc("alice", pid))
    assert store.document_identity(pid, c.document_id) == (None, c.workflow_id)  # none stored yet
    assert store.document_identity(pid, "no-such-doc") == (None, None)
    _, claim = store.claim(c.document_id, c.workflow_id, lease_s=60)
    identity = {"company": "Acme Widgets, Inc.", "tickers": ["ACME"], "former_names": ["Acme Tools Corp."]}
    store.put_document_identity(claim, identity)
    assert store.complete(claim, total_segments=3)  # the completion transition keeps it
    assert store.document_identity(pid, c.document_id) == (identity, c.workflow_id)
    [doc] = store.list_documents(pid).items
    assert doc["identity"] == identity
    stale = type(claim)(claim.workflow_id, claim.document_id, claim.project_id, "old-claim", 1, claim.item)
    with pytest.raises(Conflict):  # only the claim holder writes it
        store.put_document_identity(stale, {"company": "Someone Else"})
    store.backfill_document_identity(pid, c.document_id, {})  # a backfill (no claim) replaces it
    assert store.document_identity(pid, c.document_id) == ({}, c.workflow_id)
    store.backfill_document_identity(pid, "gone", {"company": "X"})  # no document item: nothing is created
    assert items.get(f"PROJ#{pid}", "DOC#gone") is None
