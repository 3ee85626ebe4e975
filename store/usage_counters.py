"""Per-user usage counters — the port behind ``store/usage_limits.py`` — and its embedded (SQLite) adapter.

Two kinds of state, both keyed by user and a counter key:

* **counters** (``add``/``subtract``/``get``/``set_if``): an integer that only goes over ``limit`` never — the
  check and the increment are one atomic step, so a burst of concurrent requests cannot overshoot. Windowed
  counters carry the window in their key (``questions#202612011330``) and an ``expire_at`` (epoch seconds)
  after the window's end, so old windows disappear by themselves (DynamoDB TTL / the SQLite purge).
* **slots** (``acquire_slot``/``release_slot``): ``slots`` numbered places, each held by one lease until it is
  released or its ``expire_at`` passes — a concurrency limit that a crashed process cannot leak for ever.

Adapters: ``SqliteUsageCounters`` here (``<data_dir>/limits.db``, WAL, ``BEGIN IMMEDIATE`` transactions, so
it holds across the local processes that share the data dir) and ``DynamoUsageCounters``
(``store/usage_counters_dynamo.py``: conditional ``ADD``/``Put`` on the session table, ``PK=USER#<id>``,
``SK=LIMIT#<key>``). One contract suite (``tests/store/test_usage_counters.py``) runs against both.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

from store.errors import InvalidInput, RetryableError

PURGE_EVERY_S = 600.0


@runtime_checkable
class UsageCounters(Protocol):
    """Atomic per-user counters and leased slots (blocking; callers run them off the event loop)."""

    def add(self, user_id: str, key: str, amount: int, *, limit: int | None, expire_at: int | None) -> int | None:
        """Add ``amount`` unless the result would exceed ``limit`` (None: no cap). The new value, or None
        when refused (then nothing changed). ``expire_at`` is set when the counter is created."""

    def subtract(self, user_id: str, key: str, amount: int) -> None:
        """Take back ``amount`` (a refund); never below zero, no error when the counter is gone."""

    def get(self, user_id: str, key: str) -> int:
        """The current value (0 when missing or expired)."""

    def set_if(self, user_id: str, key: str, value: int, *, expected: int) -> bool:
        """Set the counter to ``value`` if it is still ``expected`` (0 = also when missing); True if set."""

    def acquire_slot(self, user_id: str, key: str, slots: int, lease: str, *, expire_at: int) -> int | None:
        """Hold one of ``slots`` free (or expired) places with ``lease`` until ``expire_at``: its number, or None."""

    def release_slot(self, user_id: str, key: str, slot: int, lease: str) -> None:
        """Free the place if ``lease`` still holds it (no error otherwise)."""

    def close(self) -> None: ...


def check_key(user_id: str, key: str, amount: int = 1) -> None:
    if not isinstance(user_id, str) or not user_id or len(user_id) > 256:
        raise InvalidInput("user_id must be a non-empty string of at most 256 characters")
    if not key or len(key) > 200 or not key.isprintable():
        raise InvalidInput("a counter key must be 1-200 printable characters")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise InvalidInput("a counter amount must be a non-negative integer")


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS counters (user_id TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL, "
    "expire_at INTEGER, PRIMARY KEY (user_id, key))",
    "CREATE TABLE IF NOT EXISTS slots (user_id TEXT NOT NULL, key TEXT NOT NULL, slot INTEGER NOT NULL, "
    "lease TEXT NOT NULL, expire_at INTEGER NOT NULL, PRIMARY KEY (user_id, key, slot))",
)


class SqliteUsageCounters:
    """``UsageCounters`` in one SQLite file (shared by every local process on the data dir)."""

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time, busy_timeout_s: float = 10.0) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._clock = clock
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), timeout=busy_timeout_s, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        for stmt in _SCHEMA:
            self._db.execute(stmt)
        self._last_purge = 0.0

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _tx(self, work: Callable[[sqlite3.Connection, int], object]) -> object:
        """Run ``work(db, now)`` in one ``BEGIN IMMEDIATE`` transaction (a write lock across processes)."""
        with self._lock:
            now = int(self._clock())
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    result = work(self._db, now)
                    if now - self._last_purge >= PURGE_EVERY_S:
                        self._db.execute("DELETE FROM counters WHERE expire_at IS NOT NULL AND expire_at < ?", (now,))
                        self._db.execute("DELETE FROM slots WHERE expire_at < ?", (now,))
                        self._last_purge = now
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.OperationalError as exc:  # "database is locked" past the busy timeout
                raise RetryableError(f"usage counters unavailable: {exc}") from exc
            return result

    @staticmethod
    def _current(db: sqlite3.Connection, user_id: str, key: str, now: int) -> tuple[int, int | None] | None:
        row = db.execute("SELECT n, expire_at FROM counters WHERE user_id = ? AND key = ?", (user_id, key)).fetchone()
        if row is None or (row[1] is not None and row[1] < now):
            return None
        return int(row[0]), row[1]

    def add(self, user_id: str, key: str, amount: int, *, limit: int | None, expire_at: int | None) -> int | None:
        check_key(user_id, key, amount)

        def work(db: sqlite3.Connection, now: int) -> int | None:
            cur = self._current(db, user_id, key, now)
            value = (cur[0] if cur else 0) + amount
            if limit is not None and value > limit:
                return None
            exp = cur[1] if cur else expire_at
            db.execute(
                "INSERT OR REPLACE INTO counters (user_id, key, n, expire_at) VALUES (?, ?, ?, ?)",
                (user_id, key, value, exp),
            )
            return value

        out = self._tx(work)
        return None if out is None else int(out)  # type: ignore[call-overload]

    def subtract(self, user_id: str, key: str, amount: int) -> None:
        check_key(user_id, key, amount)

        def work(db: sqlite3.Connection, now: int) -> None:
            db.execute("UPDATE counters SET n = MAX(n - ?, 0) WHERE user_id = ? AND key = ?", (amount, user_id, key))

        self._tx(work)

    def get(self, user_id: str, key: str) -> int:
        check_key(user_id, key)
        with self._lock:
            cur = self._current(self._db, user_id, key, int(self._clock()))
        return cur[0] if cur else 0

    def set_if(self, user_id: str, key: str, value: int, *, expected: int) -> bool:
        check_key(user_id, key, value)

        def work(db: sqlite3.Connection, now: int) -> bool:
            cur = self._current(db, user_id, key, now)
            if (cur[0] if cur else 0) != expected:
                return False
            db.execute(
                "INSERT OR REPLACE INTO counters (user_id, key, n, expire_at) VALUES (?, ?, ?, ?)",
                (user_id, key, value, cur[1] if cur else None),
            )
            return True

        return bool(self._tx(work))

    def acquire_slot(self, user_id: str, key: str, slots: int, lease: str, *, expire_at: int) -> int | None:
        check_key(user_id, key, slots)

        def work(db: sqlite3.Connection, now: int) -> int | None:
            rows = db.execute(
                "SELECT slot FROM slots WHERE user_id = ? AND key = ? AND expire_at >= ?", (user_id, key, now)
            ).fetchall()
            held = {int(r[0]) for r in rows}
            free = next((s for s in range(slots) if s not in held), None)
            if free is None:
                return None
            db.execute(
                "INSERT OR REPLACE INTO slots (user_id, key, slot, lease, expire_at) VALUES (?, ?, ?, ?, ?)",
                (user_id, key, free, lease, expire_at),
            )
            return free

        out = self._tx(work)
        return None if out is None else int(out)  # type: ignore[call-overload]

    def release_slot(self, user_id: str, key: str, slot: int, lease: str) -> None:
        check_key(user_id, key, slot)

        def work(db: sqlite3.Connection, now: int) -> None:
            db.execute(
                "DELETE FROM slots WHERE user_id = ? AND key = ? AND slot = ? AND lease = ?",
                (user_id, key, slot, lease),
            )

        self._tx(work)
