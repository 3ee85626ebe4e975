from __future__ import annotations

import glob
import threading

import pytest
from PIL import ImageFont

import ingest.steps.ocr as ocr
from ingest.steps.ocr import (
    OcrEngine,
    RapidOcrEngine,
    TesseractEngine,
    ocr_available,
    parse_paddle_result,
    parse_tesseract_tsv,
    rapidocr_model_paths,
    select_engine,
    tesseract_languages,
)
from store.config import Settings
from store.errors import ConfigError, PermanentError
from tests.ingest.docfactory import image_bytes, text_image

HAS_KOREAN_OCR = "kor" in tesseract_languages("tesseract")
CJK_FONTS = sorted(glob.glob("/usr/share/fonts/**/NotoSansCJK-Regular.ttc", recursive=True)
                   + glob.glob("/usr/share/fonts/**/NotoSerifCJK-Regular.ttc", recursive=True)
                   + glob.glob("/usr/share/fonts/**/NanumGothic.ttf", recursive=True))


def squash(text: str) -> str:
    return "".join(text.lower().split())


@pytest.fixture(scope="module")
def rapid() -> OcrEngine:
    return select_engine("en", Settings())


def test_rapidocr_reads_lines_with_boxes_and_confidence(rapid: OcrEngine) -> None:
    png = image_bytes(text_image(["Invoice 12345", "Total 99.50 EUR"], size=(600, 160)), "PNG")
    result = rapid.recognize(png, language="en")
    assert result.engine == "rapidocr" and (result.width_px, result.height_px) == (600, 160)
    texts = [squash(line.text) for line in result.lines]
    assert "invoice12345" in texts and "total99.50eur" in texts
    first = result.lines[texts.index("invoice12345")]
    x0, y0, x1, y1 = first.bbox
    assert 5 <= x0 <= 40 and 5 <= y0 < y1 <= 80 and x1 > 150  # drawn at (20, 20), ~24 px high, ~160 px wide
    assert 0.8 <= first.confidence <= 1.0
    # each character's own score, one per character of the text; their mean is the line's score
    assert first.chars is not None and len(first.chars) == len(first.text)
    assert abs(sum(first.chars) / len(first.chars) - first.confidence) < 0.02


def test_rapidocr_models_ship_in_the_package_and_nothing_downloads(monkeypatch: pytest.MonkeyPatch) -> None:
    import rapidocr.utils.download_file as download_file

    paths = rapidocr_model_paths()
    assert all(p.is_file() and p.suffix == ".onnx" and "rapidocr" in p.parts for p in paths.values())

    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("rapidocr tried to download a model")

    monkeypatch.setattr(download_file.DownloadFile, "run", classmethod(no_network))
    RapidOcrEngine()  # builds det, cls and rec sessions from the bundled files only


def test_engines_are_built_once_even_under_concurrency(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []

    class Slow:
        name = "slow"

        def __init__(self, **_: object) -> None:
            built.append(1)

        def recognize(self, png: bytes, *, language: str) -> None:  # pragma: no cover
            raise NotImplementedError

    monkeypatch.setattr(ocr, "_engines", {})
    monkeypatch.setattr(ocr, "RapidOcrEngine", Slow)
    settings = Settings(ocr_threads=3)
    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(select_engine("en", settings))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(built) == 1 and all(g is got[0] for g in got)


@pytest.mark.skipif(not HAS_KOREAN_OCR, reason="tesseract with Korean data is not installed")
@pytest.mark.skipif(not CJK_FONTS, reason="no CJK font to draw a Korean test image")
def test_korean_pages_go_to_tesseract_and_are_read() -> None:
    engine = select_engine("ko", Settings())
    assert isinstance(engine, TesseractEngine)
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (700, 120), "white")
    ImageDraw.Draw(img).text((20, 30), "대한민국 보험 약관", fill="black", font=ImageFont.truetype(CJK_FONTS[0], 48))
    result = engine.recognize(image_bytes(img, "PNG"), language="ko")
    assert result.engine == "tesseract"
    assert "대한민국" in result.text and "보험" in result.text
    assert all(0.0 <= line.confidence <= 1.0 for line in result.lines)


def test_missing_tesseract_is_reported_clearly() -> None:
    settings = Settings(tesseract_cmd="/nonexistent/tesseract")
    ok, why = ocr_available("ko", settings=settings)
    assert not ok and "apt-get install tesseract-ocr" in why
    with pytest.raises(PermanentError, match="tesseract-ocr-kor"):
        select_engine("ko", settings)
    assert ocr_available("en", settings=settings)[0]  # other languages do not need it


def test_paddle_engine_is_the_gpu_path_and_says_so_when_absent() -> None:
    try:
        import paddleocr  # noqa: F401
    except ImportError:
        with pytest.raises(ConfigError, match="GPU worker image"):
            select_engine("en", Settings(ocr_engine="paddle"))
        assert ocr_available("en", settings=Settings(ocr_engine="paddle"))[0] is False
    else:  # pragma: no cover - only on the GPU worker image
        assert select_engine("en", Settings(ocr_engine="paddle")).name == "paddleocr"


def test_tesseract_tsv_is_grouped_into_lines() -> None:
    header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"
    rows = [
        "1\t1\t0\t0\t0\t0\t0\t0\t700\t120\t-1\t",
        "5\t1\t1\t1\t1\t1\t20\t30\t150\t40\t96.5\t대한민국",
        "5\t1\t1\t1\t1\t2\t190\t32\t90\t38\t91.5\t보험",
        "5\t1\t1\t1\t2\t1\t20\t80\t60\t20\t-1\t ",
        "5\t1\t2\t1\t1\t1\t400\t90\t50\t20\t50\tx",
    ]
    lines = parse_tesseract_tsv("\n".join([header, *rows]))
    assert [ln.text for ln in lines] == ["대한민국 보험", "x"]
    assert lines[0].bbox == (20.0, 30.0, 280.0, 70.0)
    assert lines[0].confidence == pytest.approx(0.94)


def test_paddle_results_of_both_major_versions_parse() -> None:
    v3 = [{"rec_texts": ["Hello", " "], "rec_scores": [0.98, 0.1],
           "rec_polys": [[[10, 5], [60, 5], [60, 25], [10, 25]], [[0, 0], [1, 0], [1, 1], [0, 1]]]}]
    v2 = [[[[[1, 2], [30, 2], [30, 12], [1, 12]], ("World", 0.9)]]]
    (a,) = parse_paddle_result(v3)
    (b,) = parse_paddle_result(v2)
    assert (a.text, a.bbox, a.confidence) == ("Hello", (10.0, 5.0, 60.0, 25.0), 0.98)
    assert (b.text, b.bbox, b.confidence) == ("World", (1.0, 2.0, 30.0, 12.0), 0.9)
    assert parse_paddle_result([]) == [] and parse_paddle_result([None]) == []
