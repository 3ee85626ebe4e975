"""The pipeline side of field_extractor: read the segments lazily, store ``fields.json``, open review items for
what the rules flag and append an ``analysis`` event to the audit log (who: ``system``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ingest.results import SegmentSequence, fields_key, segment_key
from ingest.steps.fields import extract, fields_document, review_requests, rules_for
from store.audit import AuditLog, content_hash
from store.review import ReviewStore


def run_field_extractor(pipeline: Any, job: Any) -> dict[str, Any]:
    claim = job.claim
    meta = pipeline.store.items.get(f"PROJ#{claim.project_id}", "META") or {}
    rules = rules_for(pipeline.settings, (meta.get("data") or {}).get("field_rules"))
    segments = SegmentSequence(lambda page: pipeline._get_json(segment_key(job.wid, page)), job.page_count)
    found, flags = extract(segments, rules, today=datetime.fromtimestamp(pipeline.store.clock(), UTC).date(),
                           language=job.language)
    doc = fields_document(found, flags)
    body = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    pipeline.blobs.put(fields_key(job.wid), body.encode(), "application/json")
    opened = ReviewStore(pipeline.store.items, clock=pipeline.store.clock).open_items(
        claim.project_id, claim.document_id, job.wid, review_requests(doc, flags))
    AuditLog(pipeline.store.items, retention_days=pipeline.settings.ingest.audit_retention_days,
             clock=pipeline.store.clock).record(
        claim.project_id, actor="system", action="analysis", document_id=claim.document_id, what="fields",
        after=content_hash(body), extra={"workflow_id": job.wid, "fields": len(found), "review_items": opened})
    pipeline.store.record_step(claim, "field_extractor", "completed", done=job.page_count, total=job.page_count)
    return doc
