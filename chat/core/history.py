"""Loading a conversation for the next request, and keeping its running summary.

When ``chat.core.context.fit_context`` summarises the oldest turns (models without
server-side compaction), the summary is stored next to the session's messages as
one item ``PK=SESSION#<sid>, SK=SUMMARY`` (``text``, ``upto_seq``): later loads
start after ``upto_seq`` and pass the summary back, so the request prefix stays
stable (and cacheable) until the next cut. The messages themselves are never
rewritten — the stored history stays the whole conversation (seed 002). The
item lives under the session's partition key, so ``delete_session`` removes it
and its TTL follows the session's.

What a crash left in the store (a dangling ``tool_use``, a question without an
answer, …) is repaired on load by ``repaired`` (``store.block_repair``): the
next request always gets a valid history, the stored turns stay as they are,
and a warning with the session id and the counts (never content) records it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from chat.core.ports import SessionStorePort
from store.block_repair import repair_history
from store.logging import get_logger

log = get_logger(__name__)

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
            if int(m["seq"]) > upto and not m.get("superseded"):  # a replaced turn (store.session_marks)
                out.messages.append({"role": m["role"], "content": m["content"]})
                out.seqs.append(int(m["seq"]))
        cursor = page.get("next_cursor")
        if not cursor:
            return out


def repaired(
    history: History, session_id: str, *, close_tail: bool, without_seq: int | None = None, log_repairs: bool = True
) -> History:
    """``history`` (less the message ``without_seq``) as a valid request history (``store.block_repair``).

    A synthetic message takes the seq of the stored one before it (a summary cut after it covers it too).
    ``close_tail``: the last message is a closed assistant turn (a new question follows).
    """
    keep = [i for i, seq in enumerate(history.seqs) if seq != without_seq]
    rep = repair_history([history.messages[i] for i in keep], close_tail=close_tail)
    seqs: list[int] = []
    for origin in rep.origin:
        seqs.append(history.seqs[keep[origin]] if origin is not None else (seqs[-1] if seqs else history.upto_seq))
    if rep.changed and log_repairs:
        log.warning("history_repaired", session_id=session_id, messages=len(keep), **rep.counts())
    return History(messages=rep.messages, seqs=seqs, summary=history.summary, upto_seq=history.upto_seq)


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
