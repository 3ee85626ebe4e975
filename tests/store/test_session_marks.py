"""Feedback, pinning and replaced turns on the session store (store/session_marks.py), on every backend."""

from __future__ import annotations

import time

import pytest

from store.errors import InvalidInput, NotFound
from store.sessions import SessionStore


def _turn(store: SessionStore, sid: str, q: str) -> tuple[int, int]:
    u = store.append_message(sid, "user", [{"type": "text", "text": q}])
    a = store.append_message(sid, "assistant", [{"type": "text", "text": f"answer to {q}"}])
    return u, a


def test_feedback_is_stored_with_the_answer_and_cleared(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    u, a = _turn(session_store, sid, "q1")
    got = session_store.set_feedback(sid, a, "down", "  wrong page  ")
    assert got is not None and got["rating"] == "down" and got["comment"] == "wrong page" and got["at"]
    msgs = {m["seq"]: m for m in session_store.list_messages(sid)["items"]}
    assert msgs[a]["feedback"] == got
    assert msgs[u]["feedback"] is None
    session_store.set_feedback(sid, a, "up")
    fb = session_store.list_messages(sid)["items"][1]["feedback"]
    assert fb is not None and fb["rating"] == "up" and "comment" not in fb
    assert session_store.set_feedback(sid, a, None) is None
    assert session_store.list_messages(sid)["items"][1]["feedback"] is None
    # the blocks are untouched
    assert session_store.load_messages(sid)[1]["content"] == [{"type": "text", "text": "answer to q1"}]


def test_feedback_only_on_an_existing_answer(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    u, _a = _turn(session_store, sid, "q1")
    with pytest.raises(NotFound):
        session_store.set_feedback(sid, u, "up")  # a question
    with pytest.raises(NotFound):
        session_store.set_feedback(sid, 99, "up")
    with pytest.raises(InvalidInput):
        session_store.set_feedback(sid, 2, "meh")
    with pytest.raises(InvalidInput):
        session_store.set_feedback(sid, 2, "up", "x" * 2001)
    assert session_store.items.get(f"SESSION#{sid}", "MSG#000099") is None  # no stray item written


def test_pinned_sessions_are_listed_first_and_stay_first(session_store: SessionStore) -> None:
    t = [time.time()]

    def clock() -> float:
        t[0] += 1
        return t[0]

    session_store._clock = clock
    a = session_store.create_session("alice", "a")
    b = session_store.create_session("alice", "b")
    c = session_store.create_session("alice", "c")
    ids = lambda: [s["session_id"] for s in session_store.list_sessions("alice")["items"]]  # noqa: E731
    assert ids() == [c, b, a]
    session_store.pin_session(a, True, user_id="alice")
    assert ids() == [a, c, b]
    assert session_store.get_session(a)["pinned"] is True
    _turn(session_store, b, "newer activity")  # activity elsewhere does not pass a pinned chat
    _turn(session_store, a, "activity on the pinned one keeps it pinned")
    assert ids() == [a, b, c]
    page = session_store.list_sessions("alice", limit=1)
    assert [s["session_id"] for s in page["items"]] == [a] and page["items"][0]["pinned"] is True
    session_store.pin_session(a, False, user_id="alice")
    assert ids() == [a, b, c]  # by activity again: a had the newest
    assert session_store.get_session(a)["pinned"] is False
    with pytest.raises(NotFound):
        session_store.pin_session(b, True, user_id="bob")


def test_a_superseded_turn_leaves_the_history_whole(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    _turn(session_store, sid, "q1")
    u2 = session_store.append_message(sid, "user", [{"type": "text", "text": "q2"}])
    session_store.append_message(sid, "assistant", [{"type": "tool_use", "id": "t1", "name": "x", "input": {}}])
    session_store.append_message(sid, "user", [{"type": "tool_result", "tool_use_id": "t1", "content": "r"}])
    session_store.append_message(sid, "assistant", [{"type": "text", "text": "a2"}])
    assert session_store.supersede_turn(sid, u2) == [u2, u2 + 1, u2 + 2, u2 + 3]
    loaded = session_store.load_messages(sid)
    assert [m["content"][0].get("text") for m in loaded] == ["q1", "answer to q1"]
    flags = [m["superseded"] for m in session_store.list_messages(sid)["items"]]
    assert flags == [False, False, True, True, True, True]
    with pytest.raises(NotFound):
        session_store.supersede_turn(sid, u2)  # already replaced
    with pytest.raises(NotFound):
        session_store.supersede_turn(sid, 2)  # an answer, not a question
