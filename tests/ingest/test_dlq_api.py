"""``GET /v1/ops/dlq`` and ``POST /v1/ops/dlq/redrive`` (admins only, local and aws mode) and ``docchat dlq``."""

from __future__ import annotations

import io
import json

import httpx
import pytest

from chat.app.factory import create_app
from chat.app.wiring import Services
from chat.cli.main import main
from ingest.build import build_queue
from ingest.cli import run_dlq
from ingest.dlq import Admins, DeadLetters, cognito_groups
from store import open_item_table
from store.config import Settings
from store.workflows import NewDocument, WorkflowStore


def _dead_document(store: WorkflowStore, queue, owner="alice", sha="c" * 64):
    """A workflow failed for good and its message in the high DLQ, as the worker leaves them."""
    pid = store.create_project(owner, "P")["project_id"]
    c = store.create_workflow(NewDocument(
        owner=owner, project_id=pid, file_name="scan.pdf", file_type="application/pdf", file_kind="pdf",
        file_key="k", file_uri="blob://k", size=1, sha256=sha, page_count=2, language="en", priority="high"))
    queue.send({"workflow_id": c.workflow_id, "document_id": c.document_id, "project_id": pid}, priority="high")
    store.mark_enqueued(c.document_id, c.workflow_id)
    for n in range(1, queue.max_receives + 1):
        msg = queue.receive(visibility_seconds=30)
        _, claim = store.claim(c.document_id, c.workflow_id, lease_s=30)
        last = n == queue.max_receives
        store.fail(claim, retryable=not last,
                   error=f"gave up after {n} attempts: OCR timed out" if last else "OCR timed out")
        queue.retry_later(msg, 0)
    assert queue.receive(visibility_seconds=30) is None
    return pid, c


@pytest.fixture
def local(tmp_path):
    settings = Settings.from_env(env={}, data_dir=tmp_path / "data", queue_max_receives=2)
    settings.server.data_dir.mkdir(parents=True)
    store = WorkflowStore(open_item_table(settings, "workflows"))
    queue = build_queue(settings)
    yield settings, store, queue
    queue.close()


def _client(settings, store, queue, *, admins=None, verifier=None) -> httpx.AsyncClient:
    dlq = DeadLetters(settings, store=store, queue=queue, admins=admins or Admins(settings))
    app = create_app(settings, services=Services(settings, dependencies={"dead_letters": dlq}, verifier=verifier))
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))  # a loopback peer, as `docchat up` has
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1")


async def test_local_every_user_is_an_admin_unless_admins_are_listed(local):
    settings, store, queue = local
    pid, c = _dead_document(store, queue)
    async with _client(settings, store, queue) as client:
        resp = await client.get("/v1/ops/dlq", headers={"Authorization": "Bearer dev:bob"})
        assert resp.status_code == 200
        [row] = resp.json()["items"]
        assert (row["document_id"], row["project_id"], row["owner"]) == (c.document_id, pid, "alice")
        assert row["reason"] == "gave up after 2 attempts: OCR timed out" and row["attempts"] == 2
        assert row["failed_at"] and row["dead_lettered_at"] and row["lane"] == "high"
        assert (await client.get("/v1/ops/dlq")).status_code == 401
    ops = settings.with_overrides(admin_users="root")
    async with _client(ops, store, queue) as client:
        resp = await client.get("/v1/ops/dlq", headers={"Authorization": "Bearer dev:alice"})
        assert resp.status_code == 403 and resp.json()["error"]["code"] == "forbidden"
        alice = {"Authorization": "Bearer dev:alice"}
        denied = await client.post("/v1/ops/dlq/redrive", json={"all": True}, headers=alice)
        assert denied.status_code == 403
        assert store.get_workflow("alice", c.workflow_id)["status"] == "failed"  # nothing happened
        assert (await client.get("/v1/ops/dlq", headers={"Authorization": "Bearer dev:root"})).status_code == 200


async def test_redrive_over_the_api(local):
    settings, store, queue = local
    _, a = _dead_document(store, queue, sha="a" * 64)
    _, b = _dead_document(store, queue, owner="bob", sha="b" * 64)
    root = {"Authorization": "Bearer dev:root"}
    async with _client(settings, store, queue) as client:
        for bad in ({}, {"all": False}, {"document_ids": []}, {"document_ids": "x"}, {"all": True,
                                                                                    "document_ids": ["x"]}):
            resp = await client.post("/v1/ops/dlq/redrive", json=bad, headers=root)
            assert resp.status_code == 400, bad
        resp = await client.post("/v1/ops/dlq/redrive", json={"document_ids": [a.document_id]}, headers=root)
        assert resp.status_code == 200
        assert resp.json() == {"items": [{"document_id": a.document_id, "workflow_id": a.workflow_id,
                                          "result": "redriven"}], "redriven": 1}
        listed = (await client.get("/v1/ops/dlq", headers=root)).json()["items"]
        assert [r["document_id"] for r in listed] == [b.document_id]
        assert (await client.post("/v1/ops/dlq/redrive", json={"all": True}, headers=root)).json()["redriven"] == 1
        assert (await client.get("/v1/ops/dlq", headers=root)).json()["items"] == []
    assert store.get_workflow("alice", a.workflow_id)["status"] == "pending"
    assert store.get_workflow("bob", b.workflow_id)["status"] == "pending"
    bodies = []
    while (msg := queue.receive(visibility_seconds=30)) is not None:
        bodies.append(msg.body["workflow_id"])
        queue.delete(msg)
    assert sorted(bodies) == sorted([a.workflow_id, b.workflow_id])  # each sent once


async def test_aws_mode_admins_are_the_cognito_group(local):
    _, store, queue = local
    settings = Settings(backend="aws", data_dir=local[0].server.data_dir)
    claims = {"t-admin": {"sub": "u1", "cognito:groups": ["admin"]}, "t-user": {"sub": "u2", "cognito:groups": []}}
    admins = Admins(settings, groups_of=cognito_groups(lambda token: claims[token]))
    _dead_document(store, queue)
    async with _client(settings, store, queue, admins=admins, verifier=lambda token: claims[token]["sub"]) as client:
        assert (await client.get("/v1/ops/dlq", headers={"Authorization": "Bearer t-admin"})).status_code == 200
        assert (await client.get("/v1/ops/dlq", headers={"Authorization": "Bearer t-user"})).status_code == 403


def test_the_command_line(local, capsys):
    settings, store, queue = local
    _, c = _dead_document(store, queue)
    out = io.StringIO()
    assert run_dlq(settings, "list", [], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["DOCUMENT", "PROJECT", "OWNER", "LANE", "ATTEMPTS", "FAILED", "AT", "REASON"]
    assert c.document_id in lines[1] and lines[1].endswith("gave up after 2 attempts: OCR timed out")
    argv = ["dlq", "list", "--json", "--data-dir", str(settings.server.data_dir)]
    capsys.readouterr()
    assert main(argv) == 0
    assert [r["document_id"] for r in json.loads(capsys.readouterr().out)["items"]] == [c.document_id]
    assert main(["dlq", "redrive", "--data-dir", str(settings.server.data_dir)]) == 2  # neither --all nor ids
    assert main(["dlq", "redrive", "nope", "--data-dir", str(settings.server.data_dir)]) == 1
    assert "nope  not_dead_lettered" in capsys.readouterr().out
    assert main(["dlq", "redrive", c.document_id, "--data-dir", str(settings.server.data_dir)]) == 0
    assert "1 document(s) redriven" in capsys.readouterr().out
    assert store.get_workflow("alice", c.workflow_id)["status"] == "pending"
    assert main(["dlq", "list", "--data-dir", str(settings.server.data_dir)]) == 0
    assert "no dead-lettered documents" in capsys.readouterr().out
