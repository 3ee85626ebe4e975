"""Helpers shared by the chat benchmarks (``bench/chat_server.py``, ``bench/chat_sse.py``)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``; NaN when empty."""
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def bench_settings(data_dir: Path, **overrides: Any) -> Any:
    from store.config import Settings

    return Settings(data_dir=data_dir, log_level="WARNING", **overrides)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def serve(app: Any, port: int) -> Any:
    """Start ``app`` under uvicorn on loopback ``port``; returns ``(server, task)`` once it is serving."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", backlog=4096))
    task = asyncio.create_task(server.serve())
    for _ in range(1000):  # uvicorn exposes no started event; poll its flag
        if server.started:
            break
        await asyncio.sleep(0.01)
    return server, task


def chat_app(settings: Any, chat: Any) -> Any:
    """The real Litestar app serving ``chat`` (a ``ChatService``) and nothing else."""
    from chat.app.factory import create_app
    from chat.app.wiring import Services

    services = Services(settings=settings, dependencies={"chat": chat}, on_start=[chat.start], on_stop=[chat.stop])
    return create_app(settings, services=services)


class BenchIngest:
    """The chat-facing slice of the ingest service (``chat.core.ports.DocumentReader``): one project."""

    async def get_project(self, user_id: str, project_id: str) -> dict[str, Any]:
        return {"project_id": project_id}

    async def list_projects(self, user_id: str) -> list[dict[str, Any]]:
        return [{"project_id": "bench"}]

    async def read_page(self, user_id: str, document_id: str, page: int) -> Any:
        raise NotImplementedError
