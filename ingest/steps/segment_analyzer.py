"""segment_analyzer: every page's layout JSON under ``workflows/{wid}/analysis/{page:04d}.json``, pointed to
from its ``SEG#`` item.

Two passes over the segments, one page in memory at a time: the document's styles (body text, heading
levels, running headers/footers — :mod:`ingest.analysis.styles`, saved at ``analysis/styles.json``), then
each page's layout. ``DOCCHAT_ANALYSIS_MODEL=local`` (the default) is :func:`ingest.analysis.layout.page_layout`;
``bedrock`` asks Claude per page (:mod:`ingest.analysis.bedrock`) and keeps the local layout for a page the
token budget no longer covers. Pages whose analysis exists are not redone (a redelivery resumes).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ingest.analysis.layout import page_layout
from ingest.analysis.styles import DocStyles, StyleCounter
from ingest.results import analysis_key, analysis_styles_key, page_png_key, segment_key
from store.blobs import BlobStore
from store.config import Settings
from store.errors import NotFound
from store.logging import get_logger
from store.workflows import Claim, WorkflowStore

log = get_logger(__name__)


class PageModel(Protocol):
    """What the Bedrock analyzer offers the step (``ingest.analysis.bedrock.BedrockPageAnalyzer``)."""

    async def analyze_pages(self, pages: list[int], load: Callable[[int], dict[str, Any]],
                            on_page: Callable[[int, dict[str, Any]], None]) -> dict[str, Any]: ...


#: the text lines of a segment as they may leave for a remote model
ModelText = Callable[[Mapping[str, Any]], list[str]]


def plain_lines(seg: Mapping[str, Any]) -> list[str]:
    return [str(ln.get("text") or "") for ln in seg.get("lines") or ()]


def masked_lines(placeholders: Any) -> ModelText:
    """Lines with personal data replaced by the document's placeholders (``[PHONE_1]``, the ``pii`` step's
    numbering): the page is masked whole (a value may run over a line break), line by line when that
    would merge lines."""
    from ingest.pii.masking import mask

    def lines(seg: Mapping[str, Any]) -> list[str]:
        texts = plain_lines(seg)
        whole = mask("\n".join(texts), placeholders).split("\n")
        return whole if len(whole) == len(texts) else [mask(t, placeholders) for t in texts]

    return lines


def figure_analyses(layout: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ``image_analysis`` array of a ``SEG#`` item: the page's figures with caption and description."""
    blocks = list(layout.get("blocks") or ())
    out: list[dict[str, Any]] = []
    for k, b in enumerate(blocks):
        if b.get("type") != "figure":
            continue
        nxt = blocks[k + 1] if k + 1 < len(blocks) else {}
        caption = nxt.get("text") if nxt.get("type") == "caption" else None
        out.append({"block_id": b.get("id"), "bbox": b.get("bbox"), "caption": caption,
                    "description": b.get("description"), "text": b.get("text") or ""})
    return out


def layout_counts(layout: Mapping[str, Any]) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for b in layout.get("blocks") or ():
        counts[str(b.get("type"))] = counts.get(str(b.get("type")), 0) + 1
    return {"source": layout.get("source"), "blocks": counts, "key_values": len(layout.get("key_values") or ())}


def segment_with_layout(blobs: BlobStore, wid: str, page: int) -> dict[str, Any]:
    """A segment with its layout (``layout``: None before analysis) — what chunking reads: heading paths,
    running headers/footers, figure descriptions."""
    seg: dict[str, Any] = json.loads(blobs.get(segment_key(wid, page)))
    try:
        seg["layout"] = json.loads(blobs.get(analysis_key(wid, page)))
    except NotFound:
        seg["layout"] = None
    return seg


class SegmentAnalyzerStep:
    def __init__(self, settings: Settings, store: WorkflowStore, blobs: BlobStore, *,
                 uri_for: Callable[[str], str], model: Callable[[], PageModel] | None = None,
                 model_text: ModelText | None = None) -> None:
        self.settings = settings
        self.store = store
        self.blobs = blobs
        self.uri_for = uri_for
        self.model = model
        self.model_text = model_text  # None: masked with the pii step's numbering unless masking is off

    def run(self, claim: Claim, page_count: int, progress: Callable[[int, int], None]) -> None:
        wid = claim.workflow_id
        styles = self._styles(wid, page_count)
        todo = [p for p in range(1, page_count + 1) if not self.blobs.exists(analysis_key(wid, p))]
        done = [page_count - len(todo)]
        usage: dict[str, Any] | None = None

        def write(page: int, layout: dict[str, Any]) -> None:
            key = analysis_key(wid, page)
            self._put_json(key, layout)
            self.store.set_segment_analysis(claim, page, analysis_key=self.uri_for(key),
                                            image_analysis=figure_analyses(layout), meta=layout_counts(layout))
            done[0] += 1
            progress(done[0], page_count)

        if self.settings.ingest.analysis_model == "bedrock" and self.model is not None and todo:
            usage = self._bedrock(claim, todo, styles, write)
        else:
            for page in todo:
                write(page, page_layout(self._segment(wid, page), styles))
        self.store.record_step(claim, "segment_analyzer", "completed", done=page_count, total=page_count,
                               usage=usage)

    def _bedrock(self, claim: Claim, todo: list[int], styles: DocStyles,
                 write: Callable[[int, dict[str, Any]], None]) -> dict[str, Any]:
        assert self.model is not None
        wid = claim.workflow_id
        written: set[int] = set()
        model_text = self.model_text or self._masker(claim)

        def load(page: int) -> dict[str, Any]:
            """One page's request input (loaded when its turn comes: pages are never all in memory)."""
            seg = self._segment(wid, page)
            lines = seg.get("lines") or ()
            texts = model_text(seg)
            return {"page": page, "width": seg.get("width"), "height": seg.get("height"),
                    "lines": [{"text": t, "bbox": ln.get("bbox")} for t, ln in zip(texts, lines, strict=False)],
                    "png": self._png(wid, page), "local": page_layout(seg, styles)}

        def on_page(page: int, layout: dict[str, Any]) -> None:
            written.add(page)
            write(page, layout)

        usage = asyncio.run(self.model().analyze_pages(todo, load, on_page))
        for page in todo:  # past the token budget: the embedded layout, marked as such
            if page not in written:
                write(page, {**page_layout(self._segment(wid, page), styles), "budget_exhausted": True})
        return usage

    def _masker(self, claim: Claim) -> ModelText:
        """Masked lines, unless personal-data masking is off (the deployment's or the project's own mode)."""
        from ingest.pii.step import effective_mode, load_placeholders

        if effective_mode(self.settings.ingest.pii_mode, self.store.project_pii_mode(claim.project_id)) == "off":
            return plain_lines
        return masked_lines(load_placeholders(self.blobs, claim.workflow_id))

    def _styles(self, wid: str, page_count: int) -> DocStyles:
        key = analysis_styles_key(wid)
        try:
            return DocStyles.from_json(json.loads(self.blobs.get(key)))
        except NotFound:
            pass
        counter = StyleCounter()
        for page in range(1, page_count + 1):
            counter.add(self._segment(wid, page))
        styles = counter.result()
        self._put_json(key, styles.to_json())
        return styles

    def _segment(self, wid: str, page: int) -> dict[str, Any]:
        try:
            return dict(json.loads(self.blobs.get(segment_key(wid, page))))
        except NotFound:
            return {"page": page, "lines": [], "source": "empty"}

    def _png(self, wid: str, page: int) -> bytes | None:
        try:
            return self.blobs.get(page_png_key(wid, page))
        except NotFound:
            return None

    def _put_json(self, key: str, value: Any) -> None:
        self.blobs.put(key, json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(),
                       "application/json")
