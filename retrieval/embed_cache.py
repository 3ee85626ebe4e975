"""A persistent embedding cache (SQLite) for evaluations and benchmarks.

Keyed by (model id, kind, sha256 of the text), values are float32 blobs. Embedding a corpus on two CPU
cores takes minutes; re-running an evaluation with other fusion settings should not.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

import numpy as np

from retrieval.types import Embedder

Kind = Literal["passage", "query"]


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingCache:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path))
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS emb (model TEXT, kind TEXT, key TEXT, vec BLOB, PRIMARY KEY (model, kind, key))"
        )

    def close(self) -> None:
        self._db.close()

    def get_many(self, model: str, kind: Kind, texts: Sequence[str]) -> list[np.ndarray | None]:
        keys = [_key(t) for t in texts]
        found: dict[str, np.ndarray] = {}
        for i in range(0, len(keys), 500):
            part = keys[i : i + 500]
            marks = ",".join("?" * len(part))
            sql = f"SELECT key, vec FROM emb WHERE model=? AND kind=? AND key IN ({marks})"  # noqa: S608
            for key, blob in self._db.execute(sql, (model, kind, *part)):
                found[key] = np.frombuffer(blob, dtype=np.float32)
        return [found.get(k) for k in keys]

    def put_many(self, model: str, kind: Kind, texts: Sequence[str], vectors: np.ndarray) -> None:
        rows = [
            (model, kind, _key(t), np.asarray(v, dtype=np.float32).tobytes())
            for t, v in zip(texts, vectors, strict=True)
        ]
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO emb VALUES (?, ?, ?, ?)", rows)

    def embed(
        self,
        embedder: Embedder,
        kind: Kind,
        texts: Sequence[str],
        *,
        batch: int = 32,
        progress: Callable[[int, int], None] | None = None,
    ) -> np.ndarray:
        """Vectors for ``texts``, computing (in batches, saved as they finish) only the missing ones."""
        cached = self.get_many(embedder.model_id, kind, texts)
        out = np.zeros((len(texts), embedder.dimension), dtype=np.float32)
        todo = [i for i, v in enumerate(cached) if v is None]
        for i, v in enumerate(cached):
            if v is not None:
                out[i] = v
        done = len(texts) - len(todo)
        if progress is not None:
            progress(done, len(texts))
        for start in range(0, len(todo), batch):
            idx = todo[start : start + batch]
            part = [texts[i] for i in idx]
            if kind == "passage":
                vecs = np.asarray(embedder.embed_passages(part), dtype=np.float32)
            elif hasattr(embedder, "embed_queries_array"):
                vecs = np.asarray(embedder.embed_queries_array(part), dtype=np.float32)
            else:
                vecs = np.asarray([embedder.embed_query(t) for t in part], dtype=np.float32)
            out[idx] = vecs
            self.put_many(embedder.model_id, kind, part, vecs)
            done += len(idx)
            if progress is not None:
                progress(done, len(texts))
        return out
