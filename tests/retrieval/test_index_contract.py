"""One contract suite over every Index adapter: LanceDB, and OpenSearch (managed + serverless, fake transport)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from retrieval.lance_index import LanceIndex
from retrieval.opensearch_index import OpenSearchIndex
from retrieval.types import BBox, Chunk, Index, SearchFilter
from store.errors import InvalidInput
from tests.retrieval.conftest import DIM, chunk, toy_vector
from tests.retrieval.fake_opensearch import FakeOpenSearch

CORPUS = [
    chunk("docA", 0, "The quarterly revenue grew by 12 percent thanks to cloud services.", page=1),
    chunk("docA", 1, "Capital expenditure was 1,577 million dollars for property and equipment.", page=2),
    chunk("docB", 0, "서울은 대한민국의 수도이며 가장 큰 도시이다.", page=1, lang="ko"),
    chunk("docB", 1, "부산은 대한민국 제2의 도시로 항구가 유명하다.", page=3, lang="ko"),
    chunk("docC", 0, "東京は日本の首都であり、人口が最も多い都市です。", page=5, lang="ja"),
    chunk("docX", 0, "The quarterly revenue of another tenant grew too.", project="p2"),
]


async def load(index: Index, chunks: list[Chunk] = CORPUS) -> None:
    await index.upsert(chunks, [toy_vector(c.text) for c in chunks])


@pytest.fixture(params=["lance", "opensearch", "opensearch-aoss"])
async def index(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[Index]:
    if request.param == "lance":
        idx: Index = LanceIndex(tmp_path / "lance", DIM)
    else:
        fake = FakeOpenSearch(serverless=request.param.endswith("aoss"))
        idx = OpenSearchIndex(fake.client(), "chunks", DIM, serverless=fake.serverless, refresh=True)
    await idx.ensure()
    await idx.ensure()  # idempotent
    yield idx
    await idx.close()


P1 = SearchFilter("p1")


async def test_keyword_search_finds_english_chunk(index: Index) -> None:
    await load(index)
    hits = await index.search("capital expenditure", None, P1, k=3, mode="keyword")
    assert hits[0].chunk_id == "docA:00001"
    assert hits[0].file_name == "docA.pdf" and hits[0].page_start == 2 and hits[0].page_end == 2
    assert hits[0].project_id == "p1"


async def test_keyword_search_korean_matches_word_with_particle(index: Index) -> None:
    await load(index)
    hits = await index.search("대한민국 수도", None, P1, k=3, mode="keyword")
    assert hits and hits[0].chunk_id == "docB:00000"


async def test_keyword_search_japanese_without_spaces(index: Index) -> None:
    await load(index)
    hits = await index.search("日本の首都", None, P1, k=3, mode="keyword")
    assert hits and hits[0].chunk_id == "docC:00000"


async def test_vector_search_ranks_nearest_first(index: Index) -> None:
    await load(index)
    q = CORPUS[0].text
    hits = await index.search(q, toy_vector(q), P1, k=2, mode="vector")
    assert hits[0].chunk_id == "docA:00000"
    assert hits[0].score >= hits[1].score


async def test_hybrid_search_returns_chunk_best_in_both(index: Index) -> None:
    await load(index)
    q = "capital expenditure property equipment"
    hits = await index.search(q, toy_vector(CORPUS[1].text), P1, k=3, mode="hybrid")
    assert hits[0].chunk_id == "docA:00001"
    assert len({h.chunk_id for h in hits}) == len(hits)


async def test_project_filter_isolates_tenants(index: Index) -> None:
    await load(index)
    q = "quarterly revenue grew"
    for mode in ("keyword", "vector", "hybrid"):
        hits = await index.search(q, toy_vector(q), P1, k=10, mode=mode)
        assert hits and all(h.project_id == "p1" for h in hits), mode
        other = await index.search(q, toy_vector(q), SearchFilter("p2"), k=10, mode=mode)
        assert [h.chunk_id for h in other] == ["docX:00000"], mode


async def test_document_filter(index: Index) -> None:
    await load(index)
    q = "도시"
    flt = SearchFilter("p1", ("docB",))
    for mode in ("keyword", "vector", "hybrid"):
        hits = await index.search(q, toy_vector(q), flt, k=10, mode=mode)
        assert hits and {h.document_id for h in hits} == {"docB"}, mode


async def test_upsert_is_idempotent_by_chunk_id(index: Index) -> None:
    await load(index)
    changed = chunk("docA", 1, "Capital expenditure was restated to 1,600 million dollars.", page=2)
    await load(index, [*CORPUS[:1], changed])
    q = "capital expenditure"
    hits = await index.search(q, toy_vector(q), P1, k=10, mode="hybrid")
    ids = [h.chunk_id for h in hits]
    assert len(ids) == len(set(ids))
    assert sum(1 for h in hits if h.chunk_id == "docA:00001") == 1
    assert next(h for h in hits if h.chunk_id == "docA:00001").text.endswith("1,600 million dollars.")


async def test_delete_document_removes_only_that_document(index: Index) -> None:
    await load(index)
    await index.delete_document("p1", "docA")
    q = "quarterly revenue capital expenditure"
    hits = await index.search(q, toy_vector(q), P1, k=10, mode="hybrid")
    assert hits and all(h.document_id != "docA" for h in hits)
    other = await index.search(q, toy_vector(q), SearchFilter("p2"), k=10, mode="keyword")
    assert [h.document_id for h in other] == ["docX"]
    await index.delete_document("p1", "docA")  # deleting again is not an error


async def test_bbox_round_trips(index: Index) -> None:
    c = Chunk(
        "docZ:00000",
        "p1",
        "docZ",
        "z.pdf",
        "Boxed paragraph about dividends.",
        4,
        5,
        bboxes=(BBox(4, 10.0, 20.0, 300.0, 60.0), BBox(5, 10.0, 0.0, 300.0, 30.0)),
    )
    await load(index, [c])
    hits = await index.search("dividends", None, P1, k=1, mode="keyword")
    assert hits[0].bbox == BBox(4, 10.0, 20.0, 300.0, 60.0)
    assert (hits[0].page_start, hits[0].page_end) == (4, 5)


async def test_page_offsets_and_line_boxes_round_trip(index: Index) -> None:
    text = "Dividends were paid in March.\n\nThe board approved a buyback."
    split = text.index("The board")
    c = Chunk(
        "docZ:00000", "p1", "docZ", "z.pdf", text, 4, 5,
        bboxes=(BBox(4, 10.0, 700.0, 300.0, 712.0), BBox(5, 10.0, 40.0, 280.0, 52.0)),
        page_offsets=((4, 0), (5, split)),
        line_boxes=((0, BBox(4, 10.0, 700.0, 300.0, 712.0)), (split, BBox(5, 10.0, 40.0, 280.0, 52.0))),
    )
    await load(index, [c])
    for mode, vector in (("keyword", None), ("vector", toy_vector(text)), ("hybrid", toy_vector(text))):
        (hit,) = await index.search("board buyback dividends", vector, P1, k=1, mode=mode)  # type: ignore[arg-type]
        assert hit.page_offsets == ((4, 0), (5, split)), mode
        assert hit.line_boxes == c.line_boxes, mode
        assert hit.bboxes == c.bboxes and hit.bbox == c.bboxes[0], mode


async def test_chunks_without_layout_read_back_empty(index: Index) -> None:
    await load(index, CORPUS[:1])
    (hit,) = await index.search("quarterly revenue", None, P1, k=1, mode="keyword")
    assert (hit.page_offsets, hit.line_boxes, hit.bboxes, hit.bbox) == ((), (), (), None)


async def test_wrong_vector_dimension_is_rejected(index: Index) -> None:
    with pytest.raises(InvalidInput):
        await index.upsert(CORPUS[:1], [[0.1] * (DIM + 1)])
    with pytest.raises(InvalidInput):
        await index.search("x", [0.1] * (DIM - 1), P1, k=3, mode="vector")


async def test_vector_mode_needs_a_vector(index: Index) -> None:
    with pytest.raises(InvalidInput):
        await index.search("x", None, P1, k=3, mode="hybrid")


async def test_empty_index_returns_no_hits(index: Index) -> None:
    q = "anything"
    assert await index.search(q, toy_vector(q), P1, k=5, mode="hybrid") == []


async def test_one_query_searches_a_set_of_projects(index: Index) -> None:
    """Issue 13 item 9: all of a user's projects in one index query (a filter on the project-id set)."""
    await load(index)
    q = "quarterly revenue grew"
    both = SearchFilter.for_projects(["p1", "p2"])
    for mode in ("keyword", "vector", "hybrid"):
        hits = await index.search(q, toy_vector(q), both, k=10, mode=mode)
        assert {h.project_id for h in hits} == {"p1", "p2"}, mode
        assert {"docA:00000", "docX:00000"} <= {h.chunk_id for h in hits}, mode
        assert len({h.chunk_id for h in hits}) == len(hits), mode
        only_p2 = await index.search(q, toy_vector(q), SearchFilter.for_projects(["p2", "p-empty"]), k=10, mode=mode)
        assert [h.chunk_id for h in only_p2] == ["docX:00000"], mode


async def test_two_hundred_empty_projects_and_one_with_data_in_one_query(index: Index) -> None:
    await load(index)
    projects = [f"empty-{i:03d}" for i in range(200)] + ["p2"]
    q = "quarterly revenue"
    for mode in ("keyword", "vector", "hybrid"):
        hits = await index.search(q, toy_vector(q), SearchFilter.for_projects(projects), k=5, mode=mode)
        assert [h.chunk_id for h in hits] == ["docX:00000"], mode
    none = await index.search(q, toy_vector(q), SearchFilter.for_projects(projects[:200]), k=5, mode="hybrid")
    assert none == []


async def test_project_set_with_a_document_filter_and_without_projects(index: Index) -> None:
    await load(index)
    q = "quarterly revenue"
    flt = SearchFilter.for_projects(["p1", "p2"], ("docX",))
    hits = await index.search(q, toy_vector(q), flt, k=10, mode="hybrid")
    assert [h.chunk_id for h in hits] == ["docX:00000"]
    with pytest.raises(InvalidInput):
        await index.search(q, toy_vector(q), SearchFilter.for_projects([]), k=3, mode="keyword")


# --- searchable first, vectors after (issue 18) ----------------------------------------------------------------


async def test_text_only_chunks_are_keyword_searchable_and_skipped_by_vector_search(index: Index) -> None:
    await load(index, CORPUS[2:])  # docA is the one without vectors yet
    await index.upsert_text(CORPUS[:2])
    kw = await index.search("capital expenditure", None, P1, k=3, mode="keyword")
    assert kw and kw[0].chunk_id == "docA:00001"
    vec = await index.search("x", toy_vector(CORPUS[1].text), P1, k=10, mode="vector")
    assert "docA:00001" not in {h.chunk_id for h in vec} and vec  # the others still answer
    hybrid = await index.search("capital expenditure", toy_vector(CORPUS[1].text), P1, k=3)
    assert hybrid[0].chunk_id == "docA:00001"  # found by BM25 alone


async def test_vectors_filled_in_later_replace_the_text_only_rows(index: Index) -> None:
    await index.upsert_text(CORPUS)
    await index.upsert_text(CORPUS)  # a redelivery writes them again: still one row each
    await load(index)  # the vectors arrive
    vec = await index.search("x", toy_vector(CORPUS[1].text), P1, k=10, mode="vector")
    assert vec[0].chunk_id == "docA:00001"
    ids = [h.chunk_id for h in await index.search("x", toy_vector(CORPUS[0].text), P1, k=50, mode="vector")]
    assert sorted(ids) == sorted(c.chunk_id for c in CORPUS if c.project_id == "p1")  # nothing lost, no duplicate
    kw = await index.search("quarterly revenue", None, P1, k=10, mode="keyword")
    assert [h.chunk_id for h in kw] == ["docA:00000"]
