"""What the command-line clients (`docchat ingest`, `docchat ask`, `docchat eval answers`) share to talk to the
running service: its URL, error translation, and the workflow-events SSE stream."""

from __future__ import annotations

import asyncio
import getpass
import json
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import httpx

from store.config import Settings
from store.errors import InvalidInput, NotFound, UpstreamError
from store.logging import get_logger

log = get_logger(__name__)

#: the workflow events after which nothing more comes
TERMINAL_EVENTS = ("completed", "failed")
_STREAM_TIMEOUT = httpx.Timeout(30.0, read=None)  # a long step sends nothing for a while: no read timeout
RETRY_DELAY_S = 1.0  # the wait before reopening a dropped workflow stream


def listen_url(settings: Settings) -> str:
    """The configured host/port as a URL a client can use (a wildcard listen address becomes loopback)."""
    host = "127.0.0.1" if settings.server.host in ("0.0.0.0", "::", "") else settings.server.host  # noqa: S104 - a client address
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{settings.server.port}"


def read_cli_config(settings: Settings) -> dict[str, str]:
    """What the last ``docchat up`` wrote (``{"url", "user"}``); {} when there is none or it is unreadable."""
    try:
        data = json.loads(settings.server.cli_config_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if k in ("url", "user") and isinstance(v, str) and v} if isinstance(
        data, dict) else {}


def write_cli_config(settings: Settings) -> Path | None:
    """``docchat up`` records its URL and the default local user, so ``docchat ingest/ask`` find it."""
    path = settings.server.cli_config_file
    body = {"url": listen_url(settings), "user": default_user(settings, None, config={})}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        log.warning("cli_config_not_written", path=str(path), error=str(exc))
        return None
    return path


def base_url(settings: Settings, url: str | None) -> str:
    """Where the CLI finds the server, first match: ``--url``, ``DOCCHAT_URL``, the URL the last ``docchat up``
    wrote (``DOCCHAT_CLI_CONFIG_FILE``), the configured host/port."""
    chosen = url or settings.server.url or read_cli_config(settings).get("url")
    return chosen.rstrip("/") if chosen else listen_url(settings)


def default_user(settings: Settings, user: str | None, *, config: dict[str, str] | None = None) -> str:
    """The local-mode user: ``--user``, ``DOCCHAT_LOCAL_USER``, the user the last ``docchat up`` offered the
    browser, the OS user — the browser's sign-in form offers the same name, so both land with one user."""
    if user:
        return user
    if settings.server.local_user:
        return settings.server.local_user
    saved = (read_cli_config(settings) if config is None else config).get("user")
    return saved or getpass.getuser()


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
