"""``make bench-store``: session-store latency against the raw calls it is made of.

For the SQLite backend and DynamoDB+S3 on a moto server (``ThreadedMotoServer`` on a
free loopback port), with sessions of 10, 100 and 1,000 turns:

* append: ``SessionStore.append_message`` (retry-safe, with ``turn_id``) ÷ one
  ``update_item`` (the seq counter) + one ``put_item`` (the message), timed
  separately on the same backend — the two calls seed 002's append is made of;
* load: ``SessionStore.load_messages`` ÷ the bare paginated ``query`` of the
  same items.

"Raw" means boto3 calls for DynamoDB and the ``SqliteItemTable`` calls for
SQLite. Every figure is a median over repeated runs. Usage::

    python -m bench.store [--turns 10,100,1000] [--runs 15] [--backends sqlite,moto]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from store.blobs import BlobStore, FileBlobStore, S3BlobStore
from store.dynamo import DynamoItemTable, serialize_item
from store.items import ItemTable, KeyRange, query_all
from store.logging import configure_logging
from store.schema import SESSIONS_TABLE, create_table_kwargs
from store.sessions import SessionStore, msg_sk, session_pk
from store.sqlite_items import SqliteItemTable

CREDS = {"aws_access_key_id": "bench", "aws_secret_access_key": "bench", "region_name": "us-east-1"}


def turn_blocks(i: int) -> list[dict[str, Any]]:
    """A realistic turn: ~1.2 KB of text, every third assistant turn with thinking + tool_use."""
    text = {"type": "text", "text": f"turn {i}: " + "lorem ipsum dolor sit amet, 문서 내용 " * 40}
    if i % 2 == 0:
        return [text]
    if i % 3 == 0:
        return [
            {"type": "thinking", "thinking": "", "signature": "EqQBCkYIARgCIkB" + "x" * 200},
            text,
            {"type": "tool_use", "id": f"toolu_{i:05d}", "name": "search_documents", "input": {"query": "tax"}},
        ]
    return [text]


@dataclass
class Backend:
    name: str
    items: ItemTable
    blobs: BlobStore
    raw_update: Callable[[str, str], None]
    raw_put: Callable[[dict[str, Any]], None]
    raw_query: Callable[[str], int]


def load_runs(runs: int, turns: int) -> int:
    """Fewer repetitions for long sessions (a 1,000-turn load on moto takes seconds)."""
    return runs if turns <= 10 else max(3, runs // 2) if turns <= 100 else 3


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _discard(_: object) -> None:
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def sqlite_backend() -> Iterator[Backend]:
    with tempfile.TemporaryDirectory(prefix="docchat-bench-") as d:
        items = SqliteItemTable(Path(d) / "sessions.db", SESSIONS_TABLE)
        try:
            yield Backend(
                "sqlite",
                items,
                FileBlobStore(Path(d) / "blobs"),
                raw_update=lambda pk, sk: _discard(items.update(pk, sk, add={"last_seq": 1})),
                raw_put=lambda item: items.put(item),
                raw_query=lambda pk: len(query_all(items, pk, sk=KeyRange(begins_with="MSG#"), consistent=True)),
            )
        finally:
            items.close()


@contextmanager
def moto_backend() -> Iterator[Backend]:
    import boto3
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        endpoint = f"http://127.0.0.1:{port}"
        ddb = boto3.client("dynamodb", endpoint_url=endpoint, **CREDS)  # type: ignore[call-overload]
        s3 = boto3.client("s3", endpoint_url=endpoint, **CREDS)  # type: ignore[call-overload]
        table = f"bench-{uuid.uuid4().hex[:8]}"
        ddb.create_table(**create_table_kwargs(table, SESSIONS_TABLE))
        s3.create_bucket(Bucket="bench-sessions")

        def raw_update(pk: str, sk: str) -> None:
            ddb.update_item(
                TableName=table,
                Key={"PK": {"S": pk}, "SK": {"S": sk}},
                UpdateExpression="SET last_seq = if_not_exists(last_seq, :zero) + :one",
                ExpressionAttributeValues={":zero": {"N": "0"}, ":one": {"N": "1"}},
                ReturnValues="UPDATED_NEW",
            )

        def raw_put(item: dict[str, Any]) -> None:
            ddb.put_item(TableName=table, Item=serialize_item(item), ConditionExpression="attribute_not_exists(SK)")

        def raw_query(pk: str) -> int:
            n, start = 0, None
            while True:
                kwargs: dict[str, Any] = {
                    "TableName": table,
                    "KeyConditionExpression": "PK = :pk AND begins_with(SK, :p)",
                    "ExpressionAttributeValues": {":pk": {"S": pk}, ":p": {"S": "MSG#"}},
                    "ConsistentRead": True,
                }
                if start:
                    kwargs["ExclusiveStartKey"] = start
                page = ddb.query(**kwargs)
                n += len(page["Items"])
                start = page.get("LastEvaluatedKey")
                if not start:
                    return n

        yield Backend(
            "moto-server",
            DynamoItemTable(ddb, table, SESSIONS_TABLE),
            S3BlobStore(s3, "bench-sessions"),
            raw_update,
            raw_put,
            raw_query,
        )
    finally:
        server.stop()


def bench_backend(b: Backend, turn_counts: list[int], runs: int) -> list[dict[str, Any]]:
    store = SessionStore(b.items, b.blobs)
    rows = []
    for n in turn_counts:
        sid = store.create_session("bench")
        store.import_messages(
            sid, [{"role": "user" if i % 2 == 0 else "assistant", "content": turn_blocks(i)} for i in range(n)]
        )
        appends = []
        for r in range(runs):
            t0 = time.perf_counter()
            store.append_message(sid, "assistant", turn_blocks(n + r), turn_id=f"m{r}", usage={"output": 10})
            appends.append(time.perf_counter() - t0)
        raw = []
        pk = session_pk(sid)  # the same partition, so both see the same table and session size
        for r in range(runs):
            seq = 900_000 + r
            item = {
                "PK": pk,
                "SK": msg_sk(seq),
                "seq": seq,
                "role": "assistant",
                "blocks": json.dumps(turn_blocks(n + r), ensure_ascii=False),
                "created_at": "2026-01-01T00:00:00.000Z",
                "usage": {"input": 0, "output": 10, "cache_read": 0, "cache_write": 0},
                "expire_at": int(time.time()) + 86400,
            }
            t0 = time.perf_counter()
            b.raw_update(pk, "META")
            b.raw_put(item)
            raw.append(time.perf_counter() - t0)
        loads, raw_loads = [], []
        for r in range(load_runs(runs, n)):  # interleaved, alternating which goes first
            for first in (r % 2 == 0, r % 2 == 1):
                t0 = time.perf_counter()
                if first:
                    got = len(store.load_messages(sid))
                    loads.append(time.perf_counter() - t0)
                else:
                    raw_n = b.raw_query(session_pk(sid))
                    raw_loads.append(time.perf_counter() - t0)
        assert got == raw_n == n + 2 * runs, (got, raw_n, n + 2 * runs)
        a_ms, r_ms, l_ms, rl_ms = map(_median_ms, (appends, raw, loads, raw_loads))
        rows.append(
            {
                "backend": b.name,
                "turns": n,
                "append_ms": a_ms,
                "raw_append_ms": r_ms,
                "append_ratio": a_ms / r_ms,
                "load_ms": l_ms,
                "raw_load_ms": rl_ms,
                "load_ratio": l_ms / rl_ms,
            }
        )
        store.delete_session(sid)
    return rows


def print_table(rows: list[dict[str, Any]]) -> None:
    head = (
        f"{'backend':<12} {'turns':>6} {'append ms':>10} {'update+put ms':>14} {'ratio':>6}"
        f" {'load ms':>9} {'raw query ms':>13} {'ratio':>6}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        print(
            f"{r['backend']:<12} {r['turns']:>6} {r['append_ms']:>10.2f} {r['raw_append_ms']:>14.2f}"
            f" {r['append_ratio']:>6.2f} {r['load_ms']:>9.2f} {r['raw_load_ms']:>13.2f} {r['load_ratio']:>6.2f}"
        )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.store", description=__doc__.split("\n\n")[0] if __doc__ else "")
    p.add_argument("--turns", default="10,100,1000", help="session sizes, comma-separated")
    p.add_argument("--runs", type=int, default=15, help="repetitions per median")
    p.add_argument("--backends", default="sqlite,moto", help="sqlite and/or moto")
    args = p.parse_args(argv)
    configure_logging("WARNING")
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # the moto server's request log
    turn_counts = [int(t) for t in args.turns.split(",") if t]
    factories = {"sqlite": sqlite_backend, "moto": moto_backend}
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    for name in args.backends.split(","):
        with factories[name]() as backend:
            rows += bench_backend(backend, turn_counts, args.runs)
    print_table(rows)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\nmedians: appends {args.runs} runs; loads {load_runs(args.runs, 10)}/{load_runs(args.runs, 100)}/"
        f"{load_runs(args.runs, 1000)} runs for 10/100/1,000 turns. "
        f"append = get TURN marker + update META (seq) + put TURN + put MSG; "
        f"{os.cpu_count()} CPUs, load average {load:.1f}; total {time.perf_counter() - t0:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
