"""A real docchat chat API and web UI (the chat harness: ScriptedModel, fake ingest, SQLite sessions) served by
uvicorn in a background thread on a loopback port, for browser tests that need the server's own access rules."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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
