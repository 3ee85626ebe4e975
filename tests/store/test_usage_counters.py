"""One contract for every UsageCounters adapter: SQLite (limits.db), DynamoDB on moto, DynamoDB Local."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from store.schema import SESSIONS_TABLE
from store.usage_counters import SqliteUsageCounters, UsageCounters
from tests.conftest import _create_table, _dynamo_client

BACKENDS = ["sqlite", "moto", "dynamodb-local"]


class Clock:
    def __init__(self) -> None:
        self.now = float(int(time.time()))

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def make_counters(backend: str, request: pytest.FixtureRequest, tmp_path: Path, clock: Clock) -> Any:
    if backend == "sqlite":
        counters = SqliteUsageCounters(tmp_path / "limits.db", clock=clock)
        request.addfinalizer(counters.close)
        return counters
    from store.usage_counters_dynamo import DynamoUsageCounters

    if backend == "moto":
        request.getfixturevalue("moto_aws")
        client = _dynamo_client(None)
    else:
        client = _dynamo_client(request.getfixturevalue("dynamodb_local"))
    name = _create_table(client, SESSIONS_TABLE)
    if backend == "dynamodb-local":
        request.addfinalizer(lambda: client.delete_table(TableName=name))
    return DynamoUsageCounters(client, name, clock=clock)


@pytest.fixture(params=BACKENDS)
def counters(request: pytest.FixtureRequest, tmp_path: Path, clock: Clock) -> Any:
    return make_counters(request.param, request, tmp_path, clock)


def test_implements_protocol(counters: UsageCounters) -> None:
    assert isinstance(counters, UsageCounters)


def test_add_counts_up_to_the_limit_and_refuses_beyond(counters: UsageCounters, clock: Clock) -> None:
    exp = int(clock.now) + 60
    assert [counters.add("alice", "questions#1", 1, limit=3, expire_at=exp) for _ in range(4)] == [1, 2, 3, None]
    assert counters.get("alice", "questions#1") == 3  # the refused add changed nothing
    assert counters.add("alice", "pages#1", 40, limit=100, expire_at=exp) == 40
    assert counters.add("alice", "pages#1", 61, limit=100, expire_at=exp) is None  # 101 > 100
    assert counters.add("alice", "pages#1", 60, limit=100, expire_at=exp) == 100
    assert counters.add("alice", "pages#1", 500, limit=None, expire_at=exp) == 600  # no cap: just counts
    assert counters.add("alice", "big#1", 5, limit=4, expire_at=exp) is None  # more than the limit at once
    assert counters.get("alice", "big#1") == 0


def test_counters_are_per_user_and_per_key(counters: UsageCounters, clock: Clock) -> None:
    exp = int(clock.now) + 60
    assert counters.add("alice", "questions#1", 1, limit=1, expire_at=exp) == 1
    assert counters.add("alice", "questions#1", 1, limit=1, expire_at=exp) is None
    assert counters.add("bob", "questions#1", 1, limit=1, expire_at=exp) == 1
    assert counters.add("alice", "questions#2", 1, limit=1, expire_at=exp) == 1
    assert counters.get("carol", "questions#1") == 0


def test_subtract_refunds_and_never_goes_below_zero(counters: UsageCounters, clock: Clock) -> None:
    exp = int(clock.now) + 60
    counters.add("alice", "pages#1", 10, limit=10, expire_at=exp)
    counters.subtract("alice", "pages#1", 4)
    assert counters.get("alice", "pages#1") == 6
    assert counters.add("alice", "pages#1", 4, limit=10, expire_at=exp) == 10
    counters.subtract("alice", "pages#1", 50)
    assert counters.get("alice", "pages#1") == 0
    counters.subtract("alice", "missing", 1)  # no error, nothing created
    assert counters.get("alice", "missing") == 0


def test_set_if_is_compare_and_set(counters: UsageCounters) -> None:
    assert counters.set_if("alice", "projects", 3, expected=0)  # missing counts as 0
    assert counters.get("alice", "projects") == 3
    assert not counters.set_if("alice", "projects", 1, expected=2)
    assert counters.set_if("alice", "projects", 1, expected=3)
    assert counters.add("alice", "projects", 1, limit=2, expire_at=None) == 2


def test_expired_counter_reads_as_zero(counters: UsageCounters, clock: Clock) -> None:
    counters.add("alice", "q#old", 2, limit=None, expire_at=int(clock.now) + 10)
    clock.now += 11
    assert counters.get("alice", "q#old") == 0


def test_concurrent_adds_never_overshoot(counters: UsageCounters, clock: Clock) -> None:
    exp = int(clock.now) + 60
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda _: counters.add("alice", "burst", 1, limit=5, expire_at=exp), range(20)))
    assert sorted(v for v in got if v is not None) == [1, 2, 3, 4, 5]
    assert got.count(None) == 15
    assert counters.get("alice", "burst") == 5


def test_slots_hold_until_released_or_expired(counters: UsageCounters, clock: Clock) -> None:
    exp = int(clock.now) + 100
    a = counters.acquire_slot("alice", "answers", 2, "lease-a", expire_at=exp)
    b = counters.acquire_slot("alice", "answers", 2, "lease-b", expire_at=exp)
    assert {a, b} == {0, 1}
    assert counters.acquire_slot("alice", "answers", 2, "lease-c", expire_at=exp) is None
    assert counters.acquire_slot("bob", "answers", 2, "lease-d", expire_at=exp) is not None  # per user
    assert a is not None and b is not None
    counters.release_slot("alice", "answers", a, "someone-else")  # not its lease: nothing happens
    assert counters.acquire_slot("alice", "answers", 2, "lease-c", expire_at=exp) is None
    counters.release_slot("alice", "answers", a, "lease-a")
    assert counters.acquire_slot("alice", "answers", 2, "lease-c", expire_at=exp) == a
    clock.now += 101  # a crashed holder's leases run out
    assert counters.acquire_slot("alice", "answers", 2, "lease-e", expire_at=int(clock.now) + 100) is not None
    assert counters.acquire_slot("alice", "answers", 2, "lease-f", expire_at=int(clock.now) + 100) is not None
    assert counters.acquire_slot("alice", "answers", 2, "lease-g", expire_at=int(clock.now) + 100) is None


def test_concurrent_slot_grabs_never_exceed_the_slots(counters: UsageCounters, clock: Clock) -> None:
    exp = int(clock.now) + 100
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda i: counters.acquire_slot("alice", "answers", 3, f"l{i}", expire_at=exp), range(12)))
    assert sorted(g for g in got if g is not None) == [0, 1, 2]


def test_sqlite_counters_hold_across_connections(tmp_path: Path) -> None:
    """Two processes on one data dir share the limits: two connections to one file see one counter."""
    one, two = SqliteUsageCounters(tmp_path / "limits.db"), SqliteUsageCounters(tmp_path / "limits.db")
    try:
        assert one.add("alice", "q", 1, limit=2, expire_at=None) == 1
        assert two.add("alice", "q", 1, limit=2, expire_at=None) == 2
        assert one.add("alice", "q", 1, limit=2, expire_at=None) is None
    finally:
        one.close()
        two.close()


@pytest.mark.parametrize("backend", ["moto", "dynamodb-local"])
def test_dynamodb_counters_hold_across_tasks(backend: str, request: pytest.FixtureRequest, clock: Clock) -> None:
    """Two API tasks = two clients on one table: one limit between them."""
    from store.usage_counters_dynamo import DynamoUsageCounters

    if backend == "moto":
        request.getfixturevalue("moto_aws")
        endpoint = None
    else:
        endpoint = request.getfixturevalue("dynamodb_local")
    first = _dynamo_client(endpoint)
    name = _create_table(first, SESSIONS_TABLE)
    tasks = [DynamoUsageCounters(first, name, clock=clock), DynamoUsageCounters(_dynamo_client(endpoint), name,
                                                                                 clock=clock)]
    got = [tasks[i % 2].add("alice", "questions#1", 1, limit=3, expire_at=int(clock.now) + 60) for i in range(6)]
    assert got == [1, 2, 3, None, None, None]
    item = first.get_item(TableName=name, Key={"PK": {"S": "USER#alice"}, "SK": {"S": "LIMIT#questions#1"}})["Item"]
    assert item["n"] == {"N": "3"} and int(item["expire_at"]["N"]) == int(clock.now) + 60  # seed-000 keys, TTL
    if endpoint is not None:
        first.delete_table(TableName=name)
