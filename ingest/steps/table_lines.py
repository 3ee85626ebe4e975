"""Lines and cell segments from word boxes (pure) — steps 1 and 2 of :mod:`ingest.steps.table_grid`.

Words join a line when they overlap it vertically by half the smaller height (a superscript footnote
marker stays on its line and is dropped: ``iPhone⁽¹⁾``); a line splits into segments where the gap
between words exceeds ``GAP_EM`` × the word height, or — once the columns are known — ``FINE_EM`` where
the gap holds a column boundary; a lone currency sign joins the amount after it (``$ 65,775``).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

#: a horizontal gap wider than this many line heights separates two cells
GAP_EM = 0.9
#: a gap narrower than this (× the line's height) joins two pieces without a space — unless a space parted them
JOIN_EM = 0.12
#: a narrower gap still separates two cells where it lines up with a column boundary
FINE_EM = 0.45
_CURRENCY = {"$", "€", "£", "¥", "₩", "US$", "USD"}
_MARKER = re.compile(r"^(\(\d{1,2}\)|\(\w\)|[®™©*†‡§]+|\d{1,2})+$")


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    #: a word space came before it in the text layer (two words set closer than ``JOIN_EM`` keep it)
    spaced: bool = False

    @property
    def h(self) -> float:
        return self.y1 - self.y0


@dataclass(slots=True)
class Seg:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(slots=True)
class Line:
    words: list[Word] = field(default_factory=list)
    y0: float = 0.0
    y1: float = 0.0
    segs: list[Seg] = field(default_factory=list)

    @property
    def h(self) -> float:
        return self.y1 - self.y0

    @property
    def x0(self) -> float:
        return min(s.x0 for s in self.segs)

    @property
    def x1(self) -> float:
        return max(s.x1 for s in self.segs)

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.segs)


def page_lines(words: Sequence[Word]) -> list[Line]:
    lines: list[Line] = []
    for w in sorted((w for w in words if w.text.strip() and w.h > 0), key=lambda w: (w.y0, w.x0)):
        target = None
        for line in reversed(lines[-4:]):
            overlap = min(line.y1, w.y1) - max(line.y0, w.y0)
            if overlap < 0.5 * min(line.h, w.h):
                continue
            clash = any(min(o.x1, w.x1) - max(o.x0, w.x0) > 0.5 * min(o.x1 - o.x0, w.x1 - w.x0)
                        for o in line.words)  # text printed over text
            if not clash:
                target = line
                break
        if target is None:
            lines.append(Line([w], w.y0, w.y1))
        else:
            target.words.append(w)
            target.y0, target.y1 = min(target.y0, w.y0), max(target.y1, w.y1)
    for line in lines:
        _segment(line)
    return sorted((ln for ln in lines if ln.segs), key=lambda ln: (ln.y0, ln.x0))


def _segment(line: Line) -> None:
    words = sorted(line.words, key=lambda w: w.x0)
    big = max(w.h for w in words)
    mid = (line.y0 + line.y1) / 2
    kept = [w for w in words if not (w.h < 0.8 * big and (w.y0 + w.y1) / 2 < mid and _MARKER.match(w.text))]
    line.words = kept or words
    line.y0, line.y1 = min(w.y0 for w in line.words), max(w.y1 for w in line.words)
    line.segs = cut(line, lambda a, b, normal: b.x0 - a.x1 > GAP_EM * normal)


def cut(line: Line, split: Callable[[Word, Word, float], bool]) -> list[Seg]:
    """The line's words joined into segments, split between two words where ``split`` says so; a lone
    currency sign joins the amount after it."""
    normal = statistics.median([w.h for w in line.words])
    segs: list[Seg] = []
    prev: Word | None = None
    for w in line.words:
        if segs and prev is not None and not split(prev, w, normal):
            last = segs[-1]
            # pieces of one word (split at a superscript, an unmapped glyph) touch; words a space parts do not,
            # however tight the row sets them ("Rest of World", not "Rest ofWorld")
            sep = "" if w.x0 - last.x1 < JOIN_EM * normal and not w.spaced else " "
            segs[-1] = Seg(last.text + sep + w.text, last.x0, min(last.y0, w.y0), w.x1, max(last.y1, w.y1))
        else:
            segs.append(Seg(w.text, w.x0, w.y0, w.x1, w.y1))
        prev = w
    merged: list[Seg] = []
    for s in segs:
        if merged and merged[-1].text in _CURRENCY:
            c = merged.pop()
            s = Seg(c.text + s.text, c.x0, min(c.y0, s.y0), s.x1, max(c.y1, s.y1))
        merged.append(s)
    return merged


def fine_segments(line: Line) -> list[Seg]:
    """Segments split at every gap wider than ``FINE_EM`` (narrow academic tables)."""
    return cut(line, lambda a, b, normal: b.x0 - a.x1 > FINE_EM * normal)


def resegment(line: Line, cols: Sequence[tuple[float, float]]) -> None:
    """Split the line's segments where a gap wider than ``FINE_EM`` holds a column boundary."""
    rivers = [(cols[k][1], cols[k + 1][0]) for k in range(len(cols) - 1)]

    def split(a: Word, b: Word, normal: float) -> bool:
        gap = b.x0 - a.x1
        if gap > GAP_EM * normal:
            return True
        return gap > FINE_EM * normal and any(r0 < b.x0 and r1 > a.x1 for r0, r1 in rivers)

    line.segs = cut(line, split)
