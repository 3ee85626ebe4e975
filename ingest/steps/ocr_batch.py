"""Pages through an OCR engine in batches (issue 18): PaddleOCR's ``predict`` takes a list of pages, so a GPU
worker recognises ``ocr_batch_pages`` pages per call instead of one; engines without ``recognize_batch``
(RapidOCR, Tesseract: CPU) get one page per call, as before.
"""

from __future__ import annotations

import io
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ingest.steps.ocr import (
    PADDLE_LANGS,
    OcrEngine,
    OcrResult,
    PaddleOcrEngine,
    _image_size,
    normalise_language,
    parse_paddle_result,
)


def batches(pages: Sequence[int], size: int) -> Iterator[list[int]]:
    """``pages`` in runs of at most ``size`` (pure)."""
    step = max(1, int(size))
    for start in range(0, len(pages), step):
        yield list(pages[start:start + step])


def recognize_pages(engine: OcrEngine, pngs: Sequence[bytes], *, language: str) -> list[OcrResult]:
    """One result per page, in order: PaddleOCR gets them all in one ``predict`` call, an engine with a
    ``recognize_batch`` method one call of it, the others page by page."""
    if isinstance(engine, PaddleOcrEngine) and len(pngs) > 1:
        pipe = engine._pipeline(paddle_lang(language))
        with engine._lock:  # one predict at a time per engine, as ``recognize`` does
            return paddle_predict_batch(pipe, pngs, engine_name=engine.name)
    batch = getattr(engine, "recognize_batch", None)
    if callable(batch) and len(pngs) > 1:
        results = list(batch(pngs, language=language))
        if len(results) != len(pngs):
            raise RuntimeError(f"the OCR engine returned {len(results)} results for {len(pngs)} pages")
        return results
    return [engine.recognize(png, language=language) for png in pngs]


def paddle_arrays(pngs: Iterable[bytes]) -> list[Any]:
    """Pages as BGR arrays, as PaddleOCR expects them."""
    import numpy as np
    from PIL import Image

    out = []
    for png in pngs:
        with Image.open(io.BytesIO(png)) as img:
            out.append(np.asarray(img.convert("RGB"))[:, :, ::-1].copy())
    return out


def paddle_predict_batch(pipe: Any, pngs: Sequence[bytes], *, engine_name: str = "paddleocr") -> list[OcrResult]:
    """Every page in one ``predict`` call (PaddleOCR 3.x: one result per input image); 2.x's ``ocr`` takes one
    image per call, so there it is page by page. The time of the call is shared out evenly."""
    sizes = [_image_size(png) for png in pngs]
    arrays = paddle_arrays(pngs)
    started = time.perf_counter()
    if hasattr(pipe, "predict"):
        raw = list(pipe.predict(arrays))
    else:
        raw = [r[0] if r else r for r in (pipe.ocr(a) for a in arrays)]
    if len(raw) != len(pngs):
        raise RuntimeError(f"PaddleOCR returned {len(raw)} results for {len(pngs)} pages")
    each = round((time.perf_counter() - started) / max(1, len(pngs)), 3)
    return [OcrResult(lines=parse_paddle_result([r]), engine=engine_name, width_px=w, height_px=h, seconds=each)
            for r, (w, h) in zip(raw, sizes, strict=True)]


def paddle_lang(language: str) -> str:
    lang = normalise_language(language)
    return PADDLE_LANGS.get(lang, lang)
