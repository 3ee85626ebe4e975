"""``SqliteItemTable``: the embedded item table, one SQLite file in WAL mode.

Same keys and layout as the DynamoDB table: a row per item with its ``PK`` and
``SK`` columns (``SESSION#…`` / ``MSG#000042`` visible as such), the whole item
as JSON in ``doc``, and the sparse GSI key columns filled only for items that
carry both keys of an index. DynamoDB's limits are kept: 400 KB per item
(counted the way DynamoDB counts), 1 MB per query page, 100 operations per
transaction. Items whose TTL attribute lies in the past are invisible to reads
and conditions and are purged by a background thread.

Thread-safe: each thread gets its own connection; writes are serialised by a
process-local lock plus SQLite's own lock (other processes may share the file).
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from store.errors import Conflict, InvalidInput, ItemTooLarge, NotFound, TransactionConflict
from store.items import (
    Condition,
    Delete,
    Item,
    KeyRange,
    Page,
    Put,
    Update,
    WriteOp,
    is_expired,
    item_size,
    validate_update,
)
from store.logging import get_logger
from store.schema import MAX_ITEM_BYTES, MAX_PAGE_BYTES, MAX_TRANSACT_ITEMS, PK, SK, TableSpec
from store.sqlite_codec import (
    apply_update,
    decode_cursor,
    dumps_item,
    encode_cursor,
    evaluate,
    loads_item,
    normalise,
    op_doc,
    op_key,
    sk_clause,
)

log = get_logger(__name__)

_TOKEN_WINDOW_S = 600.0  # DynamoDB honours a ClientRequestToken for 10 minutes


# --- the table -------------------------------------------------------------------------


class SqliteItemTable:
    """The embedded ``ItemTable``: one SQLite file (WAL), DynamoDB's layout and limits."""

    def __init__(
        self,
        path: Path,
        spec: TableSpec,
        *,
        name: str | None = None,
        purge_interval_s: float | None = 60.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path)
        self.spec = spec
        self.name = name or spec.logical_name
        self._clock = clock
        self._local = threading.local()
        self._conns: list[sqlite3.Connection] = []
        self._conns_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._closed = threading.Event()
        if len(spec.indexes) > 2:
            raise InvalidInput("SqliteItemTable supports at most two global secondary indexes")
        self._index_cols = {idx.name: (f"g{i + 1}pk", f"g{i + 1}sk") for i, idx in enumerate(spec.indexes)}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._init_schema()
        self._purger: threading.Thread | None = None
        if purge_interval_s:
            self._purger = threading.Thread(
                target=self._purge_loop, args=(purge_interval_s,), name=f"ttl-purge-{self.name}", daemon=True
            )
            self._purger.start()

    # --- connections ---------------------------------------------------------------

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            if self._closed.is_set():
                raise InvalidInput(f"item table {self.name!r} is closed")
            conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=30000")
            self._local.conn = conn
            with self._conns_lock:
                self._conns.append(conn)
        return conn

    def _init_schema(self) -> None:
        conn = self._conn()
        with self._write_lock:
            conn.executescript(
                """
                CREATE TABLE IF NOT EXISTS items (
                    PK TEXT NOT NULL, SK TEXT NOT NULL, doc TEXT NOT NULL, size INTEGER NOT NULL,
                    expire_at REAL, g1pk TEXT, g1sk TEXT, g2pk TEXT, g2sk TEXT,
                    PRIMARY KEY (PK, SK)
                ) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS items_gsi1 ON items (g1pk, g1sk, PK, SK) WHERE g1pk IS NOT NULL;
                CREATE INDEX IF NOT EXISTS items_gsi2 ON items (g2pk, g2sk, PK, SK) WHERE g2pk IS NOT NULL;
                CREATE INDEX IF NOT EXISTS items_ttl ON items (expire_at) WHERE expire_at IS NOT NULL;
                CREATE TABLE IF NOT EXISTS request_tokens (
                    token TEXT PRIMARY KEY, digest TEXT NOT NULL, at REAL NOT NULL
                );
                """
            )

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn()
        with self._write_lock:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def close(self) -> None:
        """Stop the purge thread and close every connection."""
        self._closed.set()
        if self._purger is not None and self._purger is not threading.current_thread():
            self._purger.join(timeout=5)
        with self._conns_lock:
            for conn in self._conns:
                conn.close()
            self._conns.clear()
        self._local = threading.local()

    def __enter__(self) -> SqliteItemTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- TTL -------------------------------------------------------------------------

    def purge_expired(self) -> int:
        """Delete items whose TTL has passed; returns how many."""
        with self._write() as conn:
            cur = conn.execute("DELETE FROM items WHERE expire_at IS NOT NULL AND expire_at < ?", (self._clock(),))
            conn.execute("DELETE FROM request_tokens WHERE at < ?", (self._clock() - _TOKEN_WINDOW_S,))
            return cur.rowcount

    def _purge_loop(self, interval: float) -> None:
        while not self._closed.wait(interval):
            try:
                n = self.purge_expired()
                if n:
                    log.info("ttl_purged", table=self.name, items=n)
            except sqlite3.Error as exc:  # keep purging later; reads filter expired items anyway
                if not self.path.exists():  # the database was deleted under an unclosed table: nothing to purge
                    return
                log.warning("ttl_purge_failed", table=self.name, error=str(exc))

    # --- row helpers -----------------------------------------------------------------

    def _row_get(self, conn: sqlite3.Connection, pk: str, sk: str) -> Item | None:
        row = conn.execute("SELECT doc FROM items WHERE PK = ? AND SK = ?", (pk, sk)).fetchone()
        if row is None:
            return None
        item = loads_item(row[0])
        if is_expired(item, self._clock(), self.spec.ttl_attribute):
            return None
        return item

    def _check_item(self, item: Mapping[str, Any]) -> None:
        for key in (PK, SK):
            if not isinstance(item.get(key), str) or not item[key]:
                raise InvalidInput(f"item needs a non-empty string {key}")
        for idx in self.spec.indexes:
            for attr in (idx.pk, idx.sk):
                if attr in item and (not isinstance(item[attr], str) or not item[attr]):
                    raise InvalidInput(f"index key {attr} must be a non-empty string")
        size = item_size(item)
        if size > MAX_ITEM_BYTES:
            raise ItemTooLarge(
                f"item {item[PK]}/{item[SK]} is {size} bytes; the limit is {MAX_ITEM_BYTES}", size=size
            )

    def _row_put(self, conn: sqlite3.Connection, item: Mapping[str, Any]) -> None:
        self._check_item(item)
        doc = dumps_item(item)
        exp = item.get(self.spec.ttl_attribute)
        expire_at = float(exp) if isinstance(exp, int | float) and not isinstance(exp, bool) else None
        g: list[str | None] = [None, None, None, None]
        for i, idx in enumerate(self.spec.indexes):
            if isinstance(item.get(idx.pk), str) and isinstance(item.get(idx.sk), str):
                g[2 * i], g[2 * i + 1] = item[idx.pk], item[idx.sk]
        conn.execute(
            "INSERT OR REPLACE INTO items (PK, SK, doc, size, expire_at, g1pk, g1sk, g2pk, g2sk)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (item[PK], item[SK], doc, item_size(item), expire_at, *g),
        )

    def _row_delete(self, conn: sqlite3.Connection, pk: str, sk: str) -> None:
        conn.execute("DELETE FROM items WHERE PK = ? AND SK = ?", (pk, sk))

    # --- ItemTable -------------------------------------------------------------------

    def get(self, pk: str, sk: str, *, consistent: bool = True) -> Item | None:
        return self._row_get(self._conn(), pk, sk)

    def put(self, item: Item, *, condition: Condition | None = None) -> None:
        self._check_item(item)
        with self._write() as conn:
            if condition is not None and not evaluate(condition, self._row_get(conn, item[PK], item[SK])):
                raise Conflict(f"condition failed on put {item[PK]}/{item[SK]}", pk=item[PK], sk=item[SK])
            self._row_put(conn, item)

    def update(
        self,
        pk: str,
        sk: str,
        *,
        set: Mapping[str, Any] | None = None,
        set_if_missing: Mapping[str, Any] | None = None,
        add: Mapping[str, int | float] | None = None,
        remove: Sequence[str] | None = None,
        condition: Condition | None = None,
    ) -> Item:
        validate_update(set, set_if_missing, add, remove)
        op = Update(pk, sk, set or {}, set_if_missing or {}, add or {}, tuple(remove or ()), condition)
        with self._write() as conn:
            current = self._row_get(conn, pk, sk)
            if condition is not None and not evaluate(condition, current):
                raise Conflict(f"condition failed on update {pk}/{sk}", pk=pk, sk=sk)
            new = apply_update(current, op)
            self._row_put(conn, new)
        return normalise(new)

    def delete(self, pk: str, sk: str, *, condition: Condition | None = None) -> None:
        with self._write() as conn:
            if condition is not None and not evaluate(condition, self._row_get(conn, pk, sk)):
                raise Conflict(f"condition failed on delete {pk}/{sk}", pk=pk, sk=sk)
            self._row_delete(conn, pk, sk)

    def query(
        self,
        pk: str,
        *,
        sk: KeyRange | None = None,
        index: str | None = None,
        forward: bool = True,
        limit: int | None = None,
        cursor: str | None = None,
        consistent: bool = False,
    ) -> Page:
        if limit is not None and limit < 1:
            raise InvalidInput("limit must be at least 1")
        if index is None:
            pk_col, sk_col, key_cols = "PK", "SK", ["SK"]
        else:
            if index not in self._index_cols:
                raise InvalidInput(f"table {self.name!r} has no index {index!r}")
            pk_col, sk_col = self._index_cols[index]
            key_cols = [sk_col, "PK", "SK"]
        where = [f"{pk_col} = ?", "(expire_at IS NULL OR expire_at >= ?)"]
        args: list[Any] = [pk, self._clock()]
        if index is not None:
            where.append(f"{sk_col} IS NOT NULL")
        where_sk, args_sk = sk_clause(sk_col, sk)
        where += where_sk
        args += args_sk
        if cursor is not None:
            after = decode_cursor(cursor, len(key_cols))
            cols = ", ".join(key_cols)
            marks = ", ".join("?" * len(key_cols))
            where.append(f"({cols}) {'>' if forward else '<'} ({marks})")
            args += after
        direction = "ASC" if forward else "DESC"
        order = ", ".join(f"{c} {direction}" for c in key_cols)
        sql = f"SELECT doc, size, {', '.join(key_cols)} FROM items WHERE {' AND '.join(where)} ORDER BY {order}"  # noqa: S608 - only our column names
        if limit is not None:
            sql += f" LIMIT {int(limit) + 1}"
        items: list[Item] = []
        total = 0
        last_key: list[str] = []
        more = False
        for row in self._conn().execute(sql, args):
            if (limit is not None and len(items) >= limit) or (items and total + row[1] > MAX_PAGE_BYTES):
                more = True
                break
            items.append(loads_item(row[0]))
            total += row[1]
            last_key = list(row[2:])
        return Page(items=items, cursor=encode_cursor(last_key) if more else None)

    def transact_write(self, ops: Sequence[WriteOp], *, client_request_token: str | None = None) -> None:
        if not ops or len(ops) > MAX_TRANSACT_ITEMS:
            raise InvalidInput(f"a transaction holds 1 to {MAX_TRANSACT_ITEMS} operations, not {len(ops)}")
        keys = [op_key(op) for op in ops]
        if len(set(keys)) != len(keys):
            raise InvalidInput("a transaction cannot touch the same item twice")
        for op in ops:
            if isinstance(op, Update):
                validate_update(op.set, op.set_if_missing, op.add, op.remove)
            elif isinstance(op, Put):
                self._check_item(op.item)
        digest = hashlib.sha256(repr([(type(op).__name__, dumps_item(op_doc(op))) for op in ops]).encode()).hexdigest()
        with self._write() as conn:
            now = self._clock()
            if client_request_token is not None:
                row = conn.execute(
                    "SELECT digest, at FROM request_tokens WHERE token = ?", (client_request_token,)
                ).fetchone()
                if row is not None and row[1] >= now - _TOKEN_WINDOW_S:
                    if row[0] != digest:
                        raise InvalidInput("ClientRequestToken reused with different parameters")
                    return  # already applied: idempotent success
            reasons: list[str] = []
            new_items: list[tuple[WriteOp, Item | None]] = []
            for op in ops:
                current = self._row_get(conn, *op_key(op))
                cond = op.condition
                ok = cond is None or evaluate(cond, current)
                reasons.append("None" if ok else "ConditionalCheckFailed")
                if ok and isinstance(op, Update):
                    new_items.append((op, apply_update(current, op)))
                else:
                    new_items.append((op, None))
            if any(r != "None" for r in reasons):
                raise TransactionConflict("transaction cancelled: a condition failed", reasons=reasons)
            for op, new in new_items:
                if isinstance(op, Put):
                    self._row_put(conn, op.item)
                elif isinstance(op, Update):
                    assert new is not None
                    self._row_put(conn, new)
                elif isinstance(op, Delete):
                    self._row_delete(conn, op.pk, op.sk)
            if client_request_token is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO request_tokens (token, digest, at) VALUES (?, ?, ?)",
                    (client_request_token, digest, now),
                )

    def batch_write(self, puts: Sequence[Item] = (), deletes: Sequence[tuple[str, str]] = ()) -> None:
        keys = [(p[PK], p[SK]) for p in puts] + list(deletes)
        if len(set(keys)) != len(keys):
            raise InvalidInput("a batch write cannot touch the same item twice")
        for item in puts:
            self._check_item(item)
        with self._write() as conn:
            for item in puts:
                self._row_put(conn, item)
            for pk, sk in deletes:
                self._row_delete(conn, pk, sk)

    # --- extras (not in the Protocol) -------------------------------------------------

    def require(self, pk: str, sk: str) -> Item:
        item = self.get(pk, sk)
        if item is None:
            raise NotFound(f"{pk}/{sk} not found")
        return item
