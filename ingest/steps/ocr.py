"""paddleocr_processor: OCR engines behind one small Protocol.

* :class:`RapidOcrEngine` — the embedded default: PP-OCRv6 (small det + rec) and the PP-OCR mobile
  direction classifier on ONNX Runtime, from the ``rapidocr`` package, which ships those three ``.onnx``
  files. We pass their paths explicitly, so nothing is ever downloaded at run time (rapidocr would
  otherwise fetch a missing model from modelscope). Languages: Chinese, English, Japanese and Latin-script
  European languages — not Korean.
* :class:`TesseractEngine` — Korean (and any installed Tesseract language) through the ``tesseract`` CLI
  with TSV output (Debian: ``tesseract-ocr`` + ``tesseract-ocr-kor``). pytesseract is not needed.
* :class:`PaddleOcrEngine` — the production GPU worker path (``paddleocr`` + ``paddlepaddle-gpu`` in the
  worker image, ``DOCCHAT_OCR_ENGINE=paddle``); imported lazily. Not installable or testable on the
  embedded machine (no GPU, no paddle wheels) — its result parsing is unit-tested with recorded shapes.

Engines are built once per process and cached (construction is lock-protected); ``recognize`` is
thread-safe (one inference at a time per engine: ONNX Runtime already uses every core for one page).
Boxes are axis-aligned ``(x0, y0, x1, y1)`` in image pixels; confidence is 0..1.
"""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from store.config import Settings
from store.errors import ConfigError, PermanentError, RetryableError, UpstreamError
from store.logging import get_logger

log = get_logger(__name__)

PxBox = tuple[float, float, float, float]

#: ISO 639-1 code (or Tesseract code) → Tesseract language argument.
TESSERACT_LANGS: dict[str, str] = {"ko": "kor+eng", "kor": "kor+eng", "korean": "kor+eng", "en": "eng", "eng": "eng"}
#: Languages the shipped PP-OCRv6 model reads (ISO 639-1; "auto"/"" mean "whatever it reads").
RAPID_LANGS = frozenset(
    "auto en zh ja fr de es it pt nl da sv no fi is et lv lt pl cs sk sl hr bs sr hu ro tr az uz id ms vi tl sw "
    "ca eu gl ga cy af la lb mt oc rm sq qu mi ku".split()
) | {""}
#: PaddleOCR ``lang`` for an ISO code.
PADDLE_LANGS: dict[str, str] = {"ko": "korean", "ja": "japan", "zh": "ch", "en": "en", "auto": "ch", "": "ch"}


@dataclass(frozen=True, slots=True)
class OcrLine:
    text: str
    bbox: PxBox  # image pixels, top-left origin
    confidence: float  # 0..1
    #: the recogniser's score of each character of ``text`` (same length; None when the engine gives none)
    chars: tuple[float, ...] | None = None


@dataclass(slots=True)
class OcrResult:
    lines: list[OcrLine] = field(default_factory=list)
    engine: str = ""
    width_px: int = 0
    height_px: int = 0
    seconds: float = 0.0

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


@runtime_checkable
class OcrEngine(Protocol):
    name: str

    def recognize(self, png: bytes, *, language: str) -> OcrResult:
        """Lines of text found in the image ``png`` (any format Pillow/OpenCV decodes)."""


def normalise_language(language: str | None) -> str:
    lang = (language or "").strip().lower().replace("_", "-")
    return lang.split("-")[0] if lang else ""


def _image_size(data: bytes) -> tuple[int, int]:
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as img:
            return int(img.width), int(img.height)
    except Exception as exc:
        raise PermanentError(f"the page image cannot be decoded for OCR ({exc})") from None


def _axis_box(points: Any) -> PxBox:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return (round(min(xs), 1), round(min(ys), 1), round(max(xs), 1), round(max(ys), 1))


# --- RapidOCR (embedded default) ----------------------------------------------------------------------


def rapidocr_model_paths() -> dict[str, Path]:
    """The ONNX files shipped inside the installed ``rapidocr`` package (raises ConfigError if missing)."""
    try:
        import rapidocr
    except ImportError as exc:
        raise ConfigError("OCR needs the 'rapidocr' package (pip install 'rapidocr>=3')") from exc
    models = Path(rapidocr.__file__).parent / "models"
    paths = {
        "Det.model_path": models / "PP-OCRv6_det_small.onnx",
        "Rec.model_path": models / "PP-OCRv6_rec_small.onnx",
        "Cls.model_path": models / "ch_ppocr_mobile_v2.0_cls_mobile.onnx",
    }
    missing = [p.name for p in paths.values() if not p.is_file()]
    if missing:
        raise ConfigError(
            f"rapidocr's bundled models are missing ({', '.join(missing)}); reinstall rapidocr>=3 — "
            "docchat never downloads models at run time"
        )
    return paths


class RapidOcrEngine:
    """PP-OCRv6 small on ONNX Runtime, models from the installed rapidocr package (no downloads)."""

    name = "rapidocr"

    def __init__(self, *, threads: int = 0, text_score: float = 0.5) -> None:
        from rapidocr import RapidOCR

        params: dict[str, Any] = {str(k): str(v) for k, v in rapidocr_model_paths().items()}
        params.update({
            "Global.log_level": "error",
            "Global.text_score": text_score,
            "EngineConfig.onnxruntime.intra_op_num_threads": threads if threads > 0 else -1,
        })
        self._engine = RapidOCR(params=params)
        self._lock = threading.Lock()
        # the recogniser's per-character scores, in text order, taken where rapidocr turns them into word boxes
        # (its own word results pair them with the words, not the characters)
        self._scores: list[tuple[str, list[float]]] = []
        boxes = getattr(self._engine, "calc_word_boxes", None)
        self._with_scores = callable(boxes)
        if callable(boxes):
            def keep_scores(imgs: Any, dt_boxes: Any, rec_res: Any) -> Any:
                self._scores = [(str(t), [float(c) for c in (getattr(w, "confs", None) or ())])
                                for t, w in zip(rec_res.txts or (), rec_res.word_results or (), strict=False)]
                return boxes(imgs, dt_boxes, rec_res)

            setattr(self._engine, "calc_word_boxes", keep_scores)  # noqa: B010 (an instance's method replaced)

    def recognize(self, png: bytes, *, language: str = "") -> OcrResult:
        width, height = _image_size(png)
        started = time.perf_counter()
        try:
            with self._lock:
                self._scores = []
                out: Any = self._engine(png, return_word_box=self._with_scores)
                scores = self._scores
        except MemoryError:
            raise RetryableError("OCR ran out of memory on this page") from None
        except Exception as exc:
            raise PermanentError(f"OCR failed on this page ({type(exc).__name__}: {exc})") from None
        lines: list[OcrLine] = []
        if out.boxes is not None and out.txts is not None and out.scores is not None:
            j = 0
            for box, raw, score in zip(out.boxes, out.txts, out.scores, strict=False):
                while j < len(scores) and scores[j][0] != raw:  # lines under the text score were dropped
                    j += 1
                text, chars = char_scores(str(raw), scores[j][1] if j < len(scores) else [])
                j += 1
                if text:
                    lines.append(OcrLine(text=text, bbox=_axis_box(box), confidence=round(float(score), 4),
                                         chars=chars))
        return OcrResult(lines=lines, engine=self.name, width_px=width, height_px=height,
                         seconds=round(time.perf_counter() - started, 3))


def char_scores(raw: str, scores: Sequence[float]) -> tuple[str, tuple[float, ...] | None]:
    """The line's text with runs of spaces collapsed, and the score of each of its characters (``scores``: one
    per character of ``raw``, spaces included); None when they do not match."""
    text = " ".join(raw.split())
    if not text or len(scores) != len(raw):
        return text, None
    out: list[float] = []
    prev_space = True  # leading spaces are dropped
    for ch, sc in zip(raw, scores, strict=True):
        if ch.isspace():
            if not prev_space:
                out.append(sc)
            prev_space = True
            continue
        out.append(sc)
        prev_space = False
    return text, tuple(round(c, 4) for c in out[: len(text)])


# --- Tesseract (Korean) -------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def tesseract_languages(cmd: str = "tesseract") -> frozenset[str]:
    """Languages the installed Tesseract knows (empty when Tesseract is not installed)."""
    if shutil.which(cmd) is None:
        return frozenset()
    try:
        proc = subprocess.run([cmd, "--list-langs"], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    lines = (proc.stdout + proc.stderr).splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and " " not in line.strip())


class TesseractEngine:
    """Tesseract 5 via its CLI (``tesseract stdin stdout -l kor+eng tsv``); one process per page."""

    name = "tesseract"

    def __init__(self, *, cmd: str = "tesseract", timeout_s: float = 120.0, psm: int = 3) -> None:
        self.cmd = cmd
        self.timeout_s = timeout_s
        self.psm = psm

    def tesseract_lang(self, language: str) -> str:
        lang = normalise_language(language)
        wanted = TESSERACT_LANGS.get(lang, lang or "eng")
        have = tesseract_languages(self.cmd)
        parts = [p for p in wanted.split("+") if p in have]
        if not parts or wanted.split("+")[0] not in have:
            raise PermanentError(
                f"OCR for language {language!r} needs Tesseract's {wanted.split('+')[0]!r} data, which is not "
                "installed (Debian/Ubuntu: apt-get install tesseract-ocr tesseract-ocr-kor)"
            )
        return "+".join(parts)

    def recognize(self, png: bytes, *, language: str = "ko") -> OcrResult:
        lang = self.tesseract_lang(language)
        width, height = _image_size(png)
        started = time.perf_counter()
        lines = self._run(png, lang, self.psm)
        if not lines and self.psm != 6:
            # Automatic page segmentation sometimes finds "no page" in a sparse image (a photographed label,
            # one big line); a single uniform block (psm 6) reads those.
            lines = self._run(png, lang, 6)
        return OcrResult(lines=lines, engine=self.name, width_px=width, height_px=height,
                         seconds=round(time.perf_counter() - started, 3))

    def _run(self, png: bytes, lang: str, psm: int) -> list[OcrLine]:
        try:
            proc = subprocess.run(
                [self.cmd, "stdin", "stdout", "-l", lang, "--psm", str(psm), "tsv"],
                input=png, capture_output=True, timeout=self.timeout_s, check=False,
            )
        except subprocess.TimeoutExpired:
            raise PermanentError(f"Tesseract took longer than {self.timeout_s:g} s on this page") from None
        except OSError as exc:
            raise UpstreamError(f"Tesseract could not run ({exc.strerror or exc})") from exc
        if proc.returncode != 0:
            err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise PermanentError(f"Tesseract failed on this page ({err[-1] if err else proc.returncode})")
        return parse_tesseract_tsv(proc.stdout.decode("utf-8", "replace"))


def parse_tesseract_tsv(tsv: str) -> list[OcrLine]:
    """Group Tesseract's word rows (level 5) into lines: text, union box, mean confidence."""
    groups: dict[tuple[str, str, str, str], list[dict[str, str]]] = {}
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        if row.get("level") != "5" or not (row.get("text") or "").strip():
            continue
        try:
            if float(row.get("conf") or -1) < 0:
                continue
        except ValueError:
            continue
        key = (row["page_num"], row["block_num"], row["par_num"], row["line_num"])
        groups.setdefault(key, []).append(row)
    lines: list[OcrLine] = []
    for words in groups.values():
        x0 = min(int(w["left"]) for w in words)
        y0 = min(int(w["top"]) for w in words)
        x1 = max(int(w["left"]) + int(w["width"]) for w in words)
        y1 = max(int(w["top"]) + int(w["height"]) for w in words)
        conf = sum(float(w["conf"]) for w in words) / len(words) / 100.0
        text = " ".join(w["text"].strip() for w in words)
        lines.append(OcrLine(text=text, bbox=(float(x0), float(y0), float(x1), float(y1)),
                             confidence=round(max(0.0, min(1.0, conf)), 4)))
    return lines


# --- PaddleOCR (production GPU path) ------------------------------------------------------------------


class PaddleOcrEngine:
    """PaddleOCR (PP-OCR server models) on a GPU worker. Requires ``paddleocr`` + ``paddlepaddle-gpu``.

    Supports PaddleOCR 3.x (``predict`` → ``rec_texts``/``rec_scores``/``rec_polys``) and 2.x
    (``ocr`` → ``[[box, (text, score)], …]``). One ``PaddleOCR`` pipeline per language, built lazily.
    """

    name = "paddleocr"

    def __init__(self, *, device: str = "gpu") -> None:
        try:
            import paddleocr  # noqa: F401
        except ImportError as exc:
            raise ConfigError(
                "DOCCHAT_OCR_ENGINE=paddle needs the GPU worker image (paddleocr + paddlepaddle-gpu); "
                "use DOCCHAT_OCR_ENGINE=rapidocr on CPU machines"
            ) from exc
        self.device = device
        self._pipelines: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _pipeline(self, lang: str) -> Any:
        with self._lock:
            if lang not in self._pipelines:
                from paddleocr import PaddleOCR

                try:
                    self._pipelines[lang] = PaddleOCR(lang=lang, device=self.device, use_doc_orientation_classify=False,
                                                      use_doc_unwarping=False, use_textline_orientation=True)
                except TypeError:  # PaddleOCR 2.x keyword names
                    self._pipelines[lang] = PaddleOCR(lang=lang, use_gpu=self.device.startswith("gpu"),
                                                      use_angle_cls=True, show_log=False)
            return self._pipelines[lang]

    def recognize(self, png: bytes, *, language: str = "") -> OcrResult:
        import numpy as np
        from PIL import Image

        width, height = _image_size(png)
        with Image.open(io.BytesIO(png)) as img:
            array = np.asarray(img.convert("RGB"))[:, :, ::-1].copy()  # BGR, as PaddleOCR expects
        pipe = self._pipeline(PADDLE_LANGS.get(normalise_language(language), normalise_language(language)))
        started = time.perf_counter()
        with self._lock:
            raw = pipe.predict(array) if hasattr(pipe, "predict") else pipe.ocr(array)
        return OcrResult(lines=parse_paddle_result(raw), engine=self.name, width_px=width, height_px=height,
                         seconds=round(time.perf_counter() - started, 3))


def parse_paddle_result(raw: Any) -> list[OcrLine]:
    """Lines from a PaddleOCR 3.x ``predict`` result or a 2.x ``ocr`` result (one image)."""
    lines: list[OcrLine] = []
    if not raw:
        return lines
    first = raw[0]
    as_dict = getattr(first, "json", None)
    if isinstance(as_dict, dict) and "res" in as_dict:
        first = as_dict["res"]
    if isinstance(first, dict) or hasattr(first, "keys"):
        texts: Sequence[Any] = first.get("rec_texts") or []
        scores: Sequence[Any] = first.get("rec_scores") or []
        polys = first.get("rec_polys")
        if polys is None:
            polys = first.get("dt_polys") or []
        for text, score, poly in zip(texts, scores, polys, strict=False):
            if str(text).strip():
                lines.append(OcrLine(text=str(text).strip(), bbox=_axis_box(poly), confidence=float(score)))
        return lines
    for entry in first or []:  # 2.x: [[box, (text, score)], ...]
        box, (text, score) = entry[0], entry[1]
        if str(text).strip():
            lines.append(OcrLine(text=str(text).strip(), bbox=_axis_box(box), confidence=float(score)))
    return lines


# --- selection ----------------------------------------------------------------------------------------

_engines: dict[tuple[str, ...], OcrEngine] = {}
_engines_lock = threading.Lock()


def _cached(key: tuple[str, ...], build: Any) -> OcrEngine:
    with _engines_lock:
        engine = _engines.get(key)
        if engine is None:
            started = time.perf_counter()
            engine = build()
            _engines[key] = engine
            log.info("ocr_engine_ready", engine=key[0], seconds=round(time.perf_counter() - started, 3))
        return engine


def is_korean(language: str | None) -> bool:
    return normalise_language(language) in ("ko", "kor", "korean")


def select_engine(language: str, settings: Settings) -> OcrEngine:
    """The engine for a page in ``language``: PaddleOCR on GPU workers; else Tesseract for Korean, RapidOCR
    for the rest. Raises ``PermanentError`` naming the missing package when the language cannot be read."""
    ing = settings.ingest
    if ing.ocr_engine == "paddle":
        return _cached(("paddle",), PaddleOcrEngine)
    if is_korean(language):
        ok, reason = ocr_available(language, settings=settings)
        if not ok:
            raise PermanentError(reason)
        return _cached(("tesseract", ing.tesseract_cmd),
                       lambda: TesseractEngine(cmd=ing.tesseract_cmd, timeout_s=ing.parse_timeout_seconds))
    return _cached(("rapidocr", str(ing.ocr_threads)), lambda: RapidOcrEngine(threads=ing.ocr_threads))


def ocr_available(language: str, *, settings: Settings | None = None) -> tuple[bool, str]:
    """Whether pages in ``language`` can be OCR'd on this machine, and in words why (not)."""
    if settings is not None and settings.ingest.ocr_engine == "paddle":
        try:
            import paddleocr  # noqa: F401
        except ImportError:
            return False, "DOCCHAT_OCR_ENGINE=paddle but paddleocr is not installed (GPU worker image only)"
        return True, "PaddleOCR (GPU)"
    if is_korean(language):
        cmd = settings.ingest.tesseract_cmd if settings is not None else "tesseract"
        langs = tesseract_languages(cmd)
        if not langs:
            return False, ("Korean OCR needs Tesseract, which is not installed "
                           "(Debian/Ubuntu: apt-get install tesseract-ocr tesseract-ocr-kor)")
        if "kor" not in langs:
            return False, "Korean OCR needs Tesseract's Korean data (Debian/Ubuntu: apt-get install tesseract-ocr-kor)"
        return True, "Tesseract (kor)"
    lang = normalise_language(language)
    if lang not in RAPID_LANGS:
        if lang in tesseract_languages(settings.ingest.tesseract_cmd if settings is not None else "tesseract"):
            return True, f"Tesseract ({lang})"
        return False, f"no installed OCR model reads language {language!r}; pages are OCR'd as multilingual"
    try:
        rapidocr_model_paths()
    except ConfigError as exc:
        return False, exc.message
    return True, "RapidOCR PP-OCRv6 (ONNX Runtime)"
