"""Issue 15 end to end over real HTTP: an uploaded receipt gets fields with confidence, the doubtful total lands in
the review queue, a correction changes the indexed text (what the chat retrieves) and shows in the audit log,
reviewers see only shared projects, and the document exports as Markdown and JSON."""

from __future__ import annotations

import asyncio
import json
import socket
from contextlib import asynccontextmanager

import httpx
import pytest
import uvicorn

from chat.app.factory import create_app
from chat.app.wiring import Services
from ingest.build import build_ingest
from ingest.review import Reviews
from retrieval.search import build_retriever
from retrieval.types import SearchFilter
from store.blobs import FileBlobStore
from store.config import Settings
from store.schema import WORKFLOW_TABLE
from store.sqlite_items import SqliteItemTable
from tests.ingest.docfactory import text_pdf

ALICE = {"Authorization": "Bearer dev:alice"}
BOB = {"Authorization": "Bearer dev:bob"}
RITA = {"Authorization": "Bearer dev:rita"}  # a reviewer (DOCCHAT_REVIEWER_USERS)

RECEIPT = ["ACME TRADING SDN BHD", "Invoice No: INV-0042", "Date: 25/12/2023", "Sub Total 8.00", "GST 6% 0.51",
           "Total 9.00", "Thank you"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def _serve(settings: Settings):
    items = SqliteItemTable(settings.server.data_dir / "workflows.db", WORKFLOW_TABLE, purge_interval_s=None)
    retriever = build_retriever(settings)
    svc = build_ingest(settings, items=items, blobs=FileBlobStore(settings.server.data_dir / "blobs" / "documents"),
                       index=retriever)
    runner = svc.runner()
    reviews = Reviews(settings, store=svc.store, blobs=svc.blobs, index=svc.index)
    app = create_app(settings, services=Services(
        settings, dependencies={"uploads": svc.uploads, "documents": svc.documents, "reviews": reviews},
        on_start=[retriever.start, runner.start], on_stop=[runner.stop, svc.close]))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve())
    for _ in range(1000):
        if server.started:
            break
        await asyncio.sleep(0.01)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            yield client, svc
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 20)
        await retriever.close()
        items.close()


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings.from_env(env={}, data_dir=tmp_path / "data", max_upload_bytes=2_000_000, chunk_tokens=64,
                             chunk_overlap_tokens=8, reviewer_users="rita")


async def _wait_done(client, wid) -> None:
    for _ in range(600):
        wf = (await client.get(f"/v1/workflows/{wid}", headers=ALICE)).json()
        if wf["status"] in ("completed", "failed"):
            assert wf["status"] == "completed", wf
            return
        await asyncio.sleep(0.05)
    raise AssertionError("not done")


async def test_fields_review_correction_audit_and_export(settings) -> None:
    async with _serve(settings) as (client, svc):
        pid = (await client.post("/v1/projects", json={"name": "Receipts"}, headers=ALICE)).json()["project_id"]
        r = await client.post(f"/v1/projects/{pid}/documents", headers=ALICE,
                              files={"file": ("receipt.pdf", text_pdf([RECEIPT]), "application/pdf")})
        did, wid = r.json()["document_id"], r.json()["workflow_id"]
        await _wait_done(client, wid)
        wf = (await client.get(f"/v1/workflows/{wid}", headers=ALICE)).json()
        assert wf["steps"]["field_extractor"]["status"] == "completed"

        # 8.00 + 0.51 != 9.00: the total goes to review with the reason; the rest is trusted
        queue = (await client.get(f"/v1/projects/{pid}/review", headers=ALICE)).json()
        assert [i["field"] for i in queue["items"]] == ["total"]
        item = queue["items"][0]
        assert item["value"] == "9.00" and item["page"] == 1 and item["bbox"] and item["source"] == "text_layer"
        assert any(x.startswith("total_mismatch") for x in item["reasons"])
        iid = item["item_id"]

        # nobody else sees it: not bob, not a reviewer the project was not shared with
        assert (await client.get(f"/v1/projects/{pid}/review", headers=BOB)).status_code == 404
        assert (await client.get(f"/v1/projects/{pid}/review", headers=RITA)).status_code == 404
        assert (await client.put(f"/v1/projects/{pid}/reviewers", json={"users": ["rita"]},
                                 headers=BOB)).status_code == 404
        assert (await client.put(f"/v1/projects/{pid}/reviewers", json={"users": ["rita"]},
                                 headers=ALICE)).status_code == 200
        assert (await client.get(f"/v1/projects/{pid}/review", headers=RITA)).json()["items"][0]["item_id"] == iid
        assert (await client.get(f"/v1/projects/{pid}/review", headers=BOB)).status_code == 404

        # claim is exclusive; deciding needs the claim
        no_claim = await client.post(f"/v1/projects/{pid}/review/{iid}/decision", headers=ALICE,
                                     json={"decision": "accept"})
        assert no_claim.status_code == 409
        assert (await client.post(f"/v1/projects/{pid}/review/{iid}/claim", headers=RITA)).status_code == 201
        assert (await client.post(f"/v1/projects/{pid}/review/{iid}/claim", headers=ALICE)).status_code == 409
        bad = await client.post(f"/v1/projects/{pid}/review/{iid}/decision", headers=RITA,
                                json={"decision": "correct", "value": "nine"})
        assert bad.status_code == 400
        before = await svc.index.search("Total 8.51", SearchFilter(pid, (did,)), k=3)
        assert before and "Total 9.00" in before[0].text
        r = await client.post(f"/v1/projects/{pid}/review/{iid}/decision", headers=RITA,
                              json={"decision": "correct", "value": "8.51"})
        assert r.status_code == 201 and r.json()["status"] == "resolved", r.text
        assert (await client.get(f"/v1/projects/{pid}/review", headers=ALICE)).json()["items"] == []

        # the chat retrieves the corrected text; the page reads the corrected value
        hits = await svc.index.search("Total 8.51", SearchFilter(pid, (did,)), k=3)
        assert "Total 8.51" in hits[0].text and "Total 9.00" not in hits[0].text
        page = (await svc.documents.read_page("alice", did, 1)).text
        assert "Total 8.51" in page

        # the audit log: the analysis by the system, the decision and the correction by rita (before/after)
        audit = (await client.get(f"/v1/projects/{pid}/audit", headers=ALICE)).json()["items"]
        acts = [(e["action"], e["actor"]) for e in audit]
        assert ("correction", "rita") in acts and ("review_decision", "rita") in acts and ("analysis", "system") in acts
        corr = next(e for e in audit if e["action"] == "correction")
        assert (corr["before"], corr["after"]) == ("9.00", "8.51")
        assert corr["segment_before"].startswith("sha256:") and corr["segment_before"] != corr["segment_after"]
        assert (await client.get(f"/v1/projects/{pid}/audit", headers=BOB)).status_code == 404

        # exports stream the whole parsed document
        md = await client.get(f"/v1/documents/{did}/export", params={"format": "markdown"}, headers=ALICE)
        assert md.status_code == 200 and md.headers["content-type"].startswith("text/markdown")
        assert "attachment" in md.headers["content-disposition"]
        assert "## Page 1" in md.text and "| total | 8.51 | 8.51 | 1.0 | 1 |" in md.text and "Total 8.51" in md.text
        js = await client.get(f"/v1/documents/{did}/export", params={"format": "json"}, headers=ALICE)
        doc = json.loads(js.content)
        assert doc["page_count"] == 1 and doc["pages"][0]["page"] == 1
        assert {f["name"]: f["normalized"] for f in doc["fields"]}["date"] == "2023-12-25"
        assert (await client.get(f"/v1/documents/{did}/export", headers=BOB)).status_code == 404
        assert (await client.get(f"/v1/documents/{did}/export", params={"format": "pdf"},
                                 headers=ALICE)).status_code == 400

        # deleting the document removes its content and review items, never its audit trail
        assert (await client.delete(f"/v1/projects/{pid}/documents/{did}", headers=ALICE)).status_code == 204
        audit = (await client.get(f"/v1/projects/{pid}/audit", headers=ALICE)).json()["items"]
        assert audit[0]["action"] == "delete" and "upload" in [e["action"] for e in audit]
        upload = next(e for e in audit if e["action"] == "upload")
        assert upload["actor"] == "alice" and upload["after"].startswith("sha256:") and upload["document_id"] == did
        assert (await client.get(f"/v1/projects/{pid}/review", params={"status": "resolved"},
                                 headers=ALICE)).json()["items"] == []


async def test_deleting_a_shared_project_leaves_no_reviewer_index_behind(settings) -> None:
    async with _serve(settings) as (client, svc):
        pid = (await client.post("/v1/projects", json={"name": "Shared"}, headers=ALICE)).json()["project_id"]
        assert (await client.put(f"/v1/projects/{pid}/reviewers", json={"users": ["rita"]},
                                 headers=ALICE)).status_code == 200
        assert svc.store.items.query("REVIEWER#rita").items != []
        assert (await client.delete(f"/v1/projects/{pid}", headers=ALICE)).status_code == 204
        assert svc.store.items.query("REVIEWER#rita").items == []
        assert (await client.get("/v1/review/projects", headers=RITA)).json()["projects"] == []
