"""The session store of seed 002, over any ``ItemTable`` and ``BlobStore``.

Items (table ``sessions``)::

    PK=SESSION#<sid>  SK=META          owner, title, created_at, updated_at, last_seq, usage_* totals,
                                       GSI1PK=USER#<uid>, GSI1SK=<updated_at>   (sparse per-user index)
    PK=SESSION#<sid>  SK=MSG#000042    seq, role, blocks (JSON string) | blocks_ref, created_at, model,
                                       usage {input, output, cache_read, cache_write}, turn_id
    PK=SESSION#<sid>  SK=TURN#<id>     seq — the idempotency marker of a retry-safe append

A retry-safe append (``turn_id`` given) is: read the TURN marker (found → a retry:
return its seq, writing the MSG item only if the first attempt died before it);
else draw a seq from META's atomic counter, write the blob if the turn is large,
put the TURN marker (conditional; losing the race to a concurrent attempt of the
same turn → that attempt's seq), then put the MSG item (conditional). Plain
conditional puts, no transaction: half the write units of TransactWriteItems.

Every item carries ``expire_at`` (TTL). Synchronous and thread-safe: call it from
async code through ``asyncio.to_thread``. Keys, ids and input checks: ``store/session_keys.py``; MSG items
and blob offload: ``store/session_bodies.py``; the records returned: ``store/session_records.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from store.blobs import BlobStore
from store.blocks import dumps_blocks, message_usage, to_plain, trim_to_valid_window, valid_start
from store.errors import Conflict, InvalidInput, NotFound, SessionConflict
from store.items import Equals, Exists, Item, ItemTable, KeyRange, NotExists, query_all
from store.logging import get_logger
from store.schema import GSI1
from store.session_bodies import MessageBodies
from store.session_keys import (
    META,
    MSG_PREFIX,
    ROLES,
    TURN_PREFIX,
    TURN_RE,
    USAGE_KEYS,
    blob_key,
    check_document_ids,
    check_sid,
    check_title,
    check_user,
    iso_ms,
    msg_sk,
    new_session_id,
    session_pk,
    unwrap_cursor,
    wrap_cursor,
)
from store.session_marks import (
    check_feedback,
    get_feedback,
    index_sort_key,
    set_feedback,
    set_pinned,
    supersede_from,
)
from store.session_records import MessagePage, SessionInfo, SessionPage, StoredMessage, message_view, session_view

log = get_logger(__name__)

__all__ = [
    "MessagePage",
    "SessionInfo",
    "SessionPage",
    "SessionStore",
    "StoredMessage",
    "blob_key",
    "msg_sk",
    "new_session_id",
    "session_pk",
]


class SessionStore:
    """Conversation history as whole block arrays (seed 002), with retry-safe appends and S3/file offload."""

    def __init__(
        self,
        items: ItemTable,
        blobs: BlobStore,
        *,
        ttl_days: int = 90,
        inline_max_bytes: int = 300 * 1024,
        clock: Callable[[], float] = time.time,
        fetch_workers: int = 8,
    ) -> None:
        self.items = items
        self.blobs = blobs
        self.ttl_seconds = ttl_days * 86400
        self.inline_max_bytes = inline_max_bytes
        self._clock = clock
        self._bodies = MessageBodies(blobs, inline_max_bytes=inline_max_bytes, fetch_workers=fetch_workers)

    def close(self) -> None:
        self._bodies.close()
        closer = getattr(self.items, "close", None)
        if callable(closer):
            closer()

    # --- sessions ------------------------------------------------------------------

    def create_session(
        self,
        user_id: str,
        title: str | None = None,
        *,
        session_id: str | None = None,
        project_id: str | None = None,
    ) -> str:
        """A new, empty session owned by ``user_id`` (optionally tied to a project); returns its id."""
        check_user(user_id)
        now = self._clock()
        sid = session_id or new_session_id(now)
        check_sid(sid)
        ts = iso_ms(now)
        item: Item = {
            "PK": session_pk(sid),
            "SK": META,
            "session_id": sid,
            "owner": user_id,
            "title": check_title(title),
            "created_at": ts,
            "updated_at": ts,
            "last_seq": 0,
            GSI1.pk: f"USER#{user_id}",
            GSI1.sk: ts,
            "expire_at": int(now) + self.ttl_seconds,
            **{f"usage_{k}": 0 for k in USAGE_KEYS},
        }
        if project_id is not None:
            item["project_id"] = project_id
        try:
            self.items.put(item, condition=NotExists("PK"))
        except Conflict as exc:
            raise SessionConflict(f"session {sid} already exists", session_id=sid) from exc
        log.info("session_created", session_id=sid)
        return sid

    def get_session(self, session_id: str, *, user_id: str | None = None) -> SessionInfo:
        """Owner, title, timestamps, last_seq and usage totals; ``NotFound`` if absent or not ``user_id``'s."""
        check_sid(session_id)
        meta = self.items.get(session_pk(session_id), META)
        if meta is None or (user_id is not None and meta.get("owner") != user_id):
            raise NotFound(f"session {session_id} not found", session_id=session_id)
        return session_view(meta)

    def list_sessions(self, user_id: str, limit: int = 20, cursor: str | None = None) -> SessionPage:
        """The user's sessions, newest activity first: ``{"items": [...], "next_cursor": str | None}``."""
        check_user(user_id)
        if not 1 <= limit <= 100:
            raise InvalidInput("limit must be between 1 and 100")
        inner = unwrap_cursor(cursor, user_id) if cursor else None
        page = self.items.query(f"USER#{user_id}", index=GSI1.name, forward=False, limit=limit, cursor=inner)
        sessions = [session_view(it) for it in page.items if it.get("owner") == user_id and it.get("SK") == META]
        return {"items": sessions, "next_cursor": wrap_cursor(page.cursor, user_id) if page.cursor else None}

    def rename_session(self, session_id: str, title: str, *, user_id: str | None = None) -> None:
        check_sid(session_id)
        cond = Exists("PK") if user_id is None else Equals("owner", user_id)
        try:
            self.items.update(session_pk(session_id), META, set={"title": check_title(title)}, condition=cond)
        except Conflict as exc:
            raise NotFound(f"session {session_id} not found", session_id=session_id) from exc

    def set_documents(self, session_id: str, document_ids: Sequence[str] | None, *, user_id: str | None = None) -> None:
        """Issue 16: the documents the chat's search tools may use (``None`` = all of its projects'), on META."""
        check_sid(session_id)
        cond = Exists("PK") if user_id is None else Equals("owner", user_id)
        pk = session_pk(session_id)
        try:
            if document_ids is None:
                self.items.update(pk, META, remove=["doc_selection"], condition=cond)
            else:
                self.items.update(pk, META, set={"doc_selection": check_document_ids(document_ids)}, condition=cond)
        except Conflict as exc:
            raise NotFound(f"session {session_id} not found", session_id=session_id) from exc

    def delete_session(self, session_id: str, *, user_id: str | None = None) -> None:
        """Remove every item and blob of the session (META first, so it leaves the list and takes no appends)."""
        check_sid(session_id)
        pk = session_pk(session_id)
        if user_id is not None:
            self.get_session(session_id, user_id=user_id)
        self.items.delete(pk, META)
        for _sweep in range(2):  # a second sweep catches an append that was in flight
            keys = [(it["PK"], it["SK"]) for it in query_all(self.items, pk, consistent=True)]
            if keys:
                self.items.batch_write(deletes=keys)
            self.blobs.delete_prefix(f"sessions/{session_id}/")
        log.info("session_deleted", session_id=session_id)

    def pin_session(self, session_id: str, pinned: bool, *, user_id: str | None = None) -> None:
        """Pin (listed first) or unpin the session."""
        set_pinned(self.items, session_id, pinned, user_id=user_id)

    def set_feedback(
        self, session_id: str, seq: int, rating: str | None, comment: str | None = None
    ) -> dict[str, Any] | None:
        """Thumbs up/down (+ comment) on the answer ``seq``, stored on its MSG item; ``None`` clears it."""
        return set_feedback(self.items, session_id, seq, check_feedback(rating, comment), iso_ms(self._clock()))

    def get_feedback(self, session_id: str, seq: int) -> dict[str, Any] | None:
        return get_feedback(self.items, session_id, seq)

    def supersede_turn(self, session_id: str, seq: int) -> list[int]:
        """Mark the turn that starts at question ``seq`` (and everything after it) as replaced."""
        return supersede_from(self.items, session_id, seq)

    # --- messages ------------------------------------------------------------------

    def append_message(
        self,
        session_id: str,
        role: str,
        blocks: Iterable[Any],
        *,
        turn_id: str | None = None,
        model: str | None = None,
        usage: Mapping[str, Any] | None = None,
    ) -> int:
        """Store one message (its whole block array); returns its seq.

        ``turn_id`` makes the append retry-safe: the same ``turn_id`` again returns the original seq and writes
        nothing. Give every message its own ``turn_id`` (e.g. ``<request id>:user``, ``<request id>:a1``).
        """
        check_sid(session_id)
        if role not in ROLES:
            raise InvalidInput(f"role must be 'user' or 'assistant', not {role!r}")
        if turn_id is not None and not TURN_RE.match(turn_id):
            raise InvalidInput("turn_id must be 1-128 printable ASCII characters without spaces")
        body = dumps_blocks(to_plain(blocks))
        pk = session_pk(session_id)
        u = message_usage(usage)
        marker_sk = TURN_PREFIX + turn_id if turn_id is not None else None
        if marker_sk is not None:
            marker = self.items.get(pk, marker_sk, consistent=True)
            if marker is not None:  # a retry: the turn already has its seq
                seq = int(marker["seq"])
                self._ensure_message(session_id, seq, role, body, model, u, turn_id)
                return seq
        now = self._clock()
        ts = iso_ms(now)
        expire_at = int(now) + self.ttl_seconds
        seq = self._draw_seqs(session_id, 1, u, ts, expire_at)
        item, ref = self._bodies.message_item(session_id, seq, role, body, model, u, turn_id, ts, expire_at)
        marker_written = undone = False
        try:
            if marker_sk is not None:
                try:
                    marker_item = {"PK": pk, "SK": marker_sk, "seq": seq, "expire_at": expire_at}
                    self.items.put(marker_item, condition=NotExists("PK"))
                    marker_written = True
                except Conflict:  # a concurrent attempt of the same turn got there first: its seq wins
                    self._undo_draw(pk, u, ref)
                    undone = True
                    won = self.items.get(pk, marker_sk, consistent=True)
                    if won is None:
                        msg = f"turn {turn_id} conflicted and vanished"
                        raise SessionConflict(msg, session_id=session_id) from None
                    self._ensure_message(session_id, int(won["seq"]), role, body, model, u, turn_id)
                    return int(won["seq"])
            try:
                self.items.put(item, condition=NotExists("PK"))
            except Conflict as exc:
                existing = self.items.get(pk, item["SK"], consistent=True)
                if turn_id is None or existing is None or existing.get("turn_id") != turn_id:
                    raise SessionConflict(f"message {item['SK']} already exists", session_id=session_id) from exc
        except BaseException:
            if not (marker_written or undone):  # with the marker in place a retry finishes this seq; keep its usage
                self._undo_draw(pk, u, ref)
            raise
        log.debug("message_appended", session_id=session_id, seq=seq, offloaded=ref is not None)
        return seq

    def import_messages(self, session_id: str, messages: Sequence[Mapping[str, Any]]) -> list[int]:
        """Bulk append (migration, seeding): one counter update for all, batched writes. Not retry-safe.

        Each message is ``{"role", "content"[, "model", "usage"]}``; returns the seqs in order.
        """
        check_sid(session_id)
        if not messages:
            return []
        for m in messages:
            if m.get("role") not in ROLES:
                raise InvalidInput(f"role must be 'user' or 'assistant', not {m.get('role')!r}")
        usages = [message_usage(m.get("usage")) for m in messages]
        total = {k: sum(u[k] for u in usages) for k in USAGE_KEYS}
        now = self._clock()
        ts = iso_ms(now)
        expire_at = int(now) + self.ttl_seconds
        last = self._draw_seqs(session_id, len(messages), total, ts, expire_at)
        first = last - len(messages) + 1
        items = []
        for i, (m, u) in enumerate(zip(messages, usages, strict=True)):
            body = dumps_blocks(to_plain(m["content"]))
            items.append(
                self._bodies.message_item(session_id, first + i, m["role"], body, m.get("model"), u, None, ts,
                                          expire_at)[0]
            )
        self.items.batch_write(puts=items)
        return list(range(first, last + 1))

    def _draw_seqs(self, session_id: str, n: int, usage: Mapping[str, int], ts: str, expire_at: int) -> int:
        """Atomically take ``n`` seqs from META (and count the usage, bump the activity); returns the last."""
        try:
            meta = self.items.update(
                session_pk(session_id),
                META,
                add={"last_seq": n, **{f"usage_{k}": v for k, v in usage.items() if v}},
                set={"updated_at": ts, GSI1.sk: ts, "expire_at": expire_at},
                condition=Exists("PK"),
            )
        except Conflict as exc:
            raise NotFound(f"session {session_id} not found", session_id=session_id) from exc
        if meta.get("pinned"):  # keep a pinned session first in the per-user index (store.session_marks)
            self.items.update(session_pk(session_id), META, set={GSI1.sk: index_sort_key(ts, True)},
                              condition=Exists("PK"))
        return int(meta["last_seq"])

    def _ensure_message(
        self,
        session_id: str,
        seq: int,
        role: str,
        body: str,
        model: str | None,
        usage: Mapping[str, int],
        turn_id: str | None,
    ) -> None:
        """After a retry: make sure the turn's MSG item exists (an earlier attempt may have died before writing it)."""
        pk = session_pk(session_id)
        if self.items.get(pk, msg_sk(seq), consistent=True) is not None:
            return  # the usual case: nothing to write
        now = self._clock()
        item, _ = self._bodies.message_item(
            session_id, seq, role, body, model, usage, turn_id, iso_ms(now), int(now) + self.ttl_seconds
        )
        try:
            self.items.put(item, condition=NotExists("PK"))
            log.info("message_repaired", session_id=session_id, seq=seq)
        except Conflict:
            pass  # a concurrent attempt wrote the same turn

    def _undo_draw(self, pk: str, usage: Mapping[str, int], ref: str | None) -> None:
        """Best effort after a failed or duplicate append: take back the usage, drop our blob (the seq stays a gap)."""
        try:
            if ref is not None:
                self.blobs.delete(ref)
            back = {f"usage_{k}": -v for k, v in usage.items() if v}
            if back:
                self.items.update(pk, META, add=back, condition=Exists("PK"))
        except Exception as exc:
            log.warning("append_undo_failed", pk=pk, error=type(exc).__name__)

    def load_messages(self, session_id: str, limit: int | None = None) -> list[dict[str, Any]]:
        """``[{"role", "content"}]`` in seq order (every page followed, META skipped, gaps tolerated).

        When the oldest messages are gone (TTL), leading orphan ``tool_result`` turns are dropped.

        With ``limit`` only about the newest ``limit`` messages are returned, cut where no tool pair breaks.
        """
        check_sid(session_id)
        raw = query_all(self.items, session_pk(session_id), sk=KeyRange(begins_with=MSG_PREFIX), consistent=True)
        raw = [it for it in raw if not it.get("superseded")]  # a replaced turn (store.session_marks)
        contents = self._bodies.contents(raw)
        messages = [{"role": it["role"], "content": c} for it, c in zip(raw, contents, strict=True)]
        messages = valid_start(messages)  # oldest turns expired (TTL) or lost: never open with an orphan result
        return trim_to_valid_window(messages, limit) if limit is not None else messages

    def list_messages(self, session_id: str, cursor: str | None = None, limit: int = 50) -> MessagePage:
        """A page of messages for display: seq, role, content, created_at, model, usage, turn_id."""
        check_sid(session_id)
        if not 1 <= limit <= 500:
            raise InvalidInput("limit must be between 1 and 500")
        page = self.items.query(
            session_pk(session_id), sk=KeyRange(begins_with=MSG_PREFIX), limit=limit, cursor=cursor, consistent=True
        )
        contents = self._bodies.contents(page.items)
        out: list[StoredMessage] = [message_view(it, c) for it, c in zip(page.items, contents, strict=True)]
        return {"items": out, "next_cursor": page.cursor}
