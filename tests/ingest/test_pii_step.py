"""The ``pii`` step: findings per segment (type, page, bbox, span — never the value in items), the document's
numbering next to its results, the per-project ``pii_mode`` override, and the project API for it."""

from __future__ import annotations

import json

from ingest.pii.masking import Placeholders, mask
from ingest.pii.service import DocumentMasker
from ingest.pii.step import segment_findings
from ingest.pipeline import Pipeline
from ingest.results import original_key, pii_key
from ingest.worker import Worker
from store.workflows import NewDocument
from tests.ingest.docfactory import text_pdf

EMAIL, PHONE, RRN = "kim.minsu@example.com", "010-2345-6789", "900101-1234568"
PAGES = [
    ["Application form", f"Email: {EMAIL}", f"Phone: {PHONE}", f"Resident registration number: {RRN}"],
    ["Net sales were $94.8 billion, up 1.4% from 2,345,678 in fiscal 2022.", f"Call back: {PHONE}"],
]


def _submit(store, blobs, queue, tmp_path, *, pii_mode=None):
    pid = store.create_project("alice", "P")["project_id"]
    if pii_mode:
        store.set_project_pii_mode("alice", pid, pii_mode)
    data = text_pdf(PAGES)
    key = original_key(pid, "d", ".pdf")
    blobs.put(key, data)
    created = store.create_workflow(NewDocument(
        owner="alice", project_id=pid, file_name="form.pdf", file_type="application/pdf", file_kind="pdf",
        file_key=key, file_uri="blob://" + key, size=len(data), sha256="e" * 64, page_count=len(PAGES),
        language="en", priority="high"))
    queue.send({"workflow_id": created.workflow_id, "document_id": created.document_id, "project_id": pid},
               priority="high")
    return pid, created


async def _run(settings, store, blobs, queue, indexer, clock):
    worker = Worker(store=store, queue=queue, pipeline=Pipeline(settings, store, blobs, indexer), settings=settings,
                    clock=clock)
    assert await worker.run_once() == "completed"


def test_segment_findings_have_type_page_box_and_span() -> None:
    seg = {"page": 3, "text": f"Name Kim\nPhone: {PHONE}",
           "lines": [{"text": "Name Kim", "bbox": [72, 100, 140, 112]},
                     {"text": f"Phone: {PHONE}", "bbox": [72, 120, 192, 132]}]}
    ph = Placeholders()
    [f] = segment_findings(seg, ph)
    assert f["type"] == "PHONE" and f["page"] == 3 and seg["text"][f["start"]:f["end"]] == PHONE
    x0, y0, x1, y1 = f["bbox"]  # narrowed to the value's share of its line (7 of 20 characters in)
    assert (x0, y0, x1, y1) == (72 + 7 * 6.0, 120.0, 192.0, 132.0)
    assert mask(f"again {PHONE}", ph) == "again [PHONE_1]"
    assert segment_findings({"page": 1, "text": f"{PHONE}", "lines": []})[0]["bbox"] is None


async def test_the_pii_step_stores_findings_per_segment_and_never_the_values(settings, store, blobs, queue, indexer,
                                                                           clock, items, tmp_path):
    _pid, c = _submit(store, blobs, queue, tmp_path)
    await _run(settings, store, blobs, queue, indexer, clock)
    step = store.get_workflow("alice", c.workflow_id)["steps"]["pii"]
    assert step["status"] == "completed" and step["reason"] == "1 EMAIL, 2 PHONE, 1 RRN"
    seg1, seg2 = store.list_segments(c.workflow_id).items
    assert sorted(f["type"] for f in seg1["pii"]) == ["EMAIL", "PHONE", "RRN"] and seg1["pii_count"] == 3
    assert [f["type"] for f in seg2["pii"]] == ["PHONE"]  # the 10-Q sentence on the same page is not data
    assert all(f["page"] == 2 and len(f["bbox"]) == 4 for f in seg2["pii"])
    # no value in any item of the workflow table (segments, steps, workflow, project)
    dump = json.dumps([store.items.get(f"WF#{c.workflow_id}", "STEP"), store.list_segments(c.workflow_id).items,
                       store.get_workflow("alice", c.workflow_id)], default=str)
    assert EMAIL not in dump and PHONE not in dump and RRN not in dump
    # the numbering is stored with the document's results: the same phone is [PHONE_1] on both pages
    numbering = Placeholders.from_json(json.loads(blobs.get(pii_key(c.workflow_id))))
    assert mask(f"{PHONE} / {EMAIL} / {RRN}", numbering) == "[PHONE_1] / [EMAIL_1] / [RRN_1]"
    masker = DocumentMasker(settings, store=store, blobs=blobs)
    assert await masker.mask_texts("alice", c.document_id, [f"call {PHONE}"]) == ["call [PHONE_1]"]


async def test_a_project_with_pii_mode_off_skips_the_step_and_masks_nothing(settings, store, blobs, queue, indexer,
                                                                           clock, tmp_path):
    pid, c = _submit(store, blobs, queue, tmp_path, pii_mode="off")
    assert store.get_project("alice", pid)["pii_mode"] == "off"
    await _run(settings, store, blobs, queue, indexer, clock)
    step = store.get_workflow("alice", c.workflow_id)["steps"]["pii"]
    assert step["status"] == "skipped" and "off" in step["reason"]
    assert "pii" not in store.list_segments(c.workflow_id).items[0]
    masker = DocumentMasker(settings, store=store, blobs=blobs)
    assert await masker.mask_texts("alice", c.document_id, [f"call {PHONE}"]) == [f"call {PHONE}"]
    # switched to mask: applies at once, with the detectors' own numbering (nothing stored for this document)
    store.set_project_pii_mode("alice", pid, "mask")
    assert await masker.mask_texts("alice", c.document_id, [f"call {PHONE}"]) == ["call [PHONE_1]"]
    store.set_project_pii_mode("alice", pid, None)
    assert store.get_project("alice", pid)["pii_mode"] is None


async def test_the_deployment_default_off_is_overridden_by_a_project(settings, store, blobs, queue, indexer, clock,
                                                                    tmp_path):
    off = settings.with_overrides(pii_mode="off")
    _pid, c = _submit(store, blobs, queue, tmp_path, pii_mode="mask")
    await _run(off, store, blobs, queue, indexer, clock)
    assert store.get_workflow("alice", c.workflow_id)["steps"]["pii"]["status"] == "completed"
    masker = DocumentMasker(off, store=store, blobs=blobs)
    assert await masker.mask_texts("alice", c.document_id, [EMAIL]) == ["[EMAIL_1]"]


async def test_the_project_api_sets_and_clears_a_projects_pii_mode(settings, items, blobs, queue, indexer):
    import httpx

    from chat.app.factory import create_app
    from chat.app.wiring import Services
    from ingest.build import build_ingest

    parts = build_ingest(settings, items=items, blobs=blobs, index=indexer, queue=queue)
    app = create_app(settings, services=Services(settings, dependencies={"uploads": parts.uploads,
                                                                         "documents": parts.documents}))
    alice, bob = {"Authorization": "Bearer dev:alice"}, {"Authorization": "Bearer dev:bob"}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://localhost") as c:
        r = await c.post("/v1/projects", json={"name": "HR", "pii_mode": "off"}, headers=alice)
        assert r.status_code == 201 and r.json()["pii_mode"] == "off"
        pid = r.json()["project_id"]
        r = await c.patch(f"/v1/projects/{pid}", json={"pii_mode": "mask"}, headers=alice)
        assert r.status_code == 200 and r.json()["pii_mode"] == "mask"
        assert (await c.get(f"/v1/projects/{pid}", headers=alice)).json()["pii_mode"] == "mask"
        assert (await c.patch(f"/v1/projects/{pid}", json={"pii_mode": "loud"}, headers=alice)).status_code == 400
        assert (await c.patch(f"/v1/projects/{pid}", json={"name": "x"}, headers=alice)).status_code == 400
        assert (await c.patch(f"/v1/projects/{pid}", json={"pii_mode": "off"}, headers=bob)).status_code == 404
        r = await c.patch(f"/v1/projects/{pid}", json={"pii_mode": None}, headers=alice)
        assert r.status_code == 200 and r.json()["pii_mode"] is None
    assert parts.masker is not None
