"""Seed-000 step vocabulary and the public workflow status view (pure: no I/O)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

Item = dict[str, Any]

Status = Literal["pending", "in_progress", "completed", "failed"]
StepStatus = Literal["pending", "in_progress", "completed", "failed", "skipped"]
STATUSES: Final[tuple[Status, ...]] = ("pending", "in_progress", "completed", "failed")
TERMINAL: Final[frozenset[str]] = frozenset({"completed", "failed"})

#: Seed 000's steps (plus chunking and indexing, which feed retrieval/), in pipeline order, with labels.
STEPS: Final[tuple[tuple[str, str], ...]] = (
    ("segment_prep", "Render pages"),
    ("format_parser", "Read the text layer"),
    ("paddleocr_processor", "OCR scanned pages"),
    ("bda_processor", "Bedrock Data Automation"),
    ("transcribe", "Transcribe audio"),
    ("webcrawler", "Crawl web pages"),
    ("segment_builder", "Build segments"),
    ("pii", "Find personal data"),
    ("segment_analyzer", "Analyze page layout"),
    ("field_extractor", "Extract key fields"),
    ("graph_builder", "Build the entity graph"),
    ("chunking", "Chunk text"),
    ("keyword_indexing", "Make keyword-searchable"),  # issue 18: BM25 finds the chunks before their vectors exist
    ("indexing", "Index chunks"),
    ("document_summarizer", "Summarize the document"),
)
STEP_NAMES: Final[tuple[str, ...]] = tuple(name for name, _ in STEPS)
#: How much of the whole each step's work is worth in ``progress`` (steps that are skipped count as done).
STEP_WEIGHTS: Final[Mapping[str, float]] = {
    "segment_prep": 0.25,
    "format_parser": 0.10,
    "paddleocr_processor": 0.30,
    "segment_builder": 0.10,
    "pii": 0.02,
    "chunking": 0.05,
    "keyword_indexing": 0.03,
    "indexing": 0.20,
}
ANALYSIS_STATUS_PK: Final = "STEP#ANALYSIS_STATUS"


def compute_progress(status: str, steps: Mapping[str, Mapping[str, Any]]) -> float:
    """0..1 from the steps' ``done``/``total`` counters, weighted by ``STEP_WEIGHTS`` (pure)."""
    if status == "completed":
        return 1.0
    total_w = 0.0
    got = 0.0
    for name, weight in STEP_WEIGHTS.items():
        step = steps.get(name) or {}
        st = step.get("status", "pending")
        total_w += weight
        if st in ("completed", "skipped"):
            got += weight
        elif st == "in_progress":
            total = step.get("total") or 0
            done = step.get("done") or 0
            if total > 0:
                got += weight * min(1.0, max(0.0, done / total))
    return round(min(0.999, got / total_w), 4) if total_w else 0.0


def new_step(label: str) -> dict[str, Any]:
    return {"status": "pending", "label": label, "started_at": None, "ended_at": None, "error": None}



def workflow_view(step: Item, wf: Item) -> Item:
    """The public status object built from the two items."""
    data = wf.get("data") or {}
    status = str(step.get("status", "pending"))
    steps = {name: _public_step(step.get(name) or new_step(label)) for name, label in STEPS}
    out: Item = {
        "workflow_id": str(step["PK"]).removeprefix("WF#"),
        "document_id": step.get("document_id"),
        "project_id": step.get("project_id"),
        "file_name": data.get("file_name"),
        "file_type": data.get("file_type"),
        "page_count": data.get("page_count"),
        "status": status,
        "steps": steps,
        "total_segments": int(data.get("total_segments") or 0),
        "progress": compute_progress(status, steps),
        # the two moments of issue 18: keyword search finds the document / every vector is written
        "searchable": status == "completed" or steps["keyword_indexing"]["status"] == "completed",
        "ready": status == "completed",
        "attempts": int(wf.get("attempts") or 0),
        "updated_at": step.get("updated_at"),
    }
    if data.get("error"):
        out["error"] = data["error"]
    return out


def _public_step(step: Mapping[str, Any]) -> dict[str, Any]:
    keys: Sequence[str] = ("status", "label", "started_at", "ended_at", "error", "reason", "done", "total", "usage")
    return {k: step.get(k) for k in keys if k in step or k in ("status", "label", "started_at", "ended_at", "error")}
