"""Seed 004: personal data is masked before a remote embedder (Titan on Bedrock) sees a chunk or a query;
the index keeps the text as it is, so keyword search still finds the value."""

from __future__ import annotations

from ingest.pii.service import embedding_masker
from retrieval.search import build_retriever
from retrieval.types import SearchFilter
from store.config import Settings
from tests.retrieval.conftest import ToyEmbedder, chunk


class RecordingEmbedder(ToyEmbedder):
    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed_passages(self, texts):
        self.seen.extend(texts)
        return super().embed_passages(texts)

    def embed_query(self, text):
        self.seen.append(text)
        return super().embed_query(text)


def test_the_embedded_model_and_masking_off_get_no_masker(tmp_path) -> None:
    assert embedding_masker(Settings(data_dir=tmp_path)) is None  # ONNX on this machine: nothing leaves it
    assert embedding_masker(Settings(data_dir=tmp_path, embedder="bedrock", pii_mode="off")) is None
    mask = embedding_masker(Settings(data_dir=tmp_path, embedder="bedrock"))
    assert mask is not None and "010-1234-5678" not in mask("call 010-1234-5678 today")


async def test_titan_sees_masked_chunks_and_queries_while_the_index_keeps_the_text(tmp_path) -> None:
    settings = Settings(data_dir=tmp_path, embedder="bedrock")
    emb = RecordingEmbedder()
    r = build_retriever(settings, embedder=emb, remote_text=embedding_masker(settings))
    await r.start()
    text = "Contact Kim at kim.minsu@example.com or 010-1234-5678 for the invoice"
    await r.index_chunks([chunk("d1", 0, text)])
    hits = await r.search("who answers at kim.minsu@example.com", SearchFilter("p1"), k=1)
    await r.close()
    assert emb.seen and all("kim.minsu@example.com" not in t and "010-1234-5678" not in t for t in emb.seen)
    assert any("[EMAIL_1]" in t for t in emb.seen)
    assert hits and hits[0].text == text  # stored and returned as written
