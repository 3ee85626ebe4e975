"""``store.block_repair``: whatever a crash left in the store, the repaired history is a valid request."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from store.block_repair import (
    INTERRUPTED_TEXT,
    REPAIRED_KEY,
    TOOL_INTERRUPTED,
    assert_request_history,
    repair_history,
)
from store.blocks import assert_pairs_ok
from store.errors import InvalidHistory

Msg = dict[str, Any]


def u(text: str) -> Msg:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def a(text: str) -> Msg:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def call(*ids: str, text: str | None = "looking") -> Msg:
    blocks: list[Any] = [{"type": "text", "text": text}] if text else []
    blocks += [{"type": "tool_use", "id": t, "name": "search_documents", "input": {"q": t}} for t in ids]
    return {"role": "assistant", "content": blocks}


def results(*ids: str) -> Msg:
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": t, "content": "ok"} for t in ids]}


def shape(messages: list[Msg]) -> list[str]:
    out = []
    for m in messages:
        kinds = ",".join(b["type"] for b in m["content"])
        out.append(f"{m['role'][0]}:{kinds}{'*' if m.get(REPAIRED_KEY) else ''}")
    return out


# --------------------------------------------------------------------------- the crash cases of issue 13


def test_crash_during_the_tools_dangling_tool_use_gets_an_error_result_and_an_answer() -> None:
    stored = [u("q1"), call("t1", "t2")]
    with pytest.raises(InvalidHistory):
        assert_pairs_ok([*stored, u("q2")])  # what every later question failed with
    rep = repair_history(stored)
    assert shape(rep.messages) == ["u:text", "a:text,tool_use,tool_use", "u:tool_result,tool_result*", "a:text*"]
    assert rep.messages[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "t1", "content": TOOL_INTERRUPTED, "is_error": True},
        {"type": "tool_result", "tool_use_id": "t2", "content": TOOL_INTERRUPTED, "is_error": True},
    ]
    assert rep.messages[3]["content"] == [{"type": "text", "text": INTERRUPTED_TEXT}]
    assert rep.messages[0] is stored[0] and rep.messages[1] is stored[1]  # stored blocks are never rewritten
    assert rep.origin == [0, 1, None, None]
    assert (rep.added_results, rep.added_answers, rep.changed) == (2, 1, True)
    assert_request_history([*rep.messages, u("q2")])


def test_a_later_question_after_a_dangling_tool_use_closes_the_round_first() -> None:
    stored = [u("q1"), call("t1"), u("q2"), a("answer 2")]
    rep = repair_history(stored)
    assert shape(rep.messages) == ["u:text", "a:text,tool_use", "u:tool_result*", "a:text*", "u:text", "a:text"]
    assert rep.origin == [0, 1, None, None, 2, 3]
    assert_request_history(rep.messages)


def test_unanswered_questions_get_an_interrupted_answer_between_them() -> None:
    stored = [u("q1"), u("q2"), a("answer 2"), u("q3")]
    rep = repair_history(stored)
    assert shape(rep.messages) == ["u:text", "a:text*", "u:text", "a:text", "u:text", "a:text*"]
    assert repair_history(stored, close_tail=False).messages[-1] is stored[-1]  # about to be answered: stays open
    assert_request_history(rep.messages)


def test_results_without_an_answer_then_a_question() -> None:
    stored = [u("q1"), call("t1"), results("t1"), u("q2")]
    rep = repair_history(stored, close_tail=False)
    assert shape(rep.messages) == ["u:text", "a:text,tool_use", "u:tool_result", "a:text*", "u:text"]
    assert rep.added_answers == 1 and rep.added_results == 0


def test_partial_results_are_completed_and_orphans_dropped() -> None:
    stored = [u("q1"), call("t1", "t2"), results("t2", "zz"), a("done")]
    rep = repair_history(stored)
    assert [b.get("tool_use_id") for b in rep.messages[2]["content"]] == ["t2", "t1"]
    assert rep.messages[2]["content"][1]["is_error"] is True
    assert (rep.dropped_results, rep.added_results) == (1, 1)
    assert_request_history(rep.messages)


def test_a_broken_head_is_left_out_and_orphan_results_dropped() -> None:
    stored = [results("gone"), a("old answer"), call("t0"), u("q"), results("t0"), a("fine")]
    rep = repair_history(stored)
    assert shape(rep.messages) == ["u:text", "a:text"]
    assert rep.origin == [3, 5]
    assert rep.dropped_messages == 4 and rep.dropped_results == 2


def test_two_assistant_turns_in_a_row_are_one_turn() -> None:
    stored = [u("q"), a("first"), call("t1")]
    rep = repair_history(stored)
    assert shape(rep.messages) == ["u:text", "a:text,text,tool_use", "u:tool_result*", "a:text*"]
    assert rep.origin[1] == 2 and rep.merged == 1 and REPAIRED_KEY not in rep.messages[1]


def test_a_valid_history_is_unchanged() -> None:
    stored = [u("q1"), call("t1"), results("t1"), a("a1 [S1]"), u("q2"), a("a2")]
    rep = repair_history(stored)
    assert rep.messages == stored and all(x is y for x, y in zip(rep.messages, stored, strict=True))
    assert not rep.changed and rep.origin == list(range(6))
    assert repair_history(stored[:-1], close_tail=False).messages == stored[:-1]


def test_assert_request_history_catches_what_assert_pairs_ok_lets_through() -> None:
    for bad in ([u("q1"), u("q2")], [a("x")], [u("q"), {"role": "assistant", "content": []}], [results("t")]):
        with pytest.raises(InvalidHistory):
            assert_request_history(bad)
    assert_request_history([u("q"), a("x"), u("q2")])


# --------------------------------------------------------------------------- properties

TOOL_IDS = [f"toolu_{i:02d}" for i in range(6)]


@st.composite
def exchange(draw: st.DrawFn, n: int) -> list[Msg]:
    """One question answered the way the agent stores it: tool rounds, then a final (maybe partial) answer."""
    out = [u(f"question {n}")]
    for r in range(draw(st.integers(0, 3))):
        ids = [f"toolu_{n}_{r}_{k}" for k in range(draw(st.integers(1, 3)))]
        out.append(call(*ids, text=draw(st.sampled_from([None, "let me look"]))))
        out.append(results(*ids))
    out.append(a(draw(st.sampled_from(["answer [S1]", "partial" + "\n\n" + INTERRUPTED_TEXT]))))
    return out


@st.composite
def stored_turns(draw: st.DrawFn) -> list[Msg]:
    """What a store holds after crashes: exchanges, each maybe cut short (kill -9), maybe with lost writes."""
    out: list[Msg] = []
    for n in range(draw(st.integers(0, 5))):
        ex = draw(exchange(n))
        if draw(st.booleans()):
            ex = ex[: draw(st.integers(1, len(ex)))]  # the process died here
        out += ex
    if out and draw(st.integers(0, 4)) == 0:  # a write that never landed, or the oldest turns expired
        del out[draw(st.integers(0, len(out) - 1))]
    return out


def any_block(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["text", "tool_use", "tool_result", "thinking"]))
    if kind == "text":
        return {"type": "text", "text": draw(st.sampled_from(["x", "y z"]))}
    if kind == "thinking":
        return {"type": "thinking", "thinking": "", "signature": "sig"}
    tid = draw(st.sampled_from([*TOOL_IDS, "", None]))
    if kind == "tool_use":
        return {"type": "tool_use", "id": tid, "name": "read_page", "input": {}}
    return {"type": "tool_result", "tool_use_id": tid, "content": "r"}


@st.composite
def arbitrary_turns(draw: st.DrawFn) -> list[Msg]:
    """Anything at all: random roles, block mixes and tool ids (duplicates, orphans, empties)."""
    out = []
    for _ in range(draw(st.integers(0, 10))):
        role = draw(st.sampled_from(["user", "assistant", "user", "assistant", "system"]))
        content: Any = [any_block(draw) for _ in range(draw(st.integers(0, 3)))]
        if draw(st.integers(0, 9)) == 0:
            content = draw(st.sampled_from(["plain text", "", None]))
        out.append({"role": role, "content": content})
    return out


def check_repaired(stored: list[Msg]) -> None:
    before = copy.deepcopy(stored)
    for close_tail in (True, False):
        rep = repair_history(stored, close_tail=close_tail)
        assert stored == before  # pure: the input is not touched
        assert_request_history(rep.messages)
        if close_tail and rep.messages:
            last = rep.messages[-1]
            assert last["role"] == "assistant"
            assert not any(b.get("type") == "tool_use" for b in last["content"] if isinstance(b, dict))
        # the next question can always follow
        assert_request_history([*rep.messages, u("next")] if close_tail or not rep.messages else rep.messages)
        assert len(rep.origin) == len(rep.messages)
        for m, o in zip(rep.messages, rep.origin, strict=True):
            assert (o is None) == bool(m.get(REPAIRED_KEY))
        again = repair_history(rep.messages, close_tail=close_tail)
        assert again.messages == rep.messages and not again.changed  # idempotent


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stored_turns(), st.data())
def test_any_prefix_of_a_crashed_store_repairs_to_a_valid_request(stored: list[Msg], data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(stored)))
    check_repaired(stored[:cut])


@settings(max_examples=300, deadline=None)
@given(arbitrary_turns())
def test_any_message_sequence_repairs_to_a_valid_request(stored: list[Msg]) -> None:
    for cut in range(len(stored) + 1):
        check_repaired(stored[:cut])


@settings(max_examples=200, deadline=None)
@given(st.lists(exchange(0), min_size=0, max_size=4))
def test_an_uncrashed_history_is_never_changed(exchanges: list[list[Msg]]) -> None:
    stored = [m for ex in exchanges for m in ex]
    rep = repair_history(stored)
    assert not rep.changed and rep.messages == stored
