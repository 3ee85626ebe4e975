"""Text-layer PDFs of any Unicode text (Korean, Japanese, …) for the answer evaluation — no font files needed.

The upload accepts PDFs and images only (``ingest/filetypes.py``), so a plain-text document (a KorQuAD article,
a test fixture) is written as a PDF: one page per text, one line per sentence (long sentences wrap at a space,
and the page is made wide enough that few do — a wrapped Korean line would join without its space). The font is
a non-embedded ``Type0``/``Identity-H`` font whose codes are numbered per document and mapped back to the
characters by a ``ToUnicode`` CMap, so the text layer extracts exactly what was written (what ingest reads);
the page images show substitute glyphs, which nothing in the evaluation looks at. Deterministic bytes: the same
text gives the same file, so a re-run's upload is recognised as a duplicate.
"""

from __future__ import annotations

import io
import re
import struct
from collections.abc import Sequence
from pathlib import Path

FONT_SIZE = 8.0
LEADING = 11.0
MARGIN = 36.0
WRAP_CHARS = 150
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")


def layout_lines(text: str, *, wrap: int = WRAP_CHARS) -> list[str]:
    """One line per sentence of each paragraph line; a sentence over ``wrap`` characters breaks at a space."""
    out: list[str] = []
    for para in text.splitlines():
        for sentence in _SENTENCE_END.split(" ".join(para.split())):
            rest = sentence
            while len(rest) > wrap:
                cut = rest.rfind(" ", 0, wrap + 1)
                if cut <= 0:
                    cut = wrap
                out.append(rest[:cut].rstrip())
                rest = rest[cut:].lstrip()
            if rest:
                out.append(rest)
    return out


def _table_checksum(data: bytes) -> int:
    padded = data + b"\0" * (-len(data) % 4)
    words: tuple[int, ...] = struct.unpack(f">{len(padded) // 4}I", padded)
    return sum(words) & 0xFFFFFFFF


def box_font() -> bytes:
    """A two-glyph TrueType font: ``.notdef`` (empty) and a box, 1000 units wide.

    Every character of a document is drawn with the box: the text layer's characters then have real boxes on
    the page (a non-embedded CJK font without system fonts gives zero-area boxes, which ingest rightly judges
    a garbage layer and sends to OCR).
    """
    pts = ((50, 0), (50, 700), (950, 700), (950, 0))
    deltas = [(pts[0][0], pts[0][1])] + [(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]) for i in range(1, 4)]
    box = struct.pack(">hhhhhHH", 1, 50, 0, 950, 700, 3, 0) + bytes([1, 1, 1, 1])
    box += b"".join(struct.pack(">h", dx) for dx, _ in deltas) + b"".join(struct.pack(">h", dy) for _, dy in deltas)
    box += b"\0" * (len(box) % 2)
    tables = {
        b"cmap": struct.pack(">HHHHI", 0, 1, 3, 1, 12) + struct.pack(">HHHHHHHHHHH", 4, 24, 0, 2, 2, 0, 0,
                                                                     0xFFFF, 0, 0xFFFF, 1) + struct.pack(">H", 0),
        b"glyf": box,
        b"head": struct.pack(">IIIIHHqqhhhhHHhhh", 0x00010000, 0x00010000, 0, 0x5F0F3CF5, 0x000B, 1000, 0, 0,
                             0, 0, 950, 700, 0, 8, 2, 0, 0),
        b"hhea": struct.pack(">IhhhHhhhhhhhhhhhH", 0x00010000, 800, -200, 0, 1000, 0, 0, 950, 1, 0, 0, 0, 0, 0, 0,
                             0, 2),
        b"hmtx": struct.pack(">HhHh", 1000, 0, 1000, 50),
        b"loca": struct.pack(">HHH", 0, 0, len(box) // 2),
        b"maxp": struct.pack(">IHHHHHHHHHHHHHH", 0x00010000, 2, 4, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0),
        b"name": struct.pack(">HHH", 0, 0, 6),
        b"post": struct.pack(">IIhhIIIII", 0x00030000, 0, -100, 50, 0, 0, 0, 0, 0),
    }
    n = len(tables)
    entry = 1 << (n.bit_length() - 1)
    out = struct.pack(">IHHHH", 0x00010000, n, entry * 16, entry.bit_length() - 1, n * 16 - entry * 16)
    offset = 12 + 16 * n
    body = b""
    for tag in sorted(tables):
        data = tables[tag]
        out += struct.pack(">4sIII", tag, _table_checksum(data), offset + len(body), len(data))
        body += data + b"\0" * (-len(data) % 4)
    return out + body


def _hex_codes(line: str, codes: dict[str, int]) -> bytes:
    return b"<" + "".join(f"{codes[c]:04X}" for c in line).encode() + b">"


def _to_unicode(codes: dict[str, int]) -> bytes:
    parts = [
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Adobe-Identity-UCS def /CMapType 2 def",
        "1 begincodespacerange <0000> <FFFF> endcodespacerange",
    ]
    items = sorted(codes.items(), key=lambda kv: kv[1])
    for start in range(0, len(items), 100):  # at most 100 entries per bfchar block
        block = items[start : start + 100]
        parts.append(f"{len(block)} beginbfchar")
        parts.extend(f"<{code:04X}> <{ch.encode('utf-16-be').hex().upper()}>" for ch, code in block)
        parts.append("endbfchar")
    parts.append("endcmap CMapName currentdict /CMap defineresource pop end end")
    return "\n".join(parts).encode()


def unicode_pdf(pages: Sequence[str], *, font_size: float = FONT_SIZE, wrap: int = WRAP_CHARS) -> bytes:
    """The PDF bytes: ``pages[i]`` is the text of page ``i + 1``."""
    if not pages:
        raise ValueError("a PDF needs at least one page")
    laid = [layout_lines(p, wrap=wrap) or [" "] for p in pages]
    chars = sorted({c for lines in laid for line in lines for c in line})
    if len(chars) > 0xFFFE:
        raise ValueError("too many distinct characters for one PDF")
    codes = {c: i + 1 for i, c in enumerate(chars)}
    n = len(pages)
    font_obj = 3 + 2 * n
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (3 + 2 * i) for i in range(n)) + b"] /Count %d >>" % n,
    ]
    leading = LEADING * font_size / FONT_SIZE
    for i, lines in enumerate(laid):
        width = max(612.0, 2 * MARGIN + font_size * max(len(line) for line in lines))
        height = max(792.0, 2 * MARGIN + leading * len(lines))
        ops = [b"BT /F1 %.2f Tf %.2f TL %.2f %.2f Td" % (font_size, leading, MARGIN, height - MARGIN - font_size)]
        ops.extend(_hex_codes(line, codes) + b" Tj T*" for line in lines)
        ops.append(b"ET")
        stream = b"\n".join(ops)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.0f %.0f] /Resources << /Font << /F1 %d 0 R "
                       b">> >> /Contents %d 0 R >>" % (width, height, font_obj, 4 + 2 * i))
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    cmap = _to_unicode(codes)
    font = box_font()
    gids = b"".join(b"\0\0" if c.isspace() else b"\0\1" for c in ["\0", *chars])  # code 0 unused
    objects.extend([
        b"<< /Type /Font /Subtype /Type0 /BaseFont /DocchatEval /Encoding /Identity-H /DescendantFonts [%d 0 R] "
        b"/ToUnicode %d 0 R >>" % (font_obj + 1, font_obj + 2),
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /DocchatEval /CIDSystemInfo << /Registry (Adobe) "
        b"/Ordering (Identity) /Supplement 0 >> /FontDescriptor %d 0 R /DW 1000 /CIDToGIDMap %d 0 R >>"
        % (font_obj + 3, font_obj + 4),
        b"<< /Length %d >>\nstream\n" % len(cmap) + cmap + b"\nendstream",
        b"<< /Type /FontDescriptor /FontName /DocchatEval /Flags 4 /FontBBox [0 -200 1000 800] /ItalicAngle 0 "
        b"/Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 %d 0 R >>" % (font_obj + 5),
        b"<< /Length %d >>\nstream\n" % len(gids) + gids + b"\nendstream",
        b"<< /Length %d /Length1 %d >>\nstream\n" % (len(font), len(font)) + font + b"\nendstream",
    ])
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for off in offsets:
        out.write(b"%010d 00000 n \n" % off)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def write_unicode_pdf(path: Path, pages: Sequence[str], **kw: float) -> Path:
    path = Path(path)
    path.write_bytes(unicode_pdf(pages, **kw))  # type: ignore[arg-type]
    return path
