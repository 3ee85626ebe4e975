"""field_extractor (issue 15): the document's key fields with confidence, checked by the project's rules.

Pure: segments in (a lazy sequence: pages are read one at a time), the fields and the review flags out;
``ingest/pipeline.py`` stores them (``workflows/{wid}/fields.json``), opens review items and audits the analysis.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from ingest.fields.extract import Field, document_fields
from ingest.fields.model import merge
from ingest.fields.rules import FieldRules, Flag, check
from store.config import Settings


def rules_for(settings: Settings, project_rules: Mapping[str, Any] | None) -> FieldRules:
    ing = settings.ingest
    base = FieldRules(amount_min_confidence=ing.field_amount_min_confidence, min_confidence=ing.field_min_confidence,
                      required=tuple(n.strip() for n in ing.field_required.split(",") if n.strip()))
    return FieldRules.from_json(project_rules, base=base)


def extract(segments: Iterable[Mapping[str, Any]], rules: FieldRules, *, today: date,
            language: str = "en", model: Iterable[Field] | None = None) -> tuple[list[Field], list[Flag]]:
    """``model``: Claude's fields (``ingest.fields.model``; Bedrock analysis on) — a second source."""
    found = document_fields(segments, day_first=language not in ("en-us", "us"))
    if model is not None:
        found = merge(found, model)
    return found, check(found, rules, today=today)


def fields_document(found: Sequence[Field], flags: Sequence[Flag]) -> dict[str, Any]:
    """What ``fields.json`` holds: every field (with its review reasons) and the document's verdict."""
    reasons: dict[str, list[str]] = {}
    for fl in flags:
        reasons.setdefault(fl.field or "_document", []).append(f"{fl.reason}: {fl.detail}")
    out = []
    for f in found:
        item = f.to_json()
        item["review"] = reasons.get(f.name, []) if f.name != "item" else []
        out.append(item)
    return {"fields": out, "needs_review": bool(flags), "document_reasons": reasons.get("_document", []),
            "missing": [fl.detail for fl in flags if fl.reason == "missing"]}


def review_requests(doc: Mapping[str, Any], flags: Sequence[Flag]) -> list[dict[str, Any]]:
    """One review request per flagged field (a missing field is a request without a value)."""
    by_name = {f["name"]: f for f in doc["fields"] if f["name"] != "item"}
    grouped: dict[str, list[str]] = {}
    for fl in flags:
        grouped.setdefault(fl.field or "_document", []).append(f"{fl.reason}: {fl.detail}")
    out = []
    for name, reasons in grouped.items():
        f = by_name.get(name) or {}
        out.append({"field": name, "value": f.get("value"), "normalized": f.get("normalized"),
                    "confidence": f.get("confidence"), "page": f.get("page"), "bbox": f.get("bbox"),
                    "source": f.get("source"), "currency": f.get("currency"), "reasons": reasons})
    return out
