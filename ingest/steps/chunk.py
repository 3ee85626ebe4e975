"""Chunking (pure): token-bounded, overlapping chunks that cross page boundaries and keep their boxes.

A document's segments (one per page, from ``segment_builder``) become a stream of lines; chunks are greedy runs
of whole lines up to ``max_tokens``; the next chunk starts with the previous chunk's last lines (about
``overlap_tokens``), so a sentence cut at a page break is whole in some chunk, and that chunk spans both pages
(``page_start``..``page_end``). A line longer than a chunk is split at word (CJK: character) boundaries, at a
space where its piece has one; a split piece and a line's tail carried over as the overlap are stretches of the
line's own text, so Korean keeps its word spaces. Each chunk carries the boxes of its lines, merged into one box
per run of adjacent lines on a page, and its layout: where each page starts in its text (``page_offsets``, so a
quote can be placed on the right page of a spanning chunk) and each line's box with the offset where the line
starts (``line_boxes``, to highlight just the quoted lines). Chunk ids are deterministic:
``f"{document_id}:{index:05d}"``.

Layout (a segment's ``layout``, segment_analyzer's JSON, when present): running headers/footers are left
out; a heading starts a new chunk (without overlap) once the current one is half full; every chunk's
text starts with the heading path it is under (``Liquidity and Capital Resources ›
Cash flows``, its own leading heading not repeated), so a section's name is searched with its text;
figure descriptions (Bedrock analysis) are text lines of their page. A filing's cover page (a document whose
identity names its company, ``ingest.steps.identity``) is form boilerplate set as headings ("UNITED STATES
SECURITIES AND EXCHANGE COMMISSION", "Washington, D.C. 20549", the registrant's street address): those headings
close with the cover page, and from page 2 on the path starts with the company's name (``root``) instead
("Netflix, Inc. › Liquidity and Capital Resources"), so every chunk is found by whose document it is. A heading
closes the headings of its style's level and deeper; a filing's structural heading (a part, an item or exhibit, the
notes' title, a note: ``structure_rank``) also closes every other heading above it whatever its style, so a one-off
title set larger than the notes (the auditor's report's) heads none of them.

Tables (a segment's ``table_grids``, see :mod:`ingest.steps.table_chunks`) are not flat text: each
becomes chunks of caption + Markdown header + a run of whole rows (``| label | v1 | … |``), every chunk
repeating the caption and header, so one row is found and quoted with its column names; the chunk's
boxes are exactly its rows'. The table's lines are left out of the text chunks; a table continued over a
page break is one table (its chunks span both pages). Text chunks do not overlap across a table.

``count_tokens`` approximates a multilingual subword tokenizer without loading one: every CJK character
(Hangul, Han, kana) is a token, every punctuation mark is a token, and a word is one token per started 8
characters. It errs high, which keeps chunks within an embedder's input limit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ingest.steps.table_chunks import (
    PATH_SEP,
    TableBlock,
    TableRow,
    _bbox,
    fit_head,
    merge_continued,
    open_section,
    segment_items,
    shed_caption,
)
from retrieval.types import BBox, Chunk

_CJK = (
    "\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3"  # Hangul jamo, compatibility jamo, syllables
    "\u3040-\u30ff\u31f0-\u31ff"  # Hiragana, Katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Han
)
_TOKEN_RE = re.compile(rf"[{_CJK}]|[^\s{_CJK}\W_]+|[^\s]")
_PIECE_RE = re.compile(rf"[{_CJK}]|[^\s{_CJK}]+")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？]")
#: where a sentence starts inside a line: after a sentence's closing punctuation and a space
_SENTENCE_START = re.compile(r"(?<=[.!?。！？])[\"'”’)\]」』]*\s+(?=\S)|(?<=[。！？])(?=\S)")
#: a heading's text in a chunk's heading path is cut to this many characters
HEADING_PATH_CHARS = 100


def count_tokens(text: str) -> int:
    """Approximate subword tokens in ``text`` (CJK-aware; see the module docstring)."""
    total = 0
    for match in _TOKEN_RE.finditer(text):
        piece = match.group()
        total += 1 + (len(piece) - 1) // 8 if len(piece) > 1 else 1
    return total


@dataclass(frozen=True, slots=True)
class _Unit:
    text: str
    page: int
    bbox: tuple[float, float, float, float] | None
    tokens: int
    section: tuple[str, ...] = ()  # the heading path this line is under (its own heading last, if one)
    heading: bool = False  # the line is (the first line of) a heading


def chunk_segments(
    segments: Sequence[Mapping[str, Any]],
    *,
    project_id: str,
    document_id: str,
    file_name: str,
    workflow_id: str | None,
    max_tokens: int,
    overlap_tokens: int,
    language: str,
    root: str = "",
) -> list[Chunk]:
    """Chunks of the segments' text and tables (see the module docstring); ``root``: the company a filing's
    cover names (``""``: none — the headings alone make the path)."""
    if max_tokens < 8:
        raise ValueError("max_tokens must be at least 8")
    overlap_tokens = max(0, min(overlap_tokens, max_tokens // 2))
    # Over-long lines are cut to leave room for the overlap, so consecutive pieces still share words.
    items = merge_continued(_units(segments, max_tokens - overlap_tokens, root),
                            lambda x: isinstance(x, TableBlock))
    meta = _Meta(project_id, document_id, file_name, workflow_id, language)
    chunks: list[Chunk] = []
    run: list[_Unit] = []
    for item in [*items, None]:
        if isinstance(item, _Unit):
            run.append(item)
            continue
        if item is not None:  # a caption too long to repeat with every run of rows is text before the table
            item, spilled = shed_caption(item, max_tokens, count_tokens)
            if spilled:
                run.extend(_Unit(piece, item.page, item.table.caption_bbox, count_tokens(piece), item.path)
                           for piece in _split(spilled, max_tokens - overlap_tokens))
        chunks.extend(_text_chunks(run, len(chunks), meta, max_tokens, overlap_tokens))
        run = []
        if item is not None:
            chunks.extend(_table_chunks(item, len(chunks), meta, max_tokens))
    return chunks


@dataclass(frozen=True, slots=True)
class _Meta:
    project_id: str
    document_id: str
    file_name: str
    workflow_id: str | None
    language: str


def _text_chunks(units: list[_Unit], first: int, meta: _Meta, max_tokens: int, overlap_tokens: int) -> list[Chunk]:
    """Greedy runs of whole lines up to ``max_tokens``, each next one starting with the overlap."""
    chunks: list[Chunk] = []
    start = 0
    while start < len(units):
        end, used = start, 0
        while end < len(units) and (end == start or used + units[end].tokens <= max_tokens):
            if end > start and units[end].heading and used >= max_tokens // 2:
                break  # a section starts: a new chunk, when this one is half full
            used += units[end].tokens
            end += 1
        chunks.append(_chunk(units[start:end], first + len(chunks), meta))
        if end >= len(units):
            break
        if units[end].heading:  # no overlap into a new section
            start = end
            continue
        # The overlap plus the next line must still fit in one chunk, or the chunk would be all overlap.
        budget = min(overlap_tokens, max_tokens - units[end].tokens)
        start, tail = _overlap_start(units, start, end, budget)
        if tail is not None:  # the overlap is the end of one long line: re-enter it as a shorter unit
            units = _splice_tail(units, end, tail)
            start = end
    return chunks


def _table_chunks(block: TableBlock, first: int, meta: _Meta, max_tokens: int) -> list[Chunk]:
    """Caption + Markdown header + a run of rows per chunk (every chunk repeats caption and header); the
    chunk's boxes and line boxes are its rows'. A row longer than a chunk is a chunk of its own."""
    head = fit_head(block, max_tokens, count_tokens)
    head_tokens = count_tokens("\n".join(head))
    chunks: list[Chunk] = []
    rows = block.rows
    start = 0
    while start < len(rows):
        section = open_section(rows, start)  # room for it is kept before the rows are counted in
        section_tokens = count_tokens(section) if section else 0
        if section and head_tokens + section_tokens + count_tokens(rows[start].text) > max_tokens:
            section, section_tokens = "", 0
        chunk_head = [*head, section] if section else head
        end, used = start, head_tokens + section_tokens
        while end < len(rows) and (end == start or used + count_tokens(rows[end].text) <= max_tokens):
            used += count_tokens(rows[end].text)
            end += 1
        chunks.append(_table_chunk(chunk_head, rows[start:end], first + len(chunks), meta))
        start = end
    return chunks


def _table_chunk(head: list[str], rows: Sequence[TableRow], index: int, meta: _Meta) -> Chunk:
    text = "\n".join(head)
    page_offsets: list[tuple[int, int]] = []
    line_boxes: list[tuple[int, BBox]] = []
    units: list[_Unit] = []
    for row in rows:
        text += "\n"
        if not page_offsets or page_offsets[-1][0] != row.page:
            page_offsets.append((row.page, 0 if not page_offsets else len(text)))
        if row.bbox is not None:
            line_boxes.append((len(text), BBox(row.page, *row.bbox)))
        units.append(_Unit(row.text, row.page, row.bbox, 0))
        text += row.text
    return Chunk(
        chunk_id=f"{meta.document_id}:{index:05d}", project_id=meta.project_id, document_id=meta.document_id,
        file_name=meta.file_name, text=text, page_start=min(r.page for r in rows),
        page_end=max(r.page for r in rows), chunk_index=index, language=meta.language,
        bboxes=tuple(merge_boxes(units)), workflow_id=meta.workflow_id, page_offsets=tuple(page_offsets),
        line_boxes=tuple(line_boxes),
    )


def _splice_tail(units: list[_Unit], end: int, tail: _Unit) -> list[_Unit]:
    """Insert ``tail`` (a copy of the end of ``units[end-1]``) before ``units[end]``."""
    return [*units[:end], tail, *units[end:]]


def _overlap_start(units: list[_Unit], start: int, end: int, overlap: int) -> tuple[int, _Unit | None]:
    """Where the next chunk starts: whole trailing lines worth ≤ ``overlap`` tokens, else the last line's last
    whole sentences, else (a line with no sentence's end) its last words."""
    if overlap <= 0:
        return end, None
    back, used = end, 0
    while back - 1 > start and used + units[back - 1].tokens <= overlap:
        back -= 1
        used += units[back].tokens
    if back < end:
        return back, None
    last = units[end - 1]
    # the line's last sentences that fit: a chunk opens on a sentence, never on its second half ("10월 26일
    # 서울중앙지검은 …" cut from "고소 1년후인 2009년 10월 26일 …", which a reader would quote as if whole); none fits,
    # no overlap
    starts = [m.end() for m in _SENTENCE_START.finditer(last.text)]
    fits = [at for at in starts if count_tokens(last.text[at:]) <= overlap and last.text[at:].strip()]
    if fits:
        return end, _tail_unit(last, last.text[fits[0]:].strip())
    if _SENTENCE_END.search(last.text):
        return end, None
    # a line without a sentence's end (a long line's piece, a list): its last words
    words = list(_PIECE_RE.finditer(last.text))
    picked, used = 0, 0
    for word in reversed(words):
        cost = count_tokens(word.group())
        if used + cost > overlap:
            break
        picked += 1
        used += cost
    if not picked or picked == len(words):
        return end, None
    # the line's own text from the first word carried over, its spaces kept ("살아 남았다고", not "살아남았다고")
    return end, _tail_unit(last, last.text[words[-picked].start():].strip())


def _tail_unit(last: _Unit, text: str) -> _Unit:
    return _Unit(text=text, page=last.page, bbox=last.bbox, tokens=count_tokens(text))


#: the level of a filing's company name at the root of the path: below every heading's, so none closes it
ROOT_LEVEL = -1
#: the level of a document's title (segment_analyzer's ``title`` blocks)
TITLE_LEVEL = 0

#: a filing's structural headings, by rank: a part, an item (article, chapter, exhibit), the notes' title, a note
#: (section). Their styles need not say their rank: a one-off title set larger than the notes
#: ("Report of Independent Registered Public Accounting Firm") would otherwise stay the parent of every note
#: after it
_STRUCTURE = (
    re.compile(r"(?i)^part\s+(?:[ivx]+|\d+)\b"),
    re.compile(r"(?i)^(?:item|article|chapter|exhibit)\s+\d+[a-z]?\b"),
    re.compile(r"(?i)^notes?\s+to\s+(?:the\s+)?(?:(?:consolidated|condensed|combined|interim|unaudited)\s+)*"
               r"financial\s+statements\b"),
    re.compile(r"(?i)^(?:note|section)\s+\d+[a-z]?\b"),
)


def structure_rank(heading: str) -> int | None:
    """The rank of a filing's structural heading (0: a part … 3: a note), or None for any other heading."""
    return next((rank for rank, pattern in enumerate(_STRUCTURE) if pattern.match(heading.strip())), None)


def open_heading(stack: list[tuple[int, str]], level: int, heading: str) -> list[tuple[int, str]]:
    """The heading path once ``heading`` (of style ``level``) opens, itself last: it closes the headings of its
    level and deeper. A filing's structural heading (``structure_rank``) also closes every other heading above it
    but the root, the document's title and the structural ones of a higher rank, whatever their style: a note is
    never under the auditor's report set larger before the notes, though still under "Item 8" or the notes' title
    where their style puts them above it."""
    rank = structure_rank(heading)
    if rank is not None:
        stack = [(lv, text) for lv, text in stack
                 if lv <= TITLE_LEVEL or ((r := structure_rank(text)) is not None and r < rank)]
    while stack and stack[-1][0] >= level:
        stack.pop()
    return [*stack, (level, heading)]


def _units(segments: Sequence[Mapping[str, Any]], piece_tokens: int, root: str = "") -> list[_Unit | TableBlock]:
    units: list[_Unit | TableBlock] = []
    stack: list[tuple[int, str]] = []  # (level, heading text): the current heading path
    root = " ".join(root.split())[:HEADING_PATH_CHARS]
    for seg in sorted(segments, key=lambda s: int(s.get("page", 0))):
        page = int(seg.get("page", 0))
        if root and page > 1 and (not stack or stack[0] != (ROOT_LEVEL, root)):
            stack = [(ROOT_LEVEL, root)]  # the cover's headings close with it; the company heads the path
        seg, roles, figures = _apply_layout(seg)
        seen_blocks: set[str] = set()
        for item in segment_items(seg):
            if isinstance(item, TableBlock):
                if item.rows:
                    item.path = tuple(t for _, t in stack)
                    units.append(item)
                continue
            text, bbox = item
            text = " ".join(text.split())
            if not text:
                continue
            role = roles.get((item[0], bbox))
            heading = False
            if role is not None and root and stack and stack[0][0] == ROOT_LEVEL \
                    and role[2].casefold() == root.casefold():
                del stack[1:]  # the company's name as a heading again (a page's title): the path's root says it
                continue
            if role is not None and role[0] not in seen_blocks:
                seen_blocks.add(role[0])
                stack = open_heading(stack, role[1], role[2])
                heading = True
            section = tuple(t for _, t in stack)
            tokens = count_tokens(text)
            if tokens <= piece_tokens:
                units.append(_Unit(text, page, bbox, tokens, section, heading))
            else:
                units.extend(_Unit(piece, page, bbox, count_tokens(piece), section)
                             for piece in _split(text, piece_tokens))
        for text, bbox in figures:  # figure descriptions (Bedrock analysis) are searchable text
            units.append(_Unit(text, page, bbox, count_tokens(text), tuple(t for _, t in stack)))
    return units


def _apply_layout(seg: Mapping[str, Any]) -> tuple[Mapping[str, Any], dict[Any, tuple[str, int, str]], list[Any]]:
    """The segment without its running headers/footers, its heading lines ((text, box) → (block id, level,
    heading text)) and its figure descriptions, from segment_analyzer's layout (``seg["layout"]``)."""
    layout = seg.get("layout")
    if not isinstance(layout, Mapping):
        return seg, {}, []
    lines = list(seg.get("lines") or ())
    drop: set[int] = set()
    roles: dict[Any, tuple[str, int, str]] = {}
    figures: list[Any] = []
    for block in layout.get("blocks") or ():
        kind = block.get("type")
        idx = [int(i) for i in block.get("lines") or () if isinstance(i, int) and 0 <= i < len(lines)]
        if kind in ("header", "footer"):
            drop.update(idx)
        elif kind in ("heading", "title") and idx:
            text = " ".join(str(block.get("text") or "").split())[:HEADING_PATH_CHARS]
            level = int(block.get("level") or (0 if kind == "title" else 1))
            for i in idx:
                roles[(str(lines[i].get("text", "")), _bbox(lines[i].get("bbox")))] = (str(block.get("id")), level,
                                                                                       text)
        elif kind == "figure" and block.get("description"):
            desc = " ".join(str(block["description"]).split())
            figures.append((f"Figure: {desc}", _bbox(block.get("bbox"))))
    if drop:
        seg = {**seg, "lines": [ln for i, ln in enumerate(lines) if i not in drop]}
    return seg, roles, figures


def _split(text: str, max_tokens: int) -> list[str]:
    """Pieces of an over-long line, each within ``max_tokens``, cut at a space where the piece has one (Korean
    counts a token per syllable: "… 배에서 살아 …" is cut before "배에서", not inside it), else at a word / CJK
    character boundary — each a stretch of the line's own text, its spaces kept."""
    pieces: list[str] = []
    current: list[tuple[int, int, int]] = []  # (start, end, tokens) of the current piece's words / characters
    used = 0  # the current piece's tokens

    def emit(upto: int) -> None:
        nonlocal used
        pieces.append(text[current[0][0]:current[upto - 1][1]].strip())
        del current[:upto]
        used = sum(c for _, _, c in current)

    for m in _PIECE_RE.finditer(text):
        word, at = m.group(), m.start()
        cost = count_tokens(word)
        while cost > max_tokens:  # one giant "word" (a URL, base64): cut it by characters
            cut = max_tokens * 8 // 2
            if current:
                emit(len(current))
            pieces.append(word[:cut])
            word, at = word[cut:], at + cut
            cost = count_tokens(word)
        if current and used + cost > max_tokens:
            # the last space inside the piece: the words after it go on to the next one
            # (only when the next one is glued to the piece's last: a word is being cut)
            spaced = [k + 1 for k in range(len(current) - 1) if text[current[k][1]:current[k + 1][0]].isspace()]
            emit(spaced[-1] if spaced and at == current[-1][1] else len(current))
        current.append((at, at + len(word), cost))
        used += cost
    if current:
        emit(len(current))
    return [p for p in pieces if p]


def _chunk(units: Sequence[_Unit], index: int, meta: _Meta) -> Chunk:
    parts: list[str] = []
    previous: int | None = None
    size = 0
    page_offsets: list[tuple[int, int]] = []
    line_boxes: list[tuple[int, BBox]] = []
    first = units[0]
    path = first.section[:-1] if first.heading else first.section
    if path:  # the section the chunk is in, searched with it ("Liquidity and Capital Resources › Cash flows")
        parts.append(PATH_SEP.join(path))  # the first line's "\n" separator follows (same page)
        size = len(parts[0])
        page_offsets.append((first.page, 0))
        previous = first.page
    for unit in units:
        if previous is not None:
            sep = "\n\n" if unit.page != previous else "\n"
            parts.append(sep)
            size += len(sep)
        if unit.page != previous:
            page_offsets.append((unit.page, size))
        if unit.bbox is not None:
            line_boxes.append((size, BBox(unit.page, *unit.bbox)))
        parts.append(unit.text)
        size += len(unit.text)
        previous = unit.page
    return Chunk(
        chunk_id=f"{meta.document_id}:{index:05d}",
        project_id=meta.project_id,
        document_id=meta.document_id,
        file_name=meta.file_name,
        text="".join(parts),
        page_start=min(u.page for u in units),
        page_end=max(u.page for u in units),
        chunk_index=index,
        language=meta.language,
        bboxes=tuple(merge_boxes(units)),
        workflow_id=meta.workflow_id,
        page_offsets=tuple(page_offsets),
        line_boxes=tuple(line_boxes),
    )


def merge_boxes(units: Sequence[_Unit]) -> list[BBox]:
    """One box per run of vertically adjacent, horizontally overlapping lines on the same page."""
    boxes: list[BBox] = []
    for unit in units:
        if unit.bbox is None:
            continue
        x0, y0, x1, y1 = unit.bbox
        if boxes:
            last = boxes[-1]
            height = max(y1 - y0, last.y1 - last.y0)
            overlaps = x0 <= last.x1 and x1 >= last.x0
            near = y0 - last.y1 <= 1.5 * height and last.y0 - y1 <= 1.5 * height
            if last.page == unit.page and overlaps and near:
                boxes[-1] = BBox(page=unit.page, x0=min(last.x0, x0), y0=min(last.y0, y0), x1=max(last.x1, x1),
                                 y1=max(last.y1, y1))
                continue
        boxes.append(BBox(page=unit.page, x0=x0, y0=y0, x1=x1, y1=y1))
    return boxes
