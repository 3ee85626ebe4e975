"""Read models for operations (seed 003): a port for aggregate items, its SQLite adapter, and the recorder.

Items (one partition per scope: ``OPS#global`` for the system, ``OPS#USER#<id>`` for a user's usage — with
their projects' numbers in the same item as ``n.p.<project>.<metric>``, since a project has one owner):

=====================  ===========================  =====================  ==========================
item                   key                          TTL (seed 003)         read by
=====================  ===========================  =====================  ==========================
current state          ``OPS#global`` / ``LATEST``  none                   summary cards (1 item)
raw-resolution         ``GRAPH#1M#<YYYYmmddHHMM>``  ``metrics_raw_ttl``    1 h window (≤ 60 items)
5-minute aggregate     ``GRAPH#5M#<YYYYmmddHHMM>``  ``metrics_bucket_ttl`` 6/12/24 h (≤ 72/144/288)
usage by day           ``USAGE#<YYYYmmdd>``         ``metrics_usage_ttl``  ``/v1/usage`` (≤ 31 items)
=====================  ===========================  =====================  ==========================

An aggregate attribute is ``n.<metric>`` (count), ``s.<metric>`` (sum), ``lo.<metric>`` / ``hi.<metric>``
(min / max) and ``h.<metric>.<i>`` (a fixed latency histogram, for p95). Counts, sums and histogram cells
are atomic ``ADD``s, so any number of writers on one bucket never lose an increment. Min / max cannot be
an ``ADD``: each writer keeps its own running extreme per bucket in its own attribute
(``hi.<metric>@<writer>``, DynamoDB) and a read takes the extreme over writers — no conditional write, so
they ride in the same ``UpdateItem``. (SQLite does the merge inside one ``BEGIN IMMEDIATE`` transaction.)

``MetricsRecorder`` turns events into updates and coalesces them in memory: a background thread writes
every ``metrics_flush_seconds`` one ``UpdateItem`` per global item touched since the last flush (and each
user's day item every ``metrics_usage_flush_seconds``), however many events and counters went into it — so
the request path itself does no I/O, and the background costs less than one write per event
(``python -m bench.readmodels`` measures it). A crash loses at most the last unflushed seconds of these
operational numbers; the usage *limits* are exact and separate (``store/usage_limits.py``).
The flusher is the only writer of its process's ``@<writer>`` attributes,
so they only ever move one way within a bucket.
"""

from __future__ import annotations

import json
import math
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from store.logging import get_logger

log = get_logger(__name__)

GLOBAL_PK = "OPS#global"
LATEST_SK = "LATEST"
RAW_SECONDS = 60
BUCKET_SECONDS = 300
#: upper bounds (seconds) of the latency histogram cells; the last cell is everything above
HISTOGRAM_BOUNDS: tuple[float, ...] = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0)

#: every metric of the aggregate items: "count" metrics are summed, "timing" metrics (seconds) also get
#: min/max/histogram. Names with a ``<...>`` part are families (``step_seconds.<step>``, ``errors.<code>``).
METRICS: dict[str, str] = {
    "uploads": "count",
    "pages_processed": "count",
    "ocr_pages": "count",
    "docs_completed": "count",
    "docs_failed": "count",
    "job_seconds": "timing",
    "step_seconds": "timing",  # family: step_seconds.<step>
    "questions": "count",
    "answers": "count",
    "declined": "count",
    "ttft_seconds": "timing",
    "answer_seconds": "timing",
    "tokens_in": "count",
    "tokens_out": "count",
    "cache_read": "count",
    "cache_write": "count",
    "errors": "count",  # family: errors.<code>
}


def metric_kind(name: str) -> str | None:
    return METRICS.get(name.split(".", 1)[0])


def stamp(ts: float, seconds: int, fmt: str = "%Y%m%d%H%M") -> str:
    start = int(ts) - int(ts) % seconds
    return datetime.fromtimestamp(start, UTC).strftime(fmt)


def raw_sk(ts: float) -> str:
    return "GRAPH#1M#" + stamp(ts, RAW_SECONDS)


def bucket_sk(ts: float) -> str:
    return "GRAPH#5M#" + stamp(ts, BUCKET_SECONDS)


def day_sk(ts: float) -> str:
    return "USAGE#" + stamp(ts, 86400, "%Y%m%d")


def user_pk(user_id: str) -> str:
    return f"OPS#USER#{user_id}"


def histogram_cell(seconds: float) -> int:
    for i, bound in enumerate(HISTOGRAM_BOUNDS):
        if seconds <= bound:
            return i
    return len(HISTOGRAM_BOUNDS)


@dataclass
class MetricUpdate:
    """One item's change: atomic adds, min/max candidates, plain sets, and the TTL set when it is created."""

    pk: str
    sk: str
    add: dict[str, float] = field(default_factory=dict)
    low: dict[str, float] = field(default_factory=dict)
    high: dict[str, float] = field(default_factory=dict)
    put: dict[str, Any] = field(default_factory=dict)
    expire_at: int | None = None

    def merge(self, other: MetricUpdate) -> None:
        for k, v in other.add.items():
            self.add[k] = self.add.get(k, 0) + v
        for k, v in other.low.items():
            self.low[k] = min(v, self.low.get(k, v))
        for k, v in other.high.items():
            self.high[k] = max(v, self.high.get(k, v))
        self.put.update(other.put)
        if self.expire_at is None:
            self.expire_at = other.expire_at


@runtime_checkable
class MetricsStore(Protocol):
    """Aggregate items (blocking; the recorder's flusher and ``asyncio.to_thread`` call it)."""

    def apply(self, update: MetricUpdate, *, writer: str) -> None:
        """One atomic write of ``update`` (``writer``: whose min/max attributes these are)."""

    def get(self, pk: str, sk: str) -> dict[str, Any] | None:
        """The item with min/max merged over writers (``lo.<m>``/``hi.<m>``), or None."""

    def query(self, pk: str, sk_from: str, sk_to: str) -> tuple[list[dict[str, Any]], int]:
        """Items with ``sk_from <= SK <= sk_to`` in key order (expired ones left out), and how many were read."""

    def close(self) -> None: ...


def merge_writers(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """Collapse ``lo.<m>@<writer>`` / ``hi.<m>@<writer>`` into ``lo.<m>`` / ``hi.<m>``."""
    out: dict[str, Any] = {}
    for key, value in attrs.items():
        name, _, writer = key.partition("@")
        if writer and name.startswith("lo."):
            out[name] = min(value, out.get(name, value))
        elif writer and name.startswith("hi."):
            out[name] = max(value, out.get(name, value))
        else:
            out[key] = value
    return out


class SqliteMetricsStore:
    """``MetricsStore`` in ``<data_dir>/metrics.db``: each write is a read-merge-write inside ``BEGIN IMMEDIATE``,
    so concurrent writers (threads or processes sharing the file) serialise and none loses an increment."""

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._clock = clock
        self._local = threading.local()
        with self._conn() as db:
            db.execute("CREATE TABLE IF NOT EXISTS metric_items (pk TEXT NOT NULL, sk TEXT NOT NULL, "
                       "expire_at INTEGER, data TEXT NOT NULL, PRIMARY KEY (pk, sk))")

    def _conn(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA busy_timeout=30000")
            db.execute("PRAGMA synchronous=NORMAL")  # WAL: no fsync per commit; operational numbers only
            self._local.db = db
        return db

    def apply(self, update: MetricUpdate, *, writer: str) -> None:
        db = self._conn()
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute("SELECT data, expire_at FROM metric_items WHERE pk = ? AND sk = ?",
                             (update.pk, update.sk)).fetchone()
            data: dict[str, Any] = json.loads(row[0]) if row else {}
            expire_at = row[1] if row else update.expire_at
            for k, v in update.add.items():
                data[k] = data.get(k, 0) + v
            for k, v in update.low.items():
                data[k] = min(v, data.get(k, v))
            for k, v in update.high.items():
                data[k] = max(v, data.get(k, v))
            data.update(update.put)
            db.execute("INSERT OR REPLACE INTO metric_items (pk, sk, expire_at, data) VALUES (?, ?, ?, ?)",
                       (update.pk, update.sk, expire_at, json.dumps(data)))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def get(self, pk: str, sk: str) -> dict[str, Any] | None:
        items, _ = self.query(pk, sk, sk)
        return items[0] if items else None

    def query(self, pk: str, sk_from: str, sk_to: str) -> tuple[list[dict[str, Any]], int]:
        rows = self._conn().execute(
            "SELECT sk, data FROM metric_items WHERE pk = ? AND sk BETWEEN ? AND ? "
            "AND (expire_at IS NULL OR expire_at > ?) ORDER BY sk", (pk, sk_from, sk_to, int(self._clock())),
        ).fetchall()
        return [{"sk": sk, **json.loads(data)} for sk, data in rows], len(rows)

    def purge(self) -> int:
        db = self._conn()
        cur = db.execute("DELETE FROM metric_items WHERE expire_at IS NOT NULL AND expire_at <= ?",
                         (int(self._clock()),))
        return cur.rowcount

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None


Listener = Callable[[Mapping[str, float], Mapping[str, float]], None]  # (counts, timings) of one event


class MetricsRecorder:
    """Turns events into item updates, coalesced per item until the next flush (see the module doc).

    Global items are written every ``flush_seconds``; a user's usage item (which also holds that user's
    projects: a project has one owner, so it lives in the owner's partition) every ``usage_flush_seconds`` —
    users ask rarely compared with the whole system, so their items need the longer coalescing to stay under one
    write per event. ``stop()`` writes everything left."""

    def __init__(self, store: MetricsStore, *, flush_seconds: float = 1.0, usage_flush_seconds: float = 60.0,
                 raw_ttl_s: int = 2 * 3600, bucket_ttl_s: int = 48 * 3600, usage_ttl_s: int = 400 * 86400,
                 clock: Callable[[], float] = time.time, monotonic: Callable[[], float] = time.monotonic,
                 writer: str | None = None) -> None:
        self.store = store
        self.flush_seconds = flush_seconds
        self.usage_flush_seconds = usage_flush_seconds if flush_seconds > 0 else 0.0
        self.raw_ttl_s, self.bucket_ttl_s, self.usage_ttl_s = raw_ttl_s, bucket_ttl_s, usage_ttl_s
        self.clock = clock
        self.monotonic = monotonic
        self.writer = writer or uuid.uuid4().hex[:8]
        self.listeners: list[Listener] = []
        self.events = 0
        self.writes = 0
        self._pending: dict[tuple[str, str], MetricUpdate] = {}
        self._since: dict[tuple[str, str], float] = {}  # when a usage item became dirty (monotonic)
        self._extremes: dict[tuple[str, str], tuple[dict[str, float], dict[str, float]]] = {}
        self._keys: dict[int, tuple[str, str, str]] = {}  # minute start -> (raw sk, bucket sk, day sk)
        self._lock = threading.Lock()
        self._flush_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- events --------------------------------------------------------------------------------

    def _sks(self, now: float) -> tuple[str, str, str]:
        minute = int(now) - int(now) % RAW_SECONDS
        sks = self._keys.get(minute)
        if sks is None:
            if len(self._keys) > 8:
                self._keys.clear()
            sks = self._keys[minute] = (raw_sk(now), bucket_sk(now), day_sk(now))
        return sks

    def _slot(self, pk: str, sk: str, expire_at: int | None) -> MetricUpdate:
        key = (pk, sk)
        u = self._pending.get(key)
        if u is None:
            u = self._pending[key] = MetricUpdate(pk, sk, expire_at=expire_at)
            if pk != GLOBAL_PK:
                self._since[key] = self.monotonic()
        return u

    def event(self, *, counts: Mapping[str, float] | None = None, timings: Mapping[str, float] | None = None,
              user: str | None = None, project: str | None = None, usage: Mapping[str, float] | None = None,
              latest_add: Mapping[str, float] | None = None, latest_put: Mapping[str, Any] | None = None) -> None:
        """Record one event: ``counts`` and ``timings`` (seconds) go to the 1-minute and 5-minute items,
        ``usage`` to the user's day (``n.<m>``, and ``n.p.<project>.<m>`` for the project), ``latest_*`` to
        ``LATEST``. Never blocks on I/O (unless ``flush_seconds`` is 0)."""
        now = self.clock()
        raw, bucket, day = self._sks(now)
        with self._lock:
            self.events += 1
            if counts or timings:
                for sk, ttl in ((raw, self.raw_ttl_s), (bucket, self.bucket_ttl_s)):
                    u = self._slot(GLOBAL_PK, sk, int(now) + ttl)
                    add = u.add
                    for name, value in (counts or {}).items():
                        add["n." + name] = add.get("n." + name, 0) + value
                    if timings:
                        lows, highs = self._extremes.setdefault((GLOBAL_PK, sk), ({}, {}))
                        for name, value in timings.items():
                            if not math.isfinite(value) or value < 0:
                                continue
                            add["n." + name] = add.get("n." + name, 0) + 1
                            add["s." + name] = add.get("s." + name, 0) + value
                            cell = f"h.{name}.{histogram_cell(value)}"
                            add[cell] = add.get(cell, 0) + 1
                            lo, hi = "lo." + name, "hi." + name
                            u.low[lo] = lows[lo] = min(value, lows.get(lo, value))  # this writer's running
                            u.high[hi] = highs[hi] = max(value, highs.get(hi, value))  # extremes only grow
            if usage and user:
                u = self._slot(user_pk(user), day, int(now) + self.usage_ttl_s)
                for name, value in usage.items():
                    u.add["n." + name] = u.add.get("n." + name, 0) + value
                    if project:
                        key = f"n.p.{project}.{name}"
                        u.add[key] = u.add.get(key, 0) + value
            if latest_add or latest_put:
                u = self._slot(GLOBAL_PK, LATEST_SK, None)
                for name, value in (latest_add or {}).items():
                    u.add[name] = u.add.get(name, 0) + value
                u.put.update(latest_put or {})
                u.put["updated_at"] = round(now, 3)
            if len(self._extremes) > 16:  # only the current buckets matter: drop the oldest
                for old in sorted(self._extremes, key=lambda k: k[1])[: len(self._extremes) - 8]:
                    del self._extremes[old]
        for listener in self.listeners:
            try:
                listener(counts or {}, timings or {})
            except Exception as exc:  # a listener never breaks the work it observes
                log.warning("metrics_listener_failed", error_type=type(exc).__name__)
        if self.flush_seconds <= 0:
            self.flush()

    # --- flushing ------------------------------------------------------------------------------

    def flush(self, *, everything: bool = False) -> int:
        """Write the pending items that are due (one ``apply`` each; every item with ``everything``); returns
        how many writes. Failed items are kept for the next flush."""
        with self._flush_lock:
            now = self.monotonic()
            with self._lock:
                due = {k: u for k, u in self._pending.items()
                       if everything or k[0] == GLOBAL_PK or now - self._since.get(k, now) >= self.usage_flush_seconds}
                for k in due:
                    del self._pending[k]
                    self._since.pop(k, None)
            done = 0
            for key, update in due.items():
                try:
                    self.store.apply(update, writer=self.writer)
                    done += 1
                except Exception as exc:
                    log.warning("metrics_flush_failed", pk=update.pk, sk=update.sk, error_type=type(exc).__name__)
                    with self._lock:
                        if key in self._pending:
                            update.merge(self._pending[key])
                        self._pending[key] = update
                        self._since.setdefault(key, now)
            self.writes += done
            return done

    def start(self) -> None:
        if self.flush_seconds <= 0 or self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"metrics-{self.writer}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.flush_seconds):
            self.flush()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
        self.flush(everything=True)


def record_safely(recorder: MetricsRecorder | None, **event: Any) -> None:
    """``recorder.event(**event)`` when metrics are on; never lets metrics break the caller."""
    if recorder is None:
        return
    try:
        recorder.event(**event)
    except Exception as exc:
        log.warning("metrics_event_failed", error_type=type(exc).__name__)
