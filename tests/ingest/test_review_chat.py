"""A correction changes what the chat answers (issue 15), end to end on the real wiring (``build_services``: the
pipeline, the local embedder and index, the embedded extractive chat model): a receipt's doubtful total is in the
review queue, the chat quotes the printed value; the reviewer corrects it; only the changed page's chunks are
re-indexed; a new chat quotes the corrected value; the audit log holds the decision and the correction."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from chat.app.factory import create_app
from chat.app.wiring import build_services
from store.config import Settings
from tests.chat.chat_harness import ALICE, parse_sse
from tests.ingest.docfactory import text_pdf

FILLER = [f"Page {{p}} holds the delivery notes of week {i}, signed by the warehouse team." for i in range(6)]
RECEIPT = ["KEDAI BUKU PELANGI SDN BHD", "Invoice No: INV-0042", "Date: 25/12/2023", "Sub Total 8.00",
           "GST 6% 0.51", "Total 9.00", "Thank you for shopping"]


QUESTION = "How much is the total on the receipt?"


def _pages() -> list[list[str]]:
    return [[t.format(p=1) for t in FILLER], RECEIPT, [t.format(p=3) for t in FILLER]]


async def _ask(c: httpx.AsyncClient, pid: str, text: str) -> str:
    sid = (await c.post("/v1/sessions", json={"project_id": pid})).json()["session_id"]
    r = await c.post(f"/v1/sessions/{sid}/messages", json={"text": text})
    events = parse_sse(r.content)
    assert events[-1][0] == "done", events[-3:]
    return "".join(str(e[1].get("delta", "")) for e in events if e[0] == "text")


@pytest.mark.slow  # the whole pipeline with the real embedder (~1 min on 2 cores)
async def test_a_correction_changes_what_the_chat_answers_and_is_audited(tmp_path: Path) -> None:
    settings = Settings.from_env(env={}, data_dir=tmp_path / "data", chunk_tokens=64, chunk_overlap_tokens=8,
                                 disconnect_grace_seconds=0.0)
    svc = build_services(settings)
    await svc.start()
    try:
        transport = httpx.ASGITransport(app=create_app(settings, services=svc))
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost", headers=ALICE,
                                     timeout=120) as c:
            pid = (await c.post("/v1/projects", json={"name": "Receipts"})).json()["project_id"]
            r = await c.post(f"/v1/projects/{pid}/documents",
                             files={"file": ("receipt.pdf", text_pdf(_pages()), "application/pdf")})
            wid, did = r.json()["workflow_id"], r.json()["document_id"]
            for _ in range(1200):
                wf = (await c.get(f"/v1/workflows/{wid}")).json()
                if wf["status"] in ("completed", "failed"):
                    break
                await asyncio.sleep(0.1)
            assert wf["status"] == "completed", wf
            [item] = [i for i in (await c.get(f"/v1/projects/{pid}/review")).json()["items"] if i["field"] == "total"]
            assert item["value"] == "9.00" and item["page"] == 2

            before = await _ask(c, pid, QUESTION)
            assert "9.00" in before and "8.51" not in before

            reviews = svc.dependencies["reviews"]
            indexed: list[int] = []
            real = reviews._reindex

            async def spy(*a, **kw):
                n = await real(*a, **kw)
                indexed.append(n)
                return n

            reviews._reindex = spy
            iid = item["item_id"]
            assert (await c.post(f"/v1/projects/{pid}/review/{iid}/claim")).status_code == 201
            r = await c.post(f"/v1/projects/{pid}/review/{iid}/decision", json={"decision": "correct", "value": "8.51"})
            assert r.status_code == 201, r.text
            all_chunks = await reviews._chunks(pid, did, wid)
            changed = [ch for ch in all_chunks if "8.51" in ch.text]
            assert indexed == [len(changed)] and 0 < len(changed) < len(all_chunks)
            assert all(ch.page_start <= 2 <= ch.page_end for ch in changed)  # only the corrected page's chunks

            after = await _ask(c, pid, QUESTION)
            assert "8.51" in after and "Total 9.00" not in after

            audit = (await c.get(f"/v1/projects/{pid}/audit")).json()["items"]
            fixes = [(e["action"], e.get("what"), e.get("before"), e.get("after")) for e in audit]
            assert ("correction", "field:total", "9.00", "8.51") in fixes
            assert ("review_decision", "total", "9.00", "8.51") in fixes
    finally:
        await svc.stop()
