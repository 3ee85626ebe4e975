"""Loading a conversation for the next request, and keeping its running summary.

When ``chat.core.context.fit_context`` summarises the oldest turns (models without
server-side compaction), the summary is stored next to the session's messages as
one item ``PK=SESSION#<sid>, SK=SUMMARY`` (``text``, ``upto_seq``): later loads
start after ``upto_seq`` and pass the summary back, so the request prefix stays
stable (and cacheable) until the next cut. The messages themselves are never
rewritten — the stored history stays the whole conversation (seed 002). The
item lives under the session's partition key, so ``delete_session`` removes it
and its TTL follows the session's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from chat.core.ports import SessionStorePort

SUMMARY_SK = "SUMMARY"


@dataclass(slots=True)
class History:
    messages: list[dict[str, Any]] = field(default_factory=list)  # [{"role", "content"}] after the summary
    seqs: list[int] = field(default_factory=list)  # the seq of each message
    summary: str | None = None
    upto_seq: int = 0


def load_history(sessions: SessionStorePort, session_id: str) -> History:
    """The session's messages with their seqs (every page), starting after the stored summary (blocking)."""
    item = sessions.items.get(f"SESSION#{session_id}", SUMMARY_SK)
    summary = str(item["text"]) if item and item.get("text") else None
    upto = int(item.get("upto_seq", 0)) if item else 0
    out = History(summary=summary, upto_seq=upto)
    cursor: str | None = None
    while True:
        page = sessions.list_messages(session_id, cursor, 500)
        for m in page["items"]:
            if int(m["seq"]) > upto:
                out.messages.append({"role": m["role"], "content": m["content"]})
                out.seqs.append(int(m["seq"]))
        cursor = page.get("next_cursor")
        if not cursor:
            return out


def save_summary(sessions: SessionStorePort, session_id: str, text: str, upto_seq: int, *, ttl_days: int) -> None:
    """Store (replace) the running summary covering every message up to ``upto_seq`` (blocking)."""
    sessions.items.put(
        {
            "PK": f"SESSION#{session_id}",
            "SK": SUMMARY_SK,
            "text": text,
            "upto_seq": int(upto_seq),
            "updated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "expire_at": int(time.time()) + ttl_days * 86400,
        }
    )
