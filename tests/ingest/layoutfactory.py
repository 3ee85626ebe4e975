"""Styled test PDFs for layout analysis: text runs with their own size, weight and position."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Run:
    text: str
    x: float
    y: float  # from the top of the page (points), the baseline
    size: float = 10.0
    bold: bool = False


def styled_pdf(pages: Sequence[Sequence[Run]], *, size: tuple[int, int] = (612, 792)) -> bytes:
    """One Helvetica / Helvetica-Bold text run per ``Run``."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    n = len(pages)
    regular, bold = 3 + 2 * n, 4 + 2 * n
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n))
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode())
    for i, runs in enumerate(pages):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {size[0]} {size[1]}] /Resources << /Font << "
            f"/F1 {regular} 0 R /F2 {bold} 0 R >> >> /Contents {4 + 2 * i} 0 R >>".encode())
        ops = []
        for r in runs:
            esc = r.text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"BT /{'F2' if r.bold else 'F1'} {r.size} Tf 1 0 0 1 {r.x} {size[1] - r.y} Tm ({esc}) Tj ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
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


def report_pages(n: int = 3) -> list[list[Run]]:
    """A small report: a title, numbered sections with sub-sections, body text, a bullet list, a running
    header and a page-number footer on every page."""
    pages = []
    for p in range(1, n + 1):
        runs = [Run("ACME Corp | Quarterly Report", 200, 30, 8)]
        y = 80.0
        if p == 1:
            runs.append(Run("Quarterly Report 2023", 150, y, 22, True))
            y += 40
        runs.append(Run(f"Section {p}. Liquidity and Capital Resources" if p == 2 else f"Section {p}. Overview",
                        72, y, 14, True))
        y += 24
        for k in range(3):
            runs.append(Run(f"Body text line {k} of section {p} describes the results in some detail.", 72, y))
            y += 12
        y += 10
        runs.append(Run("Cash flows" if p == 2 else f"Details {p}", 72, y, 10, True))
        y += 16
        for k in range(4):
            runs.append(Run(f"Paragraph {k} about the cash position and other matters of page {p}.", 72, y))
            y += 12
        y += 10
        runs.append(Run("- first point of the list", 90, y))
        runs.append(Run("- second point of the list", 90, y + 12))
        runs.append(Run(str(p), 300, 770, 8))
        pages.append(runs)
    return pages


def two_column_page() -> list[Run]:
    runs = [Run("Two Columns", 72, 60, 18, True)]
    for k in range(6):
        runs.append(Run(f"Left column line {k}", 72, 100 + 12 * k))
    for k in range(6):
        runs.append(Run(f"Right column line {k}", 330, 100 + 12 * k))
    runs.append(Run("Full width closing paragraph under both columns.", 72, 200))
    return runs
