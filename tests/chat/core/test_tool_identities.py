"""The tool runner shows whose document each hit and page is (``company=``, ``tickers=``), asks ingest once per
document, masks the names for a remote model, and answers without them when the lookup fails."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chat.core.agent_tools import DetectorMasker, RefBook, ToolRunner, ToolScope
from chat.core.generations import Generation
from chat.models.tool_format import parse_results
from retrieval.types import Hit, SearchFilter
from store.errors import NotFound
from tests.chat.models.local_turns import PageStub

IDENTITIES = {"d1": {"company": "Contoso Widgets, Inc.", "tickers": ["CTSO"]},
              "d2": {"company": "Reach jane.doe@example.com Trading", "former_names": ["Old Name LLC"]}}


def _hit(doc: str, n: int) -> Hit:
    return Hit(chunk_id=f"{doc}:{n}", document_id=doc, file_name=f"{doc}.pdf", page_start=n, page_end=n,
               text=f"Net sales were {n},000 in the quarter.", score=1.0, project_id="p1")


class _Retriever:
    async def search(self, query: str, flt: SearchFilter, k: int = 8) -> list[Hit]:
        return [_hit("d1", 3), _hit("d2", 4), _hit("d1", 5), _hit("d3", 6)]


class _Ingest:
    def __init__(self, fail: bool = False) -> None:
        self.asked: list[dict[str, str | None]] = []
        self.fail = fail

    async def read_page(self, user_id: str, document_id: str, page: int) -> PageStub:
        return PageStub(document_id, f"{document_id}.pdf", page, "Cover page text.", 90)

    async def document_identities(self, user_id: str, docs: Mapping[str, str | None]) -> dict[str, Any]:
        self.asked.append(dict(docs))
        if self.fail:
            raise NotFound("the document is gone")
        return {d: IDENTITIES.get(d, {}) for d in docs}


def _gen() -> Generation:
    return Generation(generation_id="g", session_id="s", user_id="alice", turn_id="t")


async def _search(runner: ToolRunner, refs: RefBook) -> list[dict[str, Any]]:
    [result] = await runner.run(_gen(), refs, ToolScope("alice", ("p1",)),
                                [{"id": "u1", "name": "search_documents", "input": {"query": "net sales"}}])
    assert not result.get("is_error"), result
    return parse_results(result["content"])


async def test_hits_and_pages_carry_their_documents_identity_looked_up_once() -> None:
    ingest = _Ingest()
    runner = ToolRunner(retriever=_Retriever(), ingest=ingest)
    found = await _search(runner, RefBook())
    assert [(f["document_id"], f["company"], f["tickers"]) for f in found] == [
        ("d1", "Contoso Widgets, Inc.", ["CTSO"]), ("d2", "Reach jane.doe@example.com Trading", []),
        ("d1", "Contoso Widgets, Inc.", ["CTSO"]), ("d3", "", [])]
    assert found[1]["former_names"] == ["Old Name LLC"]
    assert ingest.asked == [{"d1": "p1", "d2": "p1", "d3": "p1"}]  # one lookup, each document once, by project
    await _search(runner, RefBook())
    assert len(ingest.asked) == 1  # remembered
    [page] = await runner.run(_gen(), RefBook(), ToolScope("alice", ("p1",)),
                              [{"id": "u2", "name": "read_page", "input": {"document_id": "d9", "page": 1}}])
    [p] = parse_results(page["content"])
    assert p["kind"] == "page" and p["company"] == "" and ingest.asked[-1] == {"d9": None}  # project looked up
    [page] = await runner.run(_gen(), RefBook(), ToolScope("alice", ("p1",)),
                              [{"id": "u3", "name": "read_page", "input": {"document_id": "d1", "page": 1}}])
    assert parse_results(page["content"])[0]["company"] == "Contoso Widgets, Inc." and len(ingest.asked) == 2


async def test_a_failed_lookup_leaves_the_identity_out_not_the_results() -> None:
    runner = ToolRunner(retriever=_Retriever(), ingest=_Ingest(fail=True))
    found = await _search(runner, RefBook())
    assert len(found) == 4 and all(f["company"] == "" for f in found)


async def test_a_remote_model_sees_the_identity_masked() -> None:
    refs = RefBook()
    runner = ToolRunner(retriever=_Retriever(), ingest=_Ingest(), masker=DetectorMasker())
    found = await _search(runner, refs)
    shown = found[1]["company"]
    assert "jane.doe@example.com" not in shown and shown.startswith("Reach ") and shown.endswith(" Trading")
    assert found[0]["company"] == "Contoso Widgets, Inc." and found[1]["former_names"] == ["Old Name LLC"]
    assert found[1]["text"] == "Net sales were 4,000 in the quarter."  # the texts stay in their places
    assert refs.sources["S2"].text == "Net sales were 4,000 in the quarter."


