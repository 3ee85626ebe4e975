"""What only the embedded table has: the file layout, TTL purge, reopening, the sparse index rows."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from store.items import KeyRange
from store.schema import SESSIONS_TABLE, WORKFLOW_TABLE
from store.sqlite_items import SqliteItemTable


def test_items_visible_with_their_keys_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    with SqliteItemTable(path, SESSIONS_TABLE) as t:
        t.put({"PK": "SESSION#01J", "SK": "META", "GSI1PK": "USER#alice", "GSI1SK": "2026-07-30T07:12:03.412Z"})
        t.put({"PK": "SESSION#01J", "SK": "MSG#000042", "seq": 42, "blocks": '[{"type":"text","text":"가"}]'})
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        rows = raw.execute("SELECT PK, SK, doc, g1pk FROM items ORDER BY SK").fetchall()
    finally:
        raw.close()
    assert [(r[0], r[1]) for r in rows] == [("SESSION#01J", "META"), ("SESSION#01J", "MSG#000042")]
    assert "가" in rows[1][2] and "\\u" not in rows[1][2]  # readable JSON, non-ASCII as is
    assert rows[0][3] == "USER#alice" and rows[1][3] is None  # sparse: only META is in GSI1


def test_data_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "w.db"
    with SqliteItemTable(path, WORKFLOW_TABLE) as t:
        t.update("PROJ#1", "META", add={"docs": 2})
    with SqliteItemTable(path, WORKFLOW_TABLE) as t:
        assert t.update("PROJ#1", "META", add={"docs": 1})["docs"] == 3


def test_ttl_filter_and_purge_with_clock(tmp_path: Path) -> None:
    now = [1_000_000.0]
    with SqliteItemTable(tmp_path / "t.db", WORKFLOW_TABLE, purge_interval_s=None, clock=lambda: now[0]) as t:
        t.put({"PK": "P", "SK": "a", "expire_at": 1_000_100})
        t.put({"PK": "P", "SK": "b", "expire_at": 1_000_200, "GSI1PK": "G", "GSI1SK": "x"})
        assert len(t.query("P").items) == 2
        now[0] = 1_000_150
        assert t.get("P", "a") is None
        assert [it["SK"] for it in t.query("P", sk=KeyRange(begins_with="")).items] == ["b"]
        now[0] = 1_000_300
        assert t.query("G", index="GSI1").items == []
        assert t.purge_expired() == 2
        assert t.purge_expired() == 0


def test_background_purge(tmp_path: Path) -> None:
    path = tmp_path / "bg.db"
    with SqliteItemTable(path, WORKFLOW_TABLE, purge_interval_s=0.05) as t:
        t.put({"PK": "P", "SK": "old", "expire_at": int(time.time()) - 10})
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            raw = sqlite3.connect(path)
            n = raw.execute("SELECT count(*) FROM items").fetchone()[0]
            raw.close()
            if n == 0:
                break
            time.sleep(0.05)
        assert n == 0


def test_expired_item_counts_as_absent_for_conditions(tmp_path: Path) -> None:
    from store.items import NotExists

    with SqliteItemTable(tmp_path / "c.db", WORKFLOW_TABLE, purge_interval_s=None) as t:
        t.put({"PK": "P", "SK": "lock", "expire_at": int(time.time()) - 1})
        t.put({"PK": "P", "SK": "lock", "owner": "me"}, condition=NotExists("PK"))
        got = t.get("P", "lock")
        assert got is not None and got["owner"] == "me"


def test_background_purge_ends_quietly_when_the_database_is_deleted(tmp_path: Path) -> None:
    import shutil

    from structlog.testing import capture_logs

    t = SqliteItemTable(tmp_path / "gone" / "bg.db", WORKFLOW_TABLE, purge_interval_s=0.02)
    t.put({"PK": "P", "SK": "x"})
    with capture_logs() as logs:
        shutil.rmtree(tmp_path / "gone")  # a test's data dir removed under a table nobody closed
        time.sleep(0.3)
    t.close()
    assert [e for e in logs if e["event"] == "ttl_purge_failed"] == []
