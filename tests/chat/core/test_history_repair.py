"""The repair on load (``chat.core.history.repaired``): the request builder accepts any repaired prefix,
the repair is logged (counts, never content) and shown in the messages view."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from structlog.testing import capture_logs

from chat.core.context import fit_context
from chat.core.history import History, repaired
from chat.core.prompt import SYSTEM_PROMPT, build_request
from chat.core.tools import TOOLS
from chat.models.scripted import ScriptedModel
from store.block_repair import INTERRUPTED_TEXT, assert_request_history
from store.config import Settings
from tests.chat.chat_harness import ALICE, make_harness, serve
from tests.store.test_block_repair import arbitrary_turns, stored_turns

QUESTION = {"role": "user", "content": [{"type": "text", "text": "the next question"}]}


def as_history(messages: list[dict[str, Any]]) -> History:
    return History(messages=messages, seqs=list(range(1, len(messages) + 1)))


def check_request(stored: list[dict[str, Any]], fit_settings: Settings | None = None) -> None:
    with capture_logs():
        prior = repaired(as_history(stored), "s1", close_tail=True)
    assert prior.seqs == sorted(prior.seqs) and len(prior.seqs) == len(prior.messages)
    messages = [*prior.messages, QUESTION]
    request = build_request(SYSTEM_PROMPT, TOOLS, messages, max_tokens=1000)
    assert_request_history(request.messages)
    if fit_settings is not None:
        model = ScriptedModel(lambda _r: "An earlier summary.", context_window=2000)
        plan = asyncio.run(fit_context(messages, model, fit_settings))
        assert_request_history(build_request(SYSTEM_PROMPT, TOOLS, plan.messages, max_tokens=200).messages)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stored_turns(), st.data())
def test_any_prefix_of_a_crashed_store_makes_a_request_the_builder_accepts(
    stored: list[dict[str, Any]], data: st.DataObject
) -> None:
    check_request(stored[: data.draw(st.integers(0, len(stored)))])


@settings(max_examples=150, deadline=None)
@given(arbitrary_turns())
def test_any_message_sequence_makes_a_request_the_builder_accepts(stored: list[dict[str, Any]]) -> None:
    check_request(stored)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stored_turns())
def test_a_repaired_history_survives_summarising_and_trimming(stored: list[Any]) -> None:
    fit = Settings(data_dir=Path("/tmp"), context_window_tokens=2000, compaction_threshold_tokens=300,
                   max_output_tokens=200)
    check_request(stored * 3, fit)


def crashed(h: Any) -> str:
    sid: str = h.sessions.create_session("alice")
    h.sessions.append_message(sid, "user", [{"type": "text", "text": "secret question"}], turn_id="dead:u")
    h.sessions.append_message(
        sid, "assistant", [{"type": "tool_use", "id": "toolu_dead", "name": "search_documents", "input": {}}],
        turn_id="dead:a0",
    )
    return sid


async def test_the_repair_is_logged_with_the_session_and_counts_only(tmp_path: Path) -> None:
    h = make_harness(tmp_path, ScriptedModel(["Fine."]))
    sid = crashed(h)
    with capture_logs() as logs:
        gen, _ = await h.chat.ask("alice", sid, text="next?")
        assert gen.task is not None
        await gen.task
    [entry] = [e for e in logs if e["event"] == "history_repaired"]
    assert entry["log_level"] == "warning" and entry["session_id"] == sid
    assert (entry["added_results"], entry["added_answers"], entry["messages"]) == (1, 1, 2)
    assert "secret" not in str(entry) and "toolu_dead" not in str(entry)


async def test_the_messages_view_shows_the_repaired_answer(tmp_path: Path) -> None:
    h = make_harness(tmp_path, ScriptedModel(["Fine."]))
    sid = crashed(h)
    h.sessions.append_message(sid, "user", [{"type": "text", "text": "later question"}], turn_id="later:u")
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        items = (await c.get(f"/v1/sessions/{sid}/messages")).json()["items"]
    assert [(i["role"], i.get("repaired", False)) for i in items] == [
        ("user", False), ("assistant", True), ("user", False)
    ]
    answer = items[1]
    assert answer["interrupted"] is True and answer["text"] == INTERRUPTED_TEXT and answer["seq"] == 2
    assert answer["tools"] == [{"name": "search_documents", "summary": "searched: ", "input": {},
                                 "error": True}]


def test_the_newest_question_is_shown_as_stored_its_answer_may_still_be_running() -> None:
    from chat.core.display import display_items

    q = {"seq": 1, "role": "user", "content": [{"type": "text", "text": "q"}]}
    call = {"seq": 2, "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "search_documents", "input": {"query": "x"}}]}
    items = display_items([q, call])
    assert items[1]["tools"] == [{"name": "search_documents", "summary": "searched: x",
                                 "input": {"query": "x"}}]
    assert "repaired" not in items[1] and items[1]["interrupted"] is False
