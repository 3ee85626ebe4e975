"""One contract for every MetricsStore adapter (SQLite, DynamoDB on moto, DynamoDB Local), the recorder's
coalescing, and concurrent writers on one bucket never losing an increment."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from store.metrics import (
    GLOBAL_PK,
    LATEST_SK,
    MetricsRecorder,
    MetricsStore,
    MetricUpdate,
    SqliteMetricsStore,
    bucket_sk,
    day_sk,
    raw_sk,
    user_pk,
)
from store.metrics_views import series, summary, usage
from store.schema import SESSIONS_TABLE
from tests.conftest import _create_table, _dynamo_client

BACKENDS = ["sqlite", "moto", "dynamodb-local"]
NOW = 1_780_000_000.0  # a fixed instant (2026-05-28)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


def make_store(backend: str, request: pytest.FixtureRequest, tmp_path: Path, clock: Clock) -> Any:
    if backend == "sqlite":
        store = SqliteMetricsStore(tmp_path / "metrics.db", clock=clock)
        request.addfinalizer(store.close)
        return store
    from store.metrics_dynamo import DynamoMetricsStore

    if backend == "moto":
        request.getfixturevalue("moto_aws")
        client = _dynamo_client(None)
    else:
        client = _dynamo_client(request.getfixturevalue("dynamodb_local"))
    name = _create_table(client, SESSIONS_TABLE)
    if backend == "dynamodb-local":
        request.addfinalizer(lambda: client.delete_table(TableName=name))
    return DynamoMetricsStore(client, name, clock=clock)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path, clock: Clock) -> Any:
    return make_store(request.param, request, tmp_path, clock)


def test_implements_protocol(store: MetricsStore) -> None:
    assert isinstance(store, MetricsStore)


def test_apply_adds_takes_extremes_sets_and_keeps_the_first_ttl(store: MetricsStore) -> None:
    sk = bucket_sk(NOW)
    store.apply(MetricUpdate(GLOBAL_PK, sk, {"n.q": 1, "s.t": 0.5}, {"lo.t": 0.5}, {"hi.t": 0.5},
                             {"last": "a"}, expire_at=int(NOW) + 100), writer="w1")
    store.apply(MetricUpdate(GLOBAL_PK, sk, {"n.q": 2, "s.t": 1.25}, {"lo.t": 0.2}, {"hi.t": 0.9},
                             {"last": "b"}, expire_at=int(NOW) + 999), writer="w2")
    store.apply(MetricUpdate(GLOBAL_PK, sk, {"n.q": 1}, {"lo.t": 0.3}, {"hi.t": 0.4}), writer="w1")
    item = store.get(GLOBAL_PK, sk)
    assert item is not None
    assert item["n.q"] == 4 and item["s.t"] == pytest.approx(1.75)
    assert item["lo.t"] == pytest.approx(0.2) and item["hi.t"] == pytest.approx(0.9)  # merged over writers
    assert item["last"] == "b"
    assert store.get(GLOBAL_PK, "GRAPH#5M#000000000000") is None


def test_query_is_one_range_in_key_order_and_leaves_expired_items_out(store: MetricsStore, clock: Clock) -> None:
    for i in range(5):
        store.apply(MetricUpdate(GLOBAL_PK, bucket_sk(NOW + i * 300), {"n.q": i + 1},
                                 expire_at=int(NOW) + (50 if i == 0 else 10_000)), writer="w")
    store.apply(MetricUpdate("OPS#other", bucket_sk(NOW), {"n.q": 9}), writer="w")
    items, read = store.query(GLOBAL_PK, bucket_sk(NOW + 300), bucket_sk(NOW + 900))
    assert [i["n.q"] for i in items] == [2, 3, 4] and read == 3
    clock.now = NOW + 60
    items, _ = store.query(GLOBAL_PK, bucket_sk(NOW), bucket_sk(NOW + 1200))
    assert [i["n.q"] for i in items] == [2, 3, 4, 5]  # the first one's TTL passed


def test_concurrent_writers_on_one_bucket_never_lose_an_increment(store: MetricsStore) -> None:
    _concurrent_writers(store, events=5)


@pytest.mark.slow
@pytest.mark.parametrize("events", [25])
def test_many_concurrent_writers_on_dynamodb_local(events: int, request: pytest.FixtureRequest, tmp_path: Path,
                                                   clock: Clock) -> None:
    _concurrent_writers(make_store("dynamodb-local", request, tmp_path, clock), events=events)


def _concurrent_writers(store: MetricsStore, *, events: int) -> None:
    """8 recorders (8 processes' worth of writers), each from 4 threads, every event flushed at once (racing)."""
    recorders = [MetricsRecorder(store, flush_seconds=0, clock=lambda: NOW, writer=f"w{i}") for i in range(8)]
    barrier = threading.Barrier(32)

    def work(k: int) -> None:
        rec = recorders[k % 8]
        barrier.wait()
        for j in range(events):
            rec.event(counts={"questions": 1, "tokens_in": 10}, timings={"ttft_seconds": 0.01 * (k + 1) + j / 1000},
                      user="alice", usage={"questions": 1})

    with ThreadPoolExecutor(32) as pool:
        list(pool.map(work, range(32)))
    for item in (store.get(GLOBAL_PK, bucket_sk(NOW)), store.get(GLOBAL_PK, raw_sk(NOW))):
        assert item is not None
        n = 32 * events
        assert item["n.questions"] == n and item["n.tokens_in"] == 10 * n and item["n.ttft_seconds"] == n
        assert item["lo.ttft_seconds"] == pytest.approx(0.01)
        assert item["hi.ttft_seconds"] == pytest.approx(0.32 + (events - 1) / 1000)
    day = store.get(user_pk("alice"), day_sk(NOW))
    assert day is not None and day["n.questions"] == 32 * events


def test_recorder_coalesces_events_into_one_write_per_item(store: MetricsStore) -> None:
    rec = MetricsRecorder(store, flush_seconds=60, clock=lambda: NOW)
    for _ in range(100):
        rec.event(counts={"questions": 1}, timings={"answer_seconds": 2.0}, user="bob", project="p1",
                  usage={"questions": 1, "tokens_in": 5})
    assert rec.flush() == 2  # 1-minute, 5-minute; bob's day waits for its longer cadence
    assert rec.flush(everything=True) == 1  # bob's day (p1's numbers inside it): 3 writes for 100 events
    assert rec.flush(everything=True) == 0
    got = summary(store, "1h", now=NOW)
    assert got["totals"]["questions"] == 100 and got["timings"]["answer_seconds"]["avg"] == pytest.approx(2.0)
    assert got["timings"]["answer_seconds"]["p95"] == pytest.approx(2.0)
    assert usage(store, user="bob", project="p1", now=NOW)["totals"]["tokens_in"] == 500
    assert usage(store, user="bob", now=NOW)["projects"] == {"p1": {"questions": 100, "tokens_in": 500}}
    assert usage(store, user="bob", project="p2", now=NOW)["totals"] == {"cache_hit_ratio": None}


def test_latest_item_counts_and_sets(store: MetricsStore) -> None:
    rec = MetricsRecorder(store, flush_seconds=0, clock=lambda: NOW)
    rec.event(latest_add={"workers_busy": 1})
    rec.event(latest_add={"workers_busy": 1}, latest_put={"queue_depth.high": 7})
    rec.event(latest_add={"workers_busy": -1}, latest_put={"last_error": "bad pdf"})
    latest = store.get(GLOBAL_PK, LATEST_SK)
    assert latest is not None
    assert latest["workers_busy"] == 1
    assert latest["queue_depth.high"] == 7 and latest["last_error"] == "bad pdf"


def test_series_routes_windows_and_reads_a_fixed_number_of_items(store: MetricsStore) -> None:
    rec = MetricsRecorder(store, flush_seconds=60, clock=lambda: t)
    t = NOW - 24 * 3600
    while t <= NOW:  # one event every 20 minutes for a day
        rec.event(counts={"questions": 1}, timings={"ttft_seconds": 0.4})
        rec.flush()
        t += 1200
    s1 = series(store, "questions", "1h", now=NOW)
    assert s1["source"] == "GRAPH#1M" and len(s1["points"]) == 60 and s1["items_read"] == 3
    assert sum(p["count"] for p in s1["points"]) == 3
    s24 = series(store, "ttft_seconds", "24h", now=NOW)
    assert s24["source"] == "GRAPH#5M" and len(s24["points"]) == 288 and s24["items_read"] == 72
    assert sum(p["count"] for p in s24["points"]) == 72
    assert s24["points"][-1]["avg"] == pytest.approx(0.4)
    assert series(store, "questions", "6h", now=NOW)["items_read"] <= 72


def test_usage_by_day_for_a_user_reads_one_item_a_day(store: MetricsStore) -> None:
    t = NOW - 3 * 86400
    rec = MetricsRecorder(store, flush_seconds=0, clock=lambda: t)
    for day in range(4):
        t = NOW - (3 - day) * 86400
        for _ in range(day + 1):
            rec.event(user="carol", usage={"questions": 1, "tokens_in": 100, "cache_read": 300})
    rec.event(user="dave", usage={"questions": 5})
    got = usage(store, user="carol", days=7, now=NOW)
    assert [d["questions"] for d in got["days"]] == [1, 2, 3, 4] and got["items_read"] == 4
    assert got["totals"]["questions"] == 10 and got["totals"]["cache_hit_ratio"] == 0.75
    assert usage(store, user="carol", days=2, now=NOW)["totals"]["questions"] == 7


def test_failed_flush_keeps_the_counts_for_the_next_one(tmp_path: Path) -> None:
    inner = SqliteMetricsStore(tmp_path / "m.db", clock=lambda: NOW)
    calls = {"n": 0}

    class Flaky:
        def apply(self, update: MetricUpdate, *, writer: str) -> None:
            calls["n"] += 1
            if calls["n"] == 1:
                raise OSError("down")
            inner.apply(update, writer=writer)

    rec = MetricsRecorder(Flaky(), flush_seconds=60, clock=lambda: NOW)  # type: ignore[arg-type]
    rec.event(counts={"questions": 1})
    rec.flush()
    rec.event(counts={"questions": 2})
    rec.flush()
    assert sum(i["n.questions"] for i in inner.query(GLOBAL_PK, raw_sk(NOW), bucket_sk(NOW))[0]) == 3 + 3


def test_background_flusher_writes_without_being_asked(tmp_path: Path) -> None:
    store = SqliteMetricsStore(tmp_path / "m.db")
    rec = MetricsRecorder(store, flush_seconds=0.05)
    rec.start()
    try:
        rec.event(counts={"questions": 1})
        deadline = time.time() + 5
        while time.time() < deadline and store.get(GLOBAL_PK, bucket_sk(time.time())) is None:
            time.sleep(0.02)
        assert store.get(GLOBAL_PK, bucket_sk(time.time())) is not None
    finally:
        rec.stop()


def test_aws_mode_keeps_the_read_models_in_the_workflow_table(tmp_path: Path) -> None:
    """The workers' role may write the workflow table but not the chat sessions (tests/infra/test_roles.py)."""
    from store.config import Settings
    from store.metrics_dynamo import DynamoMetricsStore
    from store.metrics_open import open_metrics_store, open_recorder

    aws = Settings(backend="aws", aws_region="us-east-1", workflow_table="wf-x", sessions_table="s-x")
    store = open_metrics_store(aws)
    assert isinstance(store, DynamoMetricsStore) and store.name == "wf-x"
    local = Settings(data_dir=tmp_path, metrics_flush_seconds=2.5)
    rec = open_recorder(local)
    assert rec is not None and isinstance(rec.store, SqliteMetricsStore) and rec.flush_seconds == 2.5
    assert open_recorder(local.with_overrides(metrics_enabled=False)) is None
