"""Reviewing fields (issue 15): who may, the queue, decisions, corrections flowing back into search, the audit log.

A correction rewrites the field in ``fields.json`` and — a text fix — the value in the page's segment lines;
then the document is re-chunked (chunk ids are deterministic) and only the chunks covering that page are
re-indexed, so the chat answers from the corrected text. Every decision and correction is audited.
Access: the project's owner; a reviewer (``DOCCHAT_REVIEWER_USERS``, or the OIDC/Cognito group ``reviewer`` in
aws mode) for projects whose owner shared them (``reviewers``); anyone else gets 404.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Collection
from decimal import Decimal, InvalidOperation
from typing import Any

from ingest.fields.extract import AMOUNT_FIELDS, DATE_FIELDS
from ingest.fields.parse import dates
from ingest.pipeline import ChunkIndexer
from ingest.results import SegmentSequence, fields_key, segment_key
from retrieval.types import Chunk
from store.audit import AuditLog, content_hash
from store.blobs import BlobStore
from store.config import Settings
from store.errors import InvalidInput, NotFound
from store.items import Equals
from store.logging import get_logger
from store.review import ReviewStore
from store.workflows import WorkflowStore

log = get_logger(__name__)
REVIEWER_GROUP = "reviewer"


def normalize(name: str, value: str) -> str:
    """A corrected value in the field's normal form (ISO date, decimal amount) — 400 when it is not one."""
    if name in DATE_FIELDS:
        found = dates(value)
        if not found:
            raise InvalidInput(f"{value!r} is not a date")
        return found[0].value.isoformat()
    if name in AMOUNT_FIELDS:
        try:
            return str(Decimal(re.sub(r"[^\d.\-]", "", value)))
        except InvalidOperation:
            raise InvalidInput(f"{value!r} is not an amount") from None
    return " ".join(value.split())


def _overlap(a: Any, b: Any) -> float:
    """The area two ``[x0, y0, x1, y1]`` boxes share (0 when either is missing)."""
    if not (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == 4 and len(b) == 4):
        return 0.0
    w = min(float(a[2]), float(b[2])) - max(float(a[0]), float(b[0]))
    h = min(float(a[3]), float(b[3])) - max(float(a[1]), float(b[1]))
    return max(0.0, w) * max(0.0, h)


class Reviews:
    def __init__(self, settings: Settings, *, store: WorkflowStore, blobs: BlobStore, index: ChunkIndexer) -> None:
        self.settings = settings
        self.store = store
        self.blobs = blobs
        self.index = index
        self.queue = ReviewStore(store.items, clock=store.clock)
        self.audit = AuditLog(store.items, retention_days=settings.ingest.audit_retention_days, clock=store.clock)
        self.reviewers = frozenset(u.strip() for u in settings.auth.reviewer_users.split(",") if u.strip())

    # --- who -------------------------------------------------------------------------------------------

    def is_reviewer(self, user: str, auth: object) -> bool:
        if user in self.reviewers:
            return True
        groups: Collection[str] | None = getattr(auth, "groups", None)
        return self.settings.server.backend == "aws" and groups is not None and REVIEWER_GROUP in groups

    def _project(self, user: str, auth: object, project_id: str) -> dict[str, Any]:
        meta = self.store.items.get(f"PROJ#{project_id}", "META") if re.fullmatch(r"[\w-]{1,64}", project_id) else None
        if meta is None:
            raise NotFound("no such project")
        if meta.get("owner") == user:
            return meta
        shared = (meta.get("data") or {}).get("reviewers") or []
        if user in shared and self.is_reviewer(user, auth):
            return meta
        raise NotFound("no such project")

    async def share(self, user: str, project_id: str, reviewers: list[str]) -> dict[str, Any]:
        """The owner names the reviewers of a project (replacing the list)."""
        meta = await asyncio.to_thread(self.store._owned_meta, user, project_id)
        before = list((meta.get("data") or {}).get("reviewers") or [])
        clean = sorted({str(r).strip() for r in reviewers if str(r).strip()} - {user})
        if any(not re.fullmatch(r"[\w.@+-]{1,128}", r) for r in clean):
            raise InvalidInput("reviewers must be user names")
        data = dict(meta.get("data") or {}, reviewers=clean)
        await asyncio.to_thread(self.store.items.update, meta["PK"], "META", set={"data": data},
                                condition=Equals("owner", user))
        await asyncio.to_thread(self.queue.set_shares, project_id, owner=user, name=str(data.get("name") or ""),
                                before=before, after=clean)
        await asyncio.to_thread(self.audit.record, project_id, actor=user, action="share", what="reviewers",
                                before=",".join(before), after=",".join(clean))
        return {"project_id": project_id, "reviewers": clean}

    async def reviewers_of(self, user: str, project_id: str) -> dict[str, Any]:
        """The owner's view of who reviews the project."""
        meta = await asyncio.to_thread(self.store._owned_meta, user, project_id)
        return {"project_id": project_id, "reviewers": list((meta.get("data") or {}).get("reviewers") or [])}

    async def shared_projects(self, user: str, auth: object) -> dict[str, Any]:
        """"Projects shared with me for review": only for a reviewer, and only those whose META still names them."""
        if not self.is_reviewer(user, auth):
            return {"projects": []}

        def load() -> list[dict[str, Any]]:
            out = []
            for entry in self.queue.shared_with(user):
                pid = str(entry.get("project_id") or "")
                try:
                    meta = self._project(user, auth, pid)
                except NotFound:
                    continue  # unshared or deleted since: the index item is a leftover
                if meta.get("owner") == user:
                    continue
                out.append({"project_id": pid, "name": (meta.get("data") or {}).get("name") or pid,
                            "owner": meta.get("owner")})
            return out

        return {"projects": await asyncio.to_thread(load)}

    # --- the queue -------------------------------------------------------------------------------------

    async def list_items(self, user: str, auth: object, project_id: str, status: str, cursor: str | None,
                   limit: int = 50) -> dict[str, Any]:
        if status not in ("open", "claimed", "resolved"):
            raise InvalidInput("status must be open, claimed or resolved")
        await asyncio.to_thread(self._project, user, auth, project_id)
        page = await asyncio.to_thread(self.queue.list, project_id, status, limit=limit, cursor=cursor)  # type: ignore[arg-type]
        return {"items": page.items, "cursor": page.cursor}

    async def claim(self, user: str, auth: object, project_id: str, item_id: str) -> dict[str, Any]:
        await asyncio.to_thread(self._project, user, auth, project_id)
        return await asyncio.to_thread(self.queue.claim, project_id, item_id, user)

    async def decide(self, user: str, auth: object, project_id: str, item_id: str, decision: str,
                     value: str | None = None) -> dict[str, Any]:
        if decision not in ("accept", "correct", "unreadable"):
            raise InvalidInput("decision must be accept, correct or unreadable")
        if decision == "correct" and not (isinstance(value, str) and value.strip()):
            raise InvalidInput("a correction needs the value")
        await asyncio.to_thread(self._project, user, auth, project_id)
        item = await asyncio.to_thread(self.queue.get, project_id, item_id)
        data = item.get("data") or {}
        name = str(data.get("field"))
        normalized = normalize(name, value) if decision == "correct" and value is not None else None
        resolved = await asyncio.to_thread(self.queue.resolve, project_id, item_id, user, decision,  # type: ignore[arg-type]
                                           value)
        did, wid = str(data.get("document_id")), str(data.get("workflow_id"))
        await asyncio.to_thread(self.audit.record, project_id, actor=user, action="review_decision", document_id=did,
                                what=name, before=data.get("value"), after=value if decision == "correct" else decision,
                                extra={"decision": decision, "reasons": data.get("reasons")})
        if decision != "accept":
            await self._apply(user, project_id, did, wid, name, decision, value, normalized, data)
        return resolved

    # --- corrections flow back ------------------------------------------------------------------------

    async def _apply(self, user: str, project_id: str, did: str, wid: str, name: str, decision: str,
                     value: str | None, normalized: str | None, data: dict[str, Any]) -> None:
        doc = json.loads(await asyncio.to_thread(self.blobs.get, fields_key(wid)))
        fields = doc["fields"]
        target = next((f for f in fields if f.get("name") == name), None)
        old = target.get("value") if target else None
        if target is None:
            target = {"name": name, "value": None, "normalized": None, "page": data.get("page"), "bbox": None,
                      "source": "human", "confidence": 0.0, "currency": None, "evidence": {}}
            fields.append(target)
        if decision == "unreadable":
            target.update(unreadable=True, confidence=0.0, review=[])
        else:
            target.update(value=value, normalized=normalized, confidence=1.0, corrected_by=user, review=[],
                          original=old)
        await asyncio.to_thread(self.blobs.put, fields_key(wid), json.dumps(doc, ensure_ascii=False).encode(),
                                "application/json")
        seg_before = seg_after = None
        page = target.get("page")
        if decision == "correct" and old and value and isinstance(page, int):
            seg_before, seg_after = await self._fix_text(project_id, did, wid, int(page), str(old), value,
                                                         target.get("bbox"))
        await asyncio.to_thread(self.audit.record, project_id, actor=user, action="correction", document_id=did,
                                what=f"field:{name}", before=old, after=value if decision == "correct" else None,
                                extra={"page": page, "segment_before": seg_before, "segment_after": seg_after,
                                       "unreadable": decision == "unreadable"})

    async def _fix_text(self, project_id: str, did: str, wid: str, page: int, old: str, new: str,
                        bbox: Any = None) -> tuple[str | None, str | None]:
        """Replace the value in the page's line it was read from, then re-index the chunks that changed."""
        key = segment_key(wid, page)
        seg = json.loads(await asyncio.to_thread(self.blobs.get, key))
        before = content_hash(seg.get("text") or "")
        lines = [ln for ln in seg.get("lines") or [] if old in str(ln.get("text", ""))]
        if not lines:
            return before, before
        line = max(lines, key=lambda ln: _overlap(ln.get("bbox"), bbox))  # the line the field's box is on
        line["text"] = str(line["text"]).replace(old, new, 1)
        line.pop("chars", None)  # the OCR read the old text; its character scores are not the correction's
        seg["text"] = "\n".join(str(ln["text"]) for ln in seg["lines"])
        old_chunks = await self._chunks(project_id, did, wid)
        await asyncio.to_thread(self.blobs.put, key, json.dumps(seg, ensure_ascii=False).encode(), "application/json")
        new_chunks = await self._chunks(project_id, did, wid)
        await self._reindex(project_id, did, old_chunks, new_chunks)
        return before, content_hash(seg["text"])

    async def _chunks(self, project_id: str, did: str, wid: str) -> list[Chunk]:
        """The document's chunks exactly as the pipeline makes them (segments with their layout: running headers
        left out, heading paths, figure descriptions), so the ones a correction changed are known by their ids."""
        from ingest.steps.chunk import chunk_segments
        from ingest.steps.segment_analyzer import segment_with_layout

        wf = await asyncio.to_thread(self.store.items.get, f"DOC#{did}", f"WF#{wid}")
        wf_data = (wf or {}).get("data") or {}

        def load(p: int) -> dict[str, Any]:
            return segment_with_layout(self.blobs, wid, p)

        identity, _ = await asyncio.to_thread(self.store.document_identity, project_id, did)  # the path's root
        ing = self.settings.ingest
        return list(await asyncio.to_thread(
            chunk_segments, SegmentSequence(load, int(wf_data.get("page_count") or 1)), project_id=project_id,
            document_id=did, file_name=str(wf_data.get("file_name") or "document"), workflow_id=wid,
            max_tokens=ing.chunk_tokens, overlap_tokens=ing.chunk_overlap_tokens,
            language=str(wf_data.get("language") or "en"), root=str((identity or {}).get("company") or "")))

    async def _reindex(self, project_id: str, did: str, old: list[Chunk], new: list[Chunk]) -> int:
        """Index only the chunks that differ (ids are deterministic, so these overwrite); should the document now
        have fewer chunks, the whole document is re-indexed so no stale chunk stays findable."""
        before = {c.chunk_id: c for c in old}
        if len(new) < len(old):
            await self.index.delete_document(project_id, did)
            changed = new
        else:
            changed = [c for c in new if before.get(c.chunk_id) != c]
        if changed:
            await self.index.index_chunks(changed)
        log.info("review_reindexed", document_id=did, chunks=len(changed), of=len(new))
        return len(changed)

    # --- audit -----------------------------------------------------------------------------------------

    async def audit_log(self, user: str, auth: object, project_id: str, cursor: str | None) -> dict[str, Any]:
        await asyncio.to_thread(self._project, user, auth, project_id)
        page = await asyncio.to_thread(self.audit.list, project_id, cursor=cursor)
        return {"items": page.items, "cursor": page.cursor}

    def record(self, project_id: str, *, actor: str, action: str, document_id: str | None = None,
               **kw: Any) -> None:
        """For the other services (upload, reprocess, delete): an audit event, never failing the request."""
        try:
            self.audit.record(project_id, actor=actor, action=action, document_id=document_id, **kw)
        except Exception as exc:
            log.warning("audit_record_failed", action=action, error=type(exc).__name__)
