"""What the command-line clients (`docchat ingest`, `docchat ask`, `docchat eval answers`) share to talk to the
running service: its URL, error translation, and the workflow-events SSE stream."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator
from typing import Any

import httpx

from store.config import Settings
from store.errors import InvalidInput, NotFound, UpstreamError

#: the workflow events after which nothing more comes
TERMINAL_EVENTS = ("completed", "failed")
_STREAM_TIMEOUT = httpx.Timeout(30.0, read=None)  # a long step sends nothing for a while: no read timeout
RETRY_DELAY_S = 1.0  # the wait before reopening a dropped workflow stream


def base_url(settings: Settings, url: str | None) -> str:
    """``url`` if given, else the configured host/port (a wildcard listen address becomes loopback)."""
    if url:
        return url.rstrip("/")
    host = "127.0.0.1" if settings.server.host in ("0.0.0.0", "::", "") else settings.server.host  # noqa: S104 - a client address
    return f"http://{host}:{settings.server.port}"


def check_response(r: httpx.Response) -> Any:
    """The decoded JSON body, or the service's error translated into our hierarchy (404 → NotFound)."""
    if r.status_code >= 400:
        try:
            message = r.json()["error"]["message"]
        except (ValueError, KeyError, TypeError):
            message = r.text[:200]
        if r.status_code == 404:
            raise NotFound(message)
        if r.status_code < 500:
            raise InvalidInput(f"{r.status_code}: {message}")
        raise UpstreamError(f"{r.status_code}: {message}")
    return r.json() if r.content else None


async def workflow_events(
    client: httpx.AsyncClient, workflow_id: str, *, http_timeout: httpx.Timeout | None = _STREAM_TIMEOUT,
    attempts: int = 20, retry_delay_s: float | None = None,
) -> AsyncGenerator[tuple[str, dict[str, Any]], None]:
    """The workflow's SSE events as ``(event, view)``, up to and including the first terminal one.

    ``view`` is the decoded ``data:`` line (the workflow's status, progress, steps, page count, error). A
    stream that drops (a transport error) is reopened after ``retry_delay_s`` (default ``RETRY_DELAY_S``), one
    that ends before a terminal event at once; the service starts each stream with the current view, so nothing
    is missed. After ``attempts`` connections without a terminal event the iteration simply ends: the caller
    decides what a lost stream means. An error status (404: no such workflow) raises the translated error.
    Iterate it under ``contextlib.aclosing`` when breaking out early, so the stream is closed at once.
    """
    for _attempt in range(attempts):
        try:
            async with client.stream("GET", f"/v1/workflows/{workflow_id}/events", timeout=http_timeout) as resp:
                if resp.status_code >= 400:
                    await resp.aread()
                    check_response(resp)
                event = ""
                async for line in resp.aiter_lines():
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("data:") and line[5:].strip():
                        yield event, json.loads(line[5:])
                        if event in TERMINAL_EVENTS:
                            return
        except httpx.TransportError:
            await asyncio.sleep(RETRY_DELAY_S if retry_delay_s is None else retry_delay_s)
