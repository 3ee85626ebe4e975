"""Document-level facts the page layout needs (pure): the body text style, which styles are headings (and
their levels), and the running headers / footers that repeat across pages.

A style is ``(size, bold, font)``: ``size`` is a text-layer line's font size (PDFium's loose glyph box height,
half-point buckets) or an OCR line's box height (rounded to a point) — the two are never compared, every
source has its own statistics. The body style is the style carrying the most characters; a heading style
is larger than the body (by ``HEADING_RATIO``), or bold at about the body size (``BOLD_MIN_RATIO``), or in
another font at the body size or larger (and rarer: ``FONT_HEADING_MAX_SHARE``), and is rare (a style
carrying a large share of the document's text is body text of another kind, e.g. a 10-Q's 10-point
exhibit text next to its 9-point report). Levels: distinct heading styles sorted by size, then bold
first — the largest is level 1; at most ``MAX_LEVELS``.

Furniture (running headers/footers): a line in the top or bottom ``MARGIN`` of its page (or among its
``EDGE_LINES`` top/bottom lines within its outer ``EDGE_ZONE``) whose text, with
digits folded (``Page 7`` ≡ ``Page 8``), occurs on at least
``max(2, min(FURNITURE_PAGES, FURNITURE_SHARE × pages))`` pages; and,
on any page, a margin line that is only a page number (``7``, ``- 7 -``, ``Page 7 of 9``, ``vii``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

HEADING_RATIO = 1.12
#: OCR line boxes vary in height with their glyphs (ascenders, CJK): a heading must stand out more
OCR_HEADING_RATIO = 1.3
#: a bold style is a heading from this share of the body size up (a 9-point bold heading over 10-point body text)
BOLD_MIN_RATIO = 0.85
MAX_LEVELS = 4
MARGIN = 0.09
FURNITURE_SHARE = 0.3
FURNITURE_PAGES = 3  # ... or on this many pages (a long document's running footer varies by chapter)
EDGE_LINES = 2
EDGE_ZONE = 0.2  # ... those within the outer fifth of the page
#: a heading style carries at most this share of the document's characters
HEADING_MAX_SHARE = 0.2
#: ... and a style that differs from the body only by its font (same size or larger), this share
FONT_HEADING_MAX_SHARE = 0.05

_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(
    r"^(?:[-–—]\s*)?(?:page\s+|p\.\s*)?(?:\d{1,4}|[ivxlcdm]{1,6})(?:\s*(?:of|/)\s*\d{1,4})?(?:\s*[-–—])?$", re.I)

Style = tuple[float, bool, str]  # (size, bold, font name — "" for OCR)


def line_size(line: Mapping[str, Any], source: str) -> float:
    """A line's size for style statistics: its font size (text layer) or its box height (OCR, in steps of
    about 6%: box heights jitter)."""
    size = float(line.get("size") or 0.0)
    if size > 0 and source != "ocr":
        return size
    box = line.get("bbox") or (0, 0, 0, 0)
    h = max(0.0, float(box[3]) - float(box[1]))
    return float(round(math.exp(round(math.log(h) / 0.06) * 0.06), 1)) if h > 0 else 0.0


def line_style(line: Mapping[str, Any], source: str) -> Style:
    return (line_size(line, source), bool(line.get("bold")), "" if source == "ocr" else str(line.get("font") or ""))


def fold(text: str) -> str:
    """Text with digits folded and spacing/case normalised, to recognise a running header on every page."""
    return _DIGITS.sub("#", " ".join(text.lower().split()))


def is_page_number(text: str) -> bool:
    return bool(_PAGE_NUMBER.match(text.strip()))


def edge_lines(lines: Sequence[Mapping[str, Any]], height: float) -> set[int]:
    """Indices of the lines that may be running headers/footers: in the page's top/bottom ``MARGIN``, or
    among the ``EDGE_LINES`` topmost / bottommost lines (pages whose crop box leaves wide margins)."""
    boxed = [(float(ln["bbox"][1]), i) for i, ln in enumerate(lines) if ln.get("bbox") and str(ln.get("text")).strip()]
    boxed.sort()
    out = {i for _, i in boxed[:EDGE_LINES] + boxed[-EDGE_LINES:] if in_margin(lines[i].get("bbox"), height, EDGE_ZONE)}
    out |= {i for _, i in boxed if in_margin(lines[i].get("bbox"), height)}
    return out


def in_margin(bbox: Any, height: float, margin: float = MARGIN) -> bool:
    if not bbox or height <= 0:
        return False
    return float(bbox[3]) <= height * margin or float(bbox[1]) >= height * (1 - margin)


@dataclass(slots=True)
class SourceStyles:
    body: Style = (0.0, False, "")
    levels: dict[Style, int] = field(default_factory=dict)  # heading style → level (1 = largest)
    title: Style | None = None  # the first page's largest heading style when it stands out


@dataclass(slots=True)
class DocStyles:
    """What :func:`doc_styles` learnt about a document; JSON-able via :meth:`to_json`."""

    sources: dict[str, SourceStyles] = field(default_factory=dict)
    furniture: set[str] = field(default_factory=set)  # folded texts of running headers/footers
    pages: int = 0

    def for_source(self, source: str) -> SourceStyles:
        return self.sources.get(source) or SourceStyles()

    def to_json(self) -> dict[str, Any]:
        return {
            "pages": self.pages, "furniture": sorted(self.furniture),
            "sources": {k: {"body": list(v.body), "title": list(v.title) if v.title else None,
                            "levels": [[*s, lvl] for s, lvl in sorted(v.levels.items(), key=lambda kv: kv[1])]}
                        for k, v in self.sources.items()},
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> DocStyles:
        sources = {}
        for k, v in (raw.get("sources") or {}).items():
            title = v.get("title")
            levels = {_style(x[:3]): int(x[3]) for x in v.get("levels") or []}
            sources[k] = SourceStyles(body=_style(v["body"]), levels=levels,
                                      title=_style(title) if title else None)
        return cls(sources=sources, furniture=set(raw.get("furniture") or ()), pages=int(raw.get("pages") or 0))


def _style(raw: Sequence[Any]) -> Style:
    return (float(raw[0]), bool(raw[1]), str(raw[2]) if len(raw) > 2 else "")


class StyleCounter:
    """Accumulates segments one at a time (a document is never held whole), then :meth:`result`."""

    def __init__(self) -> None:
        self.chars: dict[str, Counter[Style]] = {}
        self.short: dict[str, Counter[Style]] = {}  # characters in short lines (heading-like)
        self.first_page: dict[str, Counter[Style]] = {}  # characters per style on the source's first page
        self.margin_texts: Counter[str] = Counter()
        self.pages = 0
        self._first_seen: set[str] = set()

    def add(self, seg: Mapping[str, Any]) -> None:
        self.pages += 1
        source = str(seg.get("source") or "text_layer")
        height = float(seg.get("height") or 0.0)
        chars = self.chars.setdefault(source, Counter())
        short = self.short.setdefault(source, Counter())
        first = source not in self._first_seen and bool(seg.get("lines"))
        if first:
            self._first_seen.add(source)
        page_first = self.first_page.setdefault(source, Counter())
        seen: set[str] = set()
        lines = list(seg.get("lines") or ())
        edges = edge_lines(lines, height)
        for k, line in enumerate(lines):
            text = str(line.get("text") or "").strip()
            if not text:
                continue
            style = line_style(line, source)
            chars[style] += len(text)
            if len(text) <= 120:
                short[style] += len(text)
            if first:
                page_first[style] += len(text)
            if k in edges:
                key = fold(text)
                if key not in seen:
                    seen.add(key)
                    self.margin_texts[key] += 1

    def result(self) -> DocStyles:
        out = DocStyles(pages=self.pages)
        need = max(2, min(FURNITURE_PAGES, int(FURNITURE_SHARE * self.pages + 0.999)))
        out.furniture = {t for t, n in self.margin_texts.items() if n >= need and self.pages >= 2}
        for source, chars in self.chars.items():
            out.sources[source] = _source_styles(chars, self.first_page.get(source) or Counter(), ocr=source == "ocr")
            st = out.sources[source]
            if st.title is not None and chars[st.title] > (self.first_page.get(source) or Counter())[st.title]:
                st.title = None  # the style is used on later pages too: a heading style, not the title
            if st.title is not None:  # the title is level 0; the heading levels below it start at 1
                rest = sorted((s for s in st.levels if s != st.title), key=lambda s: st.levels[s])
                st.levels = {s: min(i + 1, MAX_LEVELS) for i, s in enumerate(rest)} | {st.title: 0}
        return out


def _source_styles(chars: Counter[Style], first_page: Counter[Style], *, ocr: bool = False) -> SourceStyles:
    if not chars:
        return SourceStyles()
    body = max(chars.items(), key=lambda kv: (kv[1], -kv[0][0]))[0]
    total = sum(chars.values())
    # The body size: the most-used size among non-bold styles (bold body text is still body-sized).
    body_size = body[0]
    ratio = OCR_HEADING_RATIO if ocr else HEADING_RATIO
    heads = [s for s, n in chars.items()
             if s != body and n <= HEADING_MAX_SHARE * total
             and (s[0] >= body_size * ratio or (s[1] and s[0] >= body_size * BOLD_MIN_RATIO)
                  or (s[2] and s[2] != body[2] and s[0] >= body_size and n <= FONT_HEADING_MAX_SHARE * total))]
    sizes = sorted({(s[0], s[1]) for s in heads}, key=lambda s: (-s[0], not s[1]))
    rank = {s: min(i + 1, MAX_LEVELS) for i, s in enumerate(sizes)}
    levels = {s: rank[(s[0], s[1])] for s in heads}
    title = None
    if first_page:
        big = max(first_page, key=lambda s: (s[0], s[1]))
        if big in levels and big[0] >= body_size * 1.25:
            title = big
    return SourceStyles(body=body, levels=levels, title=title)


def doc_styles(segments: Iterable[Mapping[str, Any]]) -> DocStyles:
    counter = StyleCounter()
    for seg in segments:
        counter.add(seg)
    return counter.result()
