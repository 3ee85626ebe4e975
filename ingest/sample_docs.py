"""Generate test and benchmark documents: text-layer PDFs of any length (streamed to disk, constant memory),
scanned (image-only) PDFs and page images. No external tools, no network."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

WORDS = (
    "contract invoice delivery payment schedule warranty clause party agreement term notice amount total "
    "service period renewal liability insurance record report annual figure revenue customer supplier order"
).split()


def page_lines(page: int, *, lines: int = 40, seed: int = 0) -> list[str]:
    """Deterministic, readable-ish text for ``page`` (1-based); the first line names the page."""
    rng = random.Random(seed * 100_003 + page)
    out = [f"Page {page} section {page * 7 % 97} heading"]
    for _ in range(lines - 1):
        out.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 12))))
    return out


def _pdf_str(text: str) -> bytes:
    safe = text.encode("latin-1", "replace")
    return b"(" + safe.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def write_text_pdf(path: Path, pages: int, *, lines: int = 40, seed: int = 0,
                   text_for: Iterator[list[str]] | None = None) -> Path:
    """A text-layer PDF (Helvetica, US Letter) written page by page; memory does not grow with ``pages``."""
    path = Path(path)
    offsets: list[int] = []
    font_id, pages_id = 3, 2
    first_page_obj = 4
    with path.open("wb") as out:
        def obj(num: int, body: bytes) -> None:
            while len(offsets) < num:
                offsets.append(0)
            offsets[num - 1] = out.tell()
            out.write(b"%d 0 obj\n" % num + body + b"\nendobj\n")

        out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        obj(font_id, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
        kids = []
        for p in range(1, pages + 1):
            page_obj = first_page_obj + 2 * (p - 1)
            content_obj = page_obj + 1
            kids.append(b"%d 0 R" % page_obj)
            text = next(text_for) if text_for is not None else page_lines(p, lines=lines, seed=seed)
            ops = [b"BT /F1 11 Tf 14 TL 56 740 Td"]
            for line in text:
                ops.append(_pdf_str(line) + b" Tj T*")
            ops.append(b"ET")
            stream = b"\n".join(ops)
            obj(page_obj, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R "
                          b">> >> /Contents %d 0 R >>" % content_obj)
            obj(content_obj, b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        obj(pages_id, b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % pages)
        xref = out.tell()
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1))
        for off in offsets:
            out.write(b"%010d 00000 n \n" % off)
        out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, xref))
    return path


def text_image(lines: list[str], *, width: int = 1275, height: int = 1650, font_size: int = 30) -> bytes:
    """A page image (PNG bytes) with ``lines`` of dark text on white — a clean 'scan' at ~150 DPI."""
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(img)
    try:
        font: ImageFont.FreeTypeFont | ImageFont.ImageFont = ImageFont.load_default(size=font_size)
    except (TypeError, OSError):  # Pillow without FreeType
        font = ImageFont.load_default()
    y = 80
    for line in lines:
        draw.text((80, y), line, fill=0, font=font)
        y += int(font_size * 1.6)
        if y > height - 80:
            break
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def write_scanned_pdf(path: Path, pages: int, *, lines: int = 12, seed: int = 0) -> Path:
    """An image-only PDF (no text layer) of ``pages`` rendered text pages — the OCR path."""
    from PIL import Image

    frames = [Image.open(io.BytesIO(text_image(page_lines(p, lines=lines, seed=seed)))) for p in range(1, pages + 1)]
    frames[0].save(path, format="PDF", save_all=True, append_images=frames[1:], resolution=150.0)
    return Path(path)
