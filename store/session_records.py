"""What the session store returns (seed 002): small typed records over plain dicts.

They are ``TypedDict``s, so at run time they are the very dicts the store always returned (JSON-ready, read
with ``[]`` or ``.get``); the types only name the keys for readers and for mypy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from store.blocks import Block
from store.session_keys import USAGE_KEYS


class SessionInfo(TypedDict):
    """A session's META item as callers see it (``get_session``, ``list_sessions``)."""

    session_id: str
    owner: str | None
    title: str | None
    project_id: str | None
    created_at: str | None  # ``iso_ms``: fixed width, sorts as time
    updated_at: str | None
    last_seq: int
    usage: dict[str, int]  # totals: input, output, cache_read, cache_write
    pinned: bool  # store.session_marks: listed first
    document_ids: list[str] | None  # issue 16: the documents the chat searches; None = all of its projects


class SessionPage(TypedDict):
    items: list[SessionInfo]
    next_cursor: str | None


class StoredMessage(TypedDict):
    """One message for display (``list_messages``)."""

    seq: int
    role: str
    content: list[Block]  # the whole block array, as stored
    created_at: str | None
    model: str | None
    usage: dict[str, int]  # input, output, cache_read, cache_write ({} when the item has none)
    turn_id: str | None
    feedback: dict[str, Any] | None  # store.session_marks: {"rating", "comment"?, "at"} on an answer
    superseded: bool  # store.session_marks: a replaced turn (regenerate / edit-and-resend)


class MessagePage(TypedDict):
    items: list[StoredMessage]
    next_cursor: str | None


def session_view(meta: Mapping[str, Any]) -> SessionInfo:
    sid = meta.get("session_id") or str(meta["PK"]).removeprefix("SESSION#")
    return {
        "session_id": sid,
        "owner": meta.get("owner"),
        "title": meta.get("title"),
        "project_id": meta.get("project_id"),
        "created_at": meta.get("created_at"),
        "updated_at": meta.get("updated_at"),
        "last_seq": int(meta.get("last_seq", 0)),
        "usage": {k: int(meta.get(f"usage_{k}", 0)) for k in USAGE_KEYS},
        "pinned": bool(meta.get("pinned")),
        "document_ids": [str(d) for d in meta["doc_selection"]] if meta.get("doc_selection") else None,
    }


def message_view(item: Mapping[str, Any], content: list[Block]) -> StoredMessage:
    return {
        "seq": int(item["seq"]),
        "role": item["role"],
        "content": content,
        "created_at": item.get("created_at"),
        "model": item.get("model"),
        "usage": dict(item.get("usage") or {}),
        "turn_id": item.get("turn_id"),
        "feedback": dict(item["feedback"]) if item.get("feedback") else None,
        "superseded": bool(item.get("superseded")),
    }
