"""The ingest outbox (issue 13 item 4) on every item-table backend: a new or reset workflow is in a sparse GSI2
until its job is sent; the sweeper finds the old entries with one index query."""

from __future__ import annotations

import pytest

from store.workflow_outbox import OUTBOX_PK
from store.workflows import WorkflowStore
from tests.store.test_workflows import Clock, _doc


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(item_table, clock) -> WorkflowStore:
    return WorkflowStore(item_table, clock=clock)


def _refs(store, older_than_s=10.0):
    return [(r.document_id, r.workflow_id) for r in store.unsent(older_than_s=older_than_s).items]


def test_a_new_workflow_waits_in_the_outbox_until_its_job_is_sent(store, item_table, clock):
    pid = store.create_project("alice", "P")["project_id"]
    a = store.create_workflow(_doc("alice", pid, sha="a" * 64))
    clock.t += 5
    b = store.create_workflow(_doc("alice", pid, sha="b" * 64))
    wf = item_table.get(f"DOC#{a.document_id}", f"WF#{a.workflow_id}")
    assert wf["GSI2PK"] == OUTBOX_PK and wf["GSI2SK"].endswith("#" + a.workflow_id)
    assert _refs(store) == []  # younger than the grace period: the upload is probably sending it right now
    clock.t += 6
    assert _refs(store) == [(a.document_id, a.workflow_id)]  # oldest first; b is only 6 s old
    clock.t += 10
    assert _refs(store) == [(a.document_id, a.workflow_id), (b.document_id, b.workflow_id)]
    assert store.mark_enqueued(a.document_id, a.workflow_id) is True
    assert _refs(store) == [(b.document_id, b.workflow_id)]
    assert "GSI2PK" not in item_table.get(f"DOC#{a.document_id}", f"WF#{a.workflow_id}")
    assert store.mark_enqueued(a.document_id, a.workflow_id) is False  # already out
    rec = store.outbox_record(store.unsent(older_than_s=10).items[0])
    assert rec.status == "pending" and rec.page_count == 3 and rec.project_id == pid


def test_marking_a_deleted_workflow_creates_nothing(store, item_table):
    assert store.mark_enqueued("nodoc", "nowf") is False
    assert item_table.get("DOC#nodoc", "WF#nowf") is None


def test_reset_puts_the_workflow_back_in_the_outbox(store, clock):
    pid = store.create_project("alice", "P")["project_id"]
    c = store.create_workflow(_doc("alice", pid))
    store.mark_enqueued(c.document_id, c.workflow_id)
    _, claim = store.claim(c.document_id, c.workflow_id, lease_s=30)
    store.fail(claim, error="boom", retryable=False)
    clock.t += 100
    assert _refs(store) == []
    rec = store.reset_workflow(c.document_id, c.workflow_id)  # owner-agnostic (an operator's redrive)
    assert rec.workflow_id == c.workflow_id
    clock.t += 11
    assert _refs(store) == [(c.document_id, c.workflow_id)]
    view = store.get_workflow("alice", c.workflow_id)
    assert view["status"] == "pending" and view["attempts"] == 0 and "error" not in view
    assert store.get_project("alice", pid)["counts"] == {"pending": 1, "in_progress": 0, "completed": 0, "failed": 0}
