from __future__ import annotations

from pathlib import Path

import pytest

from ingest.inspect import inspect_document
from store.config import Settings
from store.errors import InvalidInput, PayloadTooLarge, UnsupportedMediaType
from tests.ingest.docfactory import encrypted_pdf, image_bytes, png_header_only, text_image, text_pdf


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path, parse_timeout_seconds=30.0, max_pages=5)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_pdf_pages_sizes_and_encryption_flag(tmp_path: Path, settings: Settings) -> None:
    path = write(tmp_path, "a.pdf", text_pdf([["one"], ["two"], ["three"]], size=(595, 842)))
    info = inspect_document(path, "pdf", settings)
    assert info.kind == "pdf"
    assert info.page_count == 3
    assert info.encrypted is False
    assert info.page_sizes == ((595.0, 842.0),) * 3


def test_encrypted_pdf_needs_a_password(tmp_path: Path, settings: Settings) -> None:
    path = write(tmp_path, "e.pdf", encrypted_pdf("secret"))
    with pytest.raises(InvalidInput, match="encrypted with a password"):
        inspect_document(path, "pdf", settings)
    with pytest.raises(InvalidInput, match="password given is wrong"):
        inspect_document(path, "pdf", settings, password="nope")
    info = inspect_document(path, "pdf", settings, password="secret")
    assert info.encrypted is True and info.page_count == 1


def test_too_many_pages_is_payload_too_large(tmp_path: Path, settings: Settings) -> None:
    path = write(tmp_path, "long.pdf", text_pdf([["p"]] * 6))
    with pytest.raises(PayloadTooLarge, match="6 pages; the limit is 5"):
        inspect_document(path, "pdf", settings)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n", "corrupt or truncated|no pages"),
        (text_pdf([["hello"]])[:150], "corrupt or truncated|no pages"),
        (b"%PDF-", "corrupt or truncated|no pages"),
    ],
)
def test_corrupt_pdfs_are_rejected_with_a_reason(tmp_path: Path, settings: Settings, data: bytes, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        inspect_document(write(tmp_path, "bad.pdf", data), "pdf", settings)


def test_empty_and_mislabelled_files(tmp_path: Path, settings: Settings) -> None:
    with pytest.raises(InvalidInput, match="empty"):
        inspect_document(write(tmp_path, "empty.pdf", b""), "pdf", settings)
    png = image_bytes(text_image(["x"], size=(50, 20)), "PNG")
    with pytest.raises(UnsupportedMediaType):
        inspect_document(write(tmp_path, "really-a-png.pdf", png), "pdf", settings)


def test_upload_size_limit(tmp_path: Path) -> None:
    small = Settings(data_dir=tmp_path, max_upload_bytes=100)
    with pytest.raises(PayloadTooLarge, match="limit"):
        inspect_document(write(tmp_path, "a.pdf", text_pdf([["x" * 50]])), "pdf", small)


@pytest.mark.parametrize(("fmt", "kind"), [("PNG", "png"), ("JPEG", "jpeg"), ("WEBP", "webp")])
def test_images_are_one_page(tmp_path: Path, settings: Settings, fmt: str, kind: str) -> None:
    data = image_bytes(text_image(["hi"], size=(300, 150)), fmt, dpi=(150, 150)) if fmt != "WEBP" else image_bytes(
        text_image(["hi"], size=(300, 150)), fmt)
    info = inspect_document(write(tmp_path, "img." + kind, data), kind, settings)
    assert info.page_count == 1
    assert info.pixel_sizes == ((300, 150),)
    expected = (144.0, 72.0) if fmt != "WEBP" else (300.0, 150.0)  # 150 dpi → points; no dpi → 1 px = 1 pt
    assert info.page_sizes[0] == pytest.approx(expected, abs=0.5)


def test_multipage_tiff_is_one_page_per_frame(tmp_path: Path, settings: Settings) -> None:
    frames = [text_image([f"page {i}"], size=(200, 100)) for i in range(3)]
    data = image_bytes(frames[0], "TIFF", save_all=True, append_images=frames[1:])
    info = inspect_document(write(tmp_path, "scan.tif", data), "tiff", settings)
    assert info.page_count == 3
    too_many = image_bytes(frames[0], "TIFF", save_all=True, append_images=frames[1:] * 3)  # 7 frames
    with pytest.raises(PayloadTooLarge, match="more than 5 pages"):
        inspect_document(write(tmp_path, "long.tif", too_many), "tiff", settings)


@pytest.mark.parametrize("side", [10_000, 20_000])  # 100 Mpx (warning zone) and 400 Mpx (error zone)
def test_decompression_bomb_is_refused_before_decoding(tmp_path: Path, settings: Settings, side: int) -> None:
    with pytest.raises(PayloadTooLarge, match="decompression bomb"):
        inspect_document(write(tmp_path, "bomb.png", png_header_only(side, side)), "png", settings)


def test_truncated_image_is_rejected(tmp_path: Path, settings: Settings) -> None:
    data = image_bytes(text_image(["truncated"], size=(400, 300)), "PNG")
    with pytest.raises(InvalidInput, match="corrupt or truncated"):
        inspect_document(write(tmp_path, "cut.png", data[: len(data) // 2]), "png", settings)
