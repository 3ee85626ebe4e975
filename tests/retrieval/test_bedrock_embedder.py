"""BedrockEmbedder against a local fake of the Bedrock runtime (InvokeModel for Titan V2) on loopback."""

from __future__ import annotations

import math
from collections.abc import Iterator
from urllib.parse import unquote

import pytest

from retrieval.bedrock_embedder import BedrockEmbedder
from store.errors import ConfigError, InvalidInput, Throttled
from tests.retrieval.conftest import toy_vector
from tests.retrieval.fake_bedrock import FakeBedrock, client

MODEL = "amazon.titan-embed-text-v2:0"


@pytest.fixture
def fake() -> Iterator[FakeBedrock]:
    f = FakeBedrock()
    yield f
    f.close()


def test_embeds_with_configured_dimension_and_normalisation(fake: FakeBedrock) -> None:
    emb = BedrockEmbedder(client(fake.url), dimension=256, concurrency=2)
    vecs = emb.embed_passages(["first passage", "second passage", "third"])
    assert [len(v) for v in vecs] == [256, 256, 256]
    assert vecs[0] == pytest.approx(toy_vector("first passage", 256))
    assert all(math.isclose(sum(x * x for x in v), 1.0, rel_tol=1e-6) for v in vecs)
    req = fake.requests[0]
    assert unquote(req["path"]) == f"/model/{MODEL}/invoke"
    assert req["body"] == {
        "inputText": req["body"]["inputText"],
        "dimensions": 256,
        "normalize": True,
        "embeddingTypes": ["float"],
    }
    assert req["auth"].startswith("AWS4-HMAC-SHA256")  # SigV4-signed like the real service expects


def test_order_is_preserved_under_concurrency_and_bounded(fake: FakeBedrock) -> None:
    fake.delay_s = 0.03
    emb = BedrockEmbedder(client(fake.url), dimension=512, concurrency=3)
    texts = [f"text number {i}" for i in range(12)]
    ticks: list[int] = []
    vecs = emb.embed_passages(texts, progress=lambda d, t: ticks.append(d))
    assert vecs == [pytest.approx(toy_vector(t, 512)) for t in texts]
    assert 1 < fake.max_in_flight <= 3
    assert ticks[-1] == 12


def test_query_uses_same_model_without_prefix(fake: FakeBedrock) -> None:
    emb = BedrockEmbedder(client(fake.url), dimension=1024)
    assert emb.embed_query("what is revenue") == pytest.approx(toy_vector("what is revenue", 1024))
    assert fake.requests[-1]["body"]["inputText"] == "what is revenue"


def test_retries_throttling_then_succeeds(fake: FakeBedrock) -> None:
    fake.throttle_next = 2
    sleeps: list[float] = []
    emb = BedrockEmbedder(client(fake.url), dimension=256, concurrency=1, sleep=sleeps.append)
    assert len(emb.embed_query("hello")) == 256
    assert len(fake.requests) == 3, [r["path"] for r in fake.requests]
    assert len(sleeps) == 2 and sleeps[1] > 0


def test_gives_up_after_max_attempts_with_throttled(fake: FakeBedrock) -> None:
    fake.throttle_next = 10
    emb = BedrockEmbedder(client(fake.url), dimension=256, max_attempts=3, sleep=lambda s: None)
    with pytest.raises(Throttled):
        emb.embed_query("hello")
    assert len(fake.requests) == 3


def test_validation_error_is_invalid_input_not_retried(fake: FakeBedrock) -> None:
    emb = BedrockEmbedder(client(fake.url), dimension=256, sleep=lambda s: None)
    emb.dimension = 300  # bypass the constructor check to see the service's answer
    with pytest.raises(InvalidInput):
        emb.embed_query("x")
    assert len(fake.requests) == 1


def test_empty_text_is_sent_as_a_space(fake: FakeBedrock) -> None:
    emb = BedrockEmbedder(client(fake.url), dimension=256)
    assert len(emb.embed_passages([""])[0]) == 256
    assert fake.requests[0]["body"]["inputText"] == " "


def test_rejects_unsupported_dimension() -> None:
    with pytest.raises(ConfigError):
        BedrockEmbedder(object(), dimension=384)
