"""Read-only shares of a chat session with other users of the same deployment (issue 16), over any ``ItemTable``.

Items (table ``sessions``, seed 002/000 key style)::

    PK=SESSION#<sid>  SK=SHARE#<uid>   session_id, owner, user, shared_at, expire_at,
                                       GSI1PK=SHARED#<uid>, GSI1SK=<shared_at>   (sparse: "shared with me")

The share lives in the session's partition, so deleting the session (every item of its partition) removes
its shares too, and "is ``uid`` allowed to read ``sid``" is one ``GetItem``. "Shared with me" is a query of
GSI1 on ``SHARED#<uid>`` — the same sparse index as the owner's session list (``USER#<uid>``), on another
partition key, so neither list ever sees the other's items and no new index is needed (CDK, bootstrap, SQLite).

Only the owner shares or unshares (a share of someone else's session is ``NotFound``, never a 403 that would
confirm it exists). A share grants reading only: the chat service checks ownership for every write.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypedDict

from store.errors import Conflict, InvalidInput, NotFound
from store.items import Equals, Item, ItemTable, KeyRange, query_all
from store.logging import get_logger
from store.schema import GSI1
from store.session_keys import META, check_sid, check_user, iso_ms, session_pk
from store.session_records import SessionInfo, session_view

log = get_logger(__name__)

SHARE_PREFIX = "SHARE#"
#: most users one session may be shared with (a share list is read in one query)
MAX_SHARES = 50


class ShareInfo(TypedDict):
    user: str
    shared_at: str | None


class SharedSession(TypedDict):
    """A session shared with the caller (``shared_with``)."""

    session_id: str
    owner: str | None
    title: str | None
    project_id: str | None
    updated_at: str | None
    shared_at: str | None


def share_sk(user_id: str) -> str:
    return SHARE_PREFIX + user_id


def shared_pk(user_id: str) -> str:
    return f"SHARED#{user_id}"


class SessionShares:
    """Share a session read-only, unshare it, list its shares and the sessions shared with a user."""

    def __init__(self, items: ItemTable, *, ttl_days: int = 90, clock: Callable[[], float] = time.time) -> None:
        self.items = items
        self.ttl_seconds = ttl_days * 86400
        self._clock = clock

    def _owned_meta(self, session_id: str, owner: str) -> Item:
        check_sid(session_id)
        meta = self.items.get(session_pk(session_id), META)
        if meta is None or meta.get("owner") != owner:
            raise NotFound(f"session {session_id} not found", session_id=session_id)
        return meta

    def share(self, session_id: str, owner: str, user_id: str) -> ShareInfo:
        """Let ``user_id`` read ``owner``'s session; idempotent (sharing again keeps the first ``shared_at``)."""
        check_user(owner)
        user_id = user_id.strip() if isinstance(user_id, str) else user_id
        check_user(user_id)
        if len(user_id) > 128 or any(c in user_id for c in "#/\\") or not user_id.isprintable():
            raise InvalidInput("not a user id: 1-128 printable characters without # / \\")  # as sign-in allows
        if user_id == owner:
            raise InvalidInput("a chat cannot be shared with its owner")
        self._owned_meta(session_id, owner)
        pk = session_pk(session_id)
        existing = self.items.get(pk, share_sk(user_id))
        if existing is not None:
            return {"user": user_id, "shared_at": existing.get("shared_at")}
        count = len(self.list_shares(session_id, owner))
        if count >= MAX_SHARES:
            raise InvalidInput(f"a chat can be shared with at most {MAX_SHARES} users")
        now = self._clock()
        ts = iso_ms(now)
        item: Item = {
            "PK": pk, "SK": share_sk(user_id), "session_id": session_id, "owner": owner, "user": user_id,
            "shared_at": ts, GSI1.pk: shared_pk(user_id), GSI1.sk: ts, "expire_at": int(now) + self.ttl_seconds,
        }
        self.items.put(item)
        log.info("session_shared", session_id=session_id)
        return {"user": user_id, "shared_at": ts}

    def unshare(self, session_id: str, owner: str, user_id: str) -> None:
        """Take a share back (owner only); ``NotFound`` when ``user_id`` had no share."""
        self._owned_meta(session_id, owner)
        try:
            self.items.delete(session_pk(session_id), share_sk(user_id), condition=Equals("owner", owner))
        except Conflict as exc:
            raise NotFound(f"chat {session_id} is not shared with that user", session_id=session_id) from exc
        log.info("session_unshared", session_id=session_id)

    def list_shares(self, session_id: str, owner: str) -> list[ShareInfo]:
        """Who the session is shared with (owner only), in user order."""
        self._owned_meta(session_id, owner)
        rows = query_all(self.items, session_pk(session_id), sk=KeyRange(begins_with=SHARE_PREFIX), consistent=True)
        return [{"user": str(r["user"]), "shared_at": r.get("shared_at")} for r in rows]

    def readable(self, session_id: str, user_id: str) -> tuple[SessionInfo, str]:
        """The session and ``"owner"`` or ``"viewer"``; ``NotFound`` for anyone it is neither owned by nor
        shared with (absent and forbidden look the same)."""
        check_sid(session_id)
        check_user(user_id)
        pk = session_pk(session_id)
        meta = self.items.get(pk, META)
        if meta is None:
            raise NotFound(f"session {session_id} not found", session_id=session_id)
        if meta.get("owner") == user_id:
            return session_view(meta), "owner"
        if self.items.get(pk, share_sk(user_id)) is None:
            raise NotFound(f"session {session_id} not found", session_id=session_id)
        return session_view(meta), "viewer"

    def shared_with(self, user_id: str, limit: int = 50) -> list[SharedSession]:
        """Sessions shared with ``user_id``, most recently shared first (one GSI1 query, then each META)."""
        check_user(user_id)
        if not 1 <= limit <= 100:
            raise InvalidInput("limit must be between 1 and 100")
        page = self.items.query(shared_pk(user_id), index=GSI1.name, forward=False, limit=limit)
        out: list[SharedSession] = []
        for row in page.items:
            if row.get("user") != user_id or not str(row.get("SK", "")).startswith(SHARE_PREFIX):
                continue
            meta = self.items.get(str(row["PK"]), META, consistent=False)
            if meta is None or meta.get("owner") != row.get("owner"):
                continue  # the session is gone (deleted or expired) while the index still had its share
            view: Any = session_view(meta)
            out.append({"session_id": view["session_id"], "owner": view["owner"], "title": view["title"],
                        "project_id": view["project_id"], "updated_at": view["updated_at"],
                        "shared_at": row.get("shared_at")})
        return out
