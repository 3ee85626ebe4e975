"""Request guards in front of every handler: the Host a request names, its body's type, size, depth and
pace, and the headers every response carries.

``RequestGuard`` (a Litestar middleware, outermost) checks, in order:

* local mode: the ``Host`` header names loopback (``localhost``, ``127.0.0.0/8``, ``[::1]``, any port),
  else 421 — a page on another site whose DNS name was rebound to 127.0.0.1 gets nothing;
* a request with a body (outside the upload route): ``Content-Type: application/json`` (or ``…+json``),
  else 415 — a cross-site ``<form>`` (``text/plain``, urlencoded, multipart) cannot write;
* the body arrives whole within ``DOCCHAT_BODY_TIMEOUT_SECONDS`` (else 408), is at most
  ``DOCCHAT_MAX_JSON_BODY_BYTES`` (else 413, before the handler reads a byte) and nests arrays/objects at
  most ``DOCCHAT_MAX_JSON_DEPTH`` deep (else 400: the JSON decoder would recurse until it fails);
* the upload route (``opt={"streamed_body": True}``) keeps its own size limit and content checks; it only
  gets the pace check: ``DOCCHAT_BODY_TIMEOUT_SECONDS`` at most between two pieces of the body.

``security_headers`` (a before-send hook) adds ``X-Content-Type-Options: nosniff`` to every response and a
CSP to the OpenAPI pages under ``/schema``. Slow *headers* are not seen here (no request exists yet): the
server's protocol times them out (``chat/app/server.py``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
from collections.abc import Awaitable, Callable
from typing import Any

import numpy as np
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from ingest.sizes import limit_text
from store.config import Settings
from store.errors import InvalidInput, MisdirectedRequest, PayloadTooLarge, RequestTimeout, UnsupportedMediaType

#: handler opt key: the handler reads its body as a stream and enforces its own limits (the upload)
STREAMED_BODY = "streamed_body"
_NO_BODY_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_JSON_TYPE = re.compile(r"^application/(?:[\w.+-]+\+)?json$")
# a JSON string (escapes included): removed before brackets are counted
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = bytes(c for c in range(256) if c not in b"[]{}")


def loopback_host(host_header: str) -> bool:
    """Is ``host_header`` (``name[:port]``) a loopback name: ``localhost``, ``127.x.y.z`` or ``[::1]``?"""
    host = host_header.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        if end < 0 or (host[end + 1:] and not _port(host[end + 1:])):
            return False
        name = host[1:end]
    else:
        name, sep, port = host.rpartition(":")
        if not sep:
            name = host
        elif not port.isdigit():
            return False
    if name.rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _port(rest: str) -> bool:
    return rest.startswith(":") and rest[1:].isdigit()


def json_too_deep(body: bytes, max_depth: int) -> bool:
    """Does the JSON text nest arrays/objects more than ``max_depth`` levels? Brackets inside strings don't
    count. Every step runs in C (regex, ``bytes.translate``, numpy): 6-65 ms for a 1 MiB body, whatever its shape."""
    if body.count(b"[") + body.count(b"{") <= max_depth:
        return False  # cannot be deeper than the number of openers (the common case: no scan)
    brackets = _STRING.sub(b"", body).translate(None, _NOT_BRACKET)
    if len(brackets) <= max_depth:
        return False
    codes = np.frombuffer(brackets, dtype=np.uint8)
    steps = np.where((codes == 0x5B) | (codes == 0x7B), 1, -1).astype(np.int32)
    return int(np.cumsum(steps).max()) > max_depth


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def _has_body(scope: Scope) -> bool:
    if scope.get("method", "GET") in _NO_BODY_METHODS:
        return False
    length = _header(scope, b"content-length")
    if length is not None:
        return length.strip() not in ("", "0")
    return _header(scope, b"transfer-encoding") is not None


class RequestGuard:
    """ASGI middleware: Host, content type, body size/depth/pace (see the module docstring)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        srv = settings.server
        self.local = srv.backend == "local"
        self.max_body = srv.max_json_body_bytes
        self.max_depth = srv.max_json_depth
        self.body_timeout = srv.body_timeout_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        if self.local:
            host = _header(scope, b"host")
            if host is not None and not loopback_host(host):
                raise MisdirectedRequest(
                    "local mode serves loopback host names only (localhost, 127.0.0.1, [::1]); "
                    "use DOCCHAT_BACKEND=aws to serve other names"
                )
        handler = scope.get("route_handler")
        opt = getattr(handler, "opt", None) or {}
        if opt.get(STREAMED_BODY):
            await self.app(scope, _paced(receive, self.body_timeout), send)
            return
        if not _has_body(scope):
            await self.app(scope, receive, send)
            return
        ctype = (_header(scope, b"content-type") or "").split(";", 1)[0].strip().lower()
        if not _JSON_TYPE.match(ctype):
            raise UnsupportedMediaType(
                f"send the request body as JSON with 'Content-Type: application/json' (got {ctype or 'none'!r})"
            )
        body = await self._read_body(scope, receive)
        if json_too_deep(body, self.max_depth):
            raise InvalidInput(f"the JSON body nests arrays or objects more than {self.max_depth} levels deep")
        await self.app(scope, _replay(body, receive), send)

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes:
        too_large = PayloadTooLarge(
            f"the request body is larger than the {limit_text(self.max_body)} limit for JSON requests "
            "(documents are uploaded as multipart to POST /v1/projects/{id}/documents)"
        )
        length = _header(scope, b"content-length")
        if length is not None and length.strip().isdigit() and int(length) > self.max_body:
            raise too_large
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_timeout
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await _receive_by(receive, deadline - loop.time(), limit_s=self.body_timeout)
            if message["type"] == "http.disconnect":
                raise InvalidInput("the client disconnected before sending the whole request body")
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                raise too_large
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


async def _receive_by(receive: Receive, remaining: float, *, limit_s: float) -> Any:
    """The next body message, or 408 when ``remaining`` (of the ``limit_s`` the whole body gets) runs out."""
    if remaining <= 0:
        raise RequestTimeout(f"the request body did not arrive within {limit_s:g} s")
    try:
        return await asyncio.wait_for(receive(), remaining)
    except TimeoutError:
        raise RequestTimeout(f"the request body did not arrive within {limit_s:g} s") from None


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body once (as one message), then the real channel (disconnects of a streaming response)."""
    sent = False

    async def replay() -> Any:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _paced(receive: Receive, gap: float) -> Receive:
    """``receive`` that fails with 408 when the body stalls for ``gap`` seconds (until it is complete)."""
    done = False

    async def paced() -> Any:
        nonlocal done
        if done:
            return await receive()
        try:
            message = await asyncio.wait_for(receive(), gap)
        except TimeoutError:
            raise RequestTimeout(f"the upload sent nothing for {gap:g} s and was stopped") from None
        if message["type"] != "http.request" or not message.get("more_body", False):
            done = True
        return message

    return paced


# --- response headers --------------------------------------------------------------------------------

#: the OpenAPI pages (``chat/app/docs_ui.py``): our own scripts only; Swagger UI styles elements inline
SCHEMA_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'none'"
)


def security_headers() -> Callable[[Message, Scope], Awaitable[None]]:
    """A before-send hook: ``nosniff`` on every response, a CSP on ``/schema…`` (unless the handler set one)."""
    schema_csp = SCHEMA_CSP.encode()

    async def hook(message: Message, scope: Scope) -> None:
        if message["type"] != "http.response.start":
            return
        headers: list[tuple[bytes, bytes]] = list(message.get("headers") or ())
        names = {k.lower() for k, _ in headers}
        if b"x-content-type-options" not in names:
            headers.append((b"x-content-type-options", b"nosniff"))
        path = scope.get("path", "")
        if (path == "/schema" or path.startswith("/schema/")) and b"content-security-policy" not in names:
            headers.append((b"content-security-policy", schema_csp))
        message["headers"] = headers

    return hook
