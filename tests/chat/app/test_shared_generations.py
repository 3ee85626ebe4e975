"""One generation per session across API processes (chat/core/shared.py), over the HTTP API.

Two apps, each with its own ``ChatService``, registry and table handle, share one session table — two API
processes in one event loop (the subprocess version is ``test_two_processes.py``). The table is SQLite or
DynamoDB Local (``DOCCHAT_TOOLS_DIR``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from structlog.testing import capture_logs

from chat.core.service import ChatService
from chat.models.scripted import Reply, ScriptedModel, Text, ToolUse
from store.blobs import FileBlobStore
from store.blocks import assert_pairs_ok
from store.schema import SESSIONS_TABLE
from store.sessions import SessionStore
from store.usage_limits import open_usage_limits
from tests.chat.chat_harness import (
    ALICE,
    EventReader,
    FakeRetriever,
    Harness,
    parse_sse,
    sample_ingest,
    serve,
    settings_for,
)
from tests.conftest import make_item_table

LONG = " ".join(f"word{i}." for i in range(60))
FAST = {"generation_poll_seconds": 0.05, "disconnect_grace_seconds": 0.3}


@dataclass
class Pair:
    a: Harness
    b: Harness


def _harness(tmp_path: Path, items: Any, model: Any, *, with_limits: bool = False, **overrides: Any) -> Harness:
    settings = settings_for(tmp_path, **{**FAST, **overrides})
    ingest = sample_ingest()
    retriever = FakeRetriever(ingest)
    sessions = SessionStore(items, FileBlobStore(tmp_path / "blobs" / "sessions"))
    limits = open_usage_limits(settings) if with_limits else None  # one limits.db in the shared data dir
    chat = ChatService(settings=settings, sessions=sessions, model=model, retriever=retriever, ingest=ingest,
                       limits=limits)
    return Harness(settings, chat, ingest, retriever, sessions, model)


@pytest.fixture(params=["sqlite", "dynamodb-local"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A factory of table handles onto one shared session table (a new handle per 'process')."""
    if request.param == "sqlite":
        return lambda: make_item_table("sqlite", SESSIONS_TABLE, request, tmp_path)
    from store.dynamo import DynamoItemTable
    from tests.conftest import _dynamo_client

    table = make_item_table("dynamodb-local", SESSIONS_TABLE, request, tmp_path)
    endpoint = request.getfixturevalue("dynamodb_local")
    return lambda: DynamoItemTable(_dynamo_client(endpoint), table.name, SESSIONS_TABLE)  # a client per process


def make_pair(tmp_path: Path, backend: Any, model_a: Any, model_b: Any | None = None, **overrides: Any) -> Pair:
    a = _harness(tmp_path, backend(), model_a, **overrides)
    b = _harness(tmp_path, backend(), model_b or ScriptedModel(["process B must not answer"]), **overrides)
    assert a.chat.shared.owner != b.chat.shared.owner
    return Pair(a, b)


@asynccontextmanager
async def two_servers(pair: Pair) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    async with (
        serve(pair.a.app()) as base_a,
        serve(pair.b.app()) as base_b,
        httpx.AsyncClient(base_url=base_a, headers=ALICE, timeout=20) as ca,
        httpx.AsyncClient(base_url=base_b, headers=ALICE, timeout=20) as cb,
    ):
        yield ca, cb


def slow(text: str = LONG, delay: float = 0.01) -> ScriptedModel:
    return ScriptedModel([Reply(Text(text, chunk=6))], delay=delay)


async def test_second_question_on_another_process_is_409_and_it_sees_the_answer_running(
    tmp_path: Path, backend: Any
) -> None:
    pair = make_pair(tmp_path, backend, slow())
    async with two_servers(pair) as (ca, cb):
        sid = (await ca.post("/v1/sessions", json={})).json()["session_id"]
        async with ca.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "go"}) as r:
            reader = EventReader(r)
            await reader.until("text")
            busy = await cb.post(f"/v1/sessions/{sid}/messages", json={"text": "another question"})
            assert busy.status_code == 409 and busy.json()["error"]["code"] == "conflict"
            assert (await cb.get(f"/v1/sessions/{sid}")).json()["generating"] is True
            rest = await reader.until("done")
        assert rest[-1][1]["stop_reason"] == "end_turn"
        # the lease is released with the answer: the next question is answered on either process
        assert (await cb.get(f"/v1/sessions/{sid}")).json()["generating"] is False
    history = pair.a.sessions.load_messages(sid)
    assert [m["role"] for m in history] == ["user", "assistant"]  # never user, user, …
    assert len(pair.b.model.requests) == 0


async def test_stop_on_the_other_process_stops_the_answer_and_saves_the_partial(tmp_path: Path, backend: Any) -> None:
    pair = make_pair(tmp_path, backend, slow(delay=0.02), disconnect_policy="finish")
    async with two_servers(pair) as (ca, cb):
        sid = (await ca.post("/v1/sessions", json={})).json()["session_id"]
        async with ca.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "go"}) as r:
            reader = EventReader(r)
            await reader.until("text")
            t0 = time.monotonic()
            stopped = (await cb.post(f"/v1/sessions/{sid}/stop")).json()
            took = time.monotonic() - t0
            events = await reader.until("done")
        assert stopped["stopped"] is True and stopped["turn_id"]
        assert took < 2.0  # poll interval + the partial save, not the whole answer
        assert events[-1][1]["stop_reason"] == "interrupted"
        # stop returned after the partial answer was stored: visible from B at once
        history = pair.b.sessions.load_messages(sid)
        assert_pairs_ok(history)
        assert history[-1]["role"] == "assistant"
        assert history[-1]["content"][-1]["text"].strip().startswith("[interrupted")
        assert (await cb.post(f"/v1/sessions/{sid}/stop")).json() == {"stopped": False}
        again = await cb.post(f"/v1/sessions/{sid}/messages", json={"text": "next"})
        assert again.status_code == 200


async def test_resume_on_the_other_process_follows_the_answer_to_the_end(tmp_path: Path, backend: Any) -> None:
    # default disconnect policy (partial): A must keep answering while the client reads it through B; a ~3 s
    # answer outlasts B's first watch, so A goes on only if it sees each renewal of it (not a lapse between reads).
    # A 1 s grace: time enough for the resume to reach B and mark the lease watched on a loaded machine
    pair = make_pair(tmp_path, backend, slow(delay=0.05), disconnect_grace_seconds=1.0)
    async with two_servers(pair) as (ca, cb):
        sid = (await ca.post("/v1/sessions", json={})).json()["session_id"]
        async with ca.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "go"}) as r:
            reader = EventReader(r)
            first = await reader.until("text")
            first += await reader.until("text")
        last_id = reader.last_id
        assert last_id is not None
        r = await cb.get(f"/v1/sessions/{sid}/stream", headers={"Last-Event-ID": last_id})
        assert r.status_code == 200
        rest = parse_sse(r.content)
        n_last = int(last_id.rsplit(".", 1)[1])
        assert rest[0][2] == f"{last_id.rsplit('.', 1)[0]}.{n_last + 1}"  # same ids, nothing repeated or skipped
        assert rest[-1][0] == "done" and rest[-1][1]["stop_reason"] == "end_turn"
        assert "".join(e[1]["delta"] for e in first + rest if e[0] == "text") == LONG
        # finished, within retention: the whole answer from its checkpoint, on a third 'process' too
        c = _harness(tmp_path, backend(), ScriptedModel([]))
        async with serve(c.app()) as base_c, httpx.AsyncClient(base_url=base_c, headers=ALICE) as cc:
            full = parse_sse((await cc.get(f"/v1/sessions/{sid}/stream")).content)
        assert full[0][0] == "start" and full[-1][0] == "done"
        assert "".join(e[1]["delta"] for e in full if e[0] == "text") == LONG
    assert pair.a.sessions.load_messages(sid)[-1]["content"] == [{"type": "text", "text": LONG}]


async def test_twenty_concurrent_retries_of_one_turn_all_get_the_answer(tmp_path: Path, backend: Any) -> None:
    # the retries go to both servers at once, so either may claim the turn: both have the same model, and exactly
    # one model call is made in all (asserted below); with B's "must not answer" model the test failed whenever B
    # won the claim (1 run in 3–6 on dynamodb-local), which is correct behaviour, not a bug
    pair = make_pair(tmp_path, backend, slow(delay=0.005), slow(delay=0.005))
    async with two_servers(pair) as (ca, cb):
        sid = (await ca.post("/v1/sessions", json={})).json()["session_id"]
        body = {"text": "q", "turn_id": "turn-42"}

        async def attempt(i: int) -> tuple[int, list[Any]]:
            r = await (ca if i % 2 else cb).post(f"/v1/sessions/{sid}/messages", json=body)
            return r.status_code, parse_sse(r.content) if r.status_code == 200 else []

        results = await asyncio.gather(*(attempt(i) for i in range(20)))
        assert [code for code, _ in results] == [200] * 20
        texts = {"".join(e[1]["delta"] for e in evs if e[0] == "text") for _, evs in results}
        assert texts == {LONG}
        ids = {tuple(e[2] for e in evs) for _, evs in results}
        assert len(ids) == 1, [(i, [e for e in evs if e[0] != "text"]) for i, (_, evs) in enumerate(results)]
        # done: a retry still gets the same answer (replayed), never a second one
        late = parse_sse((await cb.post(f"/v1/sessions/{sid}/messages", json=body)).content)
        assert "".join(e[1]["delta"] for e in late if e[0] == "text") == LONG
    assert len(pair.a.model.requests) + len(pair.b.model.requests) == 1
    assert [m["role"] for m in pair.a.sessions.load_messages(sid)] == ["user", "assistant"]


async def test_twenty_concurrent_retries_on_one_process_are_not_409(tmp_path: Path, backend: Any) -> None:
    pair = make_pair(tmp_path, backend, slow(delay=0.005))
    listed = pair.a.ingest.list_projects

    async def list_projects_with_io(user_id: str) -> list[dict[str, Any]]:
        await asyncio.sleep(0.01)  # the real reader reads the workflow table: requests interleave here
        return await listed(user_id)

    pair.a.ingest.list_projects = list_projects_with_io  # type: ignore[method-assign]
    async with two_servers(pair) as (ca, _cb):
        sid = (await ca.post("/v1/sessions", json={})).json()["session_id"]
        body = {"text": "q", "turn_id": "turn-7"}
        rs = await asyncio.gather(*(ca.post(f"/v1/sessions/{sid}/messages", json=body) for _ in range(20)))
        assert [r.status_code for r in rs] == [200] * 20
        assert {parse_sse(r.content)[-1][1]["stop_reason"] for r in rs} == {"end_turn"}
    assert len(pair.a.model.requests) == 1


async def test_retries_of_one_turn_are_one_question_for_the_usage_limits(tmp_path: Path,
                                                                          request: pytest.FixtureRequest) -> None:
    """A retried turn_id follows its answer; it takes no answer slot and no question of the minute's budget."""
    limits = {"limit_concurrent_answers": 1, "limit_questions_per_minute": 2}
    items = lambda: make_item_table("sqlite", SESSIONS_TABLE, request, tmp_path)  # noqa: E731
    a = _harness(tmp_path, items(), slow(delay=0.005), with_limits=True, **limits)
    b = _harness(tmp_path, items(), ScriptedModel(["process B must not answer"]), with_limits=True, **limits)
    async with two_servers(Pair(a, b)) as (ca, cb):
        sid = (await ca.post("/v1/sessions", json={})).json()["session_id"]
        body = {"text": "q", "turn_id": "turn-9"}
        first = asyncio.ensure_future(ca.post(f"/v1/sessions/{sid}/messages", json=body))
        await asyncio.sleep(0.1)  # the answer runs
        retries = await asyncio.gather(*((ca if i % 2 else cb).post(f"/v1/sessions/{sid}/messages", json=body)
                                         for i in range(8)))
        assert [r.status_code for r in [await first, *retries]] == [200] * 9
        other = await ca.post(f"/v1/sessions/{sid}/messages", json={"text": "next", "turn_id": "turn-10"})
        assert other.status_code == 200  # the second question of the minute: still within the budget


async def test_deleting_the_session_elsewhere_ends_the_answer_quietly(tmp_path: Path, backend: Any) -> None:
    model = ScriptedModel([Reply(ToolUse("search_documents", {"query": "revenue"})), Reply(Text(LONG, chunk=4))],
                          delay=0.02)
    pair = make_pair(tmp_path, backend, model, disconnect_policy="finish")
    async with two_servers(pair) as (ca, cb):
        sid = (await ca.post("/v1/sessions", json={})).json()["session_id"]
        with capture_logs() as logs:
            async with ca.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "go"}) as r:
                reader = EventReader(r)
                await reader.until("text")
                assert (await cb.delete(f"/v1/sessions/{sid}")).status_code == 204
                events = await reader.until("done")
            await asyncio.sleep(0.2)
        assert events[-1][0] == "done"
        assert (await ca.get(f"/v1/sessions/{sid}")).status_code == 404
        assert (await cb.get(f"/v1/sessions/{sid}")).status_code == 404
    bad = [e for e in logs if e["log_level"] in ("warning", "error", "critical")]
    assert bad == [], bad
    assert not [e for e in logs if e["event"] in ("answer_failed", "partial_save_failed", "generation_crashed")]
    assert pair.a.sessions.items.get(f"SESSION#{sid}", "LEASE") is None


async def test_session_deleted_under_a_running_answer_without_a_stop_is_quiet(tmp_path: Path, backend: Any) -> None:
    """The race the stop cannot cover (the delete's own wait ran out): writes find no session."""
    model = ScriptedModel([Reply(ToolUse("search_documents", {"query": "revenue"})), Reply(Text(LONG, chunk=4))],
                          delay=0.02)
    pair = make_pair(tmp_path, backend, model, disconnect_policy="finish")
    async with two_servers(pair) as (ca, _cb):
        sid = (await ca.post("/v1/sessions", json={})).json()["session_id"]
        with capture_logs() as logs:
            async with ca.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "go"}) as r:
                reader = EventReader(r)
                await reader.until("tool")
                await asyncio.to_thread(pair.b.sessions.delete_session, sid)  # no stop first
                events = await reader.until("done")
            await asyncio.sleep(0.2)
        assert events[-1][0] == "done"
    bad = [e for e in logs if e["log_level"] in ("warning", "error", "critical")]
    assert bad == [], bad
    assert [e for e in logs if e["event"] in ("generation_lease_lost", "answer_ended", "partial_not_saved")]


async def test_a_crashed_owner_blocks_only_until_its_lease_expires(tmp_path: Path, backend: Any) -> None:
    from chat.core import checkpoints, events
    from store.session_lease import SessionLeases

    pair = make_pair(tmp_path, backend, ScriptedModel([]), ScriptedModel(["Answered after the crash."]),
                     generation_lease_seconds=1.0)
    async with two_servers(pair) as (_ca, cb):
        sid = (await cb.post("/v1/sessions", json={})).json()["session_id"]
        # a process took the lease, checkpointed part of an answer, then died (kill -9: nothing released)
        dead = SessionLeases(pair.a.sessions.items)
        assert dead.acquire(sid, generation_id="deadbeef", turn_id="t-crash", user_id="alice", owner="gone:1",
                            lease_s=1.0)[0]
        published = [events.make_event("deadbeef", 1, "start", events.start("t-crash", sid)),
                     events.make_event("deadbeef", 2, "text", events.text("Half an ans"))]
        dead.write_checkpoint(sid, generation_id="deadbeef", turn_id="t-crash", user_id="alice",
                              events=checkpoints.encode(published, 10_000), last_n=2, finished=False, first=True)
        assert (await cb.post(f"/v1/sessions/{sid}/messages", json={"text": "now?"})).status_code == 409
        # a resume serves what was checkpointed, then says the answer was cut off when the lease lapses
        t0 = time.monotonic()
        served = parse_sse((await cb.get(f"/v1/sessions/{sid}/stream")).content)
        assert [e[2] for e in served[:2]] == ["deadbeef.1", "deadbeef.2"] and served[1][1]["delta"] == "Half an ans"
        assert served[-2][1]["code"] == "interrupted" and served[-1][1]["stop_reason"] == "interrupted"
        assert time.monotonic() - t0 < 5
        # expired: the next question is answered
        r = await cb.post(f"/v1/sessions/{sid}/messages", json={"text": "now?"})
        assert r.status_code == 200 and parse_sse(r.content)[-1][1]["stop_reason"] == "end_turn"
