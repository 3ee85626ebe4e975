"""The agent loop on its own: ScriptedModel, the real SessionStore (SQLite items + file blobs), no HTTP.

Each test runs ``Agent.run`` on a ``Generation`` and asserts on two things: the events it published
and the block arrays it stored.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from chat.core.agent import Agent
from chat.core.generations import Generation
from chat.core.partial import INTERRUPTED_NOTE
from chat.core.turn import AskContext
from chat.models.port import PURPOSE_TITLE, ModelRequest
from chat.models.scripted import Fail, Reply, ScriptedModel, Text, ToolUse, Usage
from store.blocks import assert_pairs_ok
from store.errors import Throttled
from store.sessions import SessionStore
from tests.chat.chat_harness import FakeIngest, FakeRetriever, sample_ingest, session_store, settings_for


class Setup:
    def __init__(self, tmp_path: Path, model: ScriptedModel, **overrides: Any) -> None:
        self.settings = settings_for(tmp_path, **overrides)
        self.sessions: SessionStore = session_store(self.settings)
        self.ingest: FakeIngest = sample_ingest()
        self.retriever = FakeRetriever(self.ingest)
        self.model = model
        self.agent = Agent(
            model=model, sessions=self.sessions, settings=self.settings, retriever=self.retriever, ingest=self.ingest
        )
        self.sid = self.sessions.create_session("alice")

    def context(self, text: str, *, turn_id: str = "turn-1", **kw: Any) -> AskContext:
        return AskContext(
            session_id=self.sid, user_id="alice", text=text, turn_id=turn_id, project_ids=("p1", "p2"), **kw
        )

    async def ask(self, text: str, **kw: Any) -> list[tuple[str, dict[str, Any]]]:
        ctx = self.context(text, **kw)
        gen = Generation(generation_id="g1", session_id=self.sid, user_id="alice", turn_id=ctx.turn_id)
        await self.agent.run(gen, ctx)
        return [(e.event, e.data) for e in gen.events_after(0)[0]]

    def stored(self) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = self.sessions.list_messages(self.sid, None, 500)["items"]
        return items


def _names(events: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [name for name, _ in events]


def _text(events: list[tuple[str, dict[str, Any]]]) -> str:
    return "".join(data["delta"] for name, data in events if name == "text")


def _shape(stored: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    return [(m["role"], [b["type"] for b in m["content"]]) for m in stored]


async def test_plain_answer_is_streamed_stored_with_usage_and_done(tmp_path: Path) -> None:
    s = Setup(tmp_path, ScriptedModel([Reply(Text("Hello, no documents needed."), usage=Usage(30, 7, 5, 2))]))
    events = await s.ask("hi?")
    assert _names(events)[0] == "start" and _names(events)[-2:] == ["usage", "done"]
    assert events[0][1] == {"turn_id": "turn-1", "session_id": s.sid}
    assert _text(events) == "Hello, no documents needed."
    assert ("usage", {"input": 30, "output": 7, "cache_read": 5, "cache_write": 2}) in events
    stored = s.stored()
    assert _shape(stored) == [("user", ["text"]), ("assistant", ["text"])]
    assert stored[0]["content"] == [{"type": "text", "text": "hi?"}] and stored[0]["turn_id"] == "turn-1:u"
    assert stored[1]["content"] == [{"type": "text", "text": "Hello, no documents needed."}]
    assert stored[1]["usage"] == {"input": 30, "output": 7, "cache_read": 5, "cache_write": 2}
    assert stored[1]["model"] == "scripted-model" and stored[1]["turn_id"] == "turn-1:a0"
    assert events[-1][1] == {"seq": stored[1]["seq"], "stop_reason": "end_turn"}
    assert "citation" not in _names(events)


async def test_tool_round_then_cited_answer(tmp_path: Path) -> None:
    model = ScriptedModel(
        [
            Reply(ToolUse("search_documents", {"query": "revenue 2024"}, id="toolu_1")),
            Reply(Text("Revenue grew 12% in 2024 [S1].")),
        ]
    )
    s = Setup(tmp_path, model)
    events = await s.ask("How did revenue develop?")
    tool_events = [data for name, data in events if name == "tool"]
    assert [(t["name"], t["status"]) for t in tool_events] == [
        ("search_documents", "running"),
        ("search_documents", "done"),
    ]
    assert tool_events[0]["input"] == {"query": "revenue 2024"} and tool_events[1]["results"] == 1
    [citation] = [data for name, data in events if name == "citation"]
    assert (citation["ref"], citation["document_id"], citation["page"]) == ("S1", "d1", 1)
    assert _names(events)[-1] == "done" and events[-1][1]["stop_reason"] == "end_turn"
    stored = s.stored()
    assert _shape(stored) == [
        ("user", ["text"]),
        ("assistant", ["tool_use"]),
        ("user", ["tool_result"]),
        ("assistant", ["text"]),
    ]
    assert [m["turn_id"] for m in stored] == ["turn-1:u", "turn-1:a0", "turn-1:r0", "turn-1:a1"]
    tool_use, result = stored[1]["content"][0], stored[2]["content"][0]
    assert tool_use == {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "search_documents",
        "input": {"query": "revenue 2024"},
    }
    assert result["tool_use_id"] == "toolu_1" and not result.get("is_error")
    assert 'ref="S1"' in result["content"] and "Revenue grew 12% in 2024" in result["content"]
    # the second request carried the stored tool pair; only the user's projects were searched
    second = model.requests[1]
    assert_pairs_ok(second.messages)
    assert second.messages[-1]["content"][0]["tool_use_id"] == "toolu_1"
    assert [sorted(f.projects) for _, f in s.retriever.calls] == [["p1", "p2"]]  # one query for both


async def test_tool_rounds_stop_at_the_limit_with_error_results(tmp_path: Path) -> None:
    model = ScriptedModel(lambda req: Reply(ToolUse("search_documents", {"query": "again"})))
    s = Setup(tmp_path, model, max_tool_rounds=1)
    events = await s.ask("loop forever")
    assert len(model.requests) == 3  # the last without tools (a model that still asks gets the interrupted note)
    assert events[-1][1]["stop_reason"] == "max_tool_rounds"
    stored = s.stored()
    assert _shape(stored) == [
        ("user", ["text"]),
        ("assistant", ["tool_use"]),
        ("user", ["tool_result"]),
        ("assistant", ["tool_use"]),
        ("user", ["tool_result"]),
        ("assistant", ["text"]),
    ]
    last = stored[-2]["content"][0]
    assert last["is_error"] is True and "tool round limit" in last["content"]
    assert stored[-1]["content"] == [{"type": "text", "text": INTERRUPTED_NOTE.strip()}]
    assert stored[-1]["turn_id"] == "turn-1:a2"  # after the tool_use turns :a0 and :a1
    assert events[-1][1]["seq"] == stored[-1]["seq"]
    assert len(s.retriever.calls) == 1  # one real search (both projects in one query); the last round ran no tool
    assert_pairs_ok(s.sessions.load_messages(s.sid))


async def test_model_error_mid_answer_stores_the_partial_turn(tmp_path: Path) -> None:
    model = ScriptedModel(
        [Reply(Text("The first part is complete."), Text(" Second part"), Fail(Throttled("slow down")))]
    )
    s = Setup(tmp_path, model)
    events = await s.ask("q1")
    assert _names(events)[-2:] == ["error", "done"]
    assert events[-2][1] == {"code": "throttled", "message": "slow down"}
    stored = s.stored()
    assert _shape(stored) == [("user", ["text"]), ("assistant", ["text", "text", "text"])]
    assert [b["text"] for b in stored[1]["content"]] == [
        "The first part is complete.",
        " Second part",
        INTERRUPTED_NOTE,
    ]
    assert stored[1]["turn_id"] == "turn-1:a0"
    assert events[-1][1] == {"seq": stored[1]["seq"], "stop_reason": "error"}


async def test_model_error_after_a_tool_use_stores_no_dangling_tool_use(tmp_path: Path) -> None:
    model = ScriptedModel([Reply(ToolUse("search_documents", {"query": "x"}), Fail(Throttled("slow down")))])
    s = Setup(tmp_path, model)
    events = await s.ask("q1")
    assert _names(events)[-2:] == ["error", "done"] and "tool" not in _names(events)
    stored = s.stored()
    assert _shape(stored) == [("user", ["text"]), ("assistant", ["text"])]
    assert stored[1]["content"] == [{"type": "text", "text": INTERRUPTED_NOTE.strip()}]
    assert_pairs_ok(s.sessions.load_messages(s.sid))


async def test_cancelled_generation_keeps_the_text_already_streamed(tmp_path: Path) -> None:
    model = ScriptedModel([Reply(Text("abcdefghij" * 10, chunk=5))], delay=0.01)
    s = Setup(tmp_path, model)
    ctx = s.context("long answer please")
    gen = Generation(generation_id="g1", session_id=s.sid, user_id="alice", turn_id=ctx.turn_id)
    task = asyncio.create_task(s.agent.run(gen, ctx))
    while sum(1 for e in gen.events_after(0)[0] if e.event == "text") < 3:
        await gen.wait_changed()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    events = [(e.event, e.data) for e in gen.events_after(0)[0]]
    assert events[-1] == ("done", {"seq": s.stored()[-1]["seq"], "stop_reason": "interrupted"})
    streamed = _text(events)
    assert streamed and len(streamed) < 100
    [answer] = [m for m in s.stored() if m["role"] == "assistant"]
    assert [b["text"] for b in answer["content"]] == [streamed, INTERRUPTED_NOTE]


async def test_title_after_the_first_exchange_local_mode(tmp_path: Path) -> None:
    question = "What were the main drivers of revenue growth in the annual report for 2024 and 2025?"
    model = ScriptedModel(["Answer."])
    s = Setup(tmp_path, model)
    events = await s.ask(question, needs_title=True)
    title = s.sessions.get_session(s.sid)["title"]
    assert question.startswith(title.rstrip("…")) and len(title) <= 60 and title.endswith("…")
    assert len(model.requests) == 1  # local mode: no model call for the title
    assert events[-1][1]["stop_reason"] == "end_turn"


async def test_title_from_the_title_model_and_a_failing_title_model(tmp_path: Path) -> None:
    model = ScriptedModel(["Answer one.", '"Revenue drivers 2024"'])
    s = Setup(tmp_path / "a", model, chat_model="bedrock")
    await s.ask("Why did revenue grow?", needs_title=True)
    assert s.sessions.get_session(s.sid)["title"] == "Revenue drivers 2024"
    title_request: ModelRequest = model.requests[1]
    assert title_request.purpose == PURPOSE_TITLE and title_request.model == s.settings.chat.bedrock_title_model_id
    assert title_request.tools == [] and "Why did revenue grow?" in title_request.messages[0]["content"][0]["text"]

    failing = ScriptedModel(["Answer two."])  # no reply left for the title request: it fails
    s = Setup(tmp_path / "b", failing, chat_model="bedrock")
    events = await s.ask("Why?", needs_title=True)
    assert events[-1][1]["stop_reason"] == "end_turn"  # the answer is not failed by its title
    assert s.sessions.get_session(s.sid)["title"] is None


async def test_retried_turn_gets_the_stored_answer_replayed(tmp_path: Path) -> None:
    model = ScriptedModel(["Revenue grew [S9].", "never used"])
    s = Setup(tmp_path, model)
    await s.ask("q", turn_id="turn-7")
    last_seq = s.sessions.get_session(s.sid)["last_seq"]
    events = await s.ask("q", turn_id="turn-7", last_seq_before=last_seq)
    assert _names(events) == ["start", "text", "done"]
    assert _text(events) == "Revenue grew [S9]."
    assert events[-1][1] == {"seq": last_seq, "stop_reason": "end_turn", "replayed": True}
    assert len(model.requests) == 1 and len(s.stored()) == 2


async def test_a_retry_that_read_the_session_before_the_first_attempt_stored_it_still_replays(tmp_path: Path) -> None:
    # two processes: the retry's request read last_seq=0, then waited for the lease while the first attempt
    # answered; when it runs, the stored history (not that stale figure) says the turn is answered
    model = ScriptedModel(["Revenue grew [S9].", "must not answer"])
    s = Setup(tmp_path, model)
    await s.ask("q", turn_id="turn-8")
    events = await s.ask("q", turn_id="turn-8", last_seq_before=0)
    assert _text(events) == "Revenue grew [S9]." and events[-1][1]["replayed"] is True
    assert len(model.requests) == 1 and len(s.stored()) == 2
