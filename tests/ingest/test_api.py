"""The ingest HTTP API end to end over real HTTP (uvicorn on loopback): upload → completed, SSE, segments,
page PNGs, dedup, ownership, bad files, reprocess — on embedded adapters and the real local retriever."""

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
from ingest.sample_docs import text_image, write_text_pdf
from retrieval.search import build_retriever
from retrieval.types import SearchFilter
from store.blobs import FileBlobStore
from store.config import Settings
from store.schema import WORKFLOW_TABLE
from store.sqlite_items import SqliteItemTable
from tests.ingest.tablefactory import financial_table, positioned_pdf

ALICE = {"Authorization": "Bearer dev:alice"}
BOB = {"Authorization": "Bearer dev:bob"}


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
    runner = svc.runner()  # in-process workers, as `docchat up` runs them
    app = create_app(settings, services=Services(
        settings, dependencies={"uploads": svc.uploads, "documents": svc.documents},
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
                             chunk_overlap_tokens=8, sse_keepalive_seconds=1.0)


async def _events(client, wid, headers=ALICE):
    out = []
    async with client.stream("GET", f"/v1/workflows/{wid}/events", headers=headers) as resp:
        assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/event-stream")
        event = None
        async for line in resp.aiter_lines():
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and line[5:].strip():
                out.append((event, json.loads(line.split(":", 1)[1])))
                event = None
    return out


async def _upload(client, pid, name, data, headers=ALICE):
    return await client.post(f"/v1/projects/{pid}/documents", files={"file": (name, data, "application/pdf")},
                             headers=headers)


async def test_pdf_upload_to_completed_with_events_segments_pages_dedup_and_ownership(settings, tmp_path):
    pdf = write_text_pdf(tmp_path / "report.pdf", 3, lines=20).read_bytes()
    async with _serve(settings) as (client, svc):
        r = await client.post("/v1/projects", json={"name": "Reports"}, headers=ALICE)
        assert r.status_code == 201, r.text
        pid = r.json()["project_id"]
        assert [p["name"] for p in (await client.get("/v1/projects", headers=ALICE)).json()["items"]] == ["Reports"]
        assert (await client.get("/v1/projects", headers=BOB)).json()["items"] == []

        r = await _upload(client, pid, "report.pdf", pdf)
        assert r.status_code == 202, r.text
        body = r.json()
        assert body["status"] == "pending" and body["page_count"] == 3
        wid, did = body["workflow_id"], body["document_id"]

        events = await _events(client, wid)
        assert events[-1][0] == "completed" and events[-1][1]["status"] == "completed"
        progress = [e[1]["progress"] for e in events]
        assert progress == sorted(progress) and progress[-1] == 1.0

        wf = (await client.get(f"/v1/workflows/{wid}", headers=ALICE)).json()
        assert wf["status"] == "completed" and wf["total_segments"] == 3 and wf["document_id"] == did
        assert wf["steps"]["segment_prep"]["status"] == "completed"
        assert wf["steps"]["segment_analyzer"]["status"] == "completed"

        first = (await client.get(f"/v1/workflows/{wid}/segments", params={"limit": 2}, headers=ALICE)).json()
        assert [s["page"] for s in first["items"]] == [1, 2] and first["next_cursor"]
        rest = (await client.get(f"/v1/workflows/{wid}/segments", params={"cursor": first["next_cursor"]},
                                 headers=ALICE)).json()
        assert [s["page"] for s in rest["items"]] == [3] and rest["next_cursor"] is None
        seg = first["items"][1]
        assert seg["text"].startswith("Page 2") and seg["source"] == "text_layer"
        assert seg["lines"][0]["bbox"] and seg["image_url"] == f"/v1/documents/{did}/pages/2.png"
        # segment_analyzer's layout: blocks in reading order over the page's lines, nothing invented
        layout = seg["analysis"]
        assert layout["page"] == 2 and layout["source"] == "local" and layout["summary"] is None
        assert layout["blocks"] and layout["reading_order"] == [b["id"] for b in layout["blocks"]]
        assert " ".join(b["text"] for b in layout["blocks"]).startswith("Page 2")

        png = await client.get(f"/v1/documents/{did}/pages/2.png", headers=ALICE)
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        assert png.content.startswith(b"\x89PNG")
        # the page size in points (the unit of segment / citation boxes) for the viewer's highlights
        assert (png.headers["X-Page-Width-Pt"], png.headers["X-Page-Height-Pt"]) == ("612", "792")
        assert float(png.headers["X-Render-DPI"]) == pytest.approx(settings.ingest.render_dpi, rel=0.01)
        assert (await client.get(f"/v1/documents/{did}/pages/4.png", headers=ALICE)).status_code == 404

        again = await _upload(client, pid, "copy.pdf", pdf)
        assert again.status_code == 200 and (again.json()["document_id"], again.json()["workflow_id"]) == (did, wid)
        docs = (await client.get(f"/v1/projects/{pid}/documents", headers=ALICE)).json()["items"]
        assert len(docs) == 1 and docs[0]["status"] == "completed" and docs[0]["page_count"] == 3
        assert docs[0]["file_name"] == "report.pdf"
        summary = docs[0]["summary"]  # document_summarizer (extractive on the embedded default)
        assert summary["kind"] == "extractive" and summary["page_count"] == 3
        assert wf["steps"]["document_summarizer"]["status"] == "completed"
        doc = (await client.get(f"/v1/documents/{did}", headers=ALICE)).json()
        assert doc["document_id"] == did and doc["project_id"] == pid and doc["summary"] == summary
        assert doc["file_name"] == "report.pdf" and doc["status"] == "completed"
        assert doc["identity"] == {}  # a report without a filing's cover names no company
        project = (await client.get(f"/v1/projects/{pid}", headers=ALICE)).json()
        assert project["counts"]["completed"] == 1 and project["documents"] == 1

        hits = await svc.index.search("Page 2 section", SearchFilter(project_id=pid), k=3)
        assert hits and hits[0].document_id == did
        # the layout made by the chunker survives the pipeline and the index: pages and line boxes in the hit
        assert hits[0].page_offsets[0] == (hits[0].page_start, 0)
        assert [p for p, _ in hits[0].page_offsets][-1] == hits[0].page_end
        assert hits[0].line_boxes and all(b.page in range(1, 4) for _, b in hits[0].line_boxes)
        page = await svc.reader.read_page("alice", did, 2)
        assert page.text.startswith("Page 2") and page.page_count == 3

        for path in (f"/v1/projects/{pid}", f"/v1/projects/{pid}/documents", f"/v1/workflows/{wid}",
                     f"/v1/workflows/{wid}/segments", f"/v1/workflows/{wid}/events",
                     f"/v1/documents/{did}/pages/1.png", f"/v1/documents/{did}"):
            assert (await client.get(path, headers=BOB)).status_code == 404, path
        assert (await _upload(client, pid, "x.pdf", pdf, headers=BOB)).status_code == 404
        assert (await client.post(f"/v1/workflows/{wid}/reprocess", headers=BOB)).status_code == 404
        assert (await client.get(f"/v1/workflows/{wid}")).status_code == 401

        r = await client.post(f"/v1/workflows/{wid}/reprocess", headers=ALICE)
        assert r.status_code == 202 and r.json()["status"] == "pending"
        events = await _events(client, wid)
        assert events[-1][0] == "completed"
        assert (await client.get(f"/v1/workflows/{wid}", headers=ALICE)).json()["attempts"] == 1


FIN_HEADER_MD = "|  | Three Months Ended / December 31, 2022 | Three Months Ended / December 25, 2021 | Change |"


async def test_a_text_pdf_with_a_table_gives_table_grids_and_a_markdown_read_page(settings, tmp_path):
    pdf = positioned_pdf([[(72, 60, "Quarterly report", 9.0)], financial_table()])
    async with _serve(settings) as (client, svc):
        pid = (await client.post("/v1/projects", json={"name": "Tables"}, headers=ALICE)).json()["project_id"]
        body = (await _upload(client, pid, "fin.pdf", pdf)).json()
        wid, did = body["workflow_id"], body["document_id"]
        assert (await _events(client, wid))[-1][0] == "completed"

        items = (await client.get(f"/v1/workflows/{wid}/segments", headers=ALICE)).json()["items"]
        assert [s["page"] for s in items] == [1, 2] and items[0]["table_grids"] == []
        (grid,) = items[1]["table_grids"]  # as stored: Table.to_json()
        stored = json.loads(svc.blobs.get(f"workflows/{wid}/segments/0002.json"))["table_grids"]
        assert [grid] == stored
        assert grid["headers"] == ["", "Three Months Ended / December 31, 2022",
                                   "Three Months Ended / December 25, 2021", "Change"]
        assert grid["caption"].endswith("net sales by category (dollars in millions):")
        assert grid["unit"] == "(dollars in millions)"
        assert ["iPhone", "$65,775", "$71,628", "(8)%"] in grid["rows"]
        cell = next(c for c in grid["cells"] if c["text"] == "$65,775")
        assert not cell["header"] and cell["col"] == 1 and len(cell["bbox"]) == 4
        assert cell["bbox"][1] == pytest.approx(178, abs=3)  # points from the page's top, like the lines
        assert FIN_HEADER_MD + "\n|---|---|---|---|\n" in grid["markdown"]
        assert items[1]["tables"] == [grid["header"] + grid["rows"]]  # the old shape stays

        page = await svc.reader.read_page("alice", did, 2)
        text = page.text
        assert text.startswith("Products and Services Performance\nThe following table shows net sales by category"
                               " (dollars in millions):\n" + FIN_HEADER_MD + "\n|---|---|---|---|\n")
        assert "| iPhone | $65,775 | $71,628 | (8)% |\n| Mac | 7,735 | 10,852 | (29)% |" in text
        assert "| Total net sales | $117,154 | $123,945 | (5)% |" in text
        assert "iPhone(1) $ 65,775" not in text and "December 31, December 25," not in text  # no flat copy
        assert text.endswith("|\n\niPhone net sales decreased during the quarter compared to the same quarter a year"
                             "\nago, due primarily to lower net sales from the new models launched in the year.")
        assert text.count("Products and Services Performance") == 1
        first = await svc.reader.read_page("alice", did, 1)
        assert first.text == items[0]["text"] == "Quarterly report"  # a page without a table: its plain text


async def test_png_upload_goes_through_ocr(settings, tmp_path):
    png = text_image(["INVOICE 4711", "Total amount 93.50"], width=700, height=260, font_size=36)
    async with _serve(settings) as (client, _svc):
        pid = (await client.post("/v1/projects", json={"name": "Scans"}, headers=ALICE)).json()["project_id"]
        r = await client.post(f"/v1/projects/{pid}/documents", files={"file": ("scan.bin", png, "text/plain")},
                              headers=ALICE)
        assert r.status_code == 202, r.text
        wid = r.json()["workflow_id"]
        events = await _events(client, wid)
        assert events[-1][0] == "completed", events[-1]
        wf = events[-1][1]
        assert wf["steps"]["paddleocr_processor"]["status"] == "completed"
        assert wf["steps"]["format_parser"]["status"] == "skipped"
        seg = (await client.get(f"/v1/workflows/{wid}/segments", headers=ALICE)).json()["items"][0]
        assert seg["source"] == "ocr" and "4711" in seg["text"]
        line = seg["lines"][0]
        assert 0 < line["confidence"] <= 1 and len(line["bbox"]) == 4
        page = await client.get(f"/v1/documents/{r.json()['document_id']}/pages/1.png", headers=ALICE)
        assert page.status_code == 200
        # an image without a DPI tag is 72 DPI: 1 px = 1 pt, the same points its OCR boxes are in
        assert (page.headers["X-Page-Width-Pt"], page.headers["X-Page-Height-Pt"]) == ("700", "260")
        assert page.headers["X-Render-DPI"] == "72"
        assert line["bbox"][2] <= 700 and line["bbox"][3] <= 260


async def test_bad_uploads_get_a_clear_4xx_and_nothing_is_created(settings, tmp_path):
    pdf = write_text_pdf(tmp_path / "ok.pdf", 2).read_bytes()
    async with _serve(settings) as (client, _svc):
        pid = (await client.post("/v1/projects", json={"name": "P"}, headers=ALICE)).json()["project_id"]
        cases = {
            "empty": (b"", 400),
            "not a document": (b"hello, this is plain text" * 10, 415),
            "truncated pdf": (pdf[: len(pdf) // 3], 400),
            "too large": (b"%PDF-1.4\n" + b"0" * 2_100_000, 413),
        }
        for name, (data, status) in cases.items():
            r = await _upload(client, pid, name, data)
            assert r.status_code == status, (name, r.status_code, r.text)
            assert r.json()["error"]["message"], name
        r = await client.post(f"/v1/projects/{pid}/documents", files={"other": ("x", pdf)}, headers=ALICE)
        assert r.status_code == 400 and "'file'" in r.json()["error"]["message"]
        r = await client.post(f"/v1/projects/{pid}/documents", content=pdf, headers={**ALICE,
                                                                                   "content-type": "application/pdf"})
        assert r.status_code == 415
        assert (await client.get(f"/v1/projects/{pid}/documents", headers=ALICE)).json()["items"] == []
        assert (await client.get("/v1/projects/nope/documents", headers=ALICE)).status_code == 404
        assert (await client.get("/v1/workflows/nope", headers=ALICE)).status_code == 404
        assert not list((settings.server.data_dir / "tmp").glob("*"))  # temp files cleaned up


async def test_delete_document_forgets_it_everywhere_and_keeps_the_others(settings, tmp_path):
    keep_pdf = write_text_pdf(tmp_path / "keep.pdf", 2, lines=12, seed=1).read_bytes()
    gone_pdf = write_text_pdf(tmp_path / "gone.pdf", 3, lines=12, seed=2).read_bytes()
    async with _serve(settings) as (client, svc):
        pid = (await client.post("/v1/projects", json={"name": "P"}, headers=ALICE)).json()["project_id"]
        kept = (await _upload(client, pid, "keep.pdf", keep_pdf)).json()
        gone = (await _upload(client, pid, "gone.pdf", gone_pdf)).json()
        for body in (kept, gone):
            assert (await _events(client, body["workflow_id"]))[-1][0] == "completed"
        did, wid = gone["document_id"], gone["workflow_id"]
        assert await svc.index.search("Page 2", SearchFilter(pid, (did,)), k=3)

        assert (await client.delete(f"/v1/projects/{pid}/documents/{did}", headers=BOB)).status_code == 404
        r = await client.delete(f"/v1/projects/{pid}/documents/{did}", headers=ALICE)
        assert r.status_code == 204, r.text

        docs = (await client.get(f"/v1/projects/{pid}/documents", headers=ALICE)).json()["items"]
        assert [d["document_id"] for d in docs] == [kept["document_id"]]
        project = (await client.get(f"/v1/projects/{pid}", headers=ALICE)).json()
        assert project["documents"] == 1 and project["counts"]["completed"] == 1
        for path in (f"/v1/workflows/{wid}", f"/v1/workflows/{wid}/segments", f"/v1/documents/{did}/pages/1.png"):
            assert (await client.get(path, headers=ALICE)).status_code == 404, path
        assert await svc.index.search("Page 2", SearchFilter(pid, (did,)), k=3) == []
        assert await svc.index.search("Page 2", SearchFilter(pid, (kept["document_id"],)), k=3)
        assert list(svc.blobs.list(f"workflows/{wid}/")) == []
        assert not [k for k in svc.blobs.list(f"projects/{pid}/documents/{did}/")]
        assert svc.store.items.query(f"WF#{wid}").items == []
        assert (await client.delete(f"/v1/projects/{pid}/documents/{did}", headers=ALICE)).status_code == 404

        # the same bytes can come back as a new document (the content hash went with the old one)
        again = await _upload(client, pid, "gone.pdf", gone_pdf)
        assert again.status_code == 202 and again.json()["document_id"] != did
        assert (await _events(client, again.json()["workflow_id"]))[-1][0] == "completed"


async def test_a_document_being_processed_cannot_be_deleted(settings, tmp_path):
    from store.workflows import NewDocument

    async with _serve(settings) as (client, svc):
        pid = (await client.post("/v1/projects", json={"name": "P"}, headers=ALICE)).json()["project_id"]
        created = svc.store.create_workflow(NewDocument(
            project_id=pid, owner="alice", file_name="x.pdf", file_type="application/pdf", file_kind="pdf",
            file_key="k", file_uri="file://k", size=1, sha256="ab" * 32, page_count=1, language="en",
            priority="high"))
        outcome, claim = svc.store.claim(created.document_id, created.workflow_id, lease_s=60)
        assert outcome == "claimed" and claim is not None
        r = await client.delete(f"/v1/projects/{pid}/documents/{created.document_id}", headers=ALICE)
        assert r.status_code == 409 and "being processed" in r.text
        docs = (await client.get(f"/v1/projects/{pid}/documents", headers=ALICE)).json()["items"]
        assert [d["document_id"] for d in docs] == [created.document_id]


async def test_delete_project_removes_its_documents_and_itself(settings, tmp_path):
    pdf = write_text_pdf(tmp_path / "a.pdf", 2, lines=10, seed=3).read_bytes()
    async with _serve(settings) as (client, svc):
        pid = (await client.post("/v1/projects", json={"name": "Old"}, headers=ALICE)).json()["project_id"]
        other = (await client.post("/v1/projects", json={"name": "Keep"}, headers=ALICE)).json()["project_id"]
        body = (await _upload(client, pid, "a.pdf", pdf)).json()
        assert (await _events(client, body["workflow_id"]))[-1][0] == "completed"

        assert (await client.delete(f"/v1/projects/{pid}", headers=BOB)).status_code == 404
        assert (await client.delete(f"/v1/projects/{pid}", headers=ALICE)).status_code == 204
        names = [p["name"] for p in (await client.get("/v1/projects", headers=ALICE)).json()["items"]]
        assert names == ["Keep"]
        assert (await client.get(f"/v1/projects/{pid}", headers=ALICE)).status_code == 404
        assert (await client.get(f"/v1/documents/{body['document_id']}/pages/1.png", headers=ALICE)).status_code == 404
        assert await svc.index.search("Page 1", SearchFilter(pid), k=3) == []
        assert svc.store.items.query(f"PROJ#{pid}").items == []
        assert list(svc.blobs.list(f"projects/{pid}/")) == []
        assert (await client.delete(f"/v1/projects/{pid}", headers=ALICE)).status_code == 404
        assert (await client.get(f"/v1/projects/{other}", headers=ALICE)).status_code == 200
