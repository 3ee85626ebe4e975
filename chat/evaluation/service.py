"""The real service, in-process, and the HTTP calls the evaluation makes to it.

``serve_in_process`` builds the app exactly as ``docchat up`` does (``create_app`` → ``build_services``:
stores, retriever, ingest with in-process workers, the chat service with the configured model) and runs it
under uvicorn on a free loopback port. ``EvalClient`` then talks to it over HTTP like the CLI clients do:
projects and uploads through the ingest API (``docchat ingest``), answers through the chat API's SSE stream
(``docchat ask``), authenticated with a local-mode ``dev:<user>`` token.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import AsyncIterator
from contextlib import aclosing, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from chat.cli.api_client import TERMINAL_EVENTS, check_response, workflow_events
from chat.cli.ingest import ensure_project
from chat.core.events import SSEParser
from store.config import Settings, setting_fields
from store.errors import DocchatError, UpstreamError

EVAL_USER = "eval"
TERMINAL = TERMINAL_EVENTS


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@asynccontextmanager
async def serve_in_process(settings: Settings, *, model: Any = None) -> AsyncIterator[str]:
    """Run the whole service on ``settings`` (``model`` replaces the configured chat model); yields its URL."""
    import uvicorn

    from chat.app.factory import create_app
    from chat.app.wiring import build_services

    port = free_port()
    # an evaluation asks hundreds of questions as one user: the per-user limits (store/usage_limits.py) are off
    no_limits = {f.name: 0 for f in setting_fields() if f.section == "limits"}
    settings = settings.with_overrides(host="127.0.0.1", port=port, **no_limits)
    app = create_app(settings, services=build_services(settings, model=model))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve())
    while not server.started:  # uvicorn exposes no started event; poll its flag
        if task.done():
            task.result()  # start-up failed: raise its error
            raise UpstreamError("the in-process service stopped while starting")
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 120)


@dataclass(slots=True)
class Upload:
    document_id: str
    workflow_id: str
    status: str
    duplicate: bool
    error: str | None = None
    pages: int | None = None


@dataclass(slots=True)
class AnswerRecord:
    text: str = ""
    citations: list[tuple[str, int]] = field(default_factory=list)  # (service document id, page)
    first_token_s: float | None = None
    total_s: float = 0.0
    error: str | None = None


class EvalClient:
    """The HTTP calls of one evaluation run (one user, its projects)."""

    def __init__(self, base_url: str, *, user: str = EVAL_USER, read_timeout_s: float = 600.0) -> None:
        self.http = httpx.AsyncClient(
            base_url=base_url, headers={"Authorization": f"Bearer dev:{user}"},
            timeout=httpx.Timeout(30.0, read=read_timeout_s, write=None),
        )

    async def __aenter__(self) -> EvalClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.aclose()

    async def project(self, name: str, language: str) -> str:
        """The id of the project named ``name`` (created if missing: a re-run reuses what it ingested)."""
        return await ensure_project(self.http, name, language)

    async def documents(self, project_id: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            params: dict[str, Any] = {"limit": 500, **({"cursor": cursor} if cursor else {})}
            body = check_response(await self.http.get(f"/v1/projects/{project_id}/documents", params=params))
            out.extend(body.get("items", []))
            cursor = body.get("next_cursor")
            if not cursor:
                return out

    async def upload(self, project_id: str, path: Path, name: str) -> Upload:
        """Upload one file; the same bytes again answer 200 with the existing document (deduplicated)."""
        with path.open("rb") as fh:
            r = await self.http.post(f"/v1/projects/{project_id}/documents", files={"file": (name, fh)})
        body = check_response(r)
        return Upload(str(body["document_id"]), str(body["workflow_id"]), str(body["status"]),
                      bool(body.get("duplicate")), pages=body.get("page_count"))

    async def wait(self, upload: Upload) -> Upload:
        """Follow the workflow's SSE stream until it is completed or failed (reconnecting if it drops)."""
        if upload.status in TERMINAL:
            if upload.status == "failed":
                view = check_response(await self.http.get(f"/v1/workflows/{upload.workflow_id}"))
                upload.error = view.get("error")
            return upload
        async with aclosing(workflow_events(self.http, upload.workflow_id)) as events:
            async for event, view in events:
                upload.status = str(view.get("status"))
                upload.pages = view.get("page_count") or upload.pages
                if event in TERMINAL:
                    upload.error = view.get("error")
                    return upload
        upload.status, upload.error = "failed", "lost the progress stream"
        return upload

    async def ask(self, project_id: str, question: str) -> AnswerRecord:
        """Ask in a new session of ``project_id``; the answer text, its citations and its timings."""
        record = AnswerRecord()
        try:
            session = check_response(await self.http.post("/v1/sessions", json={"project_id": project_id}))
            parser = SSEParser()
            start = time.perf_counter()
            async with self.http.stream("POST", f"/v1/sessions/{session['session_id']}/messages",
                                        json={"text": question, "project_id": project_id}) as resp:
                if resp.status_code >= 400:
                    await resp.aread()
                    check_response(resp)
                async for chunk in resp.aiter_raw():
                    for m in parser.feed(chunk):
                        if self._on_event(m.event, json.loads(m.data), record, start):
                            record.total_s = time.perf_counter() - start
                            return record
            record.total_s = time.perf_counter() - start
            record.error = record.error or "the answer stream ended before 'done'"
        except (DocchatError, httpx.HTTPError) as exc:
            record.error = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
        return record

    @staticmethod
    def _on_event(event: str, data: dict[str, Any], record: AnswerRecord, start: float) -> bool:
        if event == "text":
            if record.first_token_s is None:
                record.first_token_s = time.perf_counter() - start
            record.text += str(data.get("delta", ""))
        elif event == "citation":
            page = data.get("page")
            if data.get("document_id") and isinstance(page, int):
                record.citations.append((str(data["document_id"]), page))
        elif event == "error":
            record.error = f"{data.get('code')}: {data.get('message')}"
        return event == "done"
