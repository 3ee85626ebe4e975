"""Job queues (seed 004): a high- and a low-priority queue, each with a dead-letter queue.

One ``JobQueue`` Protocol, two adapters with the same semantics:

* ``SqsJobQueue`` — Amazon SQS: long polling, ``ChangeMessageVisibility`` to extend a running job, DLQs by
  the queues' redrive policy (``maxReceiveCount``; created by infra/, by moto in tests).
* ``SqliteJobQueue`` — one SQLite file: visibility timeout, receive count, and a message received more than
  ``max_receives`` times moves to its dead-letter queue instead of being delivered (SQS's rule).

Small documents go to the high queue. ``receive`` takes from both queues by smooth weighted round robin
(``high_share``, 70/30 by default): whichever queue is due is asked first, and if it is empty the other one
is, so neither queue starves and no worker idles while work is waiting.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from store.errors import ConfigError, RetryableError, Throttled
from store.logging import get_logger

log = get_logger(__name__)

Priority = Literal["high", "low"]
PRIORITIES: tuple[Priority, Priority] = ("high", "low")


@dataclass(frozen=True, slots=True)
class Message:
    body: dict[str, Any]
    priority: Priority
    receipt: str
    receive_count: int
    message_id: str


@runtime_checkable
class JobQueue(Protocol):
    #: deliveries before a message dead-letters (the redrive policy's ``maxReceiveCount``)
    max_receives: int

    def send(self, body: Mapping[str, Any], *, priority: Priority) -> str:
        """Enqueue a job; returns the message id."""

    def receive(
        self, *, wait_seconds: float = 0.0, visibility_seconds: int = 300, lanes: tuple[Priority, ...] = PRIORITIES
    ) -> Message | None:
        """One message from the lanes (weighted), waiting up to ``wait_seconds`` (long poll), or None."""

    def extend(self, msg: Message, visibility_seconds: int) -> bool:
        """Keep a running job invisible for ``visibility_seconds`` more; False if the receipt is stale."""

    def retry_later(self, msg: Message, delay_seconds: int) -> None:
        """Make the message visible again after ``delay_seconds`` (backoff before a retry)."""

    def delete(self, msg: Message) -> None:
        """Acknowledge: the job is done (or a no-op)."""

    def dead_letters(self, priority: Priority) -> list[dict[str, Any]]:
        """Bodies in a dead-letter queue (for operators and tests; at most 100)."""

    def depth(self, priority: Priority) -> int:
        """Approximate number of messages waiting (visible) in a queue."""

    def close(self) -> None: ...


class PriorityPicker:
    """Smooth weighted round robin over the two lanes (pure): which queue to ask first."""

    def __init__(self, high_share: float = 0.7) -> None:
        if not 0.0 < high_share < 1.0:
            raise ConfigError("high_share must be strictly between 0 and 1")
        self.weights: dict[Priority, float] = {"high": high_share, "low": 1.0 - high_share}
        self.credit: dict[Priority, float] = {"high": 0.0, "low": 0.0}
        self._lock = threading.Lock()

    def order(self, lanes: tuple[Priority, ...] = PRIORITIES) -> list[Priority]:
        if len(lanes) <= 1:
            return list(lanes)
        with self._lock:
            for lane in lanes:
                self.credit[lane] += self.weights[lane]
            first = max(lanes, key=lambda lane: (self.credit[lane], lane == "high"))
            self.credit[first] -= sum(self.weights[lane] for lane in lanes)
        return [first, *[lane for lane in lanes if lane != first]]


# --- SQLite ------------------------------------------------------------------------------------------

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
        with self._using() as conn:
            rows = conn.execute(
                "SELECT body FROM messages WHERE queue = ? ORDER BY dead_at LIMIT 100", (f"{priority}-dlq",)
            ).fetchall()
        return [json.loads(r[0]) for r in rows]

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


# --- SQS ---------------------------------------------------------------------------------------------

_THROTTLE_CODES = frozenset({"ThrottlingException", "RequestThrottled", "Throttling", "OverLimit"})


class SqsJobQueue:
    """Amazon SQS: two queues (high, low) whose redrive policies name their DLQs."""

    def __init__(
        self,
        client: Any,
        high_url: str,
        low_url: str,
        *,
        high_share: float = 0.7,
        max_receives: int | None = None,
        max_wait_seconds: int = 20,
    ) -> None:
        if not high_url or not low_url:
            raise ConfigError("SQS needs DOCCHAT_QUEUE_HIGH_URL and DOCCHAT_QUEUE_LOW_URL")
        self.client = client
        self.urls: dict[Priority, str] = {"high": high_url, "low": low_url}
        self.picker = PriorityPicker(high_share)
        self.max_wait_seconds = max_wait_seconds
        self._dlq_urls: dict[Priority, str | None] = {}
        self.max_receives = max_receives if max_receives is not None else self._redrive_max_receives()

    def _call(self, op: str, **kwargs: Any) -> Any:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            return getattr(self.client, op)(**kwargs)
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            if code in _THROTTLE_CODES:
                raise Throttled("SQS throttled the request", op=op) from exc
            raise RetryableError(f"SQS {op} failed: {code}", op=op, code=code) from exc
        except BotoCoreError as exc:
            raise RetryableError(f"SQS {op} failed: {type(exc).__name__}", op=op) from exc

    def _redrive(self, priority: Priority) -> dict[str, Any]:
        attrs = self._call("get_queue_attributes", QueueUrl=self.urls[priority], AttributeNames=["RedrivePolicy"])
        raw = attrs.get("Attributes", {}).get("RedrivePolicy")
        return dict(json.loads(raw)) if raw else {}

    def _redrive_max_receives(self) -> int:
        policy = self._redrive("high")
        if not policy:
            raise ConfigError("the high-priority SQS queue has no redrive policy (a DLQ is required)")
        return int(policy.get("maxReceiveCount", 5))

    def send(self, body: Mapping[str, Any], *, priority: Priority) -> str:
        resp = self._call("send_message", QueueUrl=self.urls[priority], MessageBody=json.dumps(dict(body)))
        return str(resp["MessageId"])

    def _receive_one(self, lane: Priority, wait: int, visibility_seconds: int) -> Message | None:
        resp = self._call(
            "receive_message",
            QueueUrl=self.urls[lane],
            MaxNumberOfMessages=1,
            WaitTimeSeconds=wait,
            VisibilityTimeout=visibility_seconds,
            MessageSystemAttributeNames=["ApproximateReceiveCount"],
        )
        msgs = resp.get("Messages") or []
        if not msgs:
            return None
        m = msgs[0]
        count = int(m.get("Attributes", {}).get("ApproximateReceiveCount", 1))
        return Message(json.loads(m["Body"]), lane, m["ReceiptHandle"], count, m["MessageId"])

    def receive(
        self, *, wait_seconds: float = 0.0, visibility_seconds: int = 300, lanes: tuple[Priority, ...] = PRIORITIES
    ) -> Message | None:
        order = self.picker.order(lanes)
        for lane in order:
            msg = self._receive_one(lane, 0, visibility_seconds)
            if msg is not None:
                return msg
        wait = min(self.max_wait_seconds, int(wait_seconds))
        if wait <= 0:
            return None
        # nothing waiting anywhere: long-poll the high lane (latency matters there); low is asked next round
        return self._receive_one("high" if "high" in lanes else order[0], wait, visibility_seconds)

    def extend(self, msg: Message, visibility_seconds: int) -> bool:
        try:
            self._call("change_message_visibility", QueueUrl=self.urls[msg.priority], ReceiptHandle=msg.receipt,
                       VisibilityTimeout=min(visibility_seconds, 43_200))
        except RetryableError as exc:
            if exc.context.get("code") in ("ReceiptHandleIsInvalid", "MessageNotInflight", "InvalidParameterValue"):
                return False
            raise
        return True

    def retry_later(self, msg: Message, delay_seconds: int) -> None:
        self.extend(msg, max(0, delay_seconds))

    def delete(self, msg: Message) -> None:
        self._call("delete_message", QueueUrl=self.urls[msg.priority], ReceiptHandle=msg.receipt)

    def _dlq_url(self, priority: Priority) -> str | None:
        if priority not in self._dlq_urls:
            arn = self._redrive(priority).get("deadLetterTargetArn")
            url = None
            if arn:
                name = str(arn).rsplit(":", 1)[-1]
                url = str(self._call("get_queue_url", QueueName=name)["QueueUrl"])
            self._dlq_urls[priority] = url
        return self._dlq_urls[priority]

    def dead_letters(self, priority: Priority) -> list[dict[str, Any]]:
        """Peek at a DLQ (messages are received with visibility 0, so they stay there)."""
        url = self._dlq_url(priority)
        if url is None:
            return []
        resp = self._call("receive_message", QueueUrl=url, MaxNumberOfMessages=10, VisibilityTimeout=0,
                          WaitTimeSeconds=0)
        return [json.loads(m["Body"]) for m in resp.get("Messages") or []]

    def depth(self, priority: Priority) -> int:
        attrs = self._call("get_queue_attributes", QueueUrl=self.urls[priority],
                           AttributeNames=["ApproximateNumberOfMessages"])
        return int(attrs.get("Attributes", {}).get("ApproximateNumberOfMessages", 0))

    def close(self) -> None:
        return None
