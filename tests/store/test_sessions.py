"""SessionStore behaviour (seed 002) on sqlite+file, moto DynamoDB+S3 and DynamoDB Local."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from store.blocks import assert_pairs_ok, dumps_blocks
from store.errors import InvalidInput, NotFound, SessionConflict
from store.items import KeyRange, query_all
from store.sessions import SessionStore, blob_key

RICH_BLOCKS: list[dict[str, Any]] = [
    {"type": "thinking", "thinking": "", "signature": "EqQBCkYIARgCIkB0c2lnbmF0dXJl=="},
    {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIw"},
    {"type": "text", "text": "날씨를 확인해볼게요 — \"quoted\" \\ \u2028 🌤", "citations": [{"type": "x", "n": 1.5}]},
    {"type": "tool_use", "id": "toolu_01", "name": "search_documents", "input": {"query": "세금", "k": 3, "f": 0.25}},
    {"type": "compaction", "content": "summary of earlier turns"},
    {"type": "future_block_v9", "payload": {"nested": [1, 2.5, None, True, {"z": "ü"}]}, "flag": False},
]


def test_create_get_and_item_layout(session_store: SessionStore) -> None:
    sid = session_store.create_session(user_id="alice", title="  Tax   questions ")
    s = session_store.get_session(sid)
    assert s["owner"] == "alice" and s["title"] == "Tax questions" and s["last_seq"] == 0
    assert s["usage"] == {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0}
    seq = session_store.append_message(
        sid, "assistant", [{"type": "text", "text": "hi"}], model="m1", usage={"input_tokens": 10, "output": 2}
    )
    assert seq == 1
    meta = session_store.items.get(f"SESSION#{sid}", "META")
    assert meta is not None
    assert meta["GSI1PK"] == "USER#alice" and meta["GSI1SK"] == meta["updated_at"]
    assert meta["last_seq"] == 1 and isinstance(meta["expire_at"], int)
    msg = session_store.items.get(f"SESSION#{sid}", "MSG#000001")
    assert msg is not None
    assert msg["seq"] == 1 and msg["role"] == "assistant" and msg["model"] == "m1"
    assert msg["blocks"] == '[{"type":"text","text":"hi"}]' and "blocks_ref" not in msg
    assert msg["usage"] == {"input": 10, "output": 2, "cache_read": 0, "cache_write": 0}
    assert msg["expire_at"] >= meta["expire_at"] - 5
    assert session_store.get_session(sid)["usage"] == {"input": 10, "output": 2, "cache_read": 0, "cache_write": 0}
    with pytest.raises(NotFound):
        session_store.get_session(sid, user_id="bob")


def test_blocks_round_trip_byte_exact(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    user = [{"type": "text", "text": "질문"}]
    result = [{"type": "tool_result", "tool_use_id": "toolu_01", "content": [{"type": "text", "text": "맑음"}]}]
    session_store.append_message(sid, "user", user)
    session_store.append_message(sid, "assistant", RICH_BLOCKS)
    session_store.append_message(sid, "user", result)
    msgs = session_store.load_messages(sid)
    assert [m["role"] for m in msgs] == ["user", "assistant", "user"]
    assert msgs[1]["content"] == RICH_BLOCKS
    assert dumps_blocks(msgs[1]["content"]).encode() == dumps_blocks(RICH_BLOCKS).encode()
    assert msgs[1]["content"][0]["thinking"] == ""  # empty thinking kept with its signature
    assert isinstance(msgs[1]["content"][5]["payload"]["nested"][1], float)


def test_sdk_objects_are_stored_without_none_fields(session_store: SessionStore) -> None:
    class FakeBlock:  # shaped like an anthropic pydantic block
        def model_dump(self, *, exclude_none: bool, mode: str) -> dict[str, Any]:
            d = {"type": "text", "text": "x", "citations": None}
            return {k: v for k, v in d.items() if v is not None} if exclude_none else d

    sid = session_store.create_session("alice")
    session_store.append_message(sid, "assistant", [FakeBlock()])
    assert session_store.load_messages(sid)[0]["content"] == [{"type": "text", "text": "x"}]
    with pytest.raises(InvalidInput):
        session_store.append_message(sid, "assistant", [object()])


def test_concurrent_appenders_get_distinct_seqs(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    n = 24
    barrier = threading.Barrier(8)

    def one(i: int) -> int:
        if i < 8:
            barrier.wait()
        return session_store.append_message(sid, "user", [{"type": "text", "text": f"m{i}"}], turn_id=f"t{i}")

    with ThreadPoolExecutor(8) as pool:
        seqs = list(pool.map(one, range(n)))
    assert sorted(seqs) == list(range(1, n + 1))
    msgs = session_store.load_messages(sid)
    assert sorted(m["content"][0]["text"] for m in msgs) == sorted(f"m{i}" for i in range(n))
    by_seq = {s: f"m{i}" for i, s in enumerate(seqs)}
    assert [m["content"][0]["text"] for m in msgs] == [by_seq[s] for s in sorted(by_seq)]


def test_retry_with_same_turn_id_returns_original_seq_and_writes_nothing(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    blocks = [{"type": "text", "text": "answer"}]
    usage = {"input": 5, "output": 7}
    first = session_store.append_message(sid, "assistant", blocks, turn_id="req-1:a", usage=usage)
    before = query_all(session_store.items, f"SESSION#{sid}", consistent=True)
    again = session_store.append_message(sid, "assistant", blocks, turn_id="req-1:a", usage=usage)
    assert again == first
    after = query_all(session_store.items, f"SESSION#{sid}", consistent=True)
    assert after == before  # not even the counter or updated_at moved
    assert session_store.get_session(sid)["usage"]["output"] == 7
    assert len(session_store.load_messages(sid)) == 1


def test_retry_after_crash_between_marker_and_message_finishes_the_turn(
    session_store: SessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = session_store.create_session("alice")
    big = [{"type": "text", "text": "z" * 20_000}]  # offloaded, so the retry must rewrite the blob too
    real_put = session_store.items.put

    def dying_put(item: dict[str, Any], **kw: Any) -> None:
        if item["SK"].startswith("MSG#"):
            raise ConnectionError("process died")
        real_put(item, **kw)

    monkeypatch.setattr(session_store.items, "put", dying_put)
    with pytest.raises(ConnectionError):
        session_store.append_message(sid, "assistant", big, turn_id="req-9:a", usage={"output": 4})
    monkeypatch.setattr(session_store.items, "put", real_put)
    assert session_store.load_messages(sid) == []
    seq = session_store.append_message(sid, "assistant", big, turn_id="req-9:a", usage={"output": 4})
    assert seq == 1
    assert session_store.load_messages(sid) == [{"role": "assistant", "content": big}]
    assert session_store.get_session(sid)["usage"]["output"] == 4 and session_store.get_session(sid)["last_seq"] == 1


def test_import_messages_bulk(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    session_store.append_message(sid, "user", [{"type": "text", "text": "first"}])
    msgs = [{"role": "user" if i % 2 else "assistant", "content": [{"type": "text", "text": str(i)}],
             "usage": {"output": 1}} for i in range(40)]
    msgs[7]["content"] = [{"type": "text", "text": "big" * 5000}]
    seqs = session_store.import_messages(sid, msgs)
    assert seqs == list(range(2, 42))
    loaded = session_store.load_messages(sid)
    assert loaded[1:] == [{"role": m["role"], "content": m["content"]} for m in msgs]
    assert session_store.get_session(sid)["usage"]["output"] == 40
    assert session_store.append_message(sid, "user", [{"type": "text", "text": "next"}]) == 42
    with pytest.raises(InvalidInput):
        session_store.import_messages(sid, [{"role": "tool", "content": []}])


def test_concurrent_retries_of_one_turn_store_it_once(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    barrier = threading.Barrier(6)

    def one(_: int) -> int:
        barrier.wait()
        return session_store.append_message(
            sid, "assistant", [{"type": "text", "text": "x"}], turn_id="dup", usage={"output": 3}
        )

    with ThreadPoolExecutor(6) as pool:
        seqs = set(pool.map(one, range(6)))
    assert len(seqs) == 1
    assert len(session_store.load_messages(sid)) == 1
    assert session_store.get_session(sid)["usage"]["output"] == 3  # losers took their usage back


def test_gap_in_seq_is_tolerated(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    session_store.append_message(sid, "user", [{"type": "text", "text": "a"}])
    session_store.items.update(f"SESSION#{sid}", "META", add={"last_seq": 1})  # drawn, never written (crash)
    seq = session_store.append_message(sid, "assistant", [{"type": "text", "text": "b"}])
    assert seq == 3
    assert [m["content"][0]["text"] for m in session_store.load_messages(sid)] == ["a", "b"]


def test_expired_head_never_opens_mid_tool_exchange(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    call = [{"type": "tool_use", "id": "t1", "name": "search", "input": {}}]
    result = [{"type": "tool_result", "tool_use_id": "t1", "content": "r"}]
    for role, blocks in [("user", [{"type": "text", "text": "q1"}]), ("assistant", call), ("user", result),
                         ("assistant", [{"type": "text", "text": "a1"}]), ("user", [{"type": "text", "text": "q2"}]),
                         ("assistant", [{"type": "text", "text": "a2"}])]:
        session_store.append_message(sid, role, blocks)
    past = int(time.time()) - 60
    for seq in (1, 2):  # TTL took the first two turns
        session_store.items.update(f"SESSION#{sid}", f"MSG#{seq:06d}", set={"expire_at": past})
    msgs = session_store.load_messages(sid)
    assert [m["content"][0].get("text") for m in msgs] == ["a1", "q2", "a2"]  # the orphan tool_result is dropped
    assert_pairs_ok(msgs)


def test_large_turn_offloaded_to_blob_store(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    big = [{"type": "tool_result", "tool_use_id": "t", "content": "가" * 6000}]  # 18 KB > 8 KB inline limit
    session_store.append_message(sid, "user", [{"type": "text", "text": "q"}])
    seq = session_store.append_message(sid, "user", big)
    item = session_store.items.get(f"SESSION#{sid}", f"MSG#{seq:06d}")
    assert item is not None and "blocks" not in item
    assert item["blocks_ref"] == blob_key(sid, seq) == f"sessions/{sid}/{seq:06d}.json"
    assert json.loads(session_store.blobs.get(item["blocks_ref"])) == big
    assert session_store.load_messages(sid)[1]["content"] == big


def test_blob_written_before_item(session_store: SessionStore, monkeypatch: pytest.MonkeyPatch) -> None:
    sid = session_store.create_session("alice")

    def broken_put(*a: Any, **k: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(session_store.blobs, "put", broken_put)
    with pytest.raises(OSError):
        session_store.append_message(sid, "user", [{"type": "text", "text": "x" * 20000}])
    assert session_store.load_messages(sid) == []  # no item points at a blob that does not exist


def test_many_offloaded_turns_load_concurrently(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    texts = [chr(0x41 + i) * 9000 for i in range(6)]
    for t in texts:
        session_store.append_message(sid, "user", [{"type": "text", "text": t}])
    calls: list[str] = []
    both_in_flight = threading.Barrier(2, timeout=10)  # breaks (and fails the load) if fetches are sequential
    real_get = session_store.blobs.get

    def spy(key: str) -> bytes:
        calls.append(key)
        if len(calls) <= 2:
            both_in_flight.wait()
        return real_get(key)

    session_store.blobs.get = spy  # type: ignore[method-assign]
    assert [m["content"][0]["text"] for m in session_store.load_messages(sid)] == texts
    assert sorted(calls) == sorted(f"sessions/{sid}/{i:06d}.json" for i in range(1, 7))


def test_load_follows_pages_beyond_1mb_and_skips_meta(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    chunk = "x" * 7000  # inline (< 8 KB); 170 of them ≈ 1.2 MB of items → more than one page
    n = 170
    for i in range(n):
        session_store.append_message(sid, "user" if i % 2 == 0 else "assistant", [{"type": "text", "text": chunk}])
    first = session_store.items.query(f"SESSION#{sid}", sk=KeyRange(begins_with="MSG#"), consistent=True)
    assert first.cursor is not None and len(first.items) < n
    msgs = session_store.load_messages(sid)
    assert len(msgs) == n and all("META" not in str(m) for m in msgs[:1])
    window = session_store.load_messages(sid, limit=5)
    assert len(window) <= 5 and window[0]["role"] == "user"


def test_list_messages_pages_for_display(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    for i in range(5):
        session_store.append_message(sid, "user", [{"type": "text", "text": str(i)}], model=None, turn_id=f"u{i}")
    seen: list[int] = []
    cursor = None
    while True:
        page = session_store.list_messages(sid, cursor=cursor, limit=2)
        seen += [m["seq"] for m in page["items"]]
        assert all(m["turn_id"] == f"u{m['seq'] - 1}" for m in page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [1, 2, 3, 4, 5]


def test_list_sessions_newest_activity_first_and_only_own(session_store: SessionStore) -> None:
    clock = [1_800_000_000.0]
    session_store._clock = lambda: clock[0]  # type: ignore[method-assign]

    def tick() -> None:
        clock[0] += 1

    a1 = session_store.create_session("alice", "one")
    tick()
    a2 = session_store.create_session("alice", "two")
    tick()
    b1 = session_store.create_session("bob", "bob's")
    tick()
    a3 = session_store.create_session("alice", "three")
    tick()
    session_store.append_message(a1, "user", [{"type": "text", "text": "bump"}])  # a1 is now the newest
    ids: list[str] = []
    cursor = None
    while True:
        page = session_store.list_sessions("alice", limit=2, cursor=cursor)
        ids += [s["session_id"] for s in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert ids == [a1, a3, a2]
    assert b1 not in ids
    assert [s["session_id"] for s in session_store.list_sessions("bob")["items"]] == [b1]
    page = session_store.list_sessions("alice", limit=1)
    with pytest.raises(InvalidInput):
        session_store.list_sessions("bob", cursor=page["next_cursor"])  # a cursor is bound to its user
    with pytest.raises(InvalidInput):
        session_store.list_sessions("alice", cursor="not-a-cursor")


def test_rename_and_delete(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    session_store.rename_session(sid, "New name")
    assert session_store.get_session(sid)["title"] == "New name"
    with pytest.raises(NotFound):
        session_store.rename_session(sid, "x", user_id="bob")
    session_store.append_message(sid, "user", [{"type": "text", "text": "y" * 20000}], turn_id="t1")
    session_store.append_message(sid, "assistant", [{"type": "text", "text": "ok"}])
    assert list(session_store.blobs.list(f"sessions/{sid}/"))
    with pytest.raises(NotFound):
        session_store.delete_session(sid, user_id="bob")
    session_store.delete_session(sid, user_id="alice")
    assert query_all(session_store.items, f"SESSION#{sid}", consistent=True) == []
    assert list(session_store.blobs.list(f"sessions/{sid}/")) == []
    assert session_store.list_sessions("alice")["items"] == []
    with pytest.raises(NotFound):
        session_store.get_session(sid)
    with pytest.raises(NotFound):
        session_store.append_message(sid, "user", [{"type": "text", "text": "late"}])
    with pytest.raises(NotFound):
        session_store.rename_session("missing", "x")


def test_bad_input(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    with pytest.raises(InvalidInput):
        session_store.append_message(sid, "system", [])
    with pytest.raises(InvalidInput):
        session_store.append_message(sid, "user", [], turn_id="has space")
    with pytest.raises(NotFound):
        session_store.get_session("../etc")
    with pytest.raises(InvalidInput):
        session_store.create_session("")
    with pytest.raises(SessionConflict):
        session_store.create_session("alice", session_id=sid)


def test_open_session_store_local(tmp_path: Path) -> None:
    from store import open_session_store
    from store.config import Settings

    s = open_session_store(Settings.from_env({}, data_dir=tmp_path))
    try:
        sid = s.create_session("alice")
        s.append_message(sid, "user", [{"type": "text", "text": "hi"}])
        assert s.load_messages(sid) == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
        assert (tmp_path / "sessions.db").exists()
    finally:
        s.close()
