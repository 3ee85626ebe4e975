"""The text layer's per-character reader as it was before issue 18's bulk calls: the reference that
``test_text_layer_exact`` compares ``ingest.steps.format_parser`` and ``ingest.steps.tables.page_words`` with.

Kept verbatim (one PDFium call per character through pypdfium2's converting bindings, one Python step per
character), apart from the imports; nothing in the service imports it.
"""

# ruff: noqa
from __future__ import annotations

import ctypes
from typing import Any

from ingest.steps.format_parser import (
    _BOLD_NAME,
    _CID_RE,
    _FPDF_PAGEOBJ_FORM,
    _FPDF_PAGEOBJ_IMAGE,
    _MAX_OBJECTS_SCANNED,
    MIN_TEXT_CHARS,
    STYLE_SAMPLE,
    BBoxT,
    LayerStats,
    Line,
    PageText,
    _is_junk_char,
)
import unicodedata


def page_text(pdfium: Any, page: Any, number: int) -> PageText:
    raw = pdfium.raw
    left, bottom, right, top = page.get_cropbox()
    textpage = page.get_textpage()
    try:
        lines, chars, degenerate, unmapped, dropped = _lines(raw, textpage.raw, left, top)
    finally:
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


def judge_text_layer(text: str, stats: LayerStats) -> tuple[bool, str | None]:
    """``(needs_ocr, reason)`` for a page's extracted ``text``.

    Rules, in order: no text at all (blank page → no OCR; images or vector art → OCR); mostly glyphs
    placed nowhere (zero-area boxes: ``pdfminer_samples/jo.pdf`` without CJK system fonts); vertical writing
    (``jo.pdf`` with CJK fonts: PDFium returns its columns in the wrong order); unmapped glyphs, ``(cid:N)``
    junk, U+FFFD, private-use or control characters; Latin text whose letters are not language-like
    (a font with a custom encoding shifts every letter: almost no vowels); a page that is mostly a
    scanned image with only a few words of real text (a stamp, a header).
    """
    meaningful = [c for c in text if not c.isspace()]
    n = len(meaningful)
    total = max(n, stats.chars)
    junk = max(len(_CID_RE.findall(text)) + sum(1 for c in meaningful if _is_junk_char(c)) + stats.junk_chars,
               stats.unmapped)
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
    letters = [c for c in meaningful if c.isalpha() and c.isascii()]
    if len(letters) >= 40 and len(letters) / n > 0.5:
        vowels = sum(1 for c in letters if c.lower() in "aeiouy")
        ratio = vowels / len(letters)
        if ratio < 0.18:
            return True, f"garbage text layer: the letters do not look like words ({ratio:.0%} vowels)"
    if stats.image_coverage > 0.6 and n < 200:
        return True, "mostly a scanned image with little text"
    return False, None


def _lines(raw: Any, tp: Any, left: float, top: float) -> tuple[list[Line], int, int, int, int]:
    n = raw.FPDFText_CountChars(tp)
    l_, r_, b_, t_ = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    lines: list[Line] = []
    buf: list[str] = []
    box: list[float] | None = None
    chars = degenerate = unmapped = dropped = 0
    sizes: dict[float, int] = {}  # the line's glyph heights (loose boxes: font ascent..descent) → count
    heavy = [0, 0, 0]  # the line's bold sampled glyphs, glyphs, sampled glyphs
    fonts: dict[str, int] = {}  # the line's font names → glyphs

    def flush() -> None:
        nonlocal buf, box, dropped, sizes, fonts
        line = "".join(buf).strip()
        # printable ASCII has no junk character: the per-character check only for the other lines
        junk = 0 if line.isascii() and line.isprintable() else sum(1 for c in line if _is_junk_char(c))
        if junk and junk * 2 > sum(1 for c in line if not c.isspace()):
            dropped += junk  # a line of glyph junk: keep it out of the text, count it against the page
            line = ""
        elif junk:
            line = "".join(c for c in line if unicodedata.category(c) != "Cc").strip()
        if line:
            bbox = (0.0, 0.0, 0.0, 0.0) if box is None else (
                round(box[0] - left, 2), round(top - box[3], 2), round(box[2] - left, 2), round(top - box[1], 2))
            size = max(sizes.items(), key=lambda kv: (kv[1], kv[0]))[0] if sizes else 0.0
            font = max(fonts.items(), key=lambda kv: kv[1])[0] if fonts else ""
            lines.append(Line(text=line, bbox=bbox, size=size, bold=heavy[2] > 0 and heavy[0] * 2 > heavy[2],
                              font=font))
        buf, box, sizes, fonts = [], None, {}, {}
        heavy[0] = heavy[1] = heavy[2] = 0

    # Per char index: FPDFText_GetText's buffer leaves out PDFium's end-of-line hyphen markers (code 2) and
    # writes two units for a character beyond the BMP, so reading it by char index drifts (text and boxes
    # of different characters — line boxes spanning two lines).
    unicode = raw.FPDFText_GetUnicode
    by_l, by_r, by_b, by_t = ctypes.byref(l_), ctypes.byref(r_), ctypes.byref(b_), ctypes.byref(t_)
    get_box, map_error = raw.FPDFText_GetCharBox, raw.FPDFText_HasUnicodeMapError
    loose, text_obj = raw.FPDFText_GetLooseCharBox, raw.FPDFText_GetTextObject
    bold_of = _BoldFonts(raw)
    last_obj: Any = None
    last_bold, last_font = False, ""
    rect = raw.FS_RECTF()
    by_rect = ctypes.byref(rect)
    high = 0  # a pending UTF-16 high surrogate
    for i in range(max(n, 0)):
        code = unicode(tp, i)
        if code == 2:  # a hyphen marker PDFium adds at a line end; GetText drops it too
            continue
        if 0xD800 <= code < 0xDC00:
            high = code
            continue
        if 0xDC00 <= code < 0xE000:
            code, high = ((0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) if high else 0xFFFD), 0
        elif high:
            high = 0
        ch = chr(code) if code > 0 else "\ufffd"
        if ch in "\r\n":
            if ch == "\n" or not buf or buf[-1] != "\r":
                flush()
            continue
        buf.append(ch)
        if ch.isspace():
            continue
        chars += 1
        if map_error(tp, i) == 1:
            unmapped += 1
        if not get_box(tp, i, by_l, by_r, by_b, by_t):
            degenerate += 1
            continue
        x0, x1, y0, y1 = l_.value, r_.value, b_.value, t_.value
        if x1 - x0 < 0.05 or y1 - y0 < 0.05:
            degenerate += 1
            continue
        if heavy[1] % STYLE_SAMPLE == 0 and loose(tp, i, by_rect):  # a line's style from every Nth glyph
            h = round(abs(rect.top - rect.bottom) * 2) / 2  # half-point buckets
            sizes[h] = sizes.get(h, 0) + 1
            obj = text_obj(tp, i)
            key = ctypes.cast(obj, ctypes.c_void_p).value
            if key != last_obj:
                last_obj, (last_bold, last_font) = key, bold_of(obj)
            heavy[2] += 1
            if last_bold:
                heavy[0] += 1
            fonts[last_font] = fonts.get(last_font, 0) + 1
        heavy[1] += 1
        if box is None:
            box = [x0, y0, x1, y1]
        else:
            if x0 < box[0]:
                box[0] = x0
            if y0 < box[1]:
                box[1] = y0
            if x1 > box[2]:
                box[2] = x1
            if y1 > box[3]:
                box[3] = y1
    flush()
    return lines, chars, degenerate, unmapped, dropped


class _BoldFonts:
    """``(bold, base font name)`` of a text object's font, cached per font: PDFium's per-glyph weight is
    unreliable (``Arial-BoldMT`` reports 380), so the font's name, weight and force-bold flag are all consulted."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.cache: dict[int | None, tuple[bool, str]] = {}
        self.buf = ctypes.create_string_buffer(128)

    def __call__(self, obj: Any) -> tuple[bool, str]:
        if not obj:
            return False, ""
        font = self.raw.FPDFTextObj_GetFont(obj)
        key = ctypes.cast(font, ctypes.c_void_p).value
        if key not in self.cache:
            bold, name = False, ""
            if font:
                n = self.raw.FPDFFont_GetBaseFontName(font, self.buf, len(self.buf))
                name = self.buf.value.decode("latin-1", "replace").rsplit("+", 1)[-1][:48] if n > 0 else ""
                bold = (_BOLD_NAME.search(name.lower()) is not None
                        or self.raw.FPDFFont_GetWeight(font) >= 600
                        or bool(self.raw.FPDFFont_GetFlags(font) & 0x40000))
            self.cache[key] = (bold, name)
        return self.cache[key]


def _image_coverage(raw: Any, page: Any, page_area: float, boxes: list[BBoxT] | None = None, left: float = 0.0,
                    top: float = 0.0) -> tuple[int, float]:
    """(object count, share of the page covered by images), looking inside form XObjects; the image boxes
    (points from the top-left, largest first, at most 32) are appended to ``boxes``."""
    count = raw.FPDFPage_CountObjects(page)
    if count <= 0 or page_area <= 0:
        return max(count, 0), 0.0
    objs = [raw.FPDFPage_GetObject(page, i) for i in range(min(count, _MAX_OBJECTS_SCANNED))]
    covered = 0.0
    seen = 0
    fl, fb, fr, ft = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    while objs and seen < _MAX_OBJECTS_SCANNED:
        obj = objs.pop()
        seen += 1
        if not obj:
            continue
        kind = raw.FPDFPageObj_GetType(obj)
        if kind == _FPDF_PAGEOBJ_FORM:
            inner = raw.FPDFFormObj_CountObjects(obj)
            objs.extend(raw.FPDFFormObj_GetObject(obj, j) for j in range(min(max(inner, 0), _MAX_OBJECTS_SCANNED)))
        elif kind == _FPDF_PAGEOBJ_IMAGE and raw.FPDFPageObj_GetBounds(
            obj, ctypes.byref(fl), ctypes.byref(fb), ctypes.byref(fr), ctypes.byref(ft)
        ):
            area = max(0.0, fr.value - fl.value) * max(0.0, ft.value - fb.value)
            covered += area
            if boxes is not None and area > 0:
                boxes.append((round(fl.value - left, 2), round(top - ft.value, 2), round(fr.value - left, 2),
                              round(top - fb.value, 2)))
    if boxes is not None:
        boxes.sort(key=lambda b: -(b[2] - b[0]) * (b[3] - b[1]))
        del boxes[32:]
    return count, min(1.0, covered / page_area)


def page_words(raw: Any, tp: Any, left: float, top: float) -> list[tuple[str, float, float, float, float, bool]]:
    """Words of a PDFium text page: split at spaces, line breaks and gaps wider than a quarter of a line.

    Boxes are PDFium's loose char boxes (advance width × font ascent/descent), so every glyph of a line
    has the same height and the letters of a word touch; a change of font size (a superscript) starts
    a new word. Converted to points from the page's top-left.
    """
    n = raw.FPDFText_CountChars(tp)
    if n <= 0:
        return []
    l_, r_, b_, t_ = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    rect = raw.FS_RECTF()
    words: list[tuple[str, float, float, float, float, bool]] = []
    cur: list[Any] = []  # [text, x0, y0, x1, y1, spaced]

    spaced = False  # a word space came before the word begun

    def flush() -> None:
        if cur and cur[0].strip():
            words.append((cur[0], round(cur[1] - left, 2), round(top - cur[4], 2), round(cur[3] - left, 2),
                          round(top - cur[2], 2), cur[5]))
        cur.clear()

    unicode = raw.FPDFText_GetUnicode  # per char index: FPDFText_GetText's buffer can drift from the indices
    get_box, get_loose = raw.FPDFText_GetCharBox, raw.FPDFText_GetLooseCharBox  # looked up once, not per char
    by_l, by_r, by_b, by_t, by_rect = (ctypes.byref(l_), ctypes.byref(r_), ctypes.byref(b_), ctypes.byref(t_),
                                       ctypes.byref(rect))
    for i in range(n):
        code = unicode(tp, i)
        ch = chr(code) if 0 < code < 0xD800 or 0xE000 <= code < 0x110000 else ""
        if not ch or ch.isspace():
            flush()
            spaced = ch in (" ", "\u00a0")
            continue
        if not ch.isprintable():  # unmapped glyphs (control / private-use codes) are no text
            continue
        if not get_box(tp, i, by_l, by_r, by_b, by_t):
            continue
        if get_loose(tp, i, by_rect):
            x0, y0, x1, y1 = rect.left, rect.bottom, rect.right, rect.top
        else:
            x0, y0, x1, y1 = l_.value, b_.value, r_.value, t_.value
        if x1 - x0 < 0.05 and y1 - y0 < 0.05:
            continue
        if cur:
            h = cur[4] - cur[2]
            same_line = min(cur[4], y1) - max(cur[2], y0) > 0.5 * min(h, y1 - y0)
            # a superscript (smaller and raised, or back down from one) starts a word of its own
            resized = (abs((y1 - y0) - h) > 0.25 * max(h, y1 - y0)
                       and abs((y0 + y1) - (cur[2] + cur[4])) / 2 > 0.15 * max(h, y1 - y0))
            if not same_line or resized or x0 - cur[3] > 0.25 * h or x0 < cur[1] - 0.5 * h:
                flush()
        if not cur:
            cur.extend([ch, x0, y0, x1, y1, spaced])
            spaced = False
        else:
            cur[0] += ch
            cur[1], cur[2], cur[3], cur[4] = min(cur[1], x0), min(cur[2], y0), max(cur[3], x1), max(cur[4], y1)
    flush()
    return words
