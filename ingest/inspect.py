"""Open an uploaded file once, safely, and say what it is: page count, page sizes, encryption.

All parsing happens in a sandboxed child (:mod:`ingest.sandbox`). Anything wrong with the file —
encrypted without a password, corrupt or truncated, too many pages, a decompression bomb, a parser
crash or hang — raises :class:`store.errors.InvalidInput` (or its subclasses ``PayloadTooLarge`` /
``UnsupportedMediaType``) with a reason a person can act on.

Images are one-page documents, except multi-page TIFFs (fax and scanner output): every TIFF frame is a
page. Animated PNG/WebP use their first frame only. An image's page size in points comes from its DPI
metadata when plausible (30–2400 dpi), else 1 px = 1 pt (72 dpi).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ingest.filetypes import SNIFF_BYTES, FileKind, sniff
from ingest.sandbox import Limits, run_sandboxed, wire_type
from ingest.sizes import limit_text
from store.config import Settings
from store.errors import InvalidInput, PayloadTooLarge, PermanentError, UnsupportedMediaType

if TYPE_CHECKING:
    from PIL import Image as PILImage

#: Pillow's default bomb threshold (~89.5 Mpx, a 9,459 px square); a larger image is refused before decoding.
MAX_IMAGE_PIXELS = 89_478_485
#: PDFium's error code for a wrong or missing password.
_FPDF_ERR_PASSWORD = 4
_PIL_FORMATS: dict[str, str] = {"png": "PNG", "jpeg": "JPEG", "tiff": "TIFF", "webp": "WEBP"}


@wire_type
@dataclass(frozen=True, slots=True)
class DocumentInfo:
    """What ``inspect_document`` learned about a file."""

    kind: FileKind
    page_count: int
    encrypted: bool
    #: (width, height) in PDF points for each page, in page order.
    page_sizes: tuple[tuple[float, float], ...]
    #: Pixel size of each page for images (None for PDFs).
    pixel_sizes: tuple[tuple[int, int], ...] | None = None


def inspect_document(
    path: Path, kind: FileKind, settings: Settings, *, password: str | None = None, limits: Limits | None = None
) -> DocumentInfo:
    """Open ``path`` in a sandbox and describe it, or raise ``InvalidInput`` with a reason.
    ``limits`` defaults to the settings' parse limits (uploads pass their own: shorter, niced)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError as exc:
        raise InvalidInput(f"the uploaded file could not be read: {exc.strerror or exc}") from exc
    if size == 0:
        raise InvalidInput("the file is empty")
    if size > settings.ingest.max_upload_bytes:
        raise PayloadTooLarge(
            f"the file is {limit_text(size)}; the limit is {limit_text(settings.ingest.max_upload_bytes)}"
        )
    actual = sniff(head)
    if actual != kind:
        raise UnsupportedMediaType(f"the file's content is not a {kind.upper()} file")
    limits = limits or Limits.from_settings(settings)
    what = f"opening the {kind.upper()} file"
    if kind == "pdf":
        return run_sandboxed(_inspect_pdf, str(path), settings.ingest.max_pages, password,
                             limits=limits, what=what, error=InvalidInput)
    return run_sandboxed(_inspect_image, str(path), kind, settings.ingest.max_pages,
                         limits=limits, what=what, error=InvalidInput)


# --- PDF (runs in the child) --------------------------------------------------------------------------


def open_pdf(path: str, password: str | None = None) -> Any:
    """A ``pypdfium2.PdfDocument`` or ``InvalidInput`` saying why the file cannot be opened."""
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(path, password=password)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == _FPDF_ERR_PASSWORD:
            if password:
                raise InvalidInput("the PDF is encrypted and the password given is wrong") from None
            raise InvalidInput(
                "the PDF is encrypted with a password; remove the password (or upload an unprotected copy)"
            ) from None
        raise InvalidInput(f"the PDF is corrupt or truncated and cannot be opened ({exc})") from None


def iter_pdf_pages(path: str, pages: Sequence[int], password: str | None = None) -> Iterator[tuple[int, Any]]:
    """``(number, page)`` for the 1-based ``pages`` of the PDF, each page closed after use, the document at the end.

    A page number out of range or a page PDFium cannot load is a ``PermanentError`` naming the page.
    """
    import pypdfium2 as pdfium

    pdf = open_pdf(path, password)
    try:
        count = len(pdf)
        for number in pages:
            if not 1 <= number <= count:
                raise PermanentError(f"page {number} does not exist (the document has {count} pages)")
            try:
                page = pdf[number - 1]
            except pdfium.PdfiumError as exc:
                raise PermanentError(f"page {number} is corrupt and cannot be loaded ({exc})") from None
            try:
                yield number, page
            finally:
                page.close()
    finally:
        pdf.close()


def _inspect_pdf(path: str, max_pages: int, password: str | None) -> DocumentInfo:
    import pypdfium2 as pdfium

    pdf = open_pdf(path, password)
    try:
        count = len(pdf)
        if count <= 0:
            raise InvalidInput("the PDF has no pages (it is empty or its page tree is broken)")
        if count > max_pages:
            raise PayloadTooLarge(f"the PDF has {count} pages; the limit is {max_pages}")
        encrypted = pdfium.raw.FPDF_GetSecurityHandlerRevision(pdf.raw) != -1
        sizes = tuple(_page_size(pdf, i) for i in range(count))
        try:  # a document whose first page cannot be loaded is useless; catch that now, at upload
            pdf[0].close()
        except pdfium.PdfiumError as exc:
            raise InvalidInput(f"the PDF is corrupt: its first page cannot be loaded ({exc})") from None
        return DocumentInfo(kind="pdf", page_count=count, encrypted=encrypted, page_sizes=sizes)
    finally:
        pdf.close()


def _page_size(pdf: Any, index: int) -> tuple[float, float]:
    try:
        w, h = pdf.get_page_size(index)
    except Exception:  # pdfium cannot size a broken page; fall back to US Letter, the page may still render
        return (612.0, 792.0)
    if not (0 < w < 200_000 and 0 < h < 200_000):
        return (612.0, 792.0)
    return (round(float(w), 2), round(float(h), 2))


# --- images (run in the child) ------------------------------------------------------------------------


@contextmanager
def open_image(path: str, kind: FileKind) -> Iterator[PILImage.Image]:
    """Open an image with bomb protection; the format must match the sniffed kind."""
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            img = Image.open(path)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise PayloadTooLarge(f"the image is too large to decode safely (decompression bomb?): {exc}") from None
        except Exception as exc:
            raise InvalidInput(f"the image is corrupt or truncated and cannot be opened ({_why(exc)})") from None
        try:
            if img.format != _PIL_FORMATS.get(kind):
                raise UnsupportedMediaType(f"the file looks like {kind.upper()} but decodes as {img.format}")
            yield img
        finally:
            img.close()


def iter_frames(img: PILImage.Image, kind: FileKind, max_pages: int) -> Iterator[PILImage.Image]:
    """Each page of an image: every frame of a TIFF, the first frame of anything else, fully decoded."""
    from PIL import Image

    index = 0
    while True:
        if index >= max_pages:
            raise PayloadTooLarge(f"the TIFF has more than {max_pages} pages (the limit)")
        w, h = img.size
        if w <= 0 or h <= 0:
            raise InvalidInput("the image has no pixels")
        if w * h > MAX_IMAGE_PIXELS:
            raise PayloadTooLarge(
                f"the image is {w}×{h} px, more than the {MAX_IMAGE_PIXELS:,} pixel limit (decompression bomb?)"
            )
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            try:
                img.load()
            except Exception as exc:
                raise InvalidInput(
                    f"the image is corrupt or truncated (page {index + 1} cannot be decoded: {_why(exc)})"
                ) from None
        yield img
        index += 1
        if kind != "tiff":
            return
        try:
            img.seek(index)
        except EOFError:
            return
        except Exception as exc:
            raise InvalidInput(f"the TIFF is corrupt (page {index + 1} cannot be read: {_why(exc)})") from None


def image_dpi(img: PILImage.Image) -> float:
    """The image's resolution if its metadata is plausible, else 72 (1 px = 1 pt)."""
    dpi: Any = img.info.get("dpi")
    try:
        value = float(dpi[0]) if isinstance(dpi, tuple) else float(dpi)
    except (TypeError, ValueError, IndexError):
        return 72.0
    return value if 30.0 <= value <= 2400.0 else 72.0


def _inspect_image(path: str, kind: FileKind, max_pages: int) -> DocumentInfo:
    sizes: list[tuple[float, float]] = []
    pixels: list[tuple[int, int]] = []
    with open_image(path, kind) as img:
        for frame in iter_frames(img, kind, max_pages):
            w, h = frame.size
            if kind == "jpeg" and frame.getexif().get(0x0112) in (5, 6, 7, 8):  # EXIF: rotated 90/270
                w, h = h, w
            scale = 72.0 / image_dpi(frame)
            pixels.append((w, h))
            sizes.append((round(w * scale, 2), round(h * scale, 2)))
    return DocumentInfo(kind=kind, page_count=len(sizes), encrypted=False, page_sizes=tuple(sizes),
                        pixel_sizes=tuple(pixels))


def _why(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]
