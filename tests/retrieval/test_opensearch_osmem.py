"""OpenSearchIndex against osmem-server (in-memory OpenSearch-compatible) for what it supports:
the index mapping, bulk upsert, BM25 keyword search with filters (kuromoji included), delete.

osmem has no k-NN query, no search pipelines and no nori analyzer, so vector/hybrid search and the
pipeline are covered by the fake-transport contract suite instead (test_index_contract.py).
"""

from __future__ import annotations

import pytest
from opensearchpy import AsyncOpenSearch

from retrieval.opensearch_index import OpenSearchIndex
from retrieval.types import SearchFilter
from store.errors import UpstreamError
from tests.retrieval.conftest import DIM, chunk, toy_vector

osmem_server = pytest.importorskip("osmem_server")


@pytest.fixture
async def index(osmem_clone):
    client = AsyncOpenSearch(hosts=[osmem_clone.url])
    idx = OpenSearchIndex(client, "chunks", DIM, analyzers={"ja": "kuromoji"}, refresh=True)
    await client.indices.create(index=idx.index, body=idx.index_body())  # the mapping path (no pipeline in osmem)
    yield idx
    await idx.close()


CHUNKS = [
    chunk("docA", 0, "Revenue grew by twelve percent in the cloud segment.", page=3),
    chunk("docA", 1, "Dividends paid to shareholders increased.", page=4),
    chunk("docJ", 0, "東京都の人口は増加しています。", page=1, lang="ja"),
    chunk("docX", 0, "Revenue of another tenant.", project="p2"),
]


async def test_mapping_is_accepted_and_stored(index: OpenSearchIndex) -> None:
    mapping = await index._client.indices.get_mapping(index=index.index)
    props = mapping[index.index]["mappings"]["properties"]
    assert props["vector"]["type"] == "knn_vector" and props["vector"]["dimension"] == DIM
    assert props["project_id"]["type"] == "keyword"
    assert props["text"]["fields"]["ja"]["analyzer"] == "kuromoji"


async def test_bulk_upsert_and_bm25_search_with_filters(index: OpenSearchIndex) -> None:
    await index.upsert(CHUNKS, [toy_vector(c.text) for c in CHUNKS])
    await index.upsert(CHUNKS[:1], [toy_vector(CHUNKS[0].text)])  # idempotent by _id
    hits = await index.search("revenue cloud", None, SearchFilter("p1"), k=5, mode="keyword")
    assert [h.chunk_id for h in hits] == ["docA:00000"]
    assert hits[0].page_start == 3 and hits[0].file_name == "docA.pdf" and hits[0].score > 0
    other = await index.search("revenue", None, SearchFilter("p2"), k=5, mode="keyword")
    assert [h.chunk_id for h in other] == ["docX:00000"]
    only_a = await index.search("revenue dividends", None, SearchFilter("p1", ("docA",)), k=5, mode="keyword")
    assert {h.document_id for h in only_a} == {"docA"} and len(only_a) == 2


async def test_japanese_keyword_search_through_kuromoji(index: OpenSearchIndex) -> None:
    await index.upsert(CHUNKS, [toy_vector(c.text) for c in CHUNKS])
    hits = await index.search("人口", None, SearchFilter("p1"), k=5, mode="keyword")
    assert [h.chunk_id for h in hits] == ["docJ:00000"]


async def test_delete_document(index: OpenSearchIndex) -> None:
    await index.upsert(CHUNKS, [toy_vector(c.text) for c in CHUNKS])
    await index.delete_document("p1", "docA")
    assert await index.search("revenue dividends", None, SearchFilter("p1"), k=5, mode="keyword") == []
    assert len(await index.search("revenue", None, SearchFilter("p2"), k=5, mode="keyword")) == 1


async def test_unsupported_request_is_translated(index: OpenSearchIndex) -> None:
    await index.upsert(CHUNKS, [toy_vector(c.text) for c in CHUNKS])
    with pytest.raises(UpstreamError):  # osmem rejects the knn query: surfaced as our error type
        await index.search("revenue", toy_vector("revenue"), SearchFilter("p1"), k=5, mode="vector")
