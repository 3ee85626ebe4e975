"""The ``pii`` step (right after ``segment_builder``): personal data found per segment, and the document's
placeholder numbering.

For every page: ``detect`` over the segment's text; each finding becomes ``{type, page, bbox, start, end}``
(``bbox`` in PDF points from the top-left, narrowed to the value's share of its line — approximate; None
when the text has no line boxes) on the page's ``SEG#`` item. The numbering of the whole document
(``Placeholders``) is written next to its other results (``workflows/{wid}/pii.json``), which is what chat
masks with. Logs, items and step counters carry types and counts only — never a value.

With ``pii_mode=off`` (the deployment's ``DOCCHAT_PII_MODE`` or the project's own) the step is skipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ingest.pii.detectors import Finding, detect
from ingest.pii.masking import Placeholders
from ingest.results import pii_key, segment_key
from store.blobs import BlobStore
from store.logging import get_logger
from store.workflows import Claim, WorkflowStore

log = get_logger(__name__)

Progress = Callable[[int, int], None]


def effective_mode(default: str, override: str | None) -> str:
    """The project's ``pii_mode`` when it has one, else the deployment's."""
    return override if override in ("mask", "off") else default


def segment_findings(seg: Mapping[str, Any], placeholders: Placeholders | None = None) -> list[dict[str, Any]]:
    """The findings of one segment (pure); ``placeholders`` (if given) learns every value found."""
    text = str(seg.get("text") or "")
    page = int(seg.get("page") or 0)
    lines = list(seg.get("lines") or ())
    starts = _line_starts(lines, text)
    out: list[dict[str, Any]] = []
    for f in detect(text):
        if placeholders is not None:
            placeholders.placeholder(f.type, text[f.start:f.end])
        out.append({"type": f.type, "page": page, "bbox": _bbox(f, lines, starts), "start": f.start, "end": f.end})
    return out


def _line_starts(lines: Sequence[Mapping[str, Any]], text: str) -> list[int] | None:
    """Where each line starts in ``text`` (segments join their lines with newlines), or None if they don't."""
    starts: list[int] = []
    pos = 0
    for ln in lines:
        starts.append(pos)
        pos += len(str(ln.get("text") or "")) + 1
    return starts if lines and pos - 1 == len(text) else None


def _bbox(f: Finding, lines: Sequence[Mapping[str, Any]], starts: list[int] | None) -> list[float] | None:
    if starts is None:
        return None
    boxes: list[list[float]] = []
    for ln, s in zip(lines, starts, strict=True):
        ln_text = str(ln.get("text") or "")
        e = s + len(ln_text)
        box = ln.get("bbox")
        if f.end <= s or f.start >= e or not box or len(box) != 4 or not ln_text:
            continue
        x0, y0, x1, y1 = (float(v) for v in box)
        a, b = max(f.start, s) - s, min(f.end, e) - s
        w = (x1 - x0) / len(ln_text)
        boxes.append([x0 + a * w, y0, x0 + b * w, y1])
    if not boxes:
        return None
    return [round(min(b[0] for b in boxes), 2), round(min(b[1] for b in boxes), 2),
            round(max(b[2] for b in boxes), 2), round(max(b[3] for b in boxes), 2)]


def run_pii_step(store: WorkflowStore, blobs: BlobStore, claim: Claim, page_count: int, *, mode: str,
                 progress: Progress) -> dict[str, int]:
    """Find personal data on every page, store the findings per ``SEG#`` and the document's numbering;
    returns the distinct values per type (also recorded on the step — counts only)."""
    if mode == "off":
        store.record_step(claim, "pii", "skipped", reason="personal-data masking is off for this project")
        return {}
    placeholders = Placeholders()
    per_type: dict[str, int] = {}
    for page in range(1, page_count + 1):
        seg = json.loads(blobs.get(segment_key(claim.workflow_id, page)))
        findings = segment_findings(seg, placeholders)
        for f in findings:
            per_type[f["type"]] = per_type.get(f["type"], 0) + 1
        if findings:  # most pages have none: no extra write (the segments API reads a missing list as [])
            store.set_segment_pii(claim.workflow_id, page, findings)
        progress(page, page_count)
    blobs.put(pii_key(claim.workflow_id), json.dumps(placeholders.to_json(), ensure_ascii=False).encode(),
              "application/json")
    log.info("pii_found", workflow_id=claim.workflow_id, findings=sum(per_type.values()), **per_type)
    store.record_step(claim, "pii", "completed", done=page_count, total=page_count,
                      reason=_summary(per_type) if per_type else "no personal data found")
    return placeholders.counts()


def load_placeholders(blobs: BlobStore, workflow_id: str) -> Placeholders:
    """The document's numbering as this step stored it (empty when it has none: processed with ``off``, or
    before the step existed) — what a later step masks with before it calls a remote model, e.g.
    ``mask(page_text, load_placeholders(blobs, wid))`` for segment analysis and summaries."""
    from store.errors import NotFound

    try:
        return Placeholders.from_json(json.loads(blobs.get(pii_key(workflow_id))))
    except NotFound:
        return Placeholders()


def _summary(per_type: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {t}" for t, n in sorted(per_type.items()))
