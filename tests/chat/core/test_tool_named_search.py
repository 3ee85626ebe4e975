"""A search whose query names a company searches that company's documents first (``retrieval.owners``): the
others only fill up the results; a query that names nobody, or every document's owner, searches as before; the
listing is asked once for a run of searches, and a failing listing leaves the search as it was."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chat.core.agent_tools import RefBook, ToolRunner, ToolScope
from chat.core.generations import Generation
from chat.models.tool_format import parse_results
from retrieval.types import Hit, SearchFilter
from store.errors import NotFound

DOCS = [
    {"document_id": "boeing", "file_name": "annual-2022.pdf", "identity": {"company": "THE BOEING COMPANY"}},
    {"document_id": "lmt", "file_name": "annual-2021.pdf", "identity": {"company": "LOCKHEED MARTIN CORP",
                                                                        "tickers": ["LMT"]}},
    {"document_id": "bby", "file_name": "BESTBUY_2023_10K.pdf"},  # no identity stored: its file name says
]
#: what the index holds per document: Lockheed's legal note ranks above Boeing's for a query about lawsuits
CHUNKS = {"lmt": 3, "boeing": 2, "bby": 3}


def _hit(doc: str, n: int) -> Hit:
    return Hit(chunk_id=f"{doc}:{n}", document_id=doc, file_name=f"{doc}.pdf", page_start=n, page_end=n,
               text=f"We are involved in a number of legal proceedings ({doc} {n}).", score=1.0, project_id="p1")


class _Retriever:
    def __init__(self) -> None:
        self.filters: list[tuple[str, ...] | None] = []

    async def search(self, query: str, flt: SearchFilter, k: int = 8) -> list[Hit]:
        self.filters.append(flt.document_ids)
        hits = [_hit(doc, n) for doc, count in CHUNKS.items() for n in range(1, count + 1)]
        return [h for h in hits if flt.document_ids is None or h.document_id in flt.document_ids][:k]


class _Ingest:
    def __init__(self, fail: bool = False) -> None:
        self.listed = 0
        self.fail = fail

    async def document_summaries(self, user_id: str, project_ids: Sequence[str]) -> list[dict[str, Any]]:
        self.listed += 1
        if self.fail:
            raise NotFound("the project is gone")
        return [{"project_id": "p1", "status": "ready", "summary": None, **d} for d in DOCS]

    async def document_identities(self, user_id: str, docs: Mapping[str, str | None]) -> dict[str, Any]:
        return {d: next((x.get("identity") or {} for x in DOCS if x["document_id"] == d), {}) for d in docs}


async def _docs_found(runner: ToolRunner, query: str, scope: ToolScope | None = None) -> list[str]:
    gen = Generation(generation_id="g", session_id="s", user_id="alice", turn_id="t")
    [result] = await runner.run(gen, RefBook(), scope or ToolScope("alice", ("p1",)),
                                [{"id": "u1", "name": "search_documents", "input": {"query": query}}])
    assert not result.get("is_error"), result
    return [f["document_id"] for f in parse_results(result["content"])]


async def test_the_named_companys_documents_come_first_and_the_rest_fill_up() -> None:
    retriever, ingest = _Retriever(), _Ingest()
    runner = ToolRunner(retriever=retriever, ingest=ingest, search_k=4)
    found = await _docs_found(runner, "Has Boeing reported any ongoing legal battles from FY2022?")
    assert found == ["boeing", "boeing", "lmt", "lmt"]  # before: lmt, lmt, lmt, boeing
    assert retriever.filters == [("boeing",), None]
    retriever.filters.clear()
    found = await _docs_found(runner, "Are Best Buy's gross margins consistent?")  # by its file name
    assert found == ["bby", "bby", "bby", "lmt"]
    found = await _docs_found(runner, "Compare Boeing and LMT legal proceedings")
    assert set(found) == {"boeing", "lmt"} and retriever.filters[-1] == ("boeing", "lmt")  # both; 5 ≥ 4: no fill
    assert ingest.listed == 1  # one listing for the run of searches


async def test_a_search_that_names_nobody_or_everybody_runs_as_before() -> None:
    retriever = _Retriever()
    runner = ToolRunner(retriever=retriever, ingest=_Ingest(), search_k=4)
    assert await _docs_found(runner, "legal proceedings") == ["lmt", "lmt", "lmt", "boeing"]
    assert await _docs_found(runner, "Boeing, Lockheed Martin and Best Buy lawsuits") == ["lmt", "lmt", "lmt", "boeing"]
    assert retriever.filters == [None, None]


async def test_the_chats_own_selection_still_bounds_a_named_search() -> None:
    retriever = _Retriever()
    runner = ToolRunner(retriever=retriever, ingest=_Ingest(), search_k=4)
    scope = ToolScope("alice", ("p1",), ("lmt", "bby"))  # the chat was narrowed to two documents
    found = await _docs_found(runner, "Boeing legal proceedings", scope)
    assert "boeing" not in found and retriever.filters == [("lmt", "bby")]


async def test_a_failed_listing_leaves_the_search_as_it_was() -> None:
    retriever = _Retriever()
    runner = ToolRunner(retriever=retriever, ingest=_Ingest(fail=True), search_k=4)
    assert await _docs_found(runner, "Has Boeing reported any legal battles?") == ["lmt", "lmt", "lmt", "boeing"]
    assert retriever.filters == [None]


class _Yearly(_Ingest):
    """One company's 10-Ks for three years (their covers' periods) beside another company's filing."""

    DOCS = [{"document_id": f"glw{y}", "file_name": f"CORNING_{y}_10K.pdf",
             "identity": {"company": "CORNING INCORPORATED", "period_end": f"{y}-12-31", "period_kind": "year"}}
            for y in (2020, 2021, 2022)] + [DOCS[0]]

    async def document_summaries(self, user_id: str, project_ids: Sequence[str]) -> list[dict[str, Any]]:
        self.listed += 1
        return [{"project_id": "p1", "status": "ready", "summary": None, **d} for d in self.DOCS]


async def test_the_filing_of_the_year_asked_comes_first_then_the_companys_others(
        monkeypatch: Any) -> None:
    monkeypatch.setitem(CHUNKS, "glw2020", 3)
    monkeypatch.setitem(CHUNKS, "glw2021", 3)
    monkeypatch.setitem(CHUNKS, "glw2022", 2)
    retriever = _Retriever()
    runner = ToolRunner(retriever=retriever, ingest=_Yearly(), search_k=4)
    # the older 10-Ks rank first on their own ("2022 Corporate Outlook"): the 2022 one's passages come first
    found = await _docs_found(runner, "What were Corning's Display Technologies net sales in 2022?")
    assert found == ["glw2022", "glw2022", "glw2020", "glw2020"]
    assert retriever.filters == [("glw2022",), ("glw2020", "glw2021", "glw2022")]
    retriever.filters.clear()
    # a search-box question's year too; a question of no year searches the company's documents as before
    assert (await _docs_found(runner, "Corning net sales 2021 vs 2020"))[:2] == ["glw2020", "glw2020"]
    assert retriever.filters[0] == ("glw2020", "glw2021")
    retriever.filters.clear()
    await _docs_found(runner, "What are Corning's segments?")
    assert retriever.filters == [("glw2020", "glw2021", "glw2022")]
