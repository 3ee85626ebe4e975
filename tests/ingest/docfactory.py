"""Small documents made in the tests (no evaldata needed): text PDFs, scanned PDFs, images, broken files."""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Sequence
from pathlib import Path

EVALDATA = Path(__file__).resolve().parents[3] / "shared" / "evaldata"


def text_pdf(pages: Sequence[Sequence[str]], *, size: tuple[int, int] = (612, 792), font_size: int = 12) -> bytes:
    """A minimal, valid PDF with one Helvetica line of text per entry, top-down from 72 pt."""
    objects: list[bytes] = []
    n_pages = len(pages)
    font_id = 3 + 2 * n_pages
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n_pages))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    for i, lines in enumerate(pages):
        content_id = 4 + 2 * i
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {size[0]} {size[1]}] "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> /Contents {content_id} 0 R >>".encode()
        )
        ops = [f"BT /F1 {font_size} Tf"]
        for j, line in enumerate(lines):
            y = size[1] - 72 - j * (font_size + 6)
            esc = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"1 0 0 1 72 {y} Tm ({esc}) Tj")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    return helvetica_pdf(objects)


def helvetica_pdf(objects: list[bytes]) -> bytes:
    """``objects`` (catalog, pages, then page/content pairs) plus a Helvetica font object, as a PDF file."""
    objects = [*objects, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for off in offsets:
        out.write(f"{off:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def text_image(lines: Sequence[str], *, size: tuple[int, int] = (900, 300), scale: int = 3):
    """A white image with black text (Pillow's built-in font, scaled up so OCR can read it)."""
    from PIL import Image, ImageDraw, ImageFont

    try:
        font = ImageFont.load_default(size=16 * scale // 2)
    except TypeError:  # very old Pillow
        font = ImageFont.load_default()
    img = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((20, 20 + i * 14 * scale), line, fill="black", font=font)
    return img


def image_bytes(img, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format=fmt, **kw)
    return buf.getvalue()


def scanned_pdf(lines: Sequence[str]) -> bytes:
    """A PDF whose only page is an image of text (no text layer), as a scanner makes."""
    img = text_image(lines, size=(1275, 600))
    return image_bytes(img, "PDF", resolution=150.0)


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that claims ``width``×``height`` pixels but holds almost no data (a decompression bomb shape)."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def encrypted_pdf(password: str = "secret") -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(text_pdf([["Top secret"]]))))
    writer.encrypt(user_password=password, owner_password=password + "-owner", algorithm="AES-128")
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def styled_pdf(pages: Sequence[Sequence[tuple[int, str]]], *, size: tuple[int, int] = (612, 792)) -> bytes:
    """Like ``text_pdf`` with a font size per line: ``[[(24, "Title"), (11, "Body text."), …], …]``."""
    objects: list[bytes] = []
    n_pages = len(pages)
    font_id = 3 + 2 * n_pages
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n_pages))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    for i, lines in enumerate(pages):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {size[0]} {size[1]}] "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> /Contents {4 + 2 * i} 0 R >>".encode()
        )
        ops = ["BT"]
        y = size[1] - 72
        for font_size, line in lines:
            esc = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"/F1 {font_size} Tf 1 0 0 1 72 {y} Tm ({esc}) Tj")
            y -= font_size + 8
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    return helvetica_pdf(objects)
