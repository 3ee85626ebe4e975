"""Personal data end to end: a PDF with an e-mail, a phone number and a resident registration number goes
through the real pipeline (pii step → findings per segment), and a *remote* chat model (the ScriptedModel
standing in for Bedrock) never receives one of the values — not in search results, not in read_page, not
in the title request — while the owner's own view (segments API, citations) shows the original."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from chat.app.factory import create_app
from chat.app.wiring import build_services
from chat.models.port import ModelRequest
from chat.models.scripted import Reply, ScriptedModel, Text, ToolUse
from store.config import Settings
from tests.chat.chat_harness import ALICE, parse_sse
from tests.ingest.docfactory import text_pdf

EMAIL, PHONE, RRN = "hong.gildong@example.com", "010-2345-6789", "900101-1234568"
VALUES = (EMAIL, PHONE, RRN, "23456789", "1234568", "hong.gildong")


def _pdf() -> bytes:
    return text_pdf([[
        "Customer record for the loan application.",
        f"Email: {EMAIL}",
        f"Mobile phone: {PHONE}",
        f"Resident registration number: {RRN}",
        "Loan amount 25,000,000 KRW approved on 2024-03-15 for the customer.",
    ], [
        f"Page two. Call the customer back on {PHONE} about the loan.",
    ]])


def _script(document_id: list[str]):
    def reply(request: ModelRequest) -> Any:
        if request.purpose == "title":
            return Reply(Text("Customer contact"))
        rounds = sum(1 for m in request.messages if m["role"] == "assistant")
        if rounds == 0:
            return Reply(ToolUse("search_documents", {"query": "customer email phone loan"}))
        if rounds == 1:
            return Reply(ToolUse("read_page", {"document_id": document_id[0], "page": 1}))
        return Reply(Text("Reach the customer at [EMAIL_1] or [PHONE_1] [S1]."))
    return reply


def _sent(request: ModelRequest) -> str:
    return json.dumps({"system": request.system, "messages": request.messages}, ensure_ascii=False)


async def _ingest(c: httpx.AsyncClient) -> tuple[str, str, str]:
    pid = (await c.post("/v1/projects", json={"name": "Loans"})).json()["project_id"]
    r = await c.post(f"/v1/projects/{pid}/documents", files={"file": ("hong gildong 010-2345-6789.pdf", _pdf(),
                                                                       "application/pdf")})
    assert r.status_code == 202, r.text
    wid, did = r.json()["workflow_id"], r.json()["document_id"]
    for _ in range(600):
        wf = (await c.get(f"/v1/workflows/{wid}")).json()
        if wf["status"] in ("completed", "failed"):
            break
        await asyncio.sleep(0.1)
    assert wf["status"] == "completed", wf
    assert wf["steps"]["pii"]["status"] == "completed"
    return pid, wid, did


@pytest.mark.slow  # the whole pipeline with the real embedder (~1 min on 2 cores); the fast twin is in tests/chat/core
async def test_a_remote_model_never_receives_an_unmasked_value(tmp_path: Path) -> None:
    settings = Settings.from_env(env={}, data_dir=tmp_path / "data", chat_model="bedrock", chunk_tokens=64,
                                 chunk_overlap_tokens=8, disconnect_grace_seconds=0.0)
    document_id: list[str] = []
    model = ScriptedModel(_script(document_id))
    svc = build_services(settings, model=model)
    await svc.start()
    try:
        transport = httpx.ASGITransport(app=create_app(settings, services=svc))
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost", headers=ALICE,
                                     timeout=60) as c:
            pid, wid, did = await _ingest(c)
            document_id.append(did)

            # the owner's view: original text, and the findings (types, boxes, spans — never the value)
            seg = (await c.get(f"/v1/workflows/{wid}/segments")).json()["items"][0]
            assert EMAIL in seg["text"] and PHONE in seg["text"] and RRN in seg["text"]
            assert sorted(f["type"] for f in seg["pii"]) == ["EMAIL", "PHONE", "RRN"]
            for f in seg["pii"]:
                assert f["page"] == 1 and len(f["bbox"]) == 4 and seg["text"][f["start"]:f["end"]] in (EMAIL, PHONE,
                                                                                                      RRN)
                assert not any(v in json.dumps(f) for v in VALUES)

            sid = (await c.post("/v1/sessions", json={"project_id": pid})).json()["session_id"]
            r = await c.post(f"/v1/sessions/{sid}/messages", json={"text": "How do I contact the customer?"})
            events = parse_sse(r.content)
            assert events[-1][0] == "done", events[-3:]

            purposes = [q.purpose for q in model.requests]
            assert purposes == ["answer", "answer", "answer", "title"]
            for request in model.requests:
                sent = _sent(request)
                assert not [v for v in VALUES if v in sent], (request.purpose, sent[:2000])
            tool_results = _sent(model.requests[2])
            # search hits and the page read: the same placeholders for the same values, the file name too
            assert tool_results.count("[EMAIL_1]") >= 2 and "[RRN_1]" in tool_results
            assert "[PHONE_1]" in tool_results and "[PHONE_2]" not in tool_results
            assert 'file_name=\\"hong gildong [PHONE_1].pdf\\"' in tool_results

            # the owner's citation (and the stored answer's display) keep the original text
            citations = [e[1] for e in events if e[0] == "citation"]
            assert citations and citations[0]["file_name"] == "hong gildong 010-2345-6789.pdf"
            assert "[" not in citations[0]["quote"]

            # the project switched off: the same question now reaches the model as written in the document
            r = await c.patch(f"/v1/projects/{pid}", json={"pii_mode": "off"})
            assert r.status_code == 200 and r.json()["pii_mode"] == "off"
            before = len(model.requests)
            sid2 = (await c.post("/v1/sessions", json={"project_id": pid, "title": "again"})).json()["session_id"]
            await c.post(f"/v1/sessions/{sid2}/messages", json={"text": "How do I contact the customer?"})
            assert EMAIL in _sent(model.requests[before + 2])
            assert (await c.patch(f"/v1/projects/{pid}", json={"pii_mode": "shout"})).status_code == 400
    finally:
        await svc.stop()
