"""A real docchat chat API and web UI (the chat harness: ScriptedModel, fake ingest, SQLite sessions) served by
uvicorn in a background thread on a loopback port, for browser tests that need the server's own access rules."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from litestar import Request, get
from litestar.params import FromPath

from chat.app.factory import create_app
from chat.app.wiring import Services
from tests.chat.chat_harness import Harness, make_harness, serve


@contextmanager
def live_chat(tmp_path: Path, model: Any) -> Iterator[tuple[str, Harness]]:
    """Yields (base URL, harness) while the server runs; stops it afterwards."""
    h = make_harness(tmp_path, model)
    services = Services(settings=h.settings, dependencies={"chat": h.chat}, on_start=[h.chat.start],
                        on_stop=[h.chat.stop], web_ui=True)
    app = create_app(h.settings, services=services)

    @get("/v1/projects")
    async def projects(request: Request[Any, Any, Any]) -> dict[str, Any]:
        """The fake ingest's projects of the user (the page lists them at start; no ingest API is wired)."""
        return {"items": [{**p, "name": p["project_id"]} for p in await h.ingest.list_projects(str(request.user))]}

    @get("/v1/projects/{project_id:str}/documents")
    async def documents(request: Request[Any, Any, Any], project_id: FromPath[str]) -> dict[str, Any]:
        await h.ingest.get_project(str(request.user), project_id)
        return {"items": [{"document_id": d.document_id, "file_name": d.file_name, "status": "completed",
                           "page_count": len(d.pages)} for d in h.ingest.docs.values() if d.project_id == project_id]}

    app.register(projects)
    app.register(documents)
    started = threading.Event()
    stop = threading.Event()
    box: dict[str, str] = {}

    async def run() -> None:
        async with serve(app) as base:
            box["base"] = base
            started.set()
            await asyncio.to_thread(stop.wait)

    thread = threading.Thread(target=lambda: asyncio.run(run()), daemon=True)
    thread.start()
    if not started.wait(20):
        raise RuntimeError("the test server did not start")
    try:
        yield box["base"], h
    finally:
        stop.set()
        thread.join(15)
