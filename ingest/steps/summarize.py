"""document_summarizer (pure): what a document is about — its title, its outline of headings and, on the
embedded default, its lead sentences — as one bounded JSON record stored on the document item.

Every page is reduced to a :class:`PageDigest` (``page_digest``) one segment at a time: its headings, its
body text and the page summary the segment analysis wrote, if any. ``page_digest`` is the one place that
knows where headings come from: the ``segment_analyzer``'s layout blocks (``title``/``heading`` with a
``level``) when a page has them, else a derivation from what a segment carries today — text-layer or OCR
line boxes, a heading being a short line clearly taller than the page's body lines, or a numbered section
line ("Item 2.", "PART I", "3.1 Results").

``extractive_summary`` is the embedded summary (labelled ``kind="extractive"``: nothing is generated, every
sentence is quoted from the document). The Bedrock summary (``ingest.steps.summarize_bedrock``) keeps the
same record and replaces ``text`` with the model's summary (``kind="generated"``).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: bounds of the stored record (it lives on the document item and in every document listing)
MAX_OUTLINE = 60
MAX_HEADING_CHARS = 160
MAX_SUMMARY_CHARS = 2400
LEAD_SENTENCES = 3
SECTION_LEADS = 6
#: a line is a heading when it is this much taller than the page's body lines
HEADING_RATIO = 1.15
HEADING_MAX_WORDS = 16
#: heading sizes within this ratio of a larger one are the same style (a text layer's line box is its glyphs'
#: box: "Recommendations" has no descender, "Findings" has one — the same font size differs by up to ~25%)
SIZE_BUCKET = 0.75
#: a numbered heading line this much taller than the body is sized (else it is a body-size section line)
SIZED = 1.08
#: a page with this many numbered lines ending in a page number is a table of contents
TOC_ENTRIES = 3
#: a heading text repeated on this share of the pages (≥ 3) is a running header, not a section
RUNNING_SHARE = 0.3
#: page text kept per digest (the Bedrock path budgets further)
DIGEST_TEXT_CHARS = 12_000

_NUMBERED = re.compile(
    r"^(?:(?:item|part|chapter|section|article|appendix|annex|schedule)\s+[\dIVXLC]+[A-Z]?\b[.:]?"
    r"|\d{1,2}(?:\.\d{1,2}){0,3}\.?\s+\S"
    r"|제\s*\d+\s*[장절조]|第\s*\d+\s*[章節条])",
    re.I,
)
_AMOUNT = re.compile(r"[$€£¥₩]\s*\(?\d|\d{1,3}(?:,\d{3})+")
_NUMBER = re.compile(r"(?<![\w.])\(?\d[\d,.]*\)?%?(?![\w])")
_TOC_ENTRY = re.compile(r"\S\s+(?:\.{2,}\s*)?\d{1,4}$")
_CHECKBOX = re.compile(r"[☐☒☑□■]")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])|\n")  # body paragraphs are joined by newlines
_LETTERS = re.compile(r"[^\W\d_]", re.UNICODE)
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Heading:
    level: int  # 1 = top; a title is level 0
    text: str
    page: int
    #: derived from lines: the line height (0: a numbered section line at body size), levels are then set per
    #: document by ``outline``; -1: the layout analysis gave the level
    size: float = -1.0


@dataclass(slots=True)
class PageDigest:
    """What the summarizer keeps of one page."""

    page: int
    headings: list[Heading] = field(default_factory=list)
    body: list[str] = field(default_factory=list)  # paragraphs / body lines in reading order
    summary: str | None = None  # the segment analysis' page summary (Bedrock), when there is one
    starts: list[int] = field(default_factory=list)  # per heading: the index in ``body`` its section starts at
    toc: bool = False  # a table of contents (its lines are not quoted as sentences)

    @property
    def text(self) -> str:
        return "\n".join(self.body)


def clean(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def estimate_tokens(text: str) -> int:
    """A rough count without a tokenizer: ~4 characters a token, one a token for CJK."""
    cjk = sum(1 for ch in text if "\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af")
    return (len(text) - cjk) // 4 + cjk + 1


# --------------------------------------------------------------------------- one page


def page_digest(seg: Mapping[str, Any], analysis: Mapping[str, Any] | None = None) -> PageDigest:
    """The page's headings and body: from the layout analysis (``analysis`` or ``seg["blocks"]``) when there is
    one, else derived from the segment's lines. This is the hook the segment analyzer's output plugs into."""
    page = int(seg.get("page") or (analysis or {}).get("page") or 0)
    layout = analysis if analysis is not None else (seg if seg.get("blocks") else None)
    if layout is not None and layout.get("blocks"):
        return _from_blocks(page, layout)
    return _from_lines(page, seg)


def _from_blocks(page: int, layout: Mapping[str, Any]) -> PageDigest:
    blocks = list(layout.get("blocks") or [])
    order = {b.get("id"): i for i, b in enumerate(blocks)}
    if layout.get("reading_order"):
        rank = {bid: i for i, bid in enumerate(layout["reading_order"])}
        blocks.sort(key=lambda b: rank.get(b.get("id"), len(rank) + order.get(b.get("id"), 0)))
    digest = PageDigest(page, summary=clean(str(layout.get("summary") or "")) or None)
    for b in blocks:
        kind = str(b.get("type") or "")
        text = clean(str(b.get("text") or ""))
        if not text or kind in ("header", "footer"):
            continue
        if kind == "title":
            digest.headings.append(Heading(0, text[:MAX_HEADING_CHARS], page))
            digest.starts.append(len(digest.body))
        elif kind == "heading":
            level = int(b.get("level") or 1)
            digest.headings.append(Heading(max(1, level), text[:MAX_HEADING_CHARS], page))
            digest.starts.append(len(digest.body))
        elif kind in ("paragraph", "list", "caption"):
            digest.body.append(text)
        elif kind == "figure" and b.get("description"):
            digest.body.append(clean(str(b["description"])))
    return digest


def _height(line: Mapping[str, Any]) -> float:
    box: Sequence[float] = line.get("bbox") or []
    if len(box) < 4:
        return 0.0
    return max(0.0, float(box[3]) - float(box[1]))


def _looks_like_heading_text(text: str) -> bool:
    words = text.split()
    if not 1 <= len(words) <= HEADING_MAX_WORDS or len(text) > MAX_HEADING_CHARS:
        return False
    letters = len(_LETTERS.findall(text))
    if letters < 3 or letters < 0.5 * len(text.replace(" ", "")):
        return False
    if (text[0].isalpha() and text[0].islower()) or _CHECKBOX.search(text):
        return False  # a sentence's continuation, a form's check box
    if _AMOUNT.search(text) or len(_NUMBER.findall(text)) >= 2 or _TOC_ENTRY.search(text):
        return False  # a table's total row, a table of contents entry ("Item 2. … 14")
    return not text.endswith((",", ";")) and not (text.endswith(".") and len(words) > 8)


def _from_lines(page: int, seg: Mapping[str, Any]) -> PageDigest:
    lines = [ln for ln in seg.get("lines") or () if clean(str(ln.get("text") or ""))]
    digest = PageDigest(page)
    if not lines:
        text = clean(str(seg.get("text") or ""))
        if text:
            digest.body.append(text[:DIGEST_TEXT_CHARS])
        return digest
    body_heights = [_height(ln) for ln in lines if len(clean(str(ln["text"]))) >= 25 and _height(ln) > 0]
    body = statistics.median(body_heights) if body_heights else 0.0
    tall: list[tuple[float, str]] = []
    para: list[str] = []
    kept = 0
    texts = [clean(str(ln["text"])) for ln in lines]
    entries = sum(1 for t in texts if _NUMBERED.match(t) and _TOC_ENTRY.search(t))
    digest.toc = entries >= TOC_ENTRIES

    def flush() -> None:
        nonlocal kept
        if para and kept < DIGEST_TEXT_CHARS:
            joined = clean(" ".join(para))
            digest.body.append(joined)
            kept += len(joined)
        para.clear()

    for ln in lines:
        text = clean(str(ln["text"]))
        height = _height(ln)
        taller = body > 0 and height >= HEADING_RATIO * body
        numbered = bool(_NUMBERED.match(text)) and len(text.split()) <= 14 and not text.endswith(".")
        if _looks_like_heading_text(text) and (taller or numbered):
            flush()
            tall.append((round(height, 1) if body > 0 and height >= SIZED * body else 0.0, text))
            digest.starts.append(len(digest.body))
            continue
        if _CHECKBOX.search(text):  # a form's check-box line stands alone (it never starts a quoted sentence)
            flush()
        para.append(text)
        if text.endswith((".", "!", "?", "。", "！", "？", ":")) or _CHECKBOX.search(text):
            flush()
    flush()
    sizes = sorted({h for h, _ in tall if h > 0}, reverse=True)
    for height, text in tall:
        level = sizes.index(height) + 1 if height in sizes else len(sizes) + 1
        digest.headings.append(Heading(min(level, 4), text, page, float(height)))
    return digest


def _relevel(heads: list[Heading]) -> list[Heading]:
    """Levels of derived headings by their size across the whole document (largest = 1, numbered lines at body
    size below the smallest); headings whose level the layout analysis gave keep it."""
    buckets: list[float] = []  # sizes within SIZE_BUCKET of a bucket's largest are one style
    level_of: dict[float, int] = {}
    for size in sorted({h.size for h in heads if h.size > 0}, reverse=True):
        if not buckets or size < SIZE_BUCKET * buckets[-1]:
            buckets.append(size)
        level_of[size] = len(buckets)
    out = []
    for h in heads:
        if h.size < 0:
            out.append(h)
            continue
        out.append(Heading(min(level_of.get(h.size, len(buckets) + 1), 4), h.text, h.page, h.size))
    return out


# --------------------------------------------------------------------------- the document


def sentences(text: str) -> list[str]:
    return [s for s in (clean(p) for p in _SENTENCE_END.split(text)) if s]


def _substantive(sentence: str) -> bool:
    """A sentence worth quoting: prose of a normal length, not a form's boilerplate or a row of figures."""
    words = sentence.split()
    chars = len(sentence.replace(" ", ""))
    letters = len(_LETTERS.findall(sentence))
    digits = sum(ch.isdigit() for ch in sentence)
    cjk = any("\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for ch in sentence)
    if _CHECKBOX.search(sentence) or letters < 0.7 * chars or digits > 0.12 * chars:
        return False
    if not sentence.endswith((".", "!", "?", "。", "！", "？", "다.")) or not (sentence[0].isupper() or cjk
                                                                        or sentence[0] == "“"):
        return False
    return (8 <= len(words) <= 60) or (cjk and 12 <= len(sentence) <= 200)


def outline(digests: Sequence[PageDigest]) -> list[Heading]:
    """Every page's headings, running headers (the same text on many pages) left out, bounded."""
    pages_with: Counter[str] = Counter()
    for d in digests:
        for text in {h.text.casefold() for h in d.headings}:
            pages_with[text] += 1
    limit = max(3, RUNNING_SHARE * len(digests))
    out: list[Heading] = []
    seen: set[tuple[str, int]] = set()
    for d in digests:
        for h in d.headings:
            key = (h.text.casefold(), h.page)
            if pages_with[h.text.casefold()] >= limit or key in seen:
                continue
            seen.add(key)
            out.append(h)
    return _relevel(out)[:MAX_OUTLINE]


def title_of(digests: Sequence[PageDigest], file_name: str, heads: Sequence[Heading]) -> str:
    for d in digests[:2]:
        for h in d.headings:
            if h.level == 0:
                return h.text
    if heads and heads[0].page <= 2:
        top = min(h.level for h in heads if h.page <= 2)
        return next(h.text for h in heads if h.page <= 2 and h.level == top)
    return file_name


def _section_leads(digests: Sequence[PageDigest], heads: Sequence[Heading]) -> list[tuple[Heading, str]]:
    """The first substantive sentence after each top-level heading (its page's body), a few of them."""
    counts = Counter(h.level for h in heads if h.level > 0)
    top = min(counts, key=lambda lvl: (-counts[lvl], lvl), default=1)  # the level most sections are at
    by_page = {d.page: d for d in digests}
    out: list[tuple[Heading, str]] = []
    used: set[str] = set()
    for h in heads:
        if h.level != top or len(out) >= SECTION_LEADS:
            continue
        d = by_page.get(h.page)
        if d is None or d.toc:
            continue
        idx = next((i for i, x in enumerate(d.headings) if (x.text, x.page) == (h.text, h.page)), -1)
        start = d.starts[idx] if 0 <= idx < len(d.starts) else 0
        end = d.starts[idx + 1] if 0 <= idx + 1 < len(d.starts) else len(d.body)
        section = d.body[start:end]
        if not section and idx == len(d.headings) - 1 and h.page + 1 in by_page:
            nxt = by_page[h.page + 1]
            section = nxt.body[: nxt.starts[0]] if nxt.starts else nxt.body
        first = next((s for s in sentences("\n".join(section)) if _substantive(s) and s not in used), None)
        if first:
            used.add(first)
            out.append((h, first))
    return out


def extractive_summary(digests: Iterable[PageDigest], *, file_name: str, page_count: int) -> dict[str, Any]:
    """The embedded summary: title, outline and lead sentences, every word quoted from the document."""
    pages = list(digests)
    heads = outline(pages)
    title = title_of(pages, file_name, heads)
    lead: list[str] = []
    for d in (p for p in pages if not p.toc):
        for s in sentences(d.text):
            if _substantive(s) and s not in lead:
                lead.append(s)
            if len(lead) >= LEAD_SENTENCES:
                break
        if len(lead) >= LEAD_SENTENCES:
            break
    if not lead:  # no prose sentence anywhere (slides, forms, tables): the opening text, clipped
        first = next((p for d in pages for p in d.body if len(p.split()) >= 8 and not _CHECKBOX.search(p)), "")
        lead = [clip(first, 300)] if first else []
    parts = [" ".join(lead)] if lead else []
    for h, first in _section_leads(pages, heads):
        if first not in lead:
            parts.append(f"{h.text}: {first}")
    text = clip("\n".join(parts), MAX_SUMMARY_CHARS)
    return record(kind="extractive", title=title, text=text, heads=heads, lead=lead, page_count=page_count)


def record(*, kind: str, title: str, text: str, heads: Sequence[Heading], page_count: int,
           lead: Sequence[str] = (), model: str | None = None, usage: Mapping[str, int] | None = None
           ) -> dict[str, Any]:
    """The stored shape (``GET /v1/projects/{pid}/documents`` items carry it as ``summary``)."""
    out: dict[str, Any] = {
        "kind": kind,
        "title": clip(title, MAX_HEADING_CHARS),
        "text": clip(text, MAX_SUMMARY_CHARS),
        "outline": [{"level": h.level, "text": h.text, "page": h.page} for h in heads[:MAX_OUTLINE]],
        "lead": [clip(s, 400) for s in lead[:LEAD_SENTENCES]],
        "page_count": int(page_count),
    }
    if model:
        out["model"] = model
    if usage:
        out["usage"] = dict(usage)
    return out


def clip(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
