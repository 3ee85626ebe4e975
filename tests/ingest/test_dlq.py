"""Dead-lettered documents (issue 13 item 5): one contract over both queue backends (SQLite, SQS on moto) —
jobs really dead-lettered by the worker, listed with their reason, attempts and time, redriven and then
processed exactly once — plus who may do it (``Admins``)."""

from __future__ import annotations

import pytest
from moto import mock_aws

import ingest.worker as worker_mod
from ingest.dlq import Admins, DeadLetters, cognito_groups
from ingest.queue import SqliteJobQueue
from store.config import Settings
from store.errors import Forbidden, RetryableError
from tests.ingest.test_queue import MAX_RECEIVES, _sqs_queue
from tests.ingest.test_worker import _submit, _worker


@pytest.fixture(params=["sqlite", "sqs"])
def queue(request, tmp_path, clock, monkeypatch):
    monkeypatch.setattr(worker_mod, "backoff_seconds", lambda n: 0)  # retry at once (SQS waits in real time)
    if request.param == "sqlite":
        q = SqliteJobQueue(tmp_path / "q.db", max_receives=MAX_RECEIVES, clock=clock, poll_interval=0.01)
        yield q
        q.close()
    else:
        with mock_aws():
            yield _sqs_queue(dlq_confirm_wait_seconds=0)  # moto answers every poll from one place


def _dlq(settings, store, queue) -> DeadLetters:
    return DeadLetters(settings, store=store, queue=queue, admins=Admins(settings))


async def _dead_letter(settings, store, blobs, queue, indexer, clock, tmp_path, **kw):
    """Submit a document whose first step fails retryably every time, and run the worker until it dead-letters."""
    pid, c = _submit(store, blobs, queue, tmp_path, **kw)

    def unavailable(name, n):
        if name == "segment_prep":
            raise RetryableError("the index is unavailable")

    worker = _worker(settings, store, blobs, queue, indexer, clock, fault=unavailable)
    outcomes = [await worker.run_once() for _ in range(MAX_RECEIVES + 1)]
    assert outcomes == ["retry"] * (MAX_RECEIVES - 1) + ["failed", None]
    return pid, c


async def test_list_shows_document_project_reason_attempts_and_when(settings, store, blobs, queue, indexer, clock,
                                                                    tmp_path):
    pid, c = await _dead_letter(settings, store, blobs, queue, indexer, clock, tmp_path)
    rows = _dlq(settings, store, queue).list()
    assert len(rows) == 1
    row = rows[0]
    assert row["document_id"] == c.document_id and row["workflow_id"] == c.workflow_id
    assert row["project_id"] == pid and row["owner"] == "alice" and row["file_name"] == "doc.pdf"
    assert row["lane"] == "high" and row["status"] == "failed" and row["messages"] == 1
    assert row["reason"] == f"gave up after {MAX_RECEIVES} attempts: the index is unavailable"
    assert row["attempts"] == MAX_RECEIVES and "receives" not in row  # SQS counts every peek: the store's count
    assert row["failed_at"] == store.get_workflow("alice", c.workflow_id)["updated_at"]
    assert _dlq(settings, store, queue).list() == rows  # listing changes nothing


async def test_redrive_resets_requeues_and_the_document_is_processed_once(settings, store, blobs, queue, indexer,
                                                                          clock, tmp_path):
    _, c = await _dead_letter(settings, store, blobs, queue, indexer, clock, tmp_path)
    result = _dlq(settings, store, queue).redrive([c.document_id])
    assert result == {"items": [{"document_id": c.document_id, "workflow_id": c.workflow_id, "result": "redriven"}],
                      "redriven": 1}
    view = store.get_workflow("alice", c.workflow_id)
    assert view["status"] == "pending" and view["attempts"] == 0 and "error" not in view
    assert queue.list_dead("high") == [] and store.unsent(older_than_s=0).items == []  # sent, out of the outbox
    assert await _worker(settings, store, blobs, queue, indexer, clock).run_once() == "completed"
    ids = sorted(indexer.index)
    assert ids == [f"{c.document_id}:{i:05d}" for i in range(len(ids))]
    assert _dlq(settings, store, queue).list() == []
    assert store.get_project("alice", view["project_id"])["counts"]["completed"] == 1


async def test_redrive_all_and_by_id_leave_the_others(settings, store, blobs, queue, indexer, clock, tmp_path):
    _, a = await _dead_letter(settings, store, blobs, queue, indexer, clock, tmp_path, name="a.pdf", sha="a" * 64)
    _, b = await _dead_letter(settings, store, blobs, queue, indexer, clock, tmp_path, name="b.pdf", sha="b" * 64)
    dlq = _dlq(settings, store, queue)
    assert {r["document_id"] for r in dlq.list()} == {a.document_id, b.document_id}
    one = dlq.redrive([a.document_id, "not-a-document"])
    assert sorted((i["document_id"], i["result"]) for i in one["items"]) == sorted(
        [(a.document_id, "redriven"), ("not-a-document", "not_dead_lettered")])
    assert [r["document_id"] for r in dlq.list()] == [b.document_id]  # b was held during the redrive, then released
    assert store.get_workflow("alice", b.workflow_id)["status"] == "failed"
    rest = dlq.redrive(None)
    assert rest["redriven"] == 1 and dlq.list() == []
    worker = _worker(settings, store, blobs, queue, indexer, clock)
    assert sorted([await worker.run_once(), await worker.run_once()]) == ["completed", "completed"]


async def test_stale_dead_letters_are_dropped_without_a_resend(settings, store, blobs, queue, indexer, clock,
                                                               tmp_path):
    from ingest.documents import Documents

    _, c = await _dead_letter(settings, store, blobs, queue, indexer, clock, tmp_path)
    documents = Documents(settings, store=store, blobs=blobs, queue=queue, index=indexer)
    await documents.reprocess("alice", c.workflow_id)  # the user already retried it
    assert await _worker(settings, store, blobs, queue, indexer, clock).run_once() == "completed"
    result = _dlq(settings, store, queue).redrive(None)
    assert result["items"][0]["result"] == "dropped_completed" and result["redriven"] == 0
    assert queue.list_dead("high") == [] and queue.receive(visibility_seconds=30) is None
    assert store.get_workflow("alice", c.workflow_id)["status"] == "completed"


def test_admins_local_and_aws(tmp_path):
    everyone = Admins(Settings(data_dir=tmp_path))
    assert everyone.is_admin("alice", "dev:alice") and everyone.is_admin("bob", None)
    listed = Admins(Settings(data_dir=tmp_path, admin_users=" root, ops "))
    assert listed.is_admin("root", None) and listed.is_admin("ops", None) and not listed.is_admin("alice", None)
    with pytest.raises(Forbidden):
        listed.require("alice", "dev:alice")
    claims = {"t-admin": {"sub": "u1", "cognito:groups": ["admin", "staff"]}, "t-user": {"sub": "u2"},
              "t-one": {"sub": "u3", "cognito:groups": "admin"}}
    aws = Admins(Settings(backend="aws"), groups_of=cognito_groups(lambda token: claims[token]))
    assert aws.is_admin("u1", "t-admin") and aws.is_admin("u3", "t-one")
    assert not aws.is_admin("u2", "t-user") and not aws.is_admin("u2", None)
    assert not Admins(Settings(backend="aws")).is_admin("u1", "t-admin")  # empty list ≠ everyone in aws mode
    assert Admins(Settings(backend="aws", admin_users="u2")).is_admin("u2", "t-user")
    # what the auth middleware hands on in aws mode: the verified identity with the groups its issuer names
    from chat.app.jwt_auth import Identity

    oidc = Admins(Settings(backend="aws"))
    assert oidc.is_admin("u1", Identity(user="u1", groups=("admin",), claims={}))
    assert not oidc.is_admin("u2", Identity(user="u2", groups=("staff",), claims={}))


async def test_a_pending_workflow_whose_only_job_died_is_sent_again(settings, store, blobs, queue, indexer, clock,
                                                                    tmp_path):
    """Its message dead-lettered before any worker could claim it (every receive failed before the claim)."""
    _, c = _submit(store, blobs, queue, tmp_path)
    store.mark_enqueued(c.document_id, c.workflow_id)
    for _ in range(MAX_RECEIVES):
        queue.retry_later(queue.receive(visibility_seconds=30), 0)
    assert queue.receive(visibility_seconds=30) is None
    [row] = _dlq(settings, store, queue).list()
    assert row["status"] == "pending" and row["attempts"] == 0
    assert _dlq(settings, store, queue).redrive(None)["redriven"] == 1
    assert await _worker(settings, store, blobs, queue, indexer, clock).run_once() == "completed"
