"""Page layout analysis (pure, the embedded ``segment_analyzer``): a segment (``segment_builder``'s JSON:
lines with boxes and, for a text layer, font size and weight; tables as grids; image boxes) plus the
document's :class:`~ingest.analysis.styles.DocStyles` → the page's layout JSON.

Shape (the same as the Bedrock analyzer returns)::

    {"page", "width", "height", "source": "local", "summary": None,
     "blocks": [{"id", "type", "text", "bbox", "order", "lines": [line indices], "level"?  (heading),
                 "markdown"? (table), "description"? (figure)}],
     "reading_order": [block ids], "key_values": [{"key", "value", "bbox"}]}

``type`` is one of ``BLOCK_TYPES``. Lines become blocks in their extraction order: a new block starts on a
change of style, a line pitch over ``PARA_PITCH`` line sizes, a jump up or sideways (another
column), or a list marker. A table grid takes the lines it covers (and its caption); an image box of a
useful size is a figure and takes the lines inside it. Headers/footers are the document's furniture in
the page margins. Nothing is invented: ``summary`` is ``None`` and figures have no ``description``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ingest.analysis.order import reading_order
from ingest.analysis.styles import DocStyles, Style, edge_lines, fold, is_page_number, line_style

BLOCK_TYPES = ("title", "heading", "paragraph", "list", "table", "figure", "caption", "header", "footer")
#: a line more than this many line sizes below the previous one starts a new paragraph (OCR: box heights)
PARA_PITCH = 1.45
OCR_PARA_PITCH = 1.8
HEADING_MAX_CHARS = 160
HEADING_MAX_LINES = 3
HEADING_MIN_CONFIDENCE = 0.8  # OCR lines read with less confidence are no headings
TITLE_MAX_TOP = 0.5  # a title starts in the upper half of the first page
FIGURE_MIN_AREA = 0.015  # share of the page
FIGURE_MAX_AREA = 0.9  # larger: a scanned page, not a figure

_LIST = re.compile(r"^\s*(?:[•●○◦▪▫■□◆◇►▶➢✓✔\-–—*·]\s+|\(?(?:\d{1,3}|[a-zA-Z]|[ivxlc]{1,5})[.)]\s+)")
_CAPTION = re.compile(r"^\s*(?:fig(?:ure)?\.?|table|chart|exhibit|graph|plate|그림|표|図|表)\s*[\dA-Z]+\b", re.I)
_KV = re.compile(r"^([^\W\d][\w .,&/()'’#-]{1,48}?)\s*[:：]\s+(\S.{0,160})$")
_LEADER = re.compile(r"(?:\.\s?){4,}|…{2,}|·{4,}")
_RTL = re.compile(r"[\u0590-\u08ff]")


@dataclass(slots=True)
class _Block:
    type: str
    lines: list[int] = field(default_factory=list)
    boxes: list[Sequence[float]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    style: Style | None = None
    level: int | None = None
    markdown: str | None = None
    bbox: tuple[float, float, float, float] | None = None

    def box(self) -> tuple[float, float, float, float]:
        if self.bbox is not None:
            return self.bbox
        bs = [b for b in self.boxes if b and b[2] > b[0]]
        if not bs:
            return (0.0, 0.0, 0.0, 0.0)
        return (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs))


def page_layout(seg: Mapping[str, Any], styles: DocStyles) -> dict[str, Any]:
    """The layout JSON of one segment (see the module docstring)."""
    page = int(seg.get("page") or 0)
    source = str(seg.get("source") or "text_layer")
    width, height = float(seg.get("width") or 0.0), float(seg.get("height") or 0.0)
    st = styles.for_source(source)
    lines = list(seg.get("lines") or ())
    owner: dict[int, _Block] = {}
    blocks: list[_Block] = []
    for raw in seg.get("table_grids") or ():
        area = raw.get("bbox")
        cap = raw.get("caption_bbox")
        block = _Block("table", markdown=str(raw.get("markdown") or ""), bbox=_box(area))
        for i, ln in enumerate(lines):
            if i not in owner and any(_inside(ln.get("bbox"), a) for a in (area, cap) if a):
                owner[i] = block
                block.lines.append(i)
        blocks.append(block)
        if cap and raw.get("caption"):
            blocks.append(_Block("caption", texts=[str(raw["caption"])], bbox=_box(cap)))
    page_area = width * height
    for img in seg.get("images") or ():
        ib = _box(img)
        if ib is None or page_area <= 0:
            continue
        share = (ib[2] - ib[0]) * (ib[3] - ib[1]) / page_area
        if not FIGURE_MIN_AREA <= share <= FIGURE_MAX_AREA or any(_overlap(ib, o.box()) > 0.5 for o in blocks
                                                                  if o.type in ("table", "figure")):
            continue
        fig = _Block("figure", bbox=ib)
        for i, ln in enumerate(lines):
            if i not in owner and _inside(ln.get("bbox"), ib):
                owner[i] = fig
                fig.lines.append(i)
                fig.texts.append(str(ln.get("text") or ""))
        blocks.append(fig)
    current: _Block | None = None
    prev: Mapping[str, Any] | None = None
    edges = edge_lines(lines, height)
    for i, ln in enumerate(lines):
        text = str(ln.get("text") or "").strip()
        if i in owner or not text:
            current, prev = None, None
            continue
        box = ln.get("bbox") or (0.0, 0.0, 0.0, 0.0)
        if i in edges and (fold(text) in styles.furniture or is_page_number(text)):
            kind = "header" if float(box[1]) < height / 2 else "footer"
            blocks.append(_Block(kind, [i], [box], [text]))
            current, prev = None, None
            continue
        style = line_style(ln, source)
        heading = (style in st.levels and _heading_text(text)
                   and (source != "ocr" or float(ln.get("confidence", 1.0)) >= HEADING_MIN_CONFIDENCE))
        kind = "heading" if heading else ("list" if _LIST.match(text) else "paragraph")
        if kind == "paragraph" and _CAPTION.match(text):
            kind = "caption"
        if current is not None and prev is not None and _continues(current, kind, style, prev, ln):
            current.lines.append(i)
            current.boxes.append(box)
            current.texts.append(text)
        else:
            current = _Block(kind, [i], [box], [text], style=style)
            blocks.append(current)
        prev = ln
    for b in blocks:
        if b.type == "heading" and (len(b.lines) > HEADING_MAX_LINES or len(" ".join(b.texts)) > HEADING_MAX_CHARS):
            b.type = "paragraph"
        elif b.type == "heading" and b.style is not None:
            b.level = st.levels.get(b.style)
            if (page == 1 and b.style == st.title and b.box()[1] < height * TITLE_MAX_TOP
                    and not any(x.type == "title" for x in blocks)):
                b.type, b.level = "title", 0
            elif b.level == 0:  # the title's style, but not where a title stands
                b.level = 1
    return _emit(page, source, width, height, blocks, lines)


def _emit(page: int, source: str, width: float, height: float, blocks: list[_Block],
          lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    text_all = " ".join(str(ln.get("text") or "") for ln in lines[:50])
    rtl = len(_RTL.findall(text_all)) > len(text_all) / 4
    body = [k for k, b in enumerate(blocks) if b.type not in ("header", "footer")]
    heads = sorted((k for k, b in enumerate(blocks) if b.type == "header"), key=lambda k: blocks[k].box()[1])
    feet = sorted((k for k, b in enumerate(blocks) if b.type == "footer"), key=lambda k: blocks[k].box()[1])
    ordered = heads + [body[j] for j in reading_order([blocks[k].box() for k in body], rtl=rtl)] + feet
    out_blocks: list[dict[str, Any]] = []
    for order, k in enumerate(ordered):
        b = blocks[k]
        item: dict[str, Any] = {"id": f"p{page}-b{order + 1}", "type": b.type, "text": _join(b),
                                "bbox": [round(v, 2) for v in b.box()], "order": order + 1, "lines": b.lines}
        if b.level is not None and b.type in ("heading", "title"):
            item["level"] = b.level
        if b.type == "table":
            item["markdown"] = b.markdown or ""
        out_blocks.append(item)
    return {
        "page": page, "width": round(width, 2), "height": round(height, 2), "source": "local",
        "text_source": source, "summary": None, "blocks": out_blocks,
        "reading_order": [b["id"] for b in out_blocks], "key_values": key_values(lines),
    }


def key_values(lines: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``Label: value`` lines (a short label starting with a letter, a value after the colon)."""
    out: list[dict[str, Any]] = []
    for ln in lines:
        text = " ".join(str(ln.get("text") or "").split())
        m = _KV.match(text)
        if not m or text.count(":") > 2 or m.group(1).lower().startswith(("http", "note")):
            continue
        out.append({"key": m.group(1).strip(), "value": m.group(2).strip(),
                    "bbox": [round(float(v), 2) for v in ln.get("bbox") or (0, 0, 0, 0)]})
    return out


def _join(b: _Block) -> str:
    if b.type == "table":
        return b.markdown or ""
    out = ""
    for t in b.texts:
        if out.endswith("-") and t[:1].islower():
            out = out[:-1] + t
        else:
            out = f"{out} {t}" if out else t
    return out


def _heading_text(text: str) -> bool:
    """Text that can be a heading: mostly letters, short, not a table-of-contents line (leader dots), not
    a sentence cut mid-way (ends with a comma, semicolon or hyphen)."""
    if _LEADER.search(text) or text.rstrip()[-1:] in (",", ";", "-", "，", "、"):
        return False
    letters = sum(1 for c in text if c.isalpha())
    return letters >= 2 and letters >= len(text.replace(" ", "")) * 0.4 and len(text) <= HEADING_MAX_CHARS


def _continues(block: _Block, kind: str, style: Style, prev: Mapping[str, Any], ln: Mapping[str, Any]) -> bool:
    """Whether line ``ln`` continues ``block`` (whose last line is ``prev``)."""
    if kind == "list" or kind == "caption":
        return False
    if kind != ("paragraph" if block.type in ("list", "caption") else block.type):
        return False
    if block.style is not None and abs(style[0] - block.style[0]) > 1.0:
        return False
    if kind == "heading" and block.style != style:
        return False
    a, b = prev.get("bbox"), ln.get("bbox")
    if not a or not b:
        return True
    size = float(prev.get("size") or 0.0)
    unit = size if size > 0 else max(1.0, float(a[3]) - float(a[1]))
    pitch = float(b[1]) - float(a[1])  # baseline-to-baseline, about: top to top
    if pitch > (PARA_PITCH if size > 0 else OCR_PARA_PITCH) * unit or pitch < -0.5 * unit:
        return False  # a paragraph break, or a jump up (the next column)
    return float(b[0]) < float(a[2]) and float(b[2]) > float(a[0])  # horizontally overlapping


def _inside(box: Any, area: Any) -> bool:
    if not box or not area:
        return False
    cy = (float(box[1]) + float(box[3])) / 2
    cx = (float(box[0]) + float(box[2])) / 2
    return float(area[1]) - 1 <= cy <= float(area[3]) + 1 and float(area[0]) - 1 <= cx <= float(area[2]) + 1


def _overlap(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over the smaller box's area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / small if small > 0 else 0.0


def _box(raw: Any) -> tuple[float, float, float, float] | None:
    if not raw or len(raw) != 4:
        return None
    x0, y0, x1, y1 = (float(v) for v in raw)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None
