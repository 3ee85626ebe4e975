"""Against a real OpenSearch cluster — only when DOCCHAT_TEST_OPENSEARCH_URL is set (k-NN + neural-search
plugins, e.g. the opensearchproject/opensearch image). Nori/kuromoji are only used if installed:
set DOCCHAT_TEST_OPENSEARCH_ANALYZERS (default: none, standard analyzer only)."""

from __future__ import annotations

import os
import uuid

import pytest

from retrieval.opensearch_bodies import parse_analyzers
from retrieval.opensearch_index import OpenSearchIndex
from retrieval.types import SearchFilter
from store.clients import opensearch_client as make_opensearch_client
from store.config import Settings
from tests.retrieval.conftest import DIM, chunk, toy_vector

URL = os.environ.get("DOCCHAT_TEST_OPENSEARCH_URL")
pytestmark = pytest.mark.skipif(not URL, reason="DOCCHAT_TEST_OPENSEARCH_URL not set (no real cluster here)")


async def test_full_cycle_on_a_real_cluster() -> None:
    settings = Settings(opensearch_endpoint=URL, opensearch_service="es")
    client = make_opensearch_client(settings)
    name = f"docchat-test-{uuid.uuid4().hex[:8]}"
    analyzers = parse_analyzers(os.environ.get("DOCCHAT_TEST_OPENSEARCH_ANALYZERS", ""))
    idx = OpenSearchIndex(client, name, DIM, analyzers=analyzers, refresh="wait_for")
    try:
        await idx.ensure()
        await idx.ensure()
        chunks = [
            chunk("d1", 0, "quarterly revenue grew in cloud"),
            chunk("d1", 1, "dividends were raised"),
            chunk("d2", 0, "revenue of another tenant", project="p2"),
        ]
        await idx.upsert(chunks, [toy_vector(c.text) for c in chunks])
        await idx.upsert(chunks[:1], [toy_vector(chunks[0].text)])
        for mode in ("keyword", "vector", "hybrid"):
            hits = await idx.search("quarterly revenue", toy_vector(chunks[0].text), SearchFilter("p1"), k=5, mode=mode)
            assert hits[0].chunk_id == "d1:00000", mode
            assert all(h.project_id == "p1" for h in hits), mode
        await idx.delete_document("p1", "d1")
        await client.indices.refresh(index=name)
        assert await idx.search("revenue", None, SearchFilter("p1"), mode="keyword") == []
    finally:
        await client.indices.delete(index=name, ignore_unavailable=True)
        await client.transport.perform_request("DELETE", f"/_search/pipeline/{idx.pipeline}")
        await client.close()
