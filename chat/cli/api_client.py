"""What the command-line clients (`docchat ingest`, `docchat ask`) share to talk to the running service."""

from __future__ import annotations

from typing import Any

import httpx

from store.config import Settings
from store.errors import InvalidInput, NotFound, UpstreamError


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
