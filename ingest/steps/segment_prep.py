"""segment_prep: render each page to a PNG, one page at a time, in a sandboxed child.

PDF pages are rendered with PDFium at ``dpi`` (150 by default, ``Settings.render_dpi``). Image uploads are
passed through at their native resolution (never upscaled), converted to RGB or greyscale PNG, with JPEG
EXIF orientation applied; every frame of a multi-page TIFF is a page (see :mod:`ingest.inspect`).

Memory stays flat for any page count: the child renders page *n*, sends its PNG through a pipe and only
then renders page *n+1*; the parent yields each page as it arrives. A page larger than
``MAX_RENDER_PIXELS`` at the requested DPI is rendered at a lower DPI instead (its ``dpi`` says which).
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ingest.filetypes import FileKind
from ingest.inspect import image_dpi, iter_frames, iter_pdf_pages, open_image, open_pdf
from ingest.sandbox import Limits, iter_sandboxed, wire_type
from store.config import Settings
from store.errors import PermanentError

if TYPE_CHECKING:
    from PIL import Image as PILImage

#: Upper bound on the pixels of one rendered page (a 150-DPI A0 poster is ~28 Mpx; 40 Mpx ≈ 120 MB RGB).
MAX_RENDER_PIXELS = 40_000_000
#: zlib level for page PNGs: 1 is ~3x faster than the default 6 and ~15% larger on text pages.
PNG_COMPRESS_LEVEL = 1


@wire_type
@dataclass(frozen=True, slots=True)
class RenderedPage:
    page: int  # 1-based
    png: bytes
    width_pt: float
    height_pt: float
    width_px: int
    height_px: int
    dpi: float = 150.0


def pixel_size(width_pt: float, height_pt: float, dpi: float) -> tuple[int, int]:
    """The pixel size ``render_pages`` gives a page of this size at ``dpi`` (pure; pdfium rounds up), so a
    segment can be built before its page is rendered."""
    scale = dpi / 72.0
    if width_pt > 0 and height_pt > 0 and (width_pt * scale) * (height_pt * scale) > MAX_RENDER_PIXELS:
        scale = math.sqrt(MAX_RENDER_PIXELS / (width_pt * height_pt)) * 0.999
    return math.ceil(width_pt * scale), math.ceil(height_pt * scale)


def render_pages(
    path: Path,
    kind: FileKind,
    pages: Sequence[int],
    dpi: int | float = 150,
    *,
    settings: Settings | None = None,
    password: str | None = None,
    grayscale: bool | None = None,
    nice: int = 0,
    on_child: Callable[[int], None] | None = None,
) -> Iterator[RenderedPage]:
    """Yield ``RenderedPage`` for each distinct 1-based page number in ``pages``, in ascending order.

    ``nice`` lowers the children's priority: rendering for the viewer runs behind the text path (issue 18);
    ``on_child(pid)`` is told the child's pid (the pipeline lowers it further once no page needs OCR).

    ``grayscale`` defaults to ``Settings.render_grayscale`` (colour when no settings are given). Failures
    (corrupt page, crash, timeout per page, memory limit) raise ``PermanentError`` with a reason.
    """
    limits = Limits.from_settings(settings) if settings is not None else Limits()
    if nice:
        limits = dataclasses.replace(limits, nice=nice)
    if grayscale is None:
        grayscale = settings.ingest.render_grayscale if settings is not None else False
    wanted = sorted({int(p) for p in pages})
    if not wanted:
        return
    yield from iter_sandboxed(
        _render_child, str(path), kind, wanted, float(dpi), password, grayscale,
        limits=limits, what="rendering the pages", on_start=on_child,
    )


def page_count(path: Path, kind: FileKind, *, settings: Settings | None = None, password: str | None = None) -> int:
    """Number of pages (sandboxed); for callers that did not keep ``inspect_document``'s answer."""
    from ingest.sandbox import run_sandboxed

    limits = Limits.from_settings(settings) if settings is not None else Limits()
    max_pages = settings.ingest.max_pages if settings is not None else 3000
    return run_sandboxed(_count_child, str(path), kind, password, max_pages, limits=limits, what="counting pages")


# --- child side ---------------------------------------------------------------------------------------


def _count_child(path: str, kind: FileKind, password: str | None, max_pages: int) -> int:
    if kind == "pdf":
        pdf = open_pdf(path, password)
        try:
            return len(pdf)
        finally:
            pdf.close()
    with open_image(path, kind) as img:
        return sum(1 for _ in iter_frames(img, kind, max_pages))


def _render_child(
    path: str, kind: FileKind, pages: list[int], dpi: float, password: str | None, grayscale: bool
) -> Iterator[RenderedPage]:
    if kind == "pdf":
        yield from _render_pdf(path, pages, dpi, password, grayscale)
    else:
        yield from _render_image(path, kind, pages, grayscale)


def _render_pdf(
    path: str, pages: list[int], dpi: float, password: str | None, grayscale: bool
) -> Iterator[RenderedPage]:
    for number, page in iter_pdf_pages(path, pages, password):
        w_pt, h_pt = page.get_size()
        if not (w_pt > 0 and h_pt > 0):
            raise PermanentError(f"page {number} has no size (corrupt page box)")
        scale = dpi / 72.0
        if (w_pt * scale) * (h_pt * scale) > MAX_RENDER_PIXELS:
            scale = math.sqrt(MAX_RENDER_PIXELS / (w_pt * h_pt)) * 0.999  # pdfium rounds up
        bitmap = page.render(scale=scale, grayscale=grayscale, may_draw_forms=True)
        try:
            image = bitmap.to_pil()
            png = _png(image)
            yield RenderedPage(page=number, png=png, width_pt=float(w_pt), height_pt=float(h_pt),
                               width_px=image.width, height_px=image.height, dpi=round(scale * 72.0, 3))
        finally:
            bitmap.close()


def _render_image(path: str, kind: FileKind, pages: list[int], grayscale: bool) -> Iterator[RenderedPage]:
    from PIL import ImageOps

    wanted = set(pages)
    last = pages[-1]
    seen = 0
    with open_image(path, kind) as img:
        for index, frame in enumerate(iter_frames(img, kind, last), start=1):
            seen = index
            if index in wanted:
                dpi = image_dpi(frame)
                page_img: PILImage.Image = ImageOps.exif_transpose(frame) if kind == "jpeg" else frame
                w_pt, h_pt = page_img.width * 72.0 / dpi, page_img.height * 72.0 / dpi
                page_img = _normalise_mode(page_img, grayscale)
                if page_img.width * page_img.height > MAX_RENDER_PIXELS:
                    factor = math.sqrt(MAX_RENDER_PIXELS / (page_img.width * page_img.height))
                    page_img = page_img.resize((max(1, int(page_img.width * factor)),
                                                max(1, int(page_img.height * factor))))
                yield RenderedPage(page=index, png=_png(page_img), width_pt=round(w_pt, 2), height_pt=round(h_pt, 2),
                                   width_px=page_img.width, height_px=page_img.height, dpi=dpi)
            if index >= last:
                break
    if seen < last:
        raise PermanentError(f"page {last} does not exist (the image has {seen} page(s))")


def _normalise_mode(img: PILImage.Image, grayscale: bool) -> PILImage.Image:
    """RGB for colour, L for greyscale/bitonal/high-bit-depth images; transparency flattened on white."""
    from PIL import Image

    if img.mode in ("I", "I;16", "I;16B", "I;16L", "I;16N", "F"):
        import numpy as np

        arr = np.asarray(img, dtype=np.float32)
        top = float(arr.max()) if arr.size else 0.0
        arr = arr * (255.0 / top) if top > 0 else arr
        return Image.fromarray(arr.clip(0, 255).astype(np.uint8), mode="L")
    if img.mode in ("RGBA", "LA", "P", "PA") or "transparency" in img.info:
        rgba = img.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat.convert("L") if grayscale else flat
    if grayscale or img.mode in ("1", "L"):
        return img.convert("L")
    return img if img.mode == "RGB" else img.convert("RGB")


def _png(img: PILImage.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()
