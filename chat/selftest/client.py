"""The scenarios' HTTP client: projects, uploads, sessions and questions over the real API (local dev tokens),
and the history checks on what a server stored."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from chat.core.events import SSEParser
from ingest.sample_docs import write_text_pdf
from store.block_repair import assert_request_history, repair_history
from store.errors import DocchatError, RetryableError
from store.sessions import SessionStore

TERMINAL = ("completed", "failed")


def headers(user: str) -> dict[str, str]:
    return {"Authorization": f"Bearer dev:{user}"}


def client(port: int, user: str, *, timeout_s: float = 60.0) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", headers=headers(user),
                             timeout=httpx.Timeout(timeout_s), limits=httpx.Limits(max_connections=400))


def _ok(r: httpx.Response) -> Any:
    if r.status_code >= 400:
        raise RetryableError(f"{r.request.method} {r.request.url.path}: {r.status_code} {r.text[:200]}")
    return r.json() if r.content else None


async def create_project(c: httpx.AsyncClient, name: str) -> str:
    return str(_ok(await c.post("/v1/projects", json={"name": name, "language": "en"}))["project_id"])


async def upload(c: httpx.AsyncClient, project_id: str, path: Path) -> dict[str, Any]:
    data = await asyncio.to_thread(path.read_bytes)
    body: dict[str, Any] = _ok(await c.post(f"/v1/projects/{project_id}/documents",
                                            files={"file": (path.name, data, "application/pdf")}))
    return body


async def wait_workflow(c: httpx.AsyncClient, workflow_id: str, within_s: float) -> dict[str, Any]:
    deadline = time.monotonic() + within_s
    while True:
        view: dict[str, Any] = _ok(await c.get(f"/v1/workflows/{workflow_id}"))
        if view.get("status") in TERMINAL:
            return view
        if time.monotonic() > deadline:
            raise RetryableError(f"workflow {workflow_id} still {view.get('status')} after {within_s:.0f} s")
        await asyncio.sleep(0.2)


async def new_session(c: httpx.AsyncClient, project_id: str | None = None) -> str:
    body = {"project_id": project_id} if project_id else {}
    return str(_ok(await c.post("/v1/sessions", json=body))["session_id"])


@dataclass
class Answer:
    """One question's SSE stream as the client saw it."""

    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    status: int = 0
    cut: bool = False  # the client left (or the connection broke) before the end

    @property
    def names(self) -> list[str]:
        return [e for e, _ in self.events]

    @property
    def done(self) -> bool:
        return "done" in self.names and "error" not in self.names

    def error(self) -> str:
        for event, data in self.events:
            if event == "error":
                return f"{data.get('code')}: {data.get('message')}"
        return f"HTTP {self.status}" if self.status >= 400 else ("cut" if self.cut else f"ended after {self.names}")


async def ask(c: httpx.AsyncClient, session_id: str, text: str, *, turn_id: str | None = None,
              leave: Callable[[Answer], bool] | None = None) -> Answer:
    """POST a question and read its events; ``leave(answer)`` true after an event → close the stream there."""
    out = Answer()
    body: dict[str, Any] = {"text": text}
    if turn_id:
        body["turn_id"] = turn_id
    parser = SSEParser()
    try:
        async with c.stream("POST", f"/v1/sessions/{session_id}/messages", json=body) as r:
            out.status = r.status_code
            if r.status_code >= 400:
                await r.aread()
                out.events.append(("error", {"code": r.status_code, "message": r.text[:200]}))
                return out
            async for chunk in r.aiter_raw():
                for m in parser.feed(chunk):
                    out.events.append((m.event, json.loads(m.data)))
                    if leave is not None and leave(out):
                        out.cut = True
                        return out
    except httpx.HTTPError:
        out.cut = True
    return out


def check_history(sessions: SessionStore, session_id: str, *, strict: bool) -> tuple[str | None, int]:
    """What ``session_id`` stored, checked: (a problem or None, the repairs the next request needs).

    ``strict`` (no process died): the stored turns themselves must be a valid request history ending with an
    answer (``assert_request_history``). Otherwise (after a kill -9) what the next request is sent — the
    stored turns repaired on load (``store.block_repair``) — must be, and every question must have an answer.
    """
    try:
        raw = sessions.load_messages(session_id)
    except DocchatError as exc:
        return f"{session_id}: cannot load: {exc.message}", 0
    fixed = repair_history(raw, close_tail=True)
    repairs = sum(int(v) for v in fixed.counts().values())
    history = raw if strict else fixed.messages
    try:
        assert_request_history(history)
    except DocchatError as exc:
        return f"{session_id}: invalid {'stored' if strict else 'repaired'} history: {exc.message}", repairs
    if history and history[-1]["role"] != "assistant":
        return f"{session_id}: the last question has no answer", repairs
    if strict and history and any(b.get("type") == "tool_use" for b in history[-1]["content"]):
        return f"{session_id}: the history ends in a tool call", repairs
    return None, repairs


def _report_pages() -> Iterator[list[str]]:
    facts = ["Annual report 2024. Revenue grew 12% in 2024 to 4.2 million euros.",
             "The staff count rose to 40 people. The office moves to Lyon in March.",
             "Operating costs fell 3% while the marketing budget stayed at 0.5 million euros."]
    n = 0
    while True:
        yield [facts[(n + i) % len(facts)] for i in range(12)]
        n += 1


def write_report(path: Path, pages: int) -> Path:
    """A small text PDF whose pages the local model can quote (revenue, staff, office)."""
    return write_text_pdf(path, pages, lines=12, text_for=_report_pages())


async def seed_project(c: httpx.AsyncClient, work: Path, *, pages: int = 2, within_s: float = 120.0) -> str:
    """A project holding one processed report: the answers' tool rounds find something to cite."""
    project_id = await create_project(c, f"selftest {work.name}")
    up = await upload(c, project_id, write_report(work / "report.pdf", pages))
    view = await wait_workflow(c, str(up["workflow_id"]), within_s)
    if view.get("status") != "completed":
        raise RetryableError(f"the seed document did not process: {view.get('status')} {view.get('error')}")
    return project_id
