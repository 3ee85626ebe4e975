"""Shared fixtures for retrieval tests: a deterministic toy embedder for index-level tests."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence

import pytest

from retrieval.types import Chunk

DIM = 32


def toy_vector(text: str, dim: int = DIM) -> list[float]:
    """Bag of lower-cased words and CJK bigrams hashed into ``dim`` buckets, L2-normalised."""
    terms = re.findall(r"\w+", text.lower())
    for run in re.findall(r"[\uac00-\ud7af\u3040-\u30ff\u4e00-\u9fff]+", text):
        terms += [run[i : i + 2] for i in range(len(run) - 1)]
    v = [0.0] * dim
    for t in terms:
        h = int.from_bytes(hashlib.blake2b(t.encode(), digest_size=4).digest(), "big")
        v[h % dim] += 1.0 if (h >> 16) & 1 else -1.0
    n = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / n for x in v]


class ToyEmbedder:
    model_id = "toy-hash"
    dimension = DIM

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        return [toy_vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return toy_vector(text)


def chunk(doc: str, i: int, text: str, *, project: str = "p1", page: int = 1, lang: str = "en") -> Chunk:
    return Chunk(
        chunk_id=f"{doc}:{i:05d}",
        project_id=project,
        document_id=doc,
        file_name=f"{doc}.pdf",
        text=text,
        page_start=page,
        page_end=page,
        chunk_index=i,
        language=lang,
    )


@pytest.fixture
def toy_embedder() -> ToyEmbedder:
    return ToyEmbedder()
