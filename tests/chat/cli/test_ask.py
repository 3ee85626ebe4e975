"""``docchat ask``: streaming output, citations, resume after a dropped connection, project names."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import httpx
import pytest

from chat.cli.ask import ask, print_sources, resolve_project
from chat.cli.main import build_parser
from chat.core.events import make_event
from chat.models.scripted import Reply, ScriptedModel, ToolUse
from store.errors import NotFound
from tests.chat.chat_harness import ALICE, make_harness, serve


async def test_ask_streams_the_answer_and_lists_sources(tmp_path: Path) -> None:
    model = ScriptedModel([Reply(ToolUse("search_documents", {"query": "revenue"})), "Revenue grew 12% [S1]."])
    h = make_harness(tmp_path, model)
    async with serve(h.app()) as base:
        out, err = io.StringIO(), io.StringIO()

        def run() -> object:
            with httpx.Client(base_url=base, headers=ALICE, timeout=10) as c:
                return ask(c, "How is revenue?", session_id=None, project_id="p1", out=out, err=err)

        result = await asyncio.to_thread(run)
    assert out.getvalue().strip() == "Revenue grew 12% [S1]."
    assert "searching: revenue" in err.getvalue()
    sources = io.StringIO()
    print_sources(result, sources)  # type: ignore[arg-type]
    assert "[S1] report.pdf, page 1:" in sources.getvalue() and "Revenue grew 12%" in sources.getvalue()
    assert h.sessions.get_session(result.session_id)["project_id"] == "p1"  # type: ignore[attr-defined]


def test_ask_resumes_from_the_last_event_after_a_drop() -> None:
    frames = [
        make_event("g", 1, "start", {"turn_id": "t", "session_id": "s"}).wire,
        make_event("g", 2, "text", {"delta": "Hello "}).wire,
        make_event("g", 3, "text", {"delta": "world"}).wire,
        make_event("g", 4, "done", {"seq": 2, "stop_reason": "end_turn"}).wire,
    ]
    seen_last_ids: list[str | None] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path == "/v1/sessions/s/messages":
            return httpx.Response(
                200, stream=httpx.ByteStream(b"".join(frames[:2])), headers={"content-type": "text/event-stream"}
            )
        if request.url.path == "/v1/sessions/s/stream":
            last = request.headers.get("last-event-id")
            seen_last_ids.append(last)
            n = int(last.rsplit(".", 1)[1]) if last else 0
            return httpx.Response(
                200, stream=httpx.ByteStream(b"".join(frames[n:])), headers={"content-type": "text/event-stream"}
            )
        return httpx.Response(404)

    out, err = io.StringIO(), io.StringIO()
    with httpx.Client(transport=httpx.MockTransport(handler), base_url="http://x") as c:
        result = ask(c, "hi", session_id="s", project_id=None, out=out, err=err)
    assert seen_last_ids == ["g.2"]
    assert out.getvalue().strip() == "Hello world" and result.stop_reason == "end_turn"
    assert "resuming" in err.getvalue()


def test_resolve_project_by_name_or_id() -> None:
    projects = [{"project_id": "p-1", "name": "Reports"}, {"project_id": "p-2", "name": "Memos"}]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=projects)

    with httpx.Client(transport=httpx.MockTransport(handler), base_url="http://x") as c:
        assert resolve_project(c, "Memos") == "p-2"
        assert resolve_project(c, "p-1") == "p-1"
        with pytest.raises(NotFound, match="Memos, Reports"):
            resolve_project(c, "nope")


def test_cli_has_the_ask_subcommand() -> None:
    args = build_parser().parse_args(["ask", "what?", "--project", "Reports", "--session", "abc"])
    assert (args.question, args.project, args.session) == ("what?", "Reports", "abc")
