"""Positioned text for the table tests: a financial table as placed strings, as word boxes and as a PDF."""

from __future__ import annotations

from collections.abc import Sequence

from ingest.steps.table_grid import Word
from tests.ingest.docfactory import helvetica_pdf

Piece = tuple[float, float, str, float]  # x (left), y (top of the text, from the page's top), text, font size

_DIGIT = 0.556  # Helvetica: every digit, "$" and space is 0.556 em; letters are close enough for box tests
_NARROW = {",": 0.278, ".": 0.278, " ": 0.278, "(": 0.333, ")": 0.333, "%": 0.889, ":": 0.278, "i": 0.222,
           "l": 0.222, "I": 0.278, "t": 0.278, "f": 0.278, "r": 0.333, "j": 0.222}


def width(text: str, size: float) -> float:
    return sum(_NARROW.get(c, _DIGIT) for c in text) * size


def right(x_right: float, y: float, text: str, size: float = 9) -> Piece:
    """A right-aligned string ending at ``x_right``."""
    return (x_right - width(text, size), y, text, size)


def financial_table(top: float = 100.0, rows: Sequence[tuple[str, str, str, str]] | None = None) -> list[Piece]:
    """Heading, caption, a three-level period header, a section label, rows with ``$`` signs and a
    superscript footnote marker, then a prose paragraph."""
    rows = rows or [("iPhone", "$65,775", "$71,628", "(8)%"), ("Mac", "7,735", "10,852", "(29)%"),
                    ("iPad", "9,396", "7,248", "30 %"), ("Services", "20,766", "19,516", "6 %"),
                    ("Total net sales", "$117,154", "$123,945", "(5)%")]
    s = 9.0
    out: list[Piece] = [
        (72, top, "Products and Services Performance", s),
        (72, top + 14, "The following table shows net sales by category (dollars in millions):", s),
        (402, top + 30, "Three Months Ended", s),
        (300, top + 41, "December 31,", s), (398, top + 41, "December 25,", s),
        (315, top + 52, "2022", s), (413, top + 52, "2021", s), (500, top + 52, "Change", s),
        (72, top + 66, "Net sales by category:", s),
    ]
    y = top + 78
    for label, a, b, change in rows:
        out.append((82, y, label, s))
        if label == "iPhone":
            out.append((82 + width(label, s) + 0.5, y - 1.5, "(1)", 5.5))
        for x_dollar, x_right, value in ((300, 360, a), (398, 458, b)):
            if value.startswith("$"):
                out.append((x_dollar, y, "$", s))
                value = value[1:]
            out.append(right(x_right, y, value, s))
        out.append(right(535, y, change, s))
        y += 11
    out.append((72, y + 16, "iPhone net sales decreased during the quarter compared to the same quarter a year", s))
    out.append((72, y + 27, "ago, due primarily to lower net sales from the new models launched in the year.", s))
    return out


def words_of(pieces: Sequence[Piece]) -> list[Word]:
    """The word boxes a text layer would give for ``pieces`` (loose boxes: 1.15 em tall)."""
    out: list[Word] = []
    for x, y, text, size in pieces:
        cursor = x
        for part in text.split(" "):
            if part:
                w = width(part, size)
                out.append(Word(part, cursor, y, cursor + w, y + 1.15 * size))
                cursor += w
            cursor += width(" ", size)
    return out


def positioned_pdf(pages: Sequence[Sequence[Piece]], size: tuple[int, int] = (612, 792), *,
                   word_spacing: float = 0.0) -> bytes:
    """A PDF with each piece drawn in Helvetica at its place (top-left coordinates); ``word_spacing`` (points, the
    ``Tw`` operator) widens or — negative — narrows every word space."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    n = len(pages)
    font_id = 3 + 2 * n
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n))
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode())
    for i, pieces in enumerate(pages):
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {size[0]} {size[1]}] "
                       f"/Resources << /Font << /F1 {font_id} 0 R >> >> /Contents {4 + 2 * i} 0 R >>".encode())
        ops = ["BT", f"{word_spacing:.2f} Tw"]
        for x, y, text, fs in pieces:
            esc = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            baseline = size[1] - y - 0.9 * fs
            ops.append(f"/F1 {fs} Tf 1 0 0 1 {x:.2f} {baseline:.2f} Tm ({esc}) Tj")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    return helvetica_pdf(objects)
