"""The sessions API, auth rules and the SSE stream mechanics (resume, stop, disconnect, keep-alive)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from chat.models.scripted import Reply, ScriptedModel, Text, ToolUse, Usage
from store.blocks import assert_pairs_ok
from tests.chat.chat_harness import ALICE, BOB, EventReader, make_harness, parse_sse, read_events_until, serve

LONG = " ".join(f"word{i}." for i in range(200))


async def test_sessions_crud_list_order_cursor_and_usage(tmp_path: Path) -> None:
    model = ScriptedModel(
        [
            Reply(ToolUse("search_documents", {"query": "revenue"}), usage=Usage(50, 5, 0, 100)),
            Reply(Text("It grew [S1]."), usage=Usage(10, 5, 150, 0)),
        ]
    )
    h = make_harness(tmp_path, model)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE) as c:
        created = []
        for i in range(3):
            r = await c.post("/v1/sessions", json={"title": f"chat {i}"} if i else {})
            assert r.status_code == 201 and set(r.json()) >= {"session_id", "title", "created_at"}
            created.append(r.json()["session_id"])
        await asyncio.sleep(0.002)
        r = await c.post(f"/v1/sessions/{created[0]}/messages", json={"text": "How did revenue do?"})
        assert r.status_code == 200
        # newest activity first, paginated with a cursor
        page1 = (await c.get("/v1/sessions", params={"limit": 2})).json()
        assert [s["session_id"] for s in page1["items"]] == [created[0], created[2]]
        assert page1["next_cursor"]
        page2 = (await c.get("/v1/sessions", params={"limit": 2, "cursor": page1["next_cursor"]})).json()
        assert [s["session_id"] for s in page2["items"]] == [created[1]] and page2["next_cursor"] is None
        # usage totals and cache-hit ratio
        detail = (await c.get(f"/v1/sessions/{created[0]}")).json()
        assert detail["title"] == "How did revenue do?"  # generated after the first exchange
        u = detail["usage"]
        assert (u["input"], u["output"], u["cache_read"], u["cache_write"]) == (60, 10, 150, 100)
        assert u["cache_hit_ratio"] == round(150 / 310, 4)
        # display messages: one item per question and per answer, tool rounds summarised
        items = (await c.get(f"/v1/sessions/{created[0]}/messages")).json()["items"]
        assert [i["role"] for i in items] == ["user", "assistant"]
        answer = items[1]
        assert answer["text"] == "It grew [S1]." and answer["tools"] == [
            {"name": "search_documents", "summary": "searched: revenue", "input": {"query": "revenue"}, "results": 1}
        ]  # input and the result count: a reopened chat shows the search line as the live answer did
        assert answer["citations"][0]["document_id"] == "d1" and answer["usage"]["cache_read"] == 150
        assert "tool_result" not in str(items) and "<search_results" not in str(items)
        # rename, delete
        r = await c.patch(f"/v1/sessions/{created[1]}", json={"title": "  Renamed   chat "})
        assert r.json()["title"] == "Renamed chat"
        assert (await c.patch(f"/v1/sessions/{created[1]}", json={"title": "  "})).status_code == 400
        assert (await c.delete(f"/v1/sessions/{created[2]}")).status_code == 204
        assert (await c.get(f"/v1/sessions/{created[2]}")).status_code == 404


async def test_other_users_sessions_and_projects_are_404(tmp_path: Path) -> None:
    h = make_harness(tmp_path, ScriptedModel(["a"]))
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base) as c:
        sid = (await c.post("/v1/sessions", json={}, headers=ALICE)).json()["session_id"]
        for method, path, body in [
            ("GET", f"/v1/sessions/{sid}", None),
            ("PATCH", f"/v1/sessions/{sid}", {"title": "x"}),
            ("DELETE", f"/v1/sessions/{sid}", None),
            ("GET", f"/v1/sessions/{sid}/messages", None),
            ("POST", f"/v1/sessions/{sid}/messages", {"text": "hi"}),
            ("GET", f"/v1/sessions/{sid}/stream", None),
            ("POST", f"/v1/sessions/{sid}/stop", None),
        ]:
            r = await c.request(method, path, json=body, headers=BOB)
            assert r.status_code == 404, (method, path, r.status_code)
            assert r.json()["error"]["code"] == "not_found"
        assert (await c.get("/v1/sessions", headers=BOB)).json()["items"] == []
        r = await c.post("/v1/sessions", json={"project_id": "pb"}, headers=ALICE)  # bob's project
        assert r.status_code == 404
        assert (await c.get("/v1/sessions")).status_code == 401
        r = await c.get("/v1/sessions", headers={"Authorization": "Bearer sometoken"})
        assert r.status_code == 401
        r = await c.post(f"/v1/sessions/{sid}/messages", json={"text": "   "}, headers=ALICE)
        assert r.status_code == 400


async def test_resume_with_last_event_id_replays_only_what_was_missed(tmp_path: Path) -> None:
    model = ScriptedModel([Reply(Text(LONG, chunk=20))], delay=0.003)
    h = make_harness(tmp_path, model, disconnect_policy="finish")
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        sid = (await c.post("/v1/sessions", json={})).json()["session_id"]
        async with c.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "long please"}) as r:
            reader = EventReader(r)
            first = await reader.until("text")
            first += await reader.until("text")
        last_id = reader.last_id
        assert last_id is not None
        r = await c.get(f"/v1/sessions/{sid}/stream", headers={"Last-Event-ID": last_id})
        rest = parse_sse(r.content)
        n_last = int(last_id.rsplit(".", 1)[1])
        assert int(rest[0][2].rsplit(".", 1)[1]) == n_last + 1  # nothing repeated, nothing skipped
        assert rest[-1][0] == "done"
        text = "".join(e[1]["delta"] for e in first + rest if e[0] == "text")
        assert text == LONG
        # without Last-Event-ID: the whole generation; a session with nothing running: 204
        full = parse_sse((await c.get(f"/v1/sessions/{sid}/stream")).content)
        assert full[0][0] == "start" and full[-1][0] == "done"
        other = (await c.post("/v1/sessions", json={})).json()["session_id"]
        assert (await c.get(f"/v1/sessions/{other}/stream")).status_code == 204


async def _wait_stored(h: Any, sid: str, n: int) -> list[dict[str, Any]]:
    for _ in range(300):
        msgs: list[dict[str, Any]] = h.sessions.load_messages(sid)
        if len(msgs) >= n and (h.chat.registry.running(sid) is None):
            return msgs
        await asyncio.sleep(0.01)
    raise AssertionError("the generation did not finish")


async def test_disconnect_saves_partial_answer_option_b(tmp_path: Path) -> None:
    model = ScriptedModel([Reply(Text("Complete first block."), Text(LONG, chunk=8)), "next answer"], delay=0.005)
    h = make_harness(tmp_path, model)  # partial policy, no grace
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        sid = (await c.post("/v1/sessions", json={})).json()["session_id"]
        received = ""
        async with c.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "go"}) as r:
            reader = EventReader(r)
            while received.count("word") < 3:
                events = await reader.until("text")
                received += "".join(e[1]["delta"] for e in events if e[0] == "text")
        history = await _wait_stored(h, sid, 2)
        assert_pairs_ok(history)
        blocks = history[-1]["content"]
        assert history[-1]["role"] == "assistant"
        assert blocks[0]["text"] == "Complete first block."
        assert LONG.startswith(blocks[1]["text"]) and len(blocks[1]["text"]) < len(LONG)
        assert blocks[-1]["text"].strip().startswith("[interrupted")
        assert all(b["type"] == "text" for b in blocks)
        items = (await c.get(f"/v1/sessions/{sid}/messages")).json()["items"]
        assert items[-1]["interrupted"] is True
        r2 = await c.post(f"/v1/sessions/{sid}/messages", json={"text": "again"})
        assert parse_sse(r2.content)[-1][1]["stop_reason"] == "end_turn"
        assert_pairs_ok(model.requests[-1].messages)


async def test_disconnect_during_a_tool_round_leaves_no_dangling_tool_use(tmp_path: Path) -> None:
    model = ScriptedModel([Reply(ToolUse("search_documents", {"query": "revenue"})), Reply(Text(LONG))], delay=0.01)
    h = make_harness(tmp_path, model)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        sid = (await c.post("/v1/sessions", json={})).json()["session_id"]
        async with c.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "go"}) as r:
            await read_events_until(r, "tool")
        history = await _wait_stored(h, sid, 3)
    assert_pairs_ok(history)
    assert history[1]["content"][0]["type"] == "tool_use"
    assert history[2]["content"][0]["type"] == "tool_result"


async def test_finish_policy_completes_in_the_background_option_c(tmp_path: Path) -> None:
    model = ScriptedModel([Reply(Text(LONG, chunk=40))], delay=0.002)
    h = make_harness(tmp_path, model, disconnect_policy="finish")
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        sid = (await c.post("/v1/sessions", json={})).json()["session_id"]
        async with c.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "go"}) as r:
            await read_events_until(r, "text")
        history = await _wait_stored(h, sid, 2)
    assert history[-1]["content"] == [{"type": "text", "text": LONG}]


async def test_stop_endpoint_saves_partial_and_ends_the_stream(tmp_path: Path) -> None:
    model = ScriptedModel([Reply(Text(LONG, chunk=8))], delay=0.005)
    h = make_harness(tmp_path, model, disconnect_policy="finish")
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        sid = (await c.post("/v1/sessions", json={})).json()["session_id"]
        async with c.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "go"}) as r:
            reader = EventReader(r)
            events = await reader.until("text")
            stopped = (await c.post(f"/v1/sessions/{sid}/stop")).json()
            events += await reader.until("done")
        assert stopped["stopped"] is True
        assert events[-1][1]["stop_reason"] == "interrupted"
        history = h.sessions.load_messages(sid)
        assert_pairs_ok(history)
        assert history[-1]["content"][-1]["text"].strip().startswith("[interrupted")
        assert (await c.post(f"/v1/sessions/{sid}/stop")).json() == {"stopped": False}


async def test_second_question_while_generating_is_409_and_keepalive_is_sent(tmp_path: Path) -> None:
    model = ScriptedModel([Reply(Text("slow answer", chunk=4))], delay=0.05)
    h = make_harness(tmp_path, model, sse_keepalive_seconds=0.02)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        sid = (await c.post("/v1/sessions", json={})).json()["session_id"]
        async with c.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "go"}) as r:
            busy = await c.post(f"/v1/sessions/{sid}/messages", json={"text": "another"})
            assert busy.status_code == 409
            raw = b"".join([chunk async for chunk in r.aiter_raw()])
        assert b": keep-alive\n\n" in raw
        assert parse_sse(raw)[-1][0] == "done"
