"""Issue 16 API: a chat shared read-only (owner and shared users read; a third user and every write are 404),
"shared with me", the share link page, and a chat's document selection reaching the search tools."""

from __future__ import annotations

from pathlib import Path

import httpx

from chat.models.scripted import Reply, ScriptedModel, Text, ToolUse
from tests.chat.chat_harness import ALICE, BOB, make_harness, parse_sse, serve

CAROL = {"Authorization": "Bearer dev:carol"}


async def test_share_read_only_and_a_third_user_is_denied(tmp_path: Path) -> None:
    h = make_harness(tmp_path, ScriptedModel(["Revenue grew.", "again"]))
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, timeout=10) as c:
        sid = (await c.post("/v1/sessions", json={"title": "Revenue"}, headers=ALICE)).json()["session_id"]
        r = await c.post(f"/v1/sessions/{sid}/messages", json={"text": "How did revenue do?"}, headers=ALICE)
        assert r.status_code == 200 and parse_sse(r.content)[-1][0] == "done"
        # before the share bob sees nothing
        assert (await c.get(f"/v1/sessions/{sid}", headers=BOB)).status_code == 404
        r = await c.post(f"/v1/sessions/{sid}/shares", json={"user": "bob"}, headers=ALICE)
        assert r.status_code == 201 and r.json()["user"] == "bob" and r.json()["link"] == f"/s/{sid}"
        # only the owner shares, lists or unshares
        assert (await c.post(f"/v1/sessions/{sid}/shares", json={"user": "carol"}, headers=BOB)).status_code == 404
        assert (await c.get(f"/v1/sessions/{sid}/shares", headers=BOB)).status_code == 404
        assert (await c.delete(f"/v1/sessions/{sid}/shares/bob", headers=BOB)).status_code == 404
        assert [s["user"] for s in (await c.get(f"/v1/sessions/{sid}/shares", headers=ALICE)).json()["items"]] \
            == ["bob"]
        assert (await c.post(f"/v1/sessions/{sid}/shares", json={"user": "alice"}, headers=ALICE)).status_code \
            == 400
        # bob reads it, read-only
        info = (await c.get(f"/v1/sessions/{sid}", headers=BOB)).json()
        assert info["access"] == "viewer" and info["owner"] == "alice" and info["title"] == "Revenue"
        assert (await c.get(f"/v1/sessions/{sid}", headers=ALICE)).json()["access"] == "owner"
        items = (await c.get(f"/v1/sessions/{sid}/messages", headers=BOB)).json()["items"]
        assert [i["text"] for i in items] == ["How did revenue do?", "Revenue grew."]
        shared = (await c.get("/v1/shared", headers=BOB)).json()["items"]
        assert [(s["session_id"], s["owner"]) for s in shared] == [(sid, "alice")]
        assert (await c.get("/v1/sessions", headers=BOB)).json()["items"] == []  # not in bob's own chats
        # the viewer cannot write, stop, resume, rename, delete, share or change the documents
        for method, path, body in [
            ("POST", f"/v1/sessions/{sid}/messages", {"text": "hi"}),
            ("POST", f"/v1/sessions/{sid}/stop", None),
            ("GET", f"/v1/sessions/{sid}/stream", None),
            ("PATCH", f"/v1/sessions/{sid}", {"title": "x"}),
            ("DELETE", f"/v1/sessions/{sid}", None),
            ("PUT", f"/v1/sessions/{sid}/documents", {"document_ids": ["d1"]}),
        ]:
            r = await c.request(method, path, json=body, headers=BOB)
            assert r.status_code in (403, 404), (method, path, r.status_code)
        # a third user: as if the chat did not exist, and the share link page itself carries nothing
        for path in (f"/v1/sessions/{sid}", f"/v1/sessions/{sid}/messages"):
            r = await c.get(path, headers=CAROL)
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        assert (await c.get("/v1/shared", headers=CAROL)).json()["items"] == []
        assert (await c.get(f"/v1/sessions/{sid}/messages")).status_code == 401  # never public
        # unshare: bob loses it
        assert (await c.delete(f"/v1/sessions/{sid}/shares/bob", headers=ALICE)).status_code == 204
        assert (await c.get(f"/v1/sessions/{sid}/messages", headers=BOB)).status_code == 404
        assert (await c.get("/v1/shared", headers=BOB)).json()["items"] == []
        assert h.sessions.get_session(sid)["last_seq"] == 2  # nothing the viewer tried was written


async def test_document_selection_filters_search_and_read_page(tmp_path: Path) -> None:
    model = ScriptedModel([
        Reply(ToolUse("search_documents", {"query": "revenue office"})),
        Reply(ToolUse("read_page", {"document_id": "d1", "page": 1})),
        Reply(Text("Only the memo [S1].")),
    ])
    h = make_harness(tmp_path, model)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        sid = (await c.post("/v1/sessions", json={})).json()["session_id"]  # all of alice's projects
        assert (await c.get(f"/v1/sessions/{sid}")).json()["document_ids"] is None
        r = await c.put(f"/v1/sessions/{sid}/documents", json={"document_ids": ["d2"]})
        assert r.status_code == 200 and r.json()["document_ids"] == ["d2"]
        assert (await c.get(f"/v1/sessions/{sid}")).json()["document_ids"] == ["d2"]
        assert (await c.put(f"/v1/sessions/{sid}/documents", json={"document_ids": []})).status_code == 400
        r = await c.post(f"/v1/sessions/{sid}/messages", json={"text": "revenue and the office?"})
        events = parse_sse(r.content)
        _query, flt = h.retriever.calls[-1]
        assert flt.document_ids == ("d2",)
        tools = [e[1] for e in events if e[0] == "tool" and e[1].get("status") in ("done", "error")]
        assert tools[0]["results"] == 1  # the memo only, not the report that also matches "revenue"
        assert tools[1]["status"] == "error" and "not one of this chat's documents" in tools[1]["error"]
        # back to all documents
        r = await c.put(f"/v1/sessions/{sid}/documents", json={"document_ids": None})
        assert r.json()["document_ids"] is None
