"""Issue 16's chat API: feedback on an answer, relevance on citations, regenerate / edit-and-resend,
search across chats, pinning and the Markdown export — over HTTP against the real app (SQLite store)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from chat.models.scripted import Reply, ScriptedModel, Text, ToolUse
from tests.chat.chat_harness import ALICE, BOB, make_harness, parse_sse, serve


def _model(*answers: str) -> ScriptedModel:
    script: list[Any] = []
    for a in answers:
        script += [Reply(ToolUse("search_documents", {"query": "revenue grew"})), Reply(Text(a))]
    return ScriptedModel(script)


async def _ask(c: httpx.AsyncClient, sid: str, text: str, **extra: Any) -> list[tuple[str, dict[str, Any], Any]]:
    r = await c.post(f"/v1/sessions/{sid}/messages", json={"text": text, **extra})
    assert r.status_code == 200, r.text
    return parse_sse(r.content)


async def test_feedback_is_stored_with_the_answer_and_counted(tmp_path: Path) -> None:
    h = make_harness(tmp_path, _model("Revenue grew 12% [S1]."))
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE) as c:
        sid = (await c.post("/v1/sessions", json={})).json()["session_id"]
        events = await _ask(c, sid, "How did revenue do?")
        cite = next(d for e, d, _ in events if e == "citation")
        assert cite["score"] > 0  # the search hit's relevance travels with the citation
        items = (await c.get(f"/v1/sessions/{sid}/messages")).json()["items"]
        answer = items[1]
        assert answer["feedback"] is None and answer["citations"][0]["score"] == cite["score"]  # also on reload
        url = f"/v1/sessions/{sid}/messages/{answer['seq']}/feedback"
        r = await c.put(url, json={"rating": "down", "comment": "cites the wrong year"})
        assert r.status_code == 200 and r.json()["feedback"]["rating"] == "down"
        answer = (await c.get(f"/v1/sessions/{sid}/messages")).json()["items"][1]
        assert answer["feedback"]["rating"] == "down" and answer["feedback"]["comment"] == "cites the wrong year"
        assert (await c.put(url, json={"rating": None})).json()["feedback"] is None
        assert (await c.get(f"/v1/sessions/{sid}/messages")).json()["items"][1]["feedback"] is None
        assert (await c.put(url, json={"rating": "great"})).status_code == 400
        q_url = f"/v1/sessions/{sid}/messages/{items[0]['seq']}/feedback"
        assert (await c.put(q_url, json={"rating": "up"})).status_code == 404  # a question takes no rating
        async with httpx.AsyncClient(base_url=base, headers=BOB) as bob:
            assert (await bob.put(url, json={"rating": "up"})).status_code == 404


async def test_regenerate_replaces_the_last_turn(tmp_path: Path) -> None:
    model = _model("First answer [S1].", "Second answer [S1].", "Edited answer [S1].")
    h = make_harness(tmp_path, model)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE) as c:
        sid = (await c.post("/v1/sessions", json={})).json()["session_id"]
        await _ask(c, sid, "How did revenue do?")
        items = (await c.get(f"/v1/sessions/{sid}/messages")).json()["items"]
        await _ask(c, sid, "How did revenue do?", replaces_seq=items[0]["seq"])
        items = (await c.get(f"/v1/sessions/{sid}/messages")).json()["items"]
        assert [(i["role"], i["text"]) for i in items] == [("user", "How did revenue do?"),
                                                          ("assistant", "Second answer [S1].")]
        # the model saw the question once: the replaced turn (with its tool pair) is not in the request
        sent = model.requests[-2].messages
        assert [m["role"] for m in sent] == ["user"]
        # edit-and-resend: another text in place of the last question
        await _ask(c, sid, "How much did revenue grow in 2024?", replaces_seq=items[0]["seq"])
        items = (await c.get(f"/v1/sessions/{sid}/messages")).json()["items"]
        assert [i["text"] for i in items] == ["How much did revenue grow in 2024?", "Edited answer [S1]."]
        r = await c.post(f"/v1/sessions/{sid}/messages", json={"text": "x", "replaces_seq": 999})
        assert r.status_code == 400


async def test_search_pin_and_export(tmp_path: Path) -> None:
    h = make_harness(tmp_path, _model("Revenue grew 12% [S1].", "Nothing about Lyon [S1]."))
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE) as c:
        a = (await c.post("/v1/sessions", json={"title": "Budget"})).json()["session_id"]
        b = (await c.post("/v1/sessions", json={"title": "Office move"})).json()["session_id"]
        other = (await c.post("/v1/sessions", json={"title": "Empty"})).json()["session_id"]
        await _ask(c, a, "How did revenue do?")
        await _ask(c, b, "Where does the office go?")
        found = (await c.get("/v1/sessions", params={"q": "REVENUE grew"})).json()["items"]
        assert [s["session_id"] for s in found] == [a]
        assert found[0]["in"] == "text" and "Revenue grew" in found[0]["snippet"]
        assert [s["session_id"] for s in (await c.get("/v1/sessions", params={"q": "office"})).json()["items"]] == [b]
        both = (await c.get("/v1/sessions", params={"q": "s1"})).json()["items"]  # in both answers' text
        assert [s["session_id"] for s in both] == [b, a]  # newest first
        async with httpx.AsyncClient(base_url=base, headers=BOB) as bob:
            assert (await bob.get("/v1/sessions", params={"q": "revenue"})).json()["items"] == []
            assert (await bob.put(f"/v1/sessions/{a}/pin", json={"pinned": True})).status_code == 404
        # pinning: first in the list, stored on the session
        assert (await c.put(f"/v1/sessions/{other}/pin", json={"pinned": True})).json()["pinned"] is True
        listed = (await c.get("/v1/sessions")).json()["items"]
        assert [s["session_id"] for s in listed] == [other, b, a] and listed[0]["pinned"] is True
        assert (await c.get(f"/v1/sessions/{other}")).json()["pinned"] is True
        await c.put(f"/v1/sessions/{other}/pin", json={"pinned": False})
        assert [s["session_id"] for s in (await c.get("/v1/sessions")).json()["items"]] == [b, a, other]
        # export: questions, answers, footnotes with file/page/quote, feedback
        seq = (await c.get(f"/v1/sessions/{a}/messages")).json()["items"][1]["seq"]
        await c.put(f"/v1/sessions/{a}/messages/{seq}/feedback", json={"rating": "up", "comment": "spot on"})
        r = await c.get(f"/v1/sessions/{a}/export", params={"format": "markdown"})
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/markdown")
        assert "attachment" in r.headers["content-disposition"] and "Budget.md" in r.headers["content-disposition"]
        md = r.text
        assert md.startswith("# Budget\n")
        assert "## Question\n\n> How did revenue do?" in md
        assert "Revenue grew 12% [^1]." in md
        assert "[^1]: report.pdf, page 1, relevance" in md and "— “Revenue grew 12% in 2024" in md
        assert "**Feedback:** 👍 helpful: spot on" in md
        assert (await c.get(f"/v1/sessions/{a}/export", params={"format": "pdf"})).status_code == 400
        async with httpx.AsyncClient(base_url=base, headers=BOB) as bob:
            assert (await bob.get(f"/v1/sessions/{a}/export")).status_code == 404


async def test_feedback_counts_are_net_in_the_usage_read_model(tmp_path: Path) -> None:
    from store.metrics import MetricsRecorder, SqliteMetricsStore
    from store.metrics_views import usage

    h = make_harness(tmp_path, _model("Revenue grew 12% [S1]."))
    store = SqliteMetricsStore(tmp_path / "metrics.db")
    h.chat.metrics = MetricsRecorder(store, flush_seconds=0, usage_flush_seconds=0)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE) as c:
        sid = (await c.post("/v1/sessions", json={})).json()["session_id"]
        await _ask(c, sid, "How did revenue do?")
        seq = (await c.get(f"/v1/sessions/{sid}/messages")).json()["items"][1]["seq"]
        url = f"/v1/sessions/{sid}/messages/{seq}/feedback"
        await c.put(url, json={"rating": "down"})
        await c.put(url, json={"rating": "down", "comment": "a comment re-saves the same rating"})
        h.chat.metrics.flush(everything=True)
        assert usage(store, user="alice")["totals"].get("feedback_down") == 1
        await c.put(url, json={"rating": "up"})
        h.chat.metrics.flush(everything=True)
        totals = usage(store, user="alice")["totals"]
        assert (totals.get("feedback_down"), totals.get("feedback_up")) == (0, 1)
        await c.put(url, json={"rating": None})
        h.chat.metrics.flush(everything=True)
        assert usage(store, user="alice")["totals"].get("feedback_up") == 0
    store.close()


def test_markdown_export_footnotes_groups_unknown_refs_and_unicode_titles() -> None:
    from chat.core.chat_export import file_name, to_markdown
    from chat.core.chat_search import match, snippet

    c1 = {"ref": "S1", "file_name": "a.pdf", "page": 2, "quote": "line one\nline two", "score": 0.5}
    c3 = {"ref": "S3", "file_name": "b.pdf", "page": 7, "quote": ""}
    items = [{"role": "user", "text": "연차는?\n두 줄"},
             {"role": "assistant", "text": "Both [S1, S3]; not [S9]. Again [S1].", "citations": [c1, c3],
              "feedback": {"rating": "down"}}]
    md = to_markdown({"title": "연차 질문"}, items, exported_at="2026-01-01")
    assert "> 연차는?\n> 두 줄" in md
    assert "Both [^1][^2]; not [S9]. Again [^1]." in md
    assert "[^1]: a.pdf, page 2, relevance 0.5 — “line one line two”" in md
    assert "[^2]: b.pdf, page 7\n" in md
    assert "**Feedback:** 👎 not helpful" in md
    assert file_name({"title": "연차 질문 / 2026"}) == "연차-질문--2026.md" and file_name({}) == "chat.md"
    assert match("Budget 2026", [], ["budget"]) == {"in": "title", "snippet": None}
    assert match(None, ["nothing here"], ["budget"]) is None
    assert snippet("x " * 200 + "needle " + "y " * 200, "needle").startswith("…")
