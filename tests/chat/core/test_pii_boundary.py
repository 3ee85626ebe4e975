"""The model boundary: with a remote chat model every document text the model is sent (search hits, pages,
file names, the title request) is masked; the embedded extractive model reads the original. Real masking
(``ingest.pii``: detectors, the document's numbering as the ``pii`` step stores it, ``DocumentMasker``)
over the chat harness's in-memory documents — the slow end-to-end twin is tests/chat/app/test_pii_masking.py."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx

from chat.core.service import ChatService
from chat.models.port import ModelRequest
from chat.models.scripted import Reply, ScriptedModel, Text, ToolUse
from ingest.pii.masking import Placeholders
from ingest.pii.service import DocumentMasker
from ingest.pii.step import segment_findings
from ingest.results import pii_key
from store.blobs import FileBlobStore
from store.errors import NotFound
from tests.chat.chat_harness import ALICE, Doc, Harness, make_harness, parse_sse

EMAIL, PHONE, RRN = "hong.gildong@example.com", "010-2345-6789", "900101-1234568"
VALUES = (EMAIL, PHONE, RRN, "2345-6789", "1234568")


class _Store:
    """The two reads ``DocumentMasker`` makes of the workflow store, over the harness's documents."""

    def __init__(self, h: Harness, modes: dict[str, str]) -> None:
        self.h = h
        self.modes = modes

    def document_workflow(self, owner: str, document_id: str) -> Any:
        doc = self.h.ingest.docs.get(document_id)
        if doc is None or doc.owner != owner:
            raise NotFound("no such document")
        return SimpleNamespace(workflow_id=f"wf-{document_id}", project_id=doc.project_id)

    def project_pii_mode(self, project_id: str) -> str | None:
        return self.modes.get(project_id)


def _harness(tmp_path: Path, chat_model: str, modes: dict[str, str] | None = None) -> tuple[Harness, ScriptedModel]:
    def reply(request: ModelRequest) -> Any:
        if request.purpose == "title":
            return Reply(Text("Customer contact"))
        rounds = sum(1 for m in request.messages if m["role"] == "assistant")
        if rounds == 0:
            return Reply(ToolUse("search_documents", {"query": "customer contact loan"}))
        if rounds == 1:
            return Reply(ToolUse("read_page", {"document_id": "dp", "page": 2}))
        return Reply(Text("Reach the customer at [EMAIL_1] or [PHONE_1] [S1]."))

    model = ScriptedModel(reply)
    h = make_harness(tmp_path, model, chat_model=chat_model)
    pages = [f"Customer contact for the loan: {EMAIL}, mobile {PHONE}, 주민등록번호 {RRN}.",
             f"Loan approved; call the customer on {PHONE} or mail {EMAIL}."]
    h.ingest.docs["dp"] = Doc("dp", "p1", "alice", f"customer {PHONE}.pdf", pages)
    blobs = FileBlobStore(tmp_path / "blobs" / "documents")
    numbering = Placeholders()  # what the pii step stores for the document
    for i, text in enumerate(pages, start=1):
        segment_findings({"page": i, "text": text, "lines": []}, numbering)
    blobs.put(pii_key("wf-dp"), json.dumps(numbering.to_json()).encode())
    masker = DocumentMasker(h.settings, store=_Store(h, modes or {}), blobs=blobs)  # type: ignore[arg-type]
    h.chat = ChatService(settings=h.settings, sessions=h.sessions, model=model, retriever=h.retriever,
                         ingest=h.ingest, masker=masker)
    return h, model


async def _ask(h: Harness) -> list[tuple[str, dict[str, Any], str | None]]:
    transport = httpx.ASGITransport(app=h.app())
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost", headers=ALICE) as c:
        sid = (await c.post("/v1/sessions", json={"project_id": "p1"})).json()["session_id"]
        r = await c.post(f"/v1/sessions/{sid}/messages", json={"text": "How do I reach the customer about the loan?"})
        return parse_sse(r.content)


def _sent(request: ModelRequest) -> str:
    return json.dumps({"system": request.system, "messages": request.messages, "tools": request.tools},
                      ensure_ascii=False)


async def test_a_remote_model_receives_no_unmasked_value(tmp_path: Path) -> None:
    h, model = _harness(tmp_path, "bedrock")
    events = await _ask(h)
    assert events[-1][0] == "done"
    assert [r.purpose for r in model.requests] == ["answer", "answer", "answer", "title"]
    for request in model.requests:
        sent = _sent(request)
        assert not [v for v in VALUES if v in sent], (request.purpose, sent)
    last = _sent(model.requests[2])
    # hits and page alike: one numbering for the document, so the model can say "call [PHONE_1]"
    assert last.count("[PHONE_1]") >= 3 and "[EMAIL_1]" in last and "[RRN_1]" in last and "[PHONE_2]" not in last
    assert "customer [PHONE_1].pdf" in last
    # the owner's citation keeps the original
    citation = next(e[1] for e in events if e[0] == "citation")
    assert citation["file_name"] == f"customer {PHONE}.pdf"


async def test_the_embedded_model_reads_the_original(tmp_path: Path) -> None:
    h, model = _harness(tmp_path, "local")
    await _ask(h)
    assert EMAIL in _sent(model.requests[2]) and PHONE in _sent(model.requests[2])


async def test_a_project_with_pii_mode_off_sends_the_original_to_a_remote_model(tmp_path: Path) -> None:
    h, model = _harness(tmp_path, "bedrock", modes={"p1": "off"})
    await _ask(h)
    assert EMAIL in _sent(model.requests[2]) and RRN in _sent(model.requests[2])


async def test_chat_built_without_a_masker_still_masks_for_a_remote_model(tmp_path: Path) -> None:
    h, model = _harness(tmp_path, "bedrock")
    h.chat = ChatService(settings=h.settings, sessions=h.sessions, model=model, retriever=h.retriever,
                         ingest=h.ingest)  # no masker: the detectors alone
    await _ask(h)
    sent = _sent(model.requests[2])
    assert not [v for v in VALUES if v in sent] and "[PHONE_1]" in sent
