from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from ingest.steps.segment_prep import page_count, render_pages
from store.config import Settings
from store.errors import PermanentError
from tests.ingest.docfactory import image_bytes, text_image, text_pdf


def test_pdf_pages_render_at_the_requested_dpi(tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(text_pdf([["one"], ["two"], ["three"]], size=(612, 792)))
    pages = list(render_pages(path, "pdf", [3, 1], 150))
    assert [p.page for p in pages] == [1, 3]  # ascending, each once
    first = pages[0]
    assert (first.width_pt, first.height_pt) == (612.0, 792.0)
    assert abs(first.width_px - 1275) <= 1 and abs(first.height_px - 1650) <= 1  # 8.5 x 11 in at 150 dpi
    with Image.open(io.BytesIO(first.png)) as img:
        assert img.format == "PNG" and img.size == (first.width_px, first.height_px)
        assert img.convert("L").getextrema()[0] < 100  # some dark text pixels were drawn


def test_greyscale_rendering(tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(text_pdf([["one"]]))
    (page,) = render_pages(path, "pdf", [1], 72, grayscale=True)
    with Image.open(io.BytesIO(page.png)) as img:
        assert img.mode == "L" and abs(img.width - 612) <= 1 and abs(img.height - 792) <= 1
    (page,) = render_pages(path, "pdf", [1], 72, settings=Settings(render_grayscale=True))
    with Image.open(io.BytesIO(page.png)) as img:
        assert img.mode == "L"
    (page,) = render_pages(path, "pdf", [1], 72)
    with Image.open(io.BytesIO(page.png)) as img:
        assert img.mode == "RGB"  # colour by default


def test_missing_page_is_a_permanent_error(tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(text_pdf([["one"]]))
    with pytest.raises(PermanentError, match="page 2 does not exist"):
        list(render_pages(path, "pdf", [2], 150))


def test_huge_page_is_rendered_at_a_lower_dpi(tmp_path: Path) -> None:
    path = tmp_path / "poster.pdf"
    path.write_bytes(text_pdf([["big"]], size=(14400, 14400)))  # 200 x 200 in: 900 Mpx at 150 dpi
    (page,) = render_pages(path, "pdf", [1], 150)
    assert page.width_px * page.height_px <= 40_000_000
    assert page.dpi < 150


def test_images_pass_through_with_points_from_dpi(tmp_path: Path) -> None:
    img = text_image(["hello"], size=(300, 200)).convert("RGBA")
    path = tmp_path / "a.png"
    path.write_bytes(image_bytes(img, "PNG", dpi=(300, 300)))
    (page,) = render_pages(path, "png", [1], 150)
    assert (page.width_px, page.height_px) == (300, 200)
    assert page.width_pt == pytest.approx(72.0) and page.height_pt == pytest.approx(48.0)
    with Image.open(io.BytesIO(page.png)) as out:
        assert out.mode == "RGB"  # transparency flattened


def test_jpeg_exif_orientation_is_applied(tmp_path: Path) -> None:
    img = text_image(["rotated"], size=(300, 100))
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90° CW when displayed
    path = tmp_path / "photo.jpg"
    path.write_bytes(image_bytes(img, "JPEG", exif=exif))
    (page,) = render_pages(path, "jpeg", [1], 150)
    assert (page.width_px, page.height_px) == (100, 300)


def test_multipage_tiff_pages_and_count(tmp_path: Path) -> None:
    frames = [text_image([f"page {i}"], size=(200 + i, 100)) for i in range(3)]
    path = tmp_path / "scan.tif"
    path.write_bytes(image_bytes(frames[0], "TIFF", save_all=True, append_images=frames[1:]))
    assert page_count(path, "tiff") == 3
    pages = list(render_pages(path, "tiff", [2, 3], 150))
    assert [(p.page, p.width_px) for p in pages] == [(2, 201), (3, 202)]
    with pytest.raises(PermanentError, match="page 5 does not exist"):
        list(render_pages(path, "tiff", [5], 150))


def test_rendering_streams_one_page_at_a_time(tmp_path: Path) -> None:
    """Pages arrive while the child is still rendering: closing early stops it (no whole-document buffer)."""
    path = tmp_path / "many.pdf"
    path.write_bytes(text_pdf([[f"page {i}"] for i in range(40)]))
    gen = render_pages(path, "pdf", range(1, 41), 50, settings=Settings(parse_timeout_seconds=30))
    first = next(gen)
    assert first.page == 1
    gen.close()  # kills the child; must not hang or raise
