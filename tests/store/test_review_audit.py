"""The review queue and the audit log on every ItemTable adapter (SQLite, DynamoDB on moto, DynamoDB Local)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from store.audit import AuditLog, content_hash
from store.errors import Conflict
from store.review import ReviewStore, queue_key
from store.schema import REVIEW_INDEX

FLAG = {"field": "total", "value": "9.00", "normalized": "9.00", "confidence": 0.91, "page": 1,
        "bbox": [1, 2, 3, 4], "reasons": ["low_confidence: confidence 0.910 < 0.98"]}


class Clock:
    t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


def test_open_claim_resolve_moves_the_item_through_the_sparse_status_index(item_table) -> None:
    clock = Clock()
    q = ReviewStore(item_table, clock=clock)
    assert q.open_items("p1", "d1", "w1", [FLAG, {**FLAG, "field": "date", "value": "1/1/1900"}]) == 2
    clock.t += 1
    q.open_items("p1", "d2", "w2", [FLAG])
    q.open_items("p2", "d9", "w9", [FLAG])  # another project's queue
    open_ = q.list("p1", "open")
    assert [(i["document_id"], i["field"]) for i in open_.items] == [("d1", "date"), ("d1", "total"), ("d2", "total")]
    # read from the index by project+status: the items carry the queue key, nothing else does
    raw = item_table.query(queue_key("p1", "open"), index=REVIEW_INDEX.name)
    assert len(raw.items) == 3 and all(it["PK"] == "REVIEW#p1" for it in raw.items)

    claimed = q.claim("p1", "d1:total", "rita")
    assert claimed["status"] == "claimed" and claimed["claimed_by"] == "rita"
    assert q.claim("p1", "d1:total", "rita")["status"] == "claimed"  # idempotent for the holder
    with pytest.raises(Conflict):
        q.claim("p1", "d1:total", "sam")
    with pytest.raises(Conflict):
        q.resolve("p1", "d1:total", "sam", "accept")  # not holding the claim
    with pytest.raises(Conflict):
        q.resolve("p1", "d2:total", "rita", "accept")  # never claimed
    assert [i["item_id"] for i in q.list("p1", "open").items] == ["d1:date", "d2:total"]
    assert [i["item_id"] for i in q.list("p1", "claimed").items] == ["d1:total"]

    done = q.resolve("p1", "d1:total", "rita", "correct", "9.50")
    assert done["status"] == "resolved" and done["decision"] == "correct" and done["corrected"] == "9.50"
    assert q.list("p1", "claimed").items == []
    assert [i["item_id"] for i in q.list("p1", "resolved").items] == ["d1:total"]
    with pytest.raises(Conflict):
        q.claim("p1", "d1:total", "sam")
    # re-running extraction refreshes open items, leaves decided ones alone
    assert q.open_items("p1", "d1", "w1", [FLAG, {**FLAG, "field": "date"}]) == 1
    assert q.get("p1", "d1:total")["status"] == "resolved"


def test_two_reviewers_racing_for_one_item_only_one_wins(item_table) -> None:
    q = ReviewStore(item_table)
    q.open_items("p1", "d1", "w1", [FLAG])

    def grab(who: str) -> str | None:
        try:
            return str(q.claim("p1", "d1:total", who)["claimed_by"])
        except Conflict:
            return None

    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(grab, [f"r{i}" for i in range(8)]))
    winners = [g for g in got if g]
    assert len(winners) == 1 and q.get("p1", "d1:total")["claimed_by"] == winners[0]


def test_audit_is_append_only_newest_first_paged_and_expires_by_ttl(item_table) -> None:
    clock = Clock()
    log = AuditLog(item_table, retention_days=30, clock=clock)
    for i, action in enumerate(("upload", "analysis", "correction", "delete")):
        clock.t += 1
        log.record("p1", actor="alice" if i != 1 else "system", action=action, document_id="d1",
                   before=content_hash("old") if action == "correction" else None, after=str(i))
    first = log.list("p1", limit=3)
    assert [e["action"] for e in first.items] == ["delete", "correction", "analysis"] and first.cursor
    rest = log.list("p1", limit=3, cursor=first.cursor)
    assert [e["action"] for e in rest.items] == ["upload"]
    assert first.items[1]["before"] == content_hash("old") and first.items[1]["before"].startswith("sha256:")
    raw = item_table.query("AUDIT#p1").items
    assert all(it["expire_at"] == pytest.approx(clock.t + 30 * 86400, abs=10) for it in raw)
    with pytest.raises(ValueError):
        log.record("p1", actor="x", action="tamper")


def test_shares_index_one_item_per_reviewer_and_follow_the_owners_list(item_table) -> None:
    q = ReviewStore(item_table)
    q.set_shares("p1", owner="alice", name="Receipts", before=[], after=["rita", "sam"])
    q.set_shares("p2", owner="bob", name="Invoices", before=[], after=["rita"])
    assert sorted(p["project_id"] for p in q.shared_with("rita")) == ["p1", "p2"]
    assert q.shared_with("sam") == [{"project_id": "p1", "owner": "alice", "name": "Receipts"}]
    q.set_shares("p1", owner="alice", name="Receipts", before=["rita", "sam"], after=["sam"])
    assert [p["project_id"] for p in q.shared_with("rita")] == ["p2"]
    assert q.shared_with("nobody") == []


def test_deleting_a_project_drops_its_reviewer_index_and_queue_items(item_table) -> None:
    q = ReviewStore(item_table)
    q.set_shares("p1", owner="alice", name="Receipts", before=[], after=["rita", "sam"])
    q.set_shares("p2", owner="alice", name="Invoices", before=[], after=["rita"])
    q.open_items("p1", "d1", "w1", [FLAG])
    q.delete_project("p1", ["rita", "sam"])
    assert [p["project_id"] for p in q.shared_with("rita")] == ["p2"]
    assert q.shared_with("sam") == []
    assert item_table.query("REVIEW#p1").items == []
    assert q.list("p1", "open").items == []
