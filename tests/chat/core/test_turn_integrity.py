"""Issue 13 items 1-2: after a cancel, a stop, an error or a crash every stored question ends with an answer
turn, what the client was shown is what is stored, seqs have no gaps, and a crashed session answers again.

The agent runs on a ``Generation`` over the real SessionStore (SQLite + files); ``GatedStore`` holds one
chosen write in its thread (after it landed, like a slow response) so a cancel can hit exactly that window.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from chat.core.agent import Agent
from chat.core.generations import Generation
from chat.core.partial import INTERRUPTED_NOTE
from chat.core.turn import AskContext
from chat.models.port import ModelRequest
from chat.models.scripted import Fail, Reply, ScriptedModel, Text, ToolUse
from store.block_repair import INTERRUPTED_TEXT, TOOL_INTERRUPTED, assert_request_history
from store.sessions import SessionStore
from tests.chat.chat_harness import FakeRetriever, sample_ingest, settings_for
from tests.chat.turn_checks import GatedStore, assert_every_question_answered, gated_store

Events = list[tuple[str, dict[str, Any]]]


class Setup:
    def __init__(self, tmp_path: Path, model: ScriptedModel, **overrides: Any) -> None:
        self.settings = settings_for(tmp_path, **overrides)
        self.sessions: GatedStore = gated_store(self.settings)
        ingest = sample_ingest()
        self.model = model
        self.agent = Agent(
            model=model, sessions=self.sessions, settings=self.settings, retriever=FakeRetriever(ingest), ingest=ingest
        )
        self.sid = self.sessions.create_session("alice")

    def start(self, text: str, turn_id: str = "turn-1") -> tuple[Generation, asyncio.Task[None]]:
        last = int(self.sessions.get_session(self.sid)["last_seq"])
        ctx = AskContext(session_id=self.sid, user_id="alice", text=text, turn_id=turn_id, project_ids=("p1",),
                         last_seq_before=last)
        gen = Generation(generation_id=turn_id, session_id=self.sid, user_id="alice", turn_id=turn_id)
        return gen, asyncio.create_task(self.agent.run(gen, ctx))

    async def ask(self, text: str, turn_id: str = "turn-1") -> Events:
        gen, task = self.start(text, turn_id)
        await task
        return events_of(gen)

    def stored(self) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = self.sessions.list_messages(self.sid, None, 500)["items"]
        return items


def events_of(gen: Generation) -> Events:
    return [(e.event, e.data) for e in gen.events_after(0)[0]]


def shown_text(events: Events) -> str:
    return "".join(d["delta"] for n, d in events if n == "text")


def texts(message: dict[str, Any]) -> list[str]:
    return [b["text"] for b in message["content"] if b["type"] == "text"]


async def cancel_inside(s: Setup, task: asyncio.Task[None], gate: str, *, times: int = 1) -> None:
    """Cancel ``task`` while the write whose turn_id ends with ``gate`` sits in its thread, then let it go."""
    s.sessions.hold(gate)
    await s.sessions.wait_held()
    for _ in range(times):
        task.cancel()
        await asyncio.sleep(0.01)
    s.sessions.release()
    await asyncio.gather(task, return_exceptions=True)


async def test_cancel_while_the_question_is_written_still_stores_an_answer(tmp_path: Path) -> None:
    s = Setup(tmp_path, ScriptedModel(["never reached", "second answer"]))
    gen, task = s.start("q1")
    await cancel_inside(s, task, ":u")
    stored = s.stored()
    assert [m["role"] for m in stored] == ["user", "assistant"]  # before: the question alone, unanswered
    assert texts(stored[1]) == [INTERRUPTED_NOTE.strip()] and stored[1]["turn_id"] == "turn-1:a0"
    assert events_of(gen)[-1] == ("done", {"seq": stored[1]["seq"], "stop_reason": "interrupted"})
    assert_every_question_answered(stored)
    assert (await s.ask("q2", "turn-2"))[-1][1]["stop_reason"] == "end_turn"
    assert_request_history(s.model.requests[-1].messages)


async def test_a_second_cancel_during_the_partial_save_still_ends_with_done_and_a_stored_answer(
    tmp_path: Path,
) -> None:
    s = Setup(tmp_path, ScriptedModel([Reply(Text("abcdefghij" * 20, chunk=5))], delay=0.005))
    gen, task = s.start("long answer please")
    while sum(1 for e in gen.events_after(0)[0] if e.event == "text") < 3:
        await gen.wait_changed()
    s.sessions.hold(":a0")
    task.cancel()  # a stop ...
    await s.sessions.wait_held()
    task.cancel()  # ... then the client leaves: the save is not cut in half
    await asyncio.sleep(0.01)
    assert not task.done()
    s.sessions.release()
    await asyncio.gather(task, return_exceptions=True)
    events = events_of(gen)
    stored = s.stored()
    assert events[-1] == ("done", {"seq": stored[-1]["seq"], "stop_reason": "interrupted"})
    assert texts(stored[-1]) == [shown_text(events), INTERRUPTED_NOTE]  # what the client saw is what is stored


async def test_cancel_while_the_answer_is_written_keeps_the_whole_answer_once_with_no_gap(tmp_path: Path) -> None:
    s = Setup(tmp_path, ScriptedModel(["The whole answer."]))
    gen, task = s.start("q")
    await cancel_inside(s, task, ":a0")
    stored = s.stored()
    assert [m["seq"] for m in stored] == [1, 2] and s.sessions.get_session(s.sid)["last_seq"] == 2
    assert texts(stored[1]) == ["The whole answer."]
    assert shown_text(events_of(gen)) == "The whole answer."
    assert events_of(gen)[-1] == ("done", {"seq": 2, "stop_reason": "end_turn"})


async def test_cancel_during_the_tools_stores_the_results_and_an_interrupted_answer(tmp_path: Path) -> None:
    release = asyncio.Event()

    class SlowRetriever(FakeRetriever):
        async def search(self, *args: Any, **kwargs: Any) -> Any:
            await release.wait()
            return await super().search(*args, **kwargs)

    s = Setup(tmp_path, ScriptedModel([Reply(ToolUse("search_documents", {"query": "revenue"}, id="toolu_1"))]))
    s.agent.tools.retriever = SlowRetriever(sample_ingest())
    gen, task = s.start("revenue?")
    while not any(e.event == "tool" for e in gen.events_after(0)[0]):
        await gen.wait_changed()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    stored = s.stored()
    # before: the interrupted answer reused the tool_use turn's turn_id (:a0) and was never stored
    assert [m["turn_id"] for m in stored] == ["turn-1:u", "turn-1:a0", "turn-1:r0", "turn-1:a1"]
    assert stored[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": TOOL_INTERRUPTED, "is_error": True}
    ]
    assert texts(stored[3]) == [INTERRUPTED_NOTE.strip()]
    assert_every_question_answered(stored)
    assert events_of(gen)[-1] == ("done", {"seq": 4, "stop_reason": "interrupted"})


async def test_cancel_after_the_tools_were_shown_stores_their_real_results(tmp_path: Path) -> None:
    s = Setup(tmp_path, ScriptedModel([Reply(ToolUse("search_documents", {"query": "revenue"}, id="toolu_1"))]))
    gen, task = s.start("revenue?")
    await cancel_inside(s, task, ":r0")
    stored = s.stored()
    tool_done = [d for n, d in events_of(gen) if n == "tool" and d["status"] == "done"]
    assert tool_done and tool_done[0]["results"] == 1  # the client saw the search finish ...
    result = stored[2]["content"][0]
    assert "Revenue grew 12%" in result["content"] and not result.get("is_error")  # ... and that is stored
    assert [m["turn_id"] for m in stored] == ["turn-1:u", "turn-1:a0", "turn-1:r0", "turn-1:a1"]
    assert [m["seq"] for m in stored] == [1, 2, 3, 4]


async def test_an_internal_error_stores_the_partial_answer_and_reports_it(tmp_path: Path) -> None:
    s = Setup(tmp_path, ScriptedModel([Reply(Text("Half an answer"), Fail(RuntimeError("bug"))), "fine again"]))
    events = await s.ask("q1")
    stored = s.stored()
    assert [n for n, _ in events][-2:] == ["error", "done"]  # before: no done, and nothing stored
    assert events[-2][1]["code"] == "internal" and "bug" not in str(events)
    assert texts(stored[-1]) == ["Half an answer", INTERRUPTED_NOTE]
    assert events[-1][1] == {"seq": stored[-1]["seq"], "stop_reason": "error"}
    assert (await s.ask("q2", "turn-2"))[-1][1]["stop_reason"] == "end_turn"


async def test_a_failed_history_load_still_answers_the_stored_question(tmp_path: Path) -> None:
    from store.errors import Throttled

    s = Setup(tmp_path, ScriptedModel(["unused"]))
    real = s.sessions.list_messages

    def failing(*args: Any, **kwargs: Any) -> Any:
        raise Throttled("slow down")

    s.sessions.list_messages = failing  # type: ignore[method-assign]
    events = await s.ask("q1")
    s.sessions.list_messages = real  # type: ignore[method-assign]
    stored = s.stored()
    assert events[-2] == ("error", {"code": "throttled", "message": "slow down"})
    assert [m["role"] for m in stored] == ["user", "assistant"] and texts(stored[1]) == [INTERRUPTED_NOTE.strip()]


# --------------------------------------------------------------------------- a hard crash (kill -9) before


def crash_after_tool_event(sessions: SessionStore, sid: str) -> None:
    """What kill -9 after the ``tool`` event leaves: the question and the tool_use turn, nothing else."""
    sessions.append_message(sid, "user", [{"type": "text", "text": "q1"}], turn_id="dead:u")
    sessions.append_message(
        sid,
        "assistant",
        [{"type": "text", "text": "Let me look."},
         {"type": "tool_use", "id": "toolu_dead", "name": "search_documents", "input": {"query": "x"}}],
        turn_id="dead:a0",
    )


async def test_a_session_crashed_during_a_tool_round_answers_again(tmp_path: Path) -> None:
    s = Setup(tmp_path, ScriptedModel(["Second answer.", "Third answer."]))
    crash_after_tool_event(s.sessions, s.sid)
    for i, expected in ((2, "Second answer."), (3, "Third answer.")):
        events = await s.ask(f"q{i}", f"turn-{i}")
        # before: error invalid_history "tool_use without tool_result", and another "[interrupted]" turn
        assert events[-1][1]["stop_reason"] == "end_turn", events
        assert shown_text(events) == expected
    request: ModelRequest = s.model.requests[0]
    assert_request_history(request.messages)
    assert request.messages[2]["content"][0]["tool_use_id"] == "toolu_dead"
    assert request.messages[2]["content"][0]["content"] == TOOL_INTERRUPTED
    assert request.messages[3]["content"][0]["text"] == INTERRUPTED_TEXT
    assert len(s.stored()) == 6  # the repair is made on load; the stored turns are never rewritten


async def test_a_session_whose_last_turn_is_an_unanswered_question_answers_the_next_one(tmp_path: Path) -> None:
    s = Setup(tmp_path, ScriptedModel(["Answer two."]))
    s.sessions.append_message(s.sid, "user", [{"type": "text", "text": "q1"}], turn_id="dead:u")  # died here
    events = await s.ask("q2", "turn-2")
    assert events[-1][1]["stop_reason"] == "end_turn"
    request = s.model.requests[0]
    assert [m["role"] for m in request.messages] == ["user", "assistant", "user"]  # before: user, user
    assert_request_history(request.messages)
