from __future__ import annotations

import pytest

from ingest.filetypes import MIME, describe_unknown, sniff
from tests.ingest.docfactory import image_bytes, text_image, text_pdf


@pytest.mark.parametrize(
    ("fmt", "kind"), [("PNG", "png"), ("JPEG", "jpeg"), ("TIFF", "tiff"), ("WEBP", "webp")]
)
def test_sniff_recognises_real_images_by_content(fmt: str, kind: str) -> None:
    data = image_bytes(text_image(["x"], size=(40, 20)), fmt)
    assert sniff(data[:1024]) == kind
    assert MIME[kind].startswith("image/")


def test_sniff_pdf_even_after_leading_junk() -> None:
    assert sniff(text_pdf([["a"]])[:1024]) == "pdf"
    assert sniff(b"\r\n  junk before header %PDF-1.7\n") == "pdf"


@pytest.mark.parametrize(
    "head",
    [b"", b"GIF89a....", b"PK\x03\x04 a zip named report.pdf", b"<html>%PD", b"RIFF\x00\x00\x00\x00WAVE", b"BM6\x00"],
)
def test_sniff_rejects_everything_else(head: bytes) -> None:
    assert sniff(head) is None


def test_unknown_reasons_are_readable() -> None:
    assert describe_unknown(b"") == "the file is empty"
    assert "PDF, PNG, JPEG, TIFF or WebP" in describe_unknown(b"GIF89a")
