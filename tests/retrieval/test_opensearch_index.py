"""OpenSearchIndex request bodies, pipeline handling, bulk errors and client wiring (fake transport)."""

from __future__ import annotations

import pytest

from retrieval.opensearch_bodies import bulk_errors, parse_analyzers, parse_hits
from retrieval.opensearch_index import OpenSearchIndex
from retrieval.types import SearchFilter
from store.clients import opensearch_client as make_opensearch_client
from store.config import Settings
from store.errors import ConfigError, RetryableError, UpstreamError
from tests.retrieval.conftest import DIM, chunk, toy_vector
from tests.retrieval.fake_opensearch import FakeOpenSearch


def make(fake: FakeOpenSearch, **kw) -> OpenSearchIndex:
    return OpenSearchIndex(fake.client(), "docchat-chunks", DIM, serverless=fake.serverless, refresh=True, **kw)


async def test_ensure_creates_index_and_pipeline_once() -> None:
    fake = FakeOpenSearch()
    idx = make(fake, keyword_weight=0.3)
    await idx.ensure()
    await idx.ensure()
    puts = [(m, p) for m, p, _, _ in fake.requests if m == "PUT"]
    assert puts == [("PUT", "/docchat-chunks"), ("PUT", "/_search/pipeline/docchat-chunks-hybrid")]
    body = fake.indices["docchat-chunks"]["body"]
    vec = body["mappings"]["properties"]["vector"]
    assert vec["type"] == "knn_vector" and vec["method"]["name"] == "hnsw"
    assert vec["method"]["engine"] == "faiss" and vec["method"]["space_type"] == "cosinesimil"
    assert body["settings"]["index"]["knn"] is True
    assert body["mappings"]["properties"]["text"]["fields"] == {
        "ko": {"type": "text", "analyzer": "nori"},
        "ja": {"type": "text", "analyzer": "kuromoji"},
        "pairs": {"type": "text", "analyzer": "docchat_pairs"},
    }
    pairs = body["settings"]["analysis"]["analyzer"]["docchat_pairs"]
    assert pairs["tokenizer"] == "standard" and pairs["filter"][-1] == "docchat_shingle"
    shingle = body["settings"]["analysis"]["filter"]["docchat_shingle"]
    assert shingle["min_shingle_size"] == shingle["max_shingle_size"] == 2 and shingle["output_unigrams"] is False
    proc = fake.pipelines["docchat-chunks-hybrid"]["phase_results_processors"][0]["normalization-processor"]
    assert proc == {
        "normalization": {"technique": "min_max"},
        "combination": {"technique": "arithmetic_mean", "parameters": {"weights": [0.3, 0.7]}},
    }


async def test_an_index_from_before_the_layout_fields_gets_them_added_stored_only() -> None:
    fake = FakeOpenSearch()
    body = make(fake).index_body()
    for name in ("page_offsets", "line_boxes"):
        del body["mappings"]["properties"][name]
    fake.indices["docchat-chunks"] = {"body": body, "docs": {}}
    await make(fake).ensure()
    props = fake.indices["docchat-chunks"]["body"]["mappings"]["properties"]
    for name in ("page_offsets", "line_boxes"):
        assert props[name] == {"type": "keyword", "index": False, "doc_values": False}
    mapping_puts = [p for m, p, _, _ in fake.requests if m == "PUT" and p.endswith("/_mapping")]
    await make(fake).ensure()  # already there: no second mapping update
    assert mapping_puts == ["/docchat-chunks/_mapping"]
    assert [p for m, p, _, _ in fake.requests if m == "PUT" and p.endswith("/_mapping")] == mapping_puts


async def test_pipeline_is_updated_when_weights_change() -> None:
    fake = FakeOpenSearch()
    await make(fake, keyword_weight=0.5).ensure()
    await make(fake, keyword_weight=0.2).ensure()
    weights = fake.pipelines["docchat-chunks-hybrid"]["phase_results_processors"][0]["normalization-processor"][
        "combination"
    ]["parameters"]["weights"]
    assert weights == [0.2, 0.8]


async def test_index_creation_race_is_tolerated() -> None:
    fake = FakeOpenSearch()
    await make(fake).ensure()
    fake.stale_head.add("docchat-chunks")  # the second process saw "missing", then lost the PUT race
    await make(fake).ensure()
    puts = [p for m, p, _, _ in fake.requests if m == "PUT" and p == "/docchat-chunks"]
    assert len(puts) == 2


async def test_hybrid_request_filters_inside_both_subqueries_and_uses_pipeline() -> None:
    idx = make(FakeOpenSearch())
    req = idx.search_request("매출", toy_vector("매출"), SearchFilter("p1", ("d1", "d2")), k=8, mode="hybrid")
    assert req["params"] == {"search_pipeline": "docchat-chunks-hybrid"}
    kw, knn = req["body"]["query"]["hybrid"]["queries"]
    want = [{"term": {"project_id": "p1"}}, {"terms": {"document_id": ["d1", "d2"]}}]
    assert kw["bool"]["filter"] == want
    assert kw["bool"]["must"][0]["multi_match"]["fields"] == ["text", "text.ko", "text.ja", "text.pairs"]
    assert knn["knn"]["vector"]["filter"] == {"bool": {"filter": want}}
    assert knn["knn"]["vector"]["k"] == 8 and req["body"]["size"] == 8
    assert "params" not in idx.search_request("x", None, SearchFilter("p1"), k=3, mode="keyword")


async def test_bulk_item_errors_are_reported_per_item() -> None:
    fake = FakeOpenSearch()
    idx = make(fake)
    await idx.ensure()
    fake.fail_bulk_ids = {"d1:00001": (400, "mapper_parsing_exception")}
    chunks = [chunk("d1", i, f"text {i}") for i in range(3)]
    with pytest.raises(UpstreamError) as err:
        await idx.upsert(chunks, [toy_vector(c.text) for c in chunks])
    assert "1 of 3 items failed" in err.value.message and "mapper_parsing_exception" in err.value.message
    assert err.value.context["failed"] == ["d1:00001"]
    assert set(fake.indices["docchat-chunks"]["docs"]) == {"d1:00000", "d1:00002"}  # the others were written


async def test_rejected_by_backpressure_is_retryable() -> None:
    fake = FakeOpenSearch()
    idx = make(fake, bulk_retries=2, bulk_backoff_s=0.01)
    await idx.ensure()
    fake.fail_bulk_ids = {"d1:00000": (429, "es_rejected_execution_exception")}
    with pytest.raises(RetryableError):
        await idx.upsert([chunk("d1", 0, "x")], [toy_vector("x")])
    bulks = [p for _, p, _, _ in fake.requests if p.endswith("_bulk")]
    assert len(bulks) == 3  # the helper retried the 429 twice before reporting it


async def test_serverless_upsert_replaces_without_custom_ids() -> None:
    fake = FakeOpenSearch(serverless=True)
    idx = make(fake)
    await idx.ensure()
    c = chunk("d1", 0, "first version")
    await idx.upsert([c], [toy_vector(c.text)])
    c2 = chunk("d1", 0, "second version")
    await idx.upsert([c2], [toy_vector(c2.text)])
    docs = list(fake.indices["docchat-chunks"]["docs"].values())
    assert [d["text"] for d in docs] == ["second version"]
    bulk_lines = [body for m, p, _, body in fake.requests if p.endswith("_bulk")]
    assert all("_id" not in line["index"] for lines in bulk_lines for line in lines if "index" in line)


async def test_missing_index_search_is_upstream_error() -> None:
    idx = make(FakeOpenSearch())
    with pytest.raises(UpstreamError):
        await idx.search("x", None, SearchFilter("p1"), mode="keyword")


def test_parse_hits_documented_response_shape() -> None:
    resp = {
        "took": 5,
        "timed_out": False,
        "_shards": {"total": 1, "successful": 1, "skipped": 0, "failed": 0},
        "hits": {
            "total": {"value": 1, "relation": "eq"},
            "max_score": 0.87,
            "hits": [
                {
                    "_index": "docchat-chunks",
                    "_id": "d1:00003",
                    "_score": 0.87,
                    "_source": {
                        "chunk_id": "d1:00003",
                        "project_id": "p1",
                        "document_id": "d1",
                        "file_name": "a.pdf",
                        "page_start": 2,
                        "page_end": 3,
                        "text": "hello",
                        "bboxes": "[[2, 1.0, 2.0, 3.0, 4.0]]",
                    },
                }
            ],
        },
    }
    (hit,) = parse_hits(resp, "hybrid")
    assert (hit.chunk_id, hit.page_start, hit.page_end, hit.score) == ("d1:00003", 2, 3, 0.87)
    assert hit.bbox is not None and hit.bbox.page == 2 and hit.extra == {"hybrid_rank": 1.0}


def test_bulk_errors_parsing() -> None:
    items = [
        {"index": {"_id": "a", "status": 201, "result": "created"}},
        {"index": {"_id": "b", "status": 400, "error": {"type": "mapper_parsing_exception", "reason": "bad"}}},
        {"delete": {"_id": "c", "status": 404, "result": "not_found"}},
    ]
    assert bulk_errors(items) == [("b", 400, "index mapper_parsing_exception: bad"), ("c", 404, "delete error:")]


def test_parse_analyzers() -> None:
    assert parse_analyzers("ko=nori, ja=kuromoji") == {"ko": "nori", "ja": "kuromoji"}
    assert parse_analyzers("") == {}
    with pytest.raises(ConfigError):
        parse_analyzers("nori")


async def test_client_factory_signs_aws_endpoints(monkeypatch) -> None:
    from opensearchpy import AWSV4SignerAsyncAuth

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    s = Settings(opensearch_endpoint="abc123.us-east-1.aoss.amazonaws.com", opensearch_service="aoss")
    client = make_opensearch_client(s)
    auth = client.transport.kwargs["http_auth"]
    assert isinstance(auth, AWSV4SignerAsyncAuth)
    assert (auth.signer.service, auth.signer.region) == ("aoss", "us-east-1")
    assert client.transport.hosts == [{"host": "abc123.us-east-1.aoss.amazonaws.com", "port": 443, "use_ssl": True}]
    await client.close()
    local = make_opensearch_client(Settings(opensearch_endpoint="http://localhost:9200"))
    assert "http_auth" not in local.transport.kwargs
    await local.close()
    with pytest.raises(ConfigError):
        make_opensearch_client(Settings())
