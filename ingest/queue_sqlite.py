"""``SqliteJobQueue``: the job queues of seed 004 in one SQLite file, with SQS's semantics.

Visibility timeout, receive count, and a message received more than ``max_receives`` times moves to its
dead-letter queue (``<lane>-dlq``) instead of being delivered (SQS's rule). WAL mode: safe across threads and
processes; an in-process ``send`` wakes a waiting ``receive`` at once, other processes are polled.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ingest.queue_port import PRIORITIES, DeadLetter, Message, Priority, PriorityPicker
from store.errors import RetryableError
from store.logging import get_logger

log = get_logger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    queue TEXT NOT NULL,
    body TEXT NOT NULL,
    sent_at REAL NOT NULL,
    visible_at REAL NOT NULL,
    receive_count INTEGER NOT NULL DEFAULT 0,
    receipt TEXT,
    dead_at REAL
);
CREATE INDEX IF NOT EXISTS messages_ready ON messages (queue, visible_at, sent_at);
"""


class SqliteJobQueue:
    """The embedded queue: SQS's semantics in one SQLite file (WAL; safe across threads and processes)."""

    def __init__(
        self,
        path: Path,
        *,
        max_receives: int = 5,
        high_share: float = 0.7,
        clock: Callable[[], float] = time.time,
        poll_interval: float = 0.2,
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.max_receives = max_receives
        self.picker = PriorityPicker(high_share)
        self.clock = clock
        self.poll_interval = poll_interval
        self._local = threading.local()
        self._wake = threading.Condition()
        self._conns: list[sqlite3.Connection] = []
        self._conns_lock = threading.Lock()
        # Every use of a connection holds this lock, and close() takes it too: closing a SQLite connection while
        # another thread is inside it crashes the process (a worker thread can still be in receive() at shutdown).
        self._use = threading.Lock()
        self._closed = False
        self._conn().executescript(_SCHEMA)

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
            with self._conns_lock:
                self._conns.append(conn)
        return conn

    @contextmanager
    def _using(self) -> Iterator[sqlite3.Connection]:
        with self._use:
            if self._closed:
                raise RetryableError("the job queue is closed (shutting down)")
            yield self._conn()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._using() as conn:
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise RetryableError("the queue database is busy", error=str(exc)) from exc
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def send(self, body: Mapping[str, Any], *, priority: Priority) -> str:
        if priority not in PRIORITIES:
            raise ValueError(priority)
        mid = uuid.uuid4().hex
        now = self.clock()
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO messages (id, queue, body, sent_at, visible_at) VALUES (?, ?, ?, ?, ?)",
                (mid, priority, json.dumps(dict(body)), now, now),
            )
        with self._wake:
            self._wake.notify_all()
        return mid

    def _receive_one(self, lane: Priority, visibility_seconds: int) -> Message | None:
        with self._tx() as conn:
            while True:
                now = self.clock()
                row = conn.execute(
                    "SELECT id, body, receive_count FROM messages WHERE queue = ? AND visible_at <= ? "
                    "ORDER BY visible_at, sent_at LIMIT 1",
                    (lane, now),
                ).fetchone()
                if row is None:
                    return None
                mid, body, count = str(row[0]), str(row[1]), int(row[2])
                if count >= self.max_receives:  # SQS: received more than maxReceiveCount → dead-letter queue
                    conn.execute(
                        "UPDATE messages SET queue = ?, dead_at = ?, receipt = NULL WHERE id = ?",
                        (f"{lane}-dlq", now, mid),
                    )
                    log.warning("job_dead_lettered", queue=lane, message_id=mid, receives=count)
                    continue
                receipt = uuid.uuid4().hex
                conn.execute(
                    "UPDATE messages SET receive_count = receive_count + 1, receipt = ?, visible_at = ? WHERE id = ?",
                    (receipt, now + visibility_seconds, mid),
                )
                return Message(json.loads(body), lane, receipt, count + 1, mid)

    def receive(
        self, *, wait_seconds: float = 0.0, visibility_seconds: int = 300, lanes: tuple[Priority, ...] = PRIORITIES
    ) -> Message | None:
        deadline = time.monotonic() + max(0.0, wait_seconds)
        while True:
            if self._closed:
                return None
            for lane in self.picker.order(lanes):
                try:
                    msg = self._receive_one(lane, visibility_seconds)
                except RetryableError:
                    if self._closed:
                        return None
                    raise
                if msg is not None:
                    return msg
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            with self._wake:  # woken at once by an in-process send; polls for other processes
                self._wake.wait(min(self.poll_interval, remaining))

    def _set_visible(self, msg: Message, at: float) -> bool:
        with self._tx() as conn:
            cur = conn.execute(
                "UPDATE messages SET visible_at = ? WHERE id = ? AND receipt = ? AND queue = ?",
                (at, msg.message_id, msg.receipt, msg.priority),
            )
            return cur.rowcount == 1

    def extend(self, msg: Message, visibility_seconds: int) -> bool:
        return self._set_visible(msg, self.clock() + visibility_seconds)

    def retry_later(self, msg: Message, delay_seconds: int) -> None:
        self._set_visible(msg, self.clock() + max(0, delay_seconds))
        with self._wake:
            self._wake.notify_all()

    def delete(self, msg: Message) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM messages WHERE id = ? AND receipt = ?", (msg.message_id, msg.receipt))

    def dead_letters(self, priority: Priority) -> list[dict[str, Any]]:
        return [d.body for d in self.list_dead(priority, limit=100)]

    def list_dead(self, priority: Priority, *, limit: int = 1000, hold_seconds: int = 0) -> list[DeadLetter]:
        with self._using() as conn:  # rows are only read: nothing to hold
            rows = conn.execute(
                "SELECT id, body, receive_count, dead_at FROM messages WHERE queue = ? ORDER BY dead_at, id LIMIT ?",
                (f"{priority}-dlq", limit),
            ).fetchall()
        return [DeadLetter(json.loads(r[1]), priority, str(r[0]), str(r[0]), int(r[2]),
                           None if r[3] is None else float(r[3])) for r in rows]

    def drop_dead(self, letter: DeadLetter) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM messages WHERE id = ? AND queue = ?",
                         (letter.message_id, f"{letter.priority}-dlq"))

    def release_dead(self, letters: list[DeadLetter]) -> None:
        return None

    def depth(self, priority: Priority) -> int:
        with self._using() as conn:
            row = conn.execute("SELECT COUNT(*) FROM messages WHERE queue = ? AND visible_at <= ?",
                               (priority, self.clock())).fetchone()
        return int(row[0])

    def close(self) -> None:
        with self._use:  # waits for any thread still inside a connection
            self._closed = True
            with self._conns_lock:
                conns, self._conns = self._conns, []
            for conn in conns:
                conn.close()
            self._local = threading.local()
        with self._wake:
            self._wake.notify_all()
