"""The pipeline side of field_extractor: read the segments lazily, store ``fields.json``, open review items for
what the rules flag and append an ``analysis`` event to the audit log (who: ``system``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from ingest.fields.extract import Field
from ingest.fields.model import model_field
from ingest.results import SegmentSequence, analysis_key, fields_key, segment_key
from ingest.steps.fields import extract, fields_document, review_requests, rules_for
from store.audit import AuditLog, content_hash
from store.review import ReviewStore


def run_field_extractor(pipeline: Any, job: Any) -> dict[str, Any]:
    claim = job.claim
    meta = pipeline.store.items.get(f"PROJ#{claim.project_id}", "META") or {}
    rules = rules_for(pipeline.settings, (meta.get("data") or {}).get("field_rules"))
    segments = SegmentSequence(lambda page: pipeline._get_json(segment_key(job.wid, page)), job.page_count)
    model = _model_fields(pipeline, job, segments) if pipeline.settings.ingest.analysis_model == "bedrock" else None
    found, flags = extract(segments, rules, today=datetime.fromtimestamp(pipeline.store.clock(), UTC).date(),
                           language=job.language, model=model)
    doc = fields_document(found, flags)
    body = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    pipeline.blobs.put(fields_key(job.wid), body.encode(), "application/json")
    opened = ReviewStore(pipeline.store.items, clock=pipeline.store.clock).open_items(
        claim.project_id, claim.document_id, job.wid, review_requests(doc, flags))
    AuditLog(pipeline.store.items, retention_days=pipeline.settings.ingest.audit_retention_days,
             clock=pipeline.store.clock).record(
        claim.project_id, actor="system", action="analysis", document_id=claim.document_id, what="fields",
        after=content_hash(body), extra={"workflow_id": job.wid, "fields": len(found), "review_items": opened,
                                         "model_fields": sum(1 for f in found if "model" in f.evidence
                                                             or f.source == "model")})
    pipeline.store.record_step(claim, "field_extractor", "completed", done=job.page_count, total=job.page_count)
    return doc


def _model_fields(pipeline: Any, job: Any, segments: SegmentSequence) -> Iterator[Field]:
    """Claude's validated fields from each page's layout JSON (written by segment_analyzer), with the OCR score
    of the line each was read from; one page at a time. A page the model did not analyse adds nothing."""
    from store.errors import NotFound

    for i in range(len(segments)):
        page = i + 1
        try:
            layout = json.loads(pipeline.blobs.get(analysis_key(job.wid, page)))
        except NotFound:
            continue
        if layout.get("source") != "bedrock":
            continue
        lines = segments[i].get("lines") or []
        for f in layout.get("fields") or ():
            k = f.get("line")
            conf = float(lines[k].get("confidence", 1.0)) if isinstance(k, int) and 0 <= k < len(lines) else 0.0
            yield model_field(f, conf)
