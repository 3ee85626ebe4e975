"""Marks on a stored conversation (seed 002, additive): feedback on an answer, a pinned session, a replaced turn.

All of them are attributes of the items seed 002 already has — nothing new to delete or expire:

* ``feedback`` on an assistant ``MSG#`` item: ``{"rating": "up"|"down", "comment"?, "at"}`` (removed for
  ``None``). The seq is the one the display item of the answer carries (its last model round).
* ``pinned`` on ``META``, and its ``GSI1SK`` prefixed with ``PINNED_PREFIX``: the per-user index is read
  newest first, and ``"P" > "2"``, so pinned sessions come first (newest first among them) with no extra
  read or index; unpinning puts the plain ``updated_at`` back.
* ``superseded`` on every ``MSG#`` item of a replaced turn (regenerate / edit-and-resend): a whole turn —
  the question and every round after it — so tool pairs never break; loaders skip them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from store.errors import Conflict, InvalidInput, NotFound
from store.items import Equals, Exists, ItemTable, KeyRange, query_all
from store.schema import GSI1
from store.session_keys import META, MSG_PREFIX, check_sid, msg_sk, session_pk

RATINGS = ("up", "down")
MAX_COMMENT_CHARS = 2000
PINNED_PREFIX = "PINNED#"


def index_sort_key(updated_at: str, pinned: bool) -> str:
    """``GSI1SK`` of a session: its last activity, behind ``PINNED_PREFIX`` when pinned."""
    return PINNED_PREFIX + updated_at if pinned else updated_at


def check_feedback(rating: str | None, comment: str | None) -> dict[str, Any] | None:
    """The feedback as stored (``None`` = cleared); ``InvalidInput`` for a bad rating or comment."""
    if rating is None:
        if comment:
            raise InvalidInput("a comment needs a rating ('up' or 'down')")
        return None
    if rating not in RATINGS:
        raise InvalidInput("rating must be 'up', 'down' or null")
    out: dict[str, Any] = {"rating": rating}
    if comment is not None:
        if not isinstance(comment, str):
            raise InvalidInput("comment must be a string")
        comment = comment.strip()
        if len(comment) > MAX_COMMENT_CHARS:
            raise InvalidInput(f"comment must be at most {MAX_COMMENT_CHARS} characters")
        if comment:
            out["comment"] = comment
    return out


def set_feedback(
    items: ItemTable, session_id: str, seq: int, feedback: Mapping[str, Any] | None, at: str
) -> dict[str, Any] | None:
    """Store (or clear) the feedback on the assistant message ``seq``; ``NotFound`` when it is not one."""
    check_sid(session_id)
    if not isinstance(seq, int) or seq < 1:
        raise NotFound(f"message {seq} not found", session_id=session_id)
    cond = Equals("role", "assistant")
    try:
        if feedback is None:
            items.update(session_pk(session_id), msg_sk(seq), remove=["feedback"], condition=cond)
            return None
        value = {**feedback, "at": at}
        items.update(session_pk(session_id), msg_sk(seq), set={"feedback": value}, condition=cond)
        return value
    except Conflict as exc:
        raise NotFound(f"answer {seq} not found in session {session_id}", session_id=session_id) from exc


def get_feedback(items: ItemTable, session_id: str, seq: int) -> dict[str, Any] | None:
    """The feedback stored on message ``seq`` (``None``: none, or no such message)."""
    check_sid(session_id)
    item = items.get(session_pk(session_id), msg_sk(seq), consistent=True) if isinstance(seq, int) else None
    fb = item.get("feedback") if item else None
    return dict(fb) if isinstance(fb, Mapping) else None


def set_pinned(items: ItemTable, session_id: str, pinned: bool, *, user_id: str | None = None) -> None:
    """Pin or unpin the session (``NotFound`` if absent or not ``user_id``'s)."""
    check_sid(session_id)
    pk = session_pk(session_id)
    meta = items.get(pk, META)
    if meta is None or (user_id is not None and meta.get("owner") != user_id):
        raise NotFound(f"session {session_id} not found", session_id=session_id)
    cond = Exists("PK") if user_id is None else Equals("owner", user_id)
    updated = str(meta.get("updated_at") or "")
    fields: dict[str, Any] = {GSI1.sk: index_sort_key(updated, pinned)}
    try:
        if pinned:
            items.update(pk, META, set={**fields, "pinned": True}, condition=cond)
        else:
            items.update(pk, META, set=fields, remove=["pinned"], condition=cond)
    except Conflict as exc:
        raise NotFound(f"session {session_id} not found", session_id=session_id) from exc


def supersede_from(items: ItemTable, session_id: str, seq: int) -> list[int]:
    """Mark every message from ``seq`` on as replaced (``seq`` must be a question's); returns their seqs."""
    check_sid(session_id)
    pk = session_pk(session_id)
    first = items.get(pk, msg_sk(seq), consistent=True) if isinstance(seq, int) and seq >= 1 else None
    if first is None or first.get("role") != "user" or first.get("superseded"):
        raise NotFound(f"question {seq} not found in session {session_id}", session_id=session_id)
    tail = query_all(items, pk, sk=KeyRange(between=(msg_sk(seq), MSG_PREFIX + "999999")), consistent=True)
    done: list[int] = []
    for it in tail:
        if not str(it["SK"]).startswith(MSG_PREFIX) or it.get("superseded"):
            continue
        try:
            items.update(pk, str(it["SK"]), set={"superseded": True}, condition=Exists("PK"))
        except Conflict:
            continue  # deleted meanwhile
        done.append(int(it["seq"]))
    return done
