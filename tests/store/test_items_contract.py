"""One contract for every ItemTable adapter: SQLite, DynamoDB on moto, DynamoDB on DynamoDB Local."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from store.errors import Conflict, InvalidInput, ItemTooLarge, TransactionConflict
from store.items import (
    And,
    ConditionCheck,
    Delete,
    Equals,
    Exists,
    In,
    ItemTable,
    KeyRange,
    NotExists,
    Or,
    Put,
    Update,
    item_size,
    query_all,
)
from store.schema import MAX_ITEM_BYTES, MAX_PAGE_BYTES


def backend_of(request: pytest.FixtureRequest) -> str:
    return str(request.node.callspec.params["item_table"])


def test_implements_protocol(item_table: ItemTable) -> None:
    assert isinstance(item_table, ItemTable)


def test_put_get_round_trip_all_types(item_table: ItemTable) -> None:
    item = {
        "PK": "SESSION#01JQ8Z",
        "SK": "MSG#000042",
        "s": "한글 ✓ \u2028",
        "i": 12043,
        "big": 2**53 + 1,
        "neg": -7,
        "f": 0.25,
        "integral_float": 3.0,
        "t": True,
        "fa": False,
        "n": None,
        "empty": "",
        "l": [1, "two", [3.5], {"k": None}],
        "m": {"usage": {"input": 1, "cache_read": 0}, "$bytes": "not really bytes"},
        "b": b"\x00\xffbin",
    }
    item_table.put(item)
    got = item_table.get("SESSION#01JQ8Z", "MSG#000042")
    assert got is not None
    expected = dict(item, integral_float=3)
    assert got == expected
    assert type(got["i"]) is int and type(got["f"]) is float and type(got["integral_float"]) is int
    assert type(got["t"]) is bool and type(got["b"]) is bytes
    assert item_table.get("SESSION#01JQ8Z", "MSG#000043") is None
    assert item_table.get("SESSION#01JQ8Z", "MSG#000042", consistent=False) == expected


def test_conditional_put(item_table: ItemTable) -> None:
    item = {"PK": "P", "SK": "S", "status": "pending", "n": 1}
    item_table.put(item, condition=NotExists("PK"))
    with pytest.raises(Conflict):
        item_table.put(dict(item, n=2), condition=NotExists("PK"))
    item_table.put(dict(item, n=3), condition=Equals("status", "pending"))
    with pytest.raises(Conflict):
        item_table.put(dict(item, n=4), condition=Equals("status", "done"))
    item_table.put(dict(item, n=5), condition=In("status", ("failed", "pending")))
    item_table.put(dict(item, n=6), condition=And((Exists("status"), Equals("n", 5))))
    item_table.put(dict(item, n=7), condition=Or((Equals("n", 99), NotExists("missing"))))
    with pytest.raises(Conflict):
        item_table.put(dict(item, n=8), condition=Or((Equals("n", 99), Exists("missing"))))
    with pytest.raises(Conflict):
        item_table.put(dict(item, n=9), condition=Equals("n", True))  # a bool is not a number
    got = item_table.get("P", "S")
    assert got is not None and got["n"] == 7


def test_update_set_add_remove_returns_new_item(item_table: ItemTable) -> None:
    new = item_table.update("S#1", "META", set={"title": "t", "GSI1PK": "USER#a", "GSI1SK": "2026"},
                            set_if_missing={"created": "c1"}, add={"last_seq": 1})
    assert new == {"PK": "S#1", "SK": "META", "title": "t", "GSI1PK": "USER#a", "GSI1SK": "2026",
                   "created": "c1", "last_seq": 1}
    new = item_table.update("S#1", "META", set_if_missing={"created": "c2"}, add={"last_seq": 1, "cost": 0.5},
                            remove=["title"], condition=Exists("PK"))
    assert new["created"] == "c1" and new["last_seq"] == 2 and new["cost"] == 0.5 and "title" not in new
    assert item_table.get("S#1", "META") == new
    with pytest.raises(Conflict):
        item_table.update("S#1", "META", add={"last_seq": 1}, condition=Equals("last_seq", 1))
    with pytest.raises(Conflict):
        item_table.update("S#missing", "META", add={"last_seq": 1}, condition=Exists("PK"))
    assert item_table.get("S#missing", "META") is None
    assert item_table.get("S#1", "META") == new
    with pytest.raises(InvalidInput):
        item_table.update("S#1", "META", set={"PK": "x"})
    with pytest.raises(InvalidInput):
        item_table.update("S#1", "META", set={"a": 1}, add={"a": 1})
    with pytest.raises(InvalidInput):
        item_table.update("S#1", "META", add={"created": 1})  # not a number


def test_atomic_counter_under_concurrency(item_table: ItemTable) -> None:
    def bump(_: int) -> int:
        return int(item_table.update("C", "META", add={"n": 1})["n"])

    with ThreadPoolExecutor(6) as pool:
        values = list(pool.map(bump, range(30)))
    assert sorted(values) == list(range(1, 31))
    got = item_table.get("C", "META")
    assert got is not None and got["n"] == 30


def test_delete(item_table: ItemTable) -> None:
    item_table.put({"PK": "P", "SK": "S", "v": 1})
    with pytest.raises(Conflict):
        item_table.delete("P", "S", condition=Equals("v", 2))
    item_table.delete("P", "S", condition=Equals("v", 1))
    assert item_table.get("P", "S") is None
    item_table.delete("P", "S")  # absent: no error
    with pytest.raises(Conflict):
        item_table.delete("P", "S", condition=Exists("PK"))


def _seed_messages(table: ItemTable, n: int) -> None:
    table.batch_write(puts=[{"PK": "SESSION#x", "SK": f"MSG#{i:06d}", "seq": i} for i in range(1, n + 1)])
    table.put({"PK": "SESSION#x", "SK": "META", "last_seq": n})
    table.put({"PK": "SESSION#y", "SK": "MSG#000001", "seq": 1})


def test_query_key_conditions_and_order(item_table: ItemTable) -> None:
    _seed_messages(item_table, 12)
    page = item_table.query("SESSION#x", sk=KeyRange(begins_with="MSG#"))
    assert [it["seq"] for it in page.items] == list(range(1, 13)) and page.cursor is None
    page = item_table.query("SESSION#x", sk=KeyRange(begins_with="MSG#"), forward=False, limit=3)
    assert [it["seq"] for it in page.items] == [12, 11, 10]
    assert item_table.query("SESSION#x").items[0]["SK"] == "META"  # "ME" < "MS"
    between = item_table.query("SESSION#x", sk=KeyRange(between=("MSG#000003", "MSG#000005"))).items
    assert [it["seq"] for it in between] == [3, 4, 5]
    gt = item_table.query("SESSION#x", sk=KeyRange(op=">", value="MSG#000010")).items
    assert [it["SK"] for it in gt] == ["MSG#000011", "MSG#000012"]
    le = item_table.query("SESSION#x", sk=KeyRange(op="<=", value="MSG#000002")).items
    assert [it["SK"] for it in le] == ["META", "MSG#000001", "MSG#000002"]
    assert item_table.query("SESSION#none").items == []


@pytest.mark.parametrize("forward", [True, False])
def test_query_pagination_with_cursor(item_table: ItemTable, forward: bool) -> None:
    _seed_messages(item_table, 23)
    seen: list[int] = []
    cursor = None
    pages = 0
    while True:
        page = item_table.query("SESSION#x", sk=KeyRange(begins_with="MSG#"), limit=5, cursor=cursor, forward=forward)
        assert len(page.items) <= 5
        seen += [it["seq"] for it in page.items]
        pages += 1
        cursor = page.cursor
        if cursor is None:
            break
    expected = list(range(1, 24))
    assert seen == (expected if forward else expected[::-1])
    assert pages in (5, 6)  # DynamoDB may hand out a cursor that leads to an empty last page
    assert [it["seq"] for it in query_all(item_table, "SESSION#x", sk=KeyRange(begins_with="MSG#"))] == expected
    with pytest.raises(InvalidInput):
        item_table.query("SESSION#x", cursor="%%% not a cursor %%%")


def test_item_size_limit(item_table: ItemTable) -> None:
    ok = {"PK": "P", "SK": "ok", "blob": "x" * 399_000}  # moto rejects above 405,000 bytes, DynamoDB at 400 KiB
    assert item_size(ok) < MAX_ITEM_BYTES
    item_table.put(ok)
    with pytest.raises(ItemTooLarge):
        item_table.put({"PK": "P", "SK": "big", "blob": "x" * (MAX_ITEM_BYTES + 10)})
    with pytest.raises(ItemTooLarge):
        item_table.put({"PK": "P", "SK": "big", "blob": "가" * (MAX_ITEM_BYTES // 3 + 10)})  # 3 bytes each in UTF-8
    with pytest.raises(ItemTooLarge):
        item_table.update("P", "ok", set={"more": "y" * 20_000})
    assert item_table.get("P", "big") is None


def test_page_never_exceeds_1mb(item_table: ItemTable) -> None:
    blob = "z" * (300 * 1024)
    item_table.batch_write(puts=[{"PK": "BIG", "SK": f"I#{i:02d}", "blob": blob} for i in range(7)])
    page = item_table.query("BIG")
    assert 1 <= len(page.items) <= 3 and page.cursor is not None
    assert sum(item_size(it) for it in page.items) <= MAX_PAGE_BYTES
    assert [it["SK"] for it in query_all(item_table, "BIG")] == [f"I#{i:02d}" for i in range(7)]


def test_sparse_gsi_queries(item_table: ItemTable) -> None:
    owners = [("a", "2026-01-03"), ("a", "2026-01-01"), ("b", "2026-01-02"), ("a", "2026-01-02")]
    for i, (user, ts) in enumerate(owners):
        item_table.put({"PK": f"SESSION#{i}", "SK": "META", "GSI1PK": f"USER#{user}", "GSI1SK": ts, "i": i})
        item_table.put({"PK": f"SESSION#{i}", "SK": "MSG#000001", "GSI1PK": f"USER#{user}"})  # no GSI1SK: not indexed
    item_table.put({"PK": "WF#1", "SK": "STEP", "GSI2PK": "STEP#ANALYSIS_STATUS", "GSI2SK": "in_progress"})
    newest_first = item_table.query("USER#a", index="GSI1", forward=False).items
    assert [it["i"] for it in newest_first] == [0, 3, 1]
    assert all(it["SK"] == "META" for it in newest_first)
    assert item_table.query("USER#a", index="GSI1", sk=KeyRange(begins_with="2026-01-0"), limit=1).items[0]["i"] == 1
    assert [it["i"] for it in item_table.query("USER#b", index="GSI1").items] == [2]
    assert item_table.query("USER#a", index="GSI2").items == []
    steps = item_table.query("STEP#ANALYSIS_STATUS", index="GSI2", sk=KeyRange(begins_with="in_")).items
    assert [it["PK"] for it in steps] == ["WF#1"]
    seen: list[int] = []
    cursor = None
    while True:
        page = item_table.query("USER#a", index="GSI1", forward=False, limit=2, cursor=cursor)
        seen += [it["i"] for it in page.items]
        cursor = page.cursor
        if cursor is None:
            break
    assert seen == [0, 3, 1]
    # a key change moves the item within the index; removing a key drops it out of the index
    item_table.update("SESSION#1", "META", set={"GSI1SK": "2026-02-01"})
    assert item_table.query("USER#a", index="GSI1", forward=False).items[0]["i"] == 1
    item_table.update("SESSION#1", "META", remove=["GSI1SK"])
    assert [it["i"] for it in item_table.query("USER#a", index="GSI1").items] == [3, 0]
    with pytest.raises(InvalidInput):
        item_table.put({"PK": "X", "SK": "Y", "GSI1PK": ""})  # index keys cannot be empty strings


def test_transaction_all_or_nothing(item_table: ItemTable) -> None:
    item_table.put({"PK": "A", "SK": "1", "v": 1})
    item_table.put({"PK": "A", "SK": "3", "v": 3})
    with pytest.raises(TransactionConflict) as info:
        item_table.transact_write([
            Put({"PK": "A", "SK": "2", "v": 2}, NotExists("PK")),
            Update("A", "1", add={"v": 10}),
            Put({"PK": "A", "SK": "1b", "v": 0}),
            ConditionCheck("A", "3", Equals("v", 99)),
        ])
    assert info.value.context["reasons"] == ["None", "None", "None", "ConditionalCheckFailed"]
    assert item_table.get("A", "2") is None and item_table.get("A", "1b") is None
    got = item_table.get("A", "1")
    assert got is not None and got["v"] == 1
    item_table.transact_write([
        Put({"PK": "A", "SK": "2", "v": 2}, NotExists("PK")),
        Update("A", "1", add={"v": 10}, condition=Equals("v", 1)),
        Delete("A", "3", condition=Exists("PK")),
        ConditionCheck("A", "4", NotExists("PK")),
    ])
    assert [(it["SK"], it["v"]) for it in item_table.query("A").items] == [("1", 11), ("2", 2)]
    with pytest.raises(InvalidInput):
        item_table.transact_write([Put({"PK": "A", "SK": "9"}), Delete("A", "9")])
    with pytest.raises(InvalidInput):
        item_table.transact_write([Put({"PK": "T", "SK": str(i)}) for i in range(101)])
    with pytest.raises(InvalidInput):
        item_table.transact_write([])


def test_transaction_of_100(item_table: ItemTable) -> None:
    item_table.transact_write([Put({"PK": "T", "SK": f"{i:03d}"}, NotExists("PK")) for i in range(100)])
    assert len(query_all(item_table, "T")) == 100


def test_batch_write_puts_and_deletes(item_table: ItemTable) -> None:
    item_table.batch_write(puts=[{"PK": "B", "SK": f"{i:03d}", "v": i} for i in range(60)])
    assert len(query_all(item_table, "B")) == 60
    item_table.batch_write(puts=[{"PK": "B", "SK": "new"}], deletes=[("B", f"{i:03d}") for i in range(55)])
    assert [it["SK"] for it in query_all(item_table, "B")] == ["055", "056", "057", "058", "059", "new"]
    with pytest.raises(InvalidInput):
        item_table.batch_write(puts=[{"PK": "B", "SK": "d"}, {"PK": "B", "SK": "d"}])


def test_ttl_expired_items_invisible(item_table: ItemTable) -> None:
    now = int(time.time())
    item_table.put({"PK": "TTL", "SK": "old", "expire_at": now - 3600})
    item_table.put({"PK": "TTL", "SK": "new", "expire_at": now + 3600})
    item_table.put({"PK": "TTL", "SK": "none"})
    assert item_table.get("TTL", "old") is None
    assert item_table.get("TTL", "new") is not None
    assert [it["SK"] for it in query_all(item_table, "TTL")] == ["new", "none"]


def test_client_request_token_is_idempotent(item_table: ItemTable, request: pytest.FixtureRequest) -> None:
    if backend_of(request) == "moto":
        pytest.skip("moto does not honour a repeated ClientRequestToken (DynamoDB Local and SQLite do)")
    ops = [Update("CTR", "META", add={"n": 1}), Put({"PK": "CTR", "SK": "LOG#1"})]
    item_table.transact_write(ops, client_request_token="tok-123")
    item_table.transact_write(ops, client_request_token="tok-123")  # the lost-response retry
    got = item_table.get("CTR", "META")
    assert got is not None and got["n"] == 1
    with pytest.raises(InvalidInput):
        item_table.transact_write([Update("CTR", "META", add={"n": 5})], client_request_token="tok-123")
    item_table.transact_write(ops, client_request_token="tok-456")
    got = item_table.get("CTR", "META")
    assert got is not None and got["n"] == 2


def test_concurrent_conditional_creates_one_winner(item_table: ItemTable) -> None:
    barrier = threading.Barrier(5, timeout=10)
    wins: list[Any] = []

    def claim(i: int) -> None:
        barrier.wait()
        try:
            item_table.put({"PK": "JOB", "SK": "CLAIM", "by": i}, condition=NotExists("PK"))
            wins.append(i)
        except Conflict:
            pass

    with ThreadPoolExecutor(5) as pool:
        list(pool.map(claim, range(5)))
    assert len(wins) == 1
    got = item_table.get("JOB", "CLAIM")
    assert got is not None and got["by"] == wins[0]
