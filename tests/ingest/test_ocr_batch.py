"""Issue 18: pages go through PaddleOCR several per ``predict`` call; CPU engines keep one page per call."""

from __future__ import annotations

import threading

from ingest.steps.ocr import OcrResult, PaddleOcrEngine
from ingest.steps.ocr_batch import batches, paddle_predict_batch, recognize_pages
from tests.ingest.docfactory import image_bytes, text_image


def _png(text: str) -> bytes:
    return image_bytes(text_image([text]), "PNG")


class FakePaddle3:
    """PaddleOCR 3.x's pipeline shape: ``predict`` takes a list of BGR arrays, returns one result per image."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def predict(self, arrays):
        assert isinstance(arrays, list)
        self.calls.append(len(arrays))
        return [{"rec_texts": [f"page {i}"], "rec_scores": [0.9], "rec_polys": [[[1, 2], [30, 2], [30, 12], [1, 12]]]}
                for i in range(len(arrays))]


def _engine(pipe) -> PaddleOcrEngine:
    engine = PaddleOcrEngine.__new__(PaddleOcrEngine)  # no paddle installed here: skip the import guard
    engine.device = "gpu"
    engine._pipelines = {"en": pipe}
    engine._lock = threading.Lock()
    return engine


def test_batches_split_pages_in_runs() -> None:
    assert list(batches([1, 2, 3, 4, 5], 2)) == [[1, 2], [3, 4], [5]]
    assert list(batches([], 8)) == [] and list(batches([7], 0)) == [[7]]


def test_paddle_gets_every_page_of_a_batch_in_one_predict_call() -> None:
    pipe = FakePaddle3()
    pngs = [_png("alpha"), _png("beta"), _png("gamma")]
    results = recognize_pages(_engine(pipe), pngs, language="en")
    assert pipe.calls == [3]
    assert [r.text for r in results] == ["page 0", "page 1", "page 2"]
    assert all(r.engine == "paddleocr" and r.width_px > 0 and r.height_px > 0 for r in results)


def test_paddle_2x_ocr_is_called_page_by_page() -> None:
    class FakePaddle2:
        calls = 0

        def ocr(self, array):
            FakePaddle2.calls += 1
            return [[[[[1, 2], [30, 2], [30, 12], [1, 12]], ("World", 0.9)]]]

    results = paddle_predict_batch(FakePaddle2(), [_png("a"), _png("b")])
    assert FakePaddle2.calls == 2 and [r.text for r in results] == ["World", "World"]


def test_an_engine_without_batches_gets_one_page_per_call() -> None:
    seen: list[bytes] = []

    class OneByOne:
        name = "cpu"

        def recognize(self, png: bytes, *, language: str) -> OcrResult:
            seen.append(png)
            return OcrResult(engine="cpu")

    pngs = [b"1", b"2"]
    assert len(recognize_pages(OneByOne(), pngs, language="en")) == 2 and seen == pngs


async def test_the_pipeline_ocrs_pages_in_batches_of_ocr_batch_pages(settings, store, blobs, queue, indexer, clock,
                                                                   tmp_path, monkeypatch) -> None:
    """Scanned pages reach the engine ``ocr_batch_pages`` at a time."""
    from ingest.pipeline import Pipeline
    from ingest.results import original_key
    from ingest.sample_docs import write_scanned_pdf
    from ingest.worker import Worker
    from store.workflows import NewDocument

    calls: list[int] = []

    class Batching:
        name = "fake"

        def recognize(self, png: bytes, *, language: str) -> OcrResult:
            calls.append(1)
            return OcrResult(engine="fake")

        def recognize_batch(self, pngs, *, language: str) -> list[OcrResult]:
            calls.append(len(pngs))
            return [OcrResult(engine="fake") for _ in pngs]

    settings = settings.with_overrides(ocr_batch_pages=2)
    pipeline = Pipeline(settings, store, blobs, indexer)
    monkeypatch.setattr(pipeline, "_engine", lambda language: Batching())
    monkeypatch.setattr("ingest.steps.ocr.ocr_available", lambda language, settings=None: (True, "fake"))
    pid = store.create_project("alice", "P")["project_id"]
    path = write_scanned_pdf(tmp_path / "scan.pdf", 3)
    key = original_key(pid, "d", ".pdf")
    blobs.put(key, path.read_bytes())
    created = store.create_workflow(NewDocument(
        owner="alice", project_id=pid, file_name="scan.pdf", file_type="application/pdf", file_kind="pdf",
        file_key=key, file_uri="blob://" + key, size=path.stat().st_size, sha256="e" * 64, page_count=3,
        language="en", priority="high"))
    queue.send({"workflow_id": created.workflow_id, "document_id": created.document_id, "project_id": pid},
               priority="high")
    worker = Worker(store=store, queue=queue, pipeline=pipeline, settings=settings, clock=clock)
    assert await worker.run_once() == "completed"
    assert calls == [2, 1]


def test_the_gpu_check_renders_scans_with_their_reference_and_scores_them(tmp_path) -> None:
    """The CPU-testable parts of ``bench/gpu_check.py`` (the GPU runs are ``scripts/gpu-check.sh``)."""
    from bench.gpu_check import cer, passages, run_ocr, scanned_pages
    from ingest.sample_docs import write_text_pdf

    write_text_pdf(tmp_path / "a.pdf", 3, lines=20)
    pages = scanned_pages(tmp_path, 2, 100)
    assert len(pages) == 2 and all(png.startswith(b"\x89PNG") and len(ref.split()) >= 30 for png, ref in pages)
    assert cer("Net  sales", "net sales") == 0.0 and cer("", "abcd") == 1.0
    chunks = passages(pages, 5, words=20)
    assert len(chunks) == 5 and all(len(c.split()) == 20 for c in chunks)
    pipe = FakePaddle3()
    rate, texts = run_ocr(_engine(pipe), pages, batch=2)
    assert pipe.calls == [2] and texts == ["page 0", "page 1"] and rate > 0
