"""Session-store keys, ids, cursors and input checks (seed 002 layout), shared by ``store/sessions.py`` and tools."""

from __future__ import annotations

import base64
import json
import os
import re
import time
from collections.abc import Sequence
from datetime import UTC, datetime

from store.errors import InvalidInput, NotFound

META = "META"
MSG_PREFIX = "MSG#"
TURN_PREFIX = "TURN#"
USAGE_KEYS = ("input", "output", "cache_read", "cache_write")
ROLES = ("user", "assistant")
ID_RE = re.compile(r"^[0-9A-Za-z_-]{1,64}$")
TURN_RE = re.compile(r"^[\x21-\x7e]{1,128}$")
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_session_id(now: float | None = None) -> str:
    """A ULID: 48-bit millisecond timestamp + 80 random bits, Crockford base32 (sorts by creation time)."""
    ms = int((time.time() if now is None else now) * 1000)
    value = (ms << 80) | int.from_bytes(os.urandom(10), "big")
    return "".join(_CROCKFORD[(value >> (5 * i)) & 31] for i in reversed(range(26)))


def iso_ms(ts: float) -> str:
    """``2026-07-30T07:12:03.412Z``: fixed width, so lexicographic order is time order."""
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def session_pk(session_id: str) -> str:
    return f"SESSION#{session_id}"


def msg_sk(seq: int) -> str:
    return f"{MSG_PREFIX}{seq:06d}"


def blob_key(session_id: str, seq: int) -> str:
    return f"sessions/{session_id}/{seq:06d}.json"


def check_sid(session_id: str) -> None:
    if not isinstance(session_id, str) or not ID_RE.match(session_id):
        raise NotFound(f"session {session_id!r} not found")


def check_user(user_id: str) -> None:
    if not isinstance(user_id, str) or not user_id or len(user_id) > 256:
        raise InvalidInput("user_id must be a non-empty string of at most 256 characters")


def check_title(title: str | None) -> str | None:
    if title is None:
        return None
    if not isinstance(title, str):
        raise InvalidInput("title must be a string")
    title = " ".join(title.split())
    if len(title) > 200:
        raise InvalidInput("title must be at most 200 characters")
    return title or None


#: most documents one chat's selection may name (issue 16)
MAX_SELECTED_DOCUMENTS = 200


def check_document_ids(document_ids: Sequence[str]) -> list[str]:
    """A chat's document selection: 1-200 document ids, without repeats, in the given order."""
    if isinstance(document_ids, str) or not all(isinstance(d, str) and ID_RE.match(d) for d in document_ids):
        raise InvalidInput("document_ids must be a list of document ids")
    clean = list(dict.fromkeys(document_ids))
    if not 1 <= len(clean) <= MAX_SELECTED_DOCUMENTS:
        raise InvalidInput(f"choose between 1 and {MAX_SELECTED_DOCUMENTS} documents (or all of the project)")
    return clean


def wrap_cursor(inner: str, user_id: str) -> str:
    raw = json.dumps({"u": user_id, "c": inner}, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def unwrap_cursor(cursor: str, user_id: str) -> str:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
    except (ValueError, UnicodeError) as exc:
        raise InvalidInput("malformed cursor") from exc
    if not isinstance(data, dict) or data.get("u") != user_id or not isinstance(data.get("c"), str):
        raise InvalidInput("malformed cursor")
    return str(data["c"])
