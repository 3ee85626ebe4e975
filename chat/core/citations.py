"""Sources and citations (pure): which tool-result sources an answer actually cites.

Tool results number their sources ``S<n>`` (search hits) and ``P<n>`` (pages);
the answer cites them as ``[S3]`` / ``[P1]`` (also ``[S1, S3]``). A citation is
emitted only for a ref that appears in the answer *and* exists in a tool result
the model received — never for a ref the model made up.

A citation's page is the page its quote lies on: a search hit may span pages, so the quote is found in
the hit's text and placed with the chunk's ``page_offsets`` (where each page starts in the text; for
older chunks and sources read back from history, the ``\n\n`` page breaks the chunker puts between
pages), and its ``bbox`` is the box of the quoted lines on that page (``line_boxes``), else the chunk's
box on that page — never a box on another page. ``bboxes`` lists the quoted lines' boxes when known.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from retrieval.types import page_at

_GROUP_RE = re.compile(r"\[((?:[SP]\d+)(?:\s*[,;]\s*[SP]\d+)*)\]")
_REF_RE = re.compile(r"[SP]\d+")
_SENTENCE_RE = re.compile(r"(?<=[.!?。？！])\s+|\n+")
_WORD_RE = re.compile(r"\w+", re.UNICODE)
QUOTE_CHARS = 280


@dataclass(frozen=True, slots=True)
class Source:
    """What a ref points at: a search hit (``S``) or a whole page (``P``)."""

    ref: str
    document_id: str
    file_name: str
    page: int
    text: str
    chunk_id: str | None = None
    bbox: dict[str, float] | None = None  # the chunk's first box (keys page, x0, y0, x1, y1)
    page_end: int | None = None  # last page of a search hit that spans pages
    page_offsets: tuple[tuple[int, int], ...] = ()  # (page, offset in text) — see retrieval.types.Chunk
    boxes: tuple[dict[str, float], ...] = ()  # every box of the chunk, each with its page
    line_boxes: tuple[tuple[int, dict[str, float]], ...] = ()  # (offset in text where the line starts, box)
    score: float | None = None  # the search hit's relevance (retrieval.types.Hit.score); None for pages


def cited_refs(answer: str) -> list[str]:
    """Refs cited in ``answer`` in order of first appearance, without duplicates."""
    seen: dict[str, None] = {}
    for group in _GROUP_RE.finditer(answer):
        for ref in _REF_RE.findall(group.group(1)):
            seen.setdefault(ref, None)
    return list(seen)


def max_ref_number(refs: Iterable[str], prefix: str) -> int:
    best = 0
    for ref in refs:
        if ref.startswith(prefix) and ref[1:].isdigit():
            best = max(best, int(ref[1:]))
    return best


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD_RE.findall(text) if len(w) > 2}


def _sentence_citing(answer: str, ref: str) -> str:
    marker = re.compile(r"\[[^\]]*\b" + re.escape(ref) + r"\b[^\]]*\]")
    for sentence in _SENTENCE_RE.split(answer):
        if marker.search(sentence):
            return marker.sub("", sentence)
    return answer


def best_quote(source_text: str, claim: str, *, limit: int = QUOTE_CHARS) -> str:
    """The sentence of ``source_text`` that shares the most words with ``claim`` (trimmed to ``limit``)."""
    sentences = [s.strip() for s in _SENTENCE_RE.split(source_text) if s.strip()]
    if not sentences:
        return ""
    target = _words(claim)
    best = max(sentences, key=lambda s: (len(_words(s) & target), -abs(len(s) - 160)))
    if len(best) > limit:
        best = best[: limit - 1].rstrip() + "…"
    return best


def locate_quote(text: str, quote: str) -> tuple[int, int] | None:
    """Where ``quote`` (as ``best_quote`` made it: maybe cut with "…") lies in ``text``, as [start, end)."""
    needle = quote[:-1].rstrip() if quote.endswith("…") else quote
    start = text.find(needle) if needle else -1
    if start >= 0:
        return (start, start + len(needle))
    return find_loose(text, needle)


def infer_page_offsets(text: str, page_start: int, page_end: int | None) -> tuple[tuple[int, int], ...]:
    """Page starts from the chunker's page breaks (``\n\n``) when there is exactly one per page boundary."""
    if page_end is None or page_end <= page_start:
        return ()
    breaks = [m.end() for m in re.finditer(r"\n\n", text)]
    if len(breaks) != page_end - page_start:
        return ()
    return ((page_start, 0), *((page_start + i + 1, at) for i, at in enumerate(breaks)))


def _box_page(box: Mapping[str, Any], default: int) -> int:
    try:
        return int(box.get("page", default))
    except (TypeError, ValueError):
        return default


def place_quote(src: Source, quote: str) -> tuple[int, dict[str, float] | None, list[dict[str, float]]]:
    """``(page, bbox, line boxes)`` of ``quote`` within ``src`` (see the module docstring)."""
    span = locate_quote(src.text, quote)
    return place_spans(src, [span] if span else [])


def place_spans(
    src: Source, spans: Sequence[tuple[int, int]]
) -> tuple[int, dict[str, float] | None, list[dict[str, float]]]:
    """``(page, bbox, line boxes)`` of the quoted ``spans`` of ``src.text``: the boxes of exactly the lines the
    spans touch, on the page of the first span (never a box of another page)."""
    offsets = src.page_offsets or infer_page_offsets(src.text, src.page, src.page_end)
    page = page_at(offsets, spans[0][0], src.page) if spans else src.page
    lines: list[dict[str, float]] = []
    for start, box in src.line_boxes:
        newline = src.text.find("\n", start)
        end = newline if newline >= 0 else len(src.text)
        touched = any(start < b and end > a for a, b in spans)
        if touched and _box_page(box, page) == page and dict(box) not in lines:
            lines.append(dict(box))
    if lines:
        bbox: dict[str, float] | None = {
            "page": page,
            "x0": min(b["x0"] for b in lines),
            "y0": min(b["y0"] for b in lines),
            "x1": max(b["x1"] for b in lines),
            "y1": max(b["y1"] for b in lines),
        }
        return page, bbox, lines
    candidates = [*src.boxes, *([src.bbox] if src.bbox is not None else [])]
    bbox = next((dict(b) for b in candidates if _box_page(b, src.page) == page), None)
    return page, bbox, []


_QUOTE_MARKS = re.compile(r"[“\"]([^”\"]{12,})[”\"]")
_MARKDOWN_QUOTE = re.compile(r"^\s*>\s?(.*)$")
_SPACE = re.compile(r"\s+")


def find_loose(text: str, needle: str) -> tuple[int, int] | None:
    """Where ``needle`` lies in ``text`` when runs of whitespace may differ (line wraps), as [start, end)."""
    words = needle.split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    match = re.search(pattern, text)
    return (match.start(), match.end()) if match else None


def _strip_refs(text: str) -> str:
    return _SPACE.sub(" ", _GROUP_RE.sub("", text)).strip(" —–-:;,")


def answer_quotes(answer: str, ref: str) -> list[str]:
    """What ``answer`` itself presents as quoted for ``ref``: the blockquote lines (``> …``) that carry the
    ref or follow the line that cites it, and text in quotation marks in the sentence that cites it."""
    marker = re.compile(r"\[[^\]]*\b" + re.escape(ref) + r"\b[^\]]*\]")
    lines = answer.splitlines()
    out: list[str] = []
    for i, line in enumerate(lines):
        quoted = _MARKDOWN_QUOTE.match(line)
        if quoted and marker.search(line):
            out.append(_strip_refs(quoted.group(1)))
            continue
        if quoted or not marker.search(line):
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        block: list[str] = []
        while j < len(lines) and _MARKDOWN_QUOTE.match(lines[j]):
            block.append(_MARKDOWN_QUOTE.match(lines[j]).group(1))  # type: ignore[union-attr]
            j += 1
        out.extend(_strip_refs(b) for b in block if marker.search(b) or not _GROUP_RE.search(b))
    out.extend(_strip_refs(m.group(1)) for m in _QUOTE_MARKS.finditer(_sentence_citing(answer, ref)))
    return [q for q in out if q]


def quote_for(src: Source, answer: str, ref: str) -> tuple[str, list[tuple[int, int]]]:
    """The citation's quote and where it lies in ``src.text``: the exact source text of what the answer
    quotes for ``ref`` when it quotes it (so the highlight, the banner and the answer show the same words),
    else the source sentence that best matches the sentence citing it."""
    spans: list[tuple[int, int]] = []
    for candidate in answer_quotes(answer, ref):
        span = find_loose(src.text, candidate)
        if span is not None and span not in spans:
            spans.append(span)
    if spans:
        spans.sort()
        return "\n".join(src.text[a:b] for a, b in spans), spans
    quote = best_quote(src.text, _sentence_citing(answer, ref))
    span = locate_quote(src.text, quote)
    return quote, [span] if span else []


def citations_for(answer: str, sources: Mapping[str, Source]) -> list[dict[str, Any]]:
    """``citation`` event payloads for the refs ``answer`` cites that are known ``sources``."""
    out: list[dict[str, Any]] = []
    for ref in cited_refs(answer):
        src = sources.get(ref)
        if src is None:
            continue
        quote, spans = quote_for(src, answer, ref)
        page, bbox, lines = place_spans(src, spans)
        item: dict[str, Any] = {
            "ref": ref,
            "document_id": src.document_id,
            "file_name": src.file_name,
            "page": page,
            "chunk_id": src.chunk_id,
            "quote": quote,
        }
        if bbox is not None:
            item["bbox"] = bbox
        if src.score is not None:
            item["score"] = src.score
        if lines:
            item["bboxes"] = lines
        out.append(item)
    return out
