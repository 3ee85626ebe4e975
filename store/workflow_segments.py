"""Segments (``WF#{wid}/SEG#{index:04d}``): one pointer item per page at a fixed key — the segment half of
``WorkflowStore``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from store.items import Item, ItemTable, KeyRange, Page
from store.workflow_types import Claim

#: findings kept on one ``SEG#`` item (~100 bytes each; ``pii_count`` is always the full count)
MAX_PII_FINDINGS = 1000


class SegmentsMixin:
    items: ItemTable

    def put_segment(self, claim: Claim, index: int, *, s3_key: str, image_uri: str, meta: Mapping[str, Any]) -> None:
        """``WF#/SEG#{index:04d}`` — a fixed key, so a redelivery overwrites rather than duplicates."""
        data = {"segment_index": index, "s3_key": s3_key, "image_uri": image_uri, "image_analysis": [], **meta}
        self.items.put({"PK": f"WF#{claim.workflow_id}", "SK": f"SEG#{index:04d}", "data": data})

    def set_segment_pii(self, workflow_id: str, index: int, findings: Sequence[Mapping[str, Any]]) -> None:
        """The page's personal-data findings on its ``SEG#`` item: ``pii`` [{type, page, bbox, start, end}] and
        ``pii_count`` — types, boxes and character spans only, never a value (``ingest.pii.step``)."""
        pk, sk = f"WF#{workflow_id}", f"SEG#{index:04d}"
        item = self.items.get(pk, sk)
        if item is None:
            return
        kept = [dict(f) for f in findings[:MAX_PII_FINDINGS]]  # a page that is a contact list stays < 400 KB
        data = {**dict(item.get("data") or {}), "pii": kept, "pii_count": len(findings),
                "pii_truncated": len(findings) > len(kept)}
        self.items.put({**item, "data": data})

    def set_segment_analysis(self, claim: Claim, index: int, *, analysis_key: str,
                             image_analysis: list[dict[str, Any]], meta: Mapping[str, Any]) -> None:
        """Point ``WF#/SEG#{index:04d}`` at its analysis JSON (``analysis_key``) and keep the figure analyses
        (``image_analysis``: type, bbox, caption, description) and counts on the item; a rerun overwrites."""
        it = self.items.get(f"WF#{claim.workflow_id}", f"SEG#{index:04d}")
        data = dict((it or {}).get("data") or {"segment_index": index})
        data.update({"analysis_key": analysis_key, "image_analysis": image_analysis, "analysis": dict(meta)})
        self.items.put({"PK": f"WF#{claim.workflow_id}", "SK": f"SEG#{index:04d}", "data": data})

    def list_segments(self, workflow_id: str, *, limit: int = 20, cursor: str | None = None) -> Page:
        page = self.items.query(f"WF#{workflow_id}", sk=KeyRange(begins_with="SEG#"), limit=limit, cursor=cursor)
        return Page([dict(it.get("data") or {}) for it in page.items], page.cursor)

    def get_segment(self, workflow_id: str, index: int) -> Item | None:
        it = self.items.get(f"WF#{workflow_id}", f"SEG#{index:04d}")
        return dict(it.get("data") or {}) if it else None
