"""format_parser: the text layer of each PDF page, with line boxes, and whether the page needs OCR.

PDFium's text page (pypdfium2) is the extractor: ~10x faster than pdfminer and robust on broken files.
Lines come from PDFium's own line breaks; a line's box is the union of its glyph boxes, in PDF points
from the top-left of the (crop) page.

A page is sent to OCR (``needs_ocr=True`` with a ``reason``) when its text layer is missing or cannot be
trusted — see :func:`judge_text_layer` (pure) for the rules. Image uploads have no text layer: every page
needs OCR.
"""

from __future__ import annotations

import bisect
import ctypes
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest.filetypes import FileKind
from ingest.inspect import iter_pdf_pages
from ingest.sandbox import Limits, iter_sandboxed, wire_type
from ingest.steps.pdfium_calls import Ptr, TextCalls, handle
from store.config import Settings

BBoxT = tuple[float, float, float, float]

#: A page with fewer meaningful characters than this has no usable text layer.
MIN_TEXT_CHARS = 8
#: Objects inspected per page when looking for scanned images (pages with huge vector art stop early).
_MAX_OBJECTS_SCANNED = 5000
_FPDF_PAGEOBJ_IMAGE = 3
_FPDF_PAGEOBJ_FORM = 5
_CID_RE = re.compile(r"\(cid:\d+\)")
#: a line's font size, weight and name are read from its 1st, (N+1)th, (2N+1)th ... glyph (each read costs
#: three PDFium calls; lines are almost always one style, and the majority of the samples decides)
STYLE_SAMPLE = 3
#: bold font names: "Arial-BoldMT", "Helvetica-Black", "NimbusRomNo9L-Medi", TeX's "CMBX10" / "SFBX1000"
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|-medi|^(?:cm|sf|lm|ec)bx|bx\d|,bold")


@wire_type
@dataclass(frozen=True, slots=True)
class Line:
    text: str
    bbox: BBoxT  # (x0, y0, x1, y1) in PDF points from the page's top-left
    size: float = 0.0  # the line's font size in points (most of its glyphs; from PDFium's loose glyph boxes)
    bold: bool = False  # most of its glyphs are bold (font weight ≥ 600 or a bold font flag)
    font: str = ""  # the base font name of most of its glyphs (subset prefix dropped)


@wire_type
@dataclass(slots=True)
class PageText:
    page: int  # 1-based
    text: str
    lines: list[Line] = field(default_factory=list)
    needs_ocr: bool = False
    reason: str | None = None
    #: the page size (``page.get_size()``, as rendering sees it): segments need no rendered page (issue 18)
    width_pt: float = 0.0
    height_pt: float = 0.0
    images: list[BBoxT] = field(default_factory=list)  # boxes of image objects (points, top-left), largest first


def extract_text_layer(
    path: Path,
    kind: FileKind,
    pages: Sequence[int],
    *,
    settings: Settings | None = None,
    password: str | None = None,
) -> list[PageText]:
    """Text layer of each requested page (sandboxed for PDFs); images need OCR on every page."""
    return list(iter_text_layer(path, kind, pages, settings=settings, password=password))


def iter_text_layer(
    path: Path,
    kind: FileKind,
    pages: Sequence[int],
    *,
    settings: Settings | None = None,
    password: str | None = None,
) -> Iterator[PageText]:
    """Streaming form of :func:`extract_text_layer` (one page at a time; timeout applies per page)."""
    wanted = [int(p) for p in pages]
    if kind != "pdf":
        for number in wanted:
            yield PageText(page=number, text="", needs_ocr=True, reason="image upload: no text layer")
        return
    if not wanted:
        return
    limits = Limits.from_settings(settings) if settings is not None else Limits()
    yield from iter_sandboxed(_extract_child, str(path), wanted, password, limits=limits,
                              what="reading the text layer")


# --- the rules (pure) ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LayerStats:
    """What the extractor saw on a page, for :func:`judge_text_layer`."""

    chars: int = 0  # non-whitespace characters
    degenerate_boxes: int = 0  # of those, glyphs with a zero-area box (text placed nowhere)
    unmapped: int = 0  # glyphs PDFium could not map to Unicode
    image_coverage: float = 0.0  # share of the page area covered by images (0..1)
    objects: int = 0  # page objects of any kind
    lines: int = 0  # lines of 3+ characters with a box
    vertical_lines: int = 0  # of those, lines much taller than wide (vertical CJK writing)
    junk_chars: int = 0  # junk characters in lines dropped from ``text`` (lines that were mostly junk)


def judge_text_layer(text: str, stats: LayerStats) -> tuple[bool, str | None]:
    """``(needs_ocr, reason)`` for a page's extracted ``text``.

    Rules, in order: no text at all (blank page → no OCR; images or vector art → OCR); mostly glyphs
    placed nowhere (zero-area boxes: ``pdfminer_samples/jo.pdf`` without CJK system fonts); vertical writing
    (``jo.pdf`` with CJK fonts: PDFium returns its columns in the wrong order); unmapped glyphs, ``(cid:N)``
    junk, U+FFFD, private-use or control characters; Latin text whose letters are not language-like
    (a font with a custom encoding shifts every letter: almost no vowels); a page that is mostly a
    scanned image with only a few words of real text (a stamp, a header).
    """
    counts = Counter(text)  # per distinct character: the rules below count characters, in any order
    meaningful = {c: k for c, k in counts.items() if not c.isspace()}
    n = sum(meaningful.values())
    total = max(n, stats.chars)
    junk = max(len(_CID_RE.findall(text)) + sum(k for c, k in meaningful.items() if _is_junk_char(c))
               + stats.junk_chars, stats.unmapped)
    if total >= MIN_TEXT_CHARS and junk / total > 0.10:
        return True, f"garbage text layer: {junk / total:.0%} of the characters are unmapped glyphs or junk"
    if n < MIN_TEXT_CHARS:
        if stats.objects == 0:
            return False, None if n else "blank page"
        if stats.image_coverage > 0.0:
            return True, "no text layer (scanned image)"
        return True, "no text layer (text may be drawn as outlines)"
    if stats.chars and stats.degenerate_boxes / stats.chars > 0.5:
        return True, "garbage text layer: most glyphs have no position on the page"
    if stats.lines >= 3 and stats.vertical_lines / stats.lines > 0.5:
        return True, "vertical writing: the text layer's reading order is unreliable"
    letters = {c: k for c, k in meaningful.items() if c.isalpha() and c.isascii()}
    n_letters = sum(letters.values())
    if n_letters >= 40 and n_letters / n > 0.5:
        vowels = sum(k for c, k in letters.items() if c.lower() in "aeiouy")
        ratio = vowels / n_letters
        if ratio < 0.18:
            return True, f"garbage text layer: the letters do not look like words ({ratio:.0%} vowels)"
    if stats.image_coverage > 0.6 and n < 200:
        return True, "mostly a scanned image with little text"
    return False, None


def _is_junk_char(c: str) -> bool:
    if c == "\ufffd":
        return True
    cat = unicodedata.category(c)
    return cat in ("Co", "Cs", "Cn") or (cat == "Cc" and c not in "\t\n\r")


# --- child side ---------------------------------------------------------------------------------------


def _extract_child(path: str, pages: list[int], password: str | None) -> Iterator[PageText]:
    import pypdfium2 as pdfium

    for number, page in iter_pdf_pages(path, pages, password):
        yield _page_text(pdfium, page, number)


def _page_text(pdfium: Any, page: Any, number: int, textpage: Any = None) -> PageText:
    """The page's text layer; ``textpage``: the page's open text page, when the caller reads it further (it
    stays open), else one is opened and closed here."""
    raw = pdfium.raw
    left, bottom, right, top = page.get_cropbox()
    own = textpage is None
    textpage = page.get_textpage() if own else textpage
    try:
        lines, chars, degenerate, unmapped, dropped = _lines(raw, textpage.raw, left, top)
    finally:
        if own:
            textpage.close()
    images: list[BBoxT] = []
    objects, coverage = _image_coverage(raw, page.raw, (right - left) * (top - bottom), images, left, top)
    text = "\n".join(line.text for line in lines)
    measured = [ln.bbox for ln in lines if len(ln.text) >= 3 and ln.bbox[2] > ln.bbox[0]]
    vertical = sum(1 for x0, y0, x1, y1 in measured if (y1 - y0) > 2 * (x1 - x0))
    stats = LayerStats(chars=chars, degenerate_boxes=degenerate, unmapped=unmapped, image_coverage=coverage,
                       objects=objects, lines=len(measured), vertical_lines=vertical, junk_chars=dropped)
    needs_ocr, reason = judge_text_layer(text, stats)
    w_pt, h_pt = page.get_size()
    return PageText(page=number, text=text, lines=lines, needs_ocr=needs_ocr, reason=reason, width_pt=float(w_pt),
                    height_pt=float(h_pt), images=images)


def _lines(raw: Any, tp: Any, left: float, top: float) -> tuple[list[Line], int, int, int, int]:
    """The page's lines and its counts (non-space characters, degenerate boxes, unmapped glyphs, dropped junk).

    A line is what lies between PDFium's line breaks (``\r``, ``\n``), its box the union of its glyphs' boxes, its
    style sampled from every ``STYLE_SAMPLE``-th glyph with a box. The calls are PDFium's own per character
    (``ingest.steps.pdfium_calls``: without ctypes' argument conversion), made in list comprehensions over the
    page rather than one Python step per character (issue 18: ~3x less CPU, the same lines).
    """
    calls = TextCalls.of(raw)
    vp = handle(tp)
    unicode = calls.unicode
    codes = [unicode(vp, i) for i in range(max(raw.FPDFText_CountChars(tp), 0))]
    text = "".join(map(chr, codes))
    # PDFium's end-of-line hyphen markers (code 2) and UTF-16 surrogates: the text is decoded character by
    # character and each character keeps its char index (FPDFText_GetText's buffer drifts from the indices there)
    index: list[int] | None = None
    if _SPECIAL.search(text):
        text, index = _decode(codes)
    spaced = [m.start() for m in _NON_SPACE.finditer(text)]  # positions of the non-space characters
    ids = spaced if index is None else [index[p] for p in spaced]  # ... and their char indices
    map_error, get_box = calls.map_error, calls.char_box
    unmapped = sum(1 for i in ids if map_error(vp, i) == 1)
    l_, r_, b_, t_ = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    by_l, by_r, by_b, by_t = ctypes.byref(l_), ctypes.byref(r_), ctypes.byref(b_), ctypes.byref(t_)
    # each tuple is evaluated left to right: the call, then the values it wrote
    boxes = [(get_box(vp, i, by_l, by_r, by_b, by_t), l_.value, r_.value, b_.value, t_.value) for i in ids]
    glyphs = [(p, i, x0, y0, x1, y1) for p, i, (ok, x0, x1, y0, y1) in zip(spaced, ids, boxes, strict=True)
              if ok and not (x1 - x0 < 0.05 or y1 - y0 < 0.05)]  # placed glyphs (the others are degenerate)
    where = [g[0] for g in glyphs]
    style = _Style(raw, calls, vp)
    lines: list[Line] = []
    dropped = 0
    start = k = 0
    for end in [m.start() for m in _BREAK.finditer(text)] + [len(text)]:
        k1 = bisect.bisect_left(where, end, k)
        line = text[start:end].strip()
        start, mine, k = end + 1, glyphs[k:k1], k1
        # a printable line has no control, private-use, surrogate or unassigned character: only U+FFFD can be junk
        junk = line.count("\ufffd") if line.isprintable() else sum(1 for c in line if _is_junk_char(c))
        if junk and junk * 2 > sum(1 for c in line if not c.isspace()):
            dropped += junk  # a line of glyph junk: keep it out of the text, count it against the page
            line = ""
        elif junk:
            line = "".join(c for c in line if unicodedata.category(c) != "Cc").strip()
        if not line:
            continue
        bbox = (0.0, 0.0, 0.0, 0.0)
        if mine:
            cols = list(zip(*mine, strict=True))
            bbox = (round(min(cols[2]) - left, 2), round(top - max(cols[5]), 2), round(max(cols[4]) - left, 2),
                    round(top - min(cols[3]), 2))
        size, bold, font = style.of(mine[::STYLE_SAMPLE])
        lines.append(Line(text=line, bbox=bbox, size=size, bold=bold, font=font))
    return lines, len(ids), len(ids) - len(glyphs), unmapped, dropped


_SPECIAL = re.compile("[\x00\x02\ud800-\udfff]")
_NON_SPACE = re.compile(r"\S")  # sre's \s is str.isspace (Py_UNICODE_ISSPACE)
_BREAK = re.compile("[\r\n]")


def _decode(codes: list[int]) -> tuple[str, list[int]]:
    """The text of a page with hyphen markers, NULs or surrogates, and each character's char index."""
    out: list[str] = []
    index: list[int] = []
    high = 0  # a pending UTF-16 high surrogate
    for i, code in enumerate(codes):
        if code == 2:  # a hyphen marker PDFium adds at a line end; GetText drops it too
            continue
        if 0xD800 <= code < 0xDC00:
            high = code
            continue
        if 0xDC00 <= code < 0xE000:
            code, high = ((0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) if high else 0xFFFD), 0
        elif high:
            high = 0
        out.append(chr(code) if code > 0 else "\ufffd")
        index.append(i)
    return "".join(out), index


class _Style:
    """A line's font size, weight and name from its sampled glyphs: the loose glyph height (font ascent..descent,
    in half-point buckets) and the text object's font, cached while consecutive glyphs share a text object."""

    def __init__(self, raw: Any, calls: TextCalls, tp: Ptr) -> None:
        self.calls, self.tp = calls, tp
        self.bold_of = _BoldFonts(raw, calls)
        self.rect = raw.FS_RECTF()
        self.by_rect = ctypes.byref(self.rect)
        self.last_obj: int | None = None
        self.last: tuple[bool, str] = (False, "")

    def of(self, sample: list[tuple[int, int, float, float, float, float]]) -> tuple[float, bool, str]:
        sizes: dict[float, int] = {}  # glyph heights → count
        fonts: dict[str, int] = {}  # font names → sampled glyphs
        heavy = seen = 0
        loose, text_obj, rect, by_rect, tp = (self.calls.loose_box, self.calls.text_object, self.rect, self.by_rect,
                                              self.tp)
        for g in sample:
            i = g[1]
            if not loose(tp, i, by_rect):
                continue
            h = round(abs(rect.top - rect.bottom) * 2) / 2
            sizes[h] = sizes.get(h, 0) + 1
            obj = text_obj(tp, i)
            if obj.value != self.last_obj:
                self.last_obj, self.last = obj.value, self.bold_of(obj)
            seen += 1
            bold, font = self.last
            if bold:
                heavy += 1
            fonts[font] = fonts.get(font, 0) + 1
        size = max(sizes.items(), key=lambda kv: (kv[1], kv[0]))[0] if sizes else 0.0
        font = max(fonts.items(), key=lambda kv: kv[1])[0] if fonts else ""
        return size, seen > 0 and heavy * 2 > seen, font


class _BoldFonts:
    """``(bold, base font name)`` of a text object's font, cached per font: PDFium's per-glyph weight is
    unreliable (``Arial-BoldMT`` reports 380), so the font's name, weight and force-bold flag are all consulted."""

    def __init__(self, raw: Any, calls: TextCalls | None = None) -> None:
        self.raw = raw
        self.calls = calls or TextCalls.of(raw)
        self.cache: dict[int | None, tuple[bool, str]] = {}
        self.buf = ctypes.create_string_buffer(128)

    def __call__(self, obj: Ptr) -> tuple[bool, str]:
        if not obj:
            return False, ""
        font = self.calls.object_font(obj)
        key = font.value
        if key not in self.cache:
            bold, name = False, ""
            if font:
                raw, f = self.raw, ctypes.cast(font, self.raw.FPDF_FONT)
                n = raw.FPDFFont_GetBaseFontName(f, self.buf, len(self.buf))
                name = self.buf.value.decode("latin-1", "replace").rsplit("+", 1)[-1][:48] if n > 0 else ""
                bold = (_BOLD_NAME.search(name.lower()) is not None
                        or raw.FPDFFont_GetWeight(f) >= 600
                        or bool(raw.FPDFFont_GetFlags(f) & 0x40000))
            self.cache[key] = (bold, name)
        return self.cache[key]


def _image_coverage(raw: Any, page: Any, page_area: float, boxes: list[BBoxT] | None = None, left: float = 0.0,
                    top: float = 0.0) -> tuple[int, float]:
    """(object count, share of the page covered by images), looking inside form XObjects; the image boxes
    (points from the top-left, largest first, at most 32) are appended to ``boxes``."""
    count = raw.FPDFPage_CountObjects(page)
    if count <= 0 or page_area <= 0:
        return max(count, 0), 0.0
    calls = TextCalls.of(raw)
    get_object, get_type, bounds = calls.page_object, calls.object_type, calls.object_bounds
    pg = handle(page)
    objs = [get_object(pg, i) for i in range(min(count, _MAX_OBJECTS_SCANNED))]
    kinds = [get_type(obj) if obj else None for obj in objs]
    if _FPDF_PAGEOBJ_FORM not in kinds:  # no form XObject: just the images, in the order the loop below takes them
        objs = [obj for obj, kind in zip(objs, kinds, strict=True) if kind == _FPDF_PAGEOBJ_IMAGE]
    covered = 0.0
    seen = 0
    fl, fb, fr, ft = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    by = (ctypes.byref(fl), ctypes.byref(fb), ctypes.byref(fr), ctypes.byref(ft))
    while objs and seen < _MAX_OBJECTS_SCANNED:
        obj = objs.pop()
        seen += 1
        if not obj:
            continue
        kind = get_type(obj)
        if kind == _FPDF_PAGEOBJ_FORM:
            inner = calls.form_count(obj)
            objs.extend(calls.form_object(obj, ctypes.c_ulong(j)) for j in range(min(max(inner, 0),
                                                                                      _MAX_OBJECTS_SCANNED)))
        elif kind == _FPDF_PAGEOBJ_IMAGE and bounds(obj, *by):
            area = max(0.0, fr.value - fl.value) * max(0.0, ft.value - fb.value)
            covered += area
            if boxes is not None and area > 0:
                boxes.append((round(fl.value - left, 2), round(top - ft.value, 2), round(fr.value - left, 2),
                              round(top - fb.value, 2)))
    if boxes is not None:
        boxes.sort(key=lambda b: -(b[2] - b[0]) * (b[3] - b[1]))
        del boxes[32:]
    return count, min(1.0, covered / page_area)
