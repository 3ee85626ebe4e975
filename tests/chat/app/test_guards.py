"""HTTP hardening (issue 13 items 10-13) over real HTTP: uvicorn on loopback with the protocol and options
``docchat up`` uses. Body limits, depth, content type, Host (DNS rebinding), ``?access_token=``, response
headers, validation messages, and slow clients (raw sockets)."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from chat.app.guards import json_too_deep, loopback_host
from chat.app.server import uvicorn_options
from chat.models.scripted import ScriptedModel
from tests.chat.chat_harness import ALICE, free_port, make_harness

JSON = {"content-type": "application/json"}
README = Path(__file__).resolve().parents[3] / "README.md"


@asynccontextmanager
async def serve_like_up(app: Any, settings: Any) -> AsyncIterator[tuple[str, int]]:
    """uvicorn with ``chat.app.server.uvicorn_options`` (header deadline protocol, keep-alive) on a free port."""
    port = free_port()
    options = {**uvicorn_options(settings), "port": port, "log_level": "warning", "lifespan": "on"}
    options.pop("log_config")
    server = uvicorn.Server(uvicorn.Config(app, **options))
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started:
            break
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}", port
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


@pytest.fixture
def harness(tmp_path: Path) -> Any:
    return make_harness(tmp_path, ScriptedModel(["An answer."] * 5), header_timeout_seconds=0.5,
                        body_timeout_seconds=0.5, max_json_body_bytes=64 * 1024)


# --- pure helpers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "LOCALHOST:1", "127.0.0.1", "127.0.0.1:8000",
                                  "127.5.6.7:80", "[::1]", "[::1]:8000", "localhost."])
def test_loopback_host_names(host: str) -> None:
    assert loopback_host(host)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "localhost.evil.example", "10.0.0.1:8000",
                                  "0.0.0.0", "[::2]:80", "[::1]x", "localhost:abc", "127.0.0.1.nip.io", "", "::1"])
def test_non_loopback_host_names(host: str) -> None:
    assert not loopback_host(host)


def test_json_depth_counts_brackets_outside_strings() -> None:
    assert not json_too_deep(b'{"a": [[1, 2], {"b": [3]}]}', 4)
    assert json_too_deep(b'{"a": [[1, 2], {"b": [[3]]}]}', 4)
    assert not json_too_deep(json.dumps({"text": "[" * 5000 + "{" * 5000}).encode(), 4)  # inside a string
    assert not json_too_deep(json.dumps({"t": 'x\\"[[[[[[', "u": [1]}).encode(), 3)  # escaped quote in string
    assert json_too_deep(b"[" * 1000 + b"]" * 1000, 64)
    assert not json_too_deep(b"[" * 64 + b"]" * 64, 64)
    wide = b"[" + b",".join([b"[1]"] * 10_000) + b"]"  # many brackets, depth 2
    assert not json_too_deep(wide, 2) and json_too_deep(wide, 1)


# --- item 10: body limits ------------------------------------------------------------------------------


async def test_json_bodies_are_small_flat_and_refused_early(harness: Any) -> None:
    async with serve_like_up(harness.app(), harness.settings) as (base, _), \
            httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        # over the JSON limit: 413 with the limit in words, before the handler reads the body
        big = json.dumps({"title": "x" * 100_000})
        r = await c.post("/v1/sessions", content=big, headers=JSON)
        assert r.status_code == 413
        assert r.json()["error"]["code"] == "payload_too_large" and "64 KiB" in r.json()["error"]["message"]
        # chunked (no content-length) and over the limit: 413 too
        async def chunks() -> AsyncIterator[bytes]:
            for _ in range(10):
                yield b" " * 10_000
        r = await c.post("/v1/sessions", content=chunks(), headers=JSON)
        assert r.status_code == 413
        # 1,000 levels of nesting: 400 naming the limit, not a 500 with a traceback
        for body in (b"[" * 1000 + b"]" * 1000, b'{"title": ' + b"[" * 1000 + b"]" * 1000 + b"}"):
            r = await c.post("/v1/sessions", content=body, headers=JSON)
            assert r.status_code == 400, r.text
            assert "nests" in r.json()["error"]["message"]
        # a normal body still works, as does a body-less POST
        r = await c.post("/v1/sessions", json={"title": "fine"})
        assert r.status_code == 201
        sid = r.json()["session_id"]
        assert (await c.post(f"/v1/sessions/{sid}/stop")).status_code == 200


# --- item 12: content type, Host, query tokens ------------------------------------------------------------


async def test_only_application_json_bodies_are_parsed(harness: Any) -> None:
    async with serve_like_up(harness.app(), harness.settings) as (base, _), \
            httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        body = b'{"title": "from a cross-site form"}'
        for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
            headers = {"content-type": ctype} if ctype else {}
            r = await c.post("/v1/sessions", content=body, headers=headers)
            assert r.status_code == 415, (ctype, r.status_code)
            assert "application/json" in r.json()["error"]["message"]
        assert (await c.get("/v1/sessions")).json()["items"] == []  # nothing was written
        for ctype in ("application/json", "application/json; charset=utf-8", "application/merge-patch+json"):
            assert (await c.post("/v1/sessions", content=body, headers={"content-type": ctype})).status_code == 201


async def test_local_mode_serves_loopback_host_names_only(harness: Any) -> None:
    async with serve_like_up(harness.app(), harness.settings) as (base, port), \
            httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        for host in ("evil.example", f"evil.example:{port}", f"attacker.test:{port}"):
            r = await c.get("/v1/sessions", headers={"host": host})
            assert r.status_code == 421, host
            assert r.json()["error"]["code"] == "misdirected_request"
            assert (await c.get("/", headers={"host": host})).status_code in (404, 421)
        for host in (f"localhost:{port}", f"127.0.0.1:{port}", "[::1]", "localhost"):
            assert (await c.get("/v1/sessions", headers={"host": host})).status_code == 200, host


async def test_aws_mode_serves_any_host(tmp_path: Path) -> None:
    h = make_harness(tmp_path, ScriptedModel(["x"]), backend="aws", host="127.0.0.1")
    from chat.app.factory import create_app
    from chat.app.wiring import Services

    app = create_app(h.settings, services=Services(settings=h.settings, dependencies={"chat": h.chat},
                                                   verifier=lambda token: "alice"))
    async with serve_like_up(app, h.settings) as (base, _), httpx.AsyncClient(base_url=base, timeout=10) as c:
        r = await c.get("/v1/sessions", headers={"host": "docchat.example.com", "Authorization": "Bearer t"})
        assert r.status_code == 200


async def test_access_token_query_only_on_get_streams(harness: Any) -> None:
    async with serve_like_up(harness.app(), harness.settings) as (base, _), \
            httpx.AsyncClient(base_url=base, timeout=10) as c:
        sid = (await c.post("/v1/sessions", json={}, headers=ALICE)).json()["session_id"]
        q = {"access_token": "dev:alice"}
        # never for writes, nor for ordinary reads
        for method, path in [("DELETE", f"/v1/sessions/{sid}"), ("PATCH", f"/v1/sessions/{sid}"),
                             ("POST", f"/v1/sessions/{sid}/stop"), ("POST", "/v1/sessions"),
                             ("GET", "/v1/sessions"), ("GET", f"/v1/sessions/{sid}")]:
            r = await c.request(method, path, params=q, json={"title": "x"} if method != "GET" else None)
            assert r.status_code == 401, (method, path, r.status_code)
            assert "event streams" in r.json()["error"]["message"]
        assert (await c.get(f"/v1/sessions/{sid}", headers=ALICE)).status_code == 200  # not deleted
        # an EventSource-style GET of the stream authenticates with it (204: nothing running)
        assert (await c.get(f"/v1/sessions/{sid}/stream", params=q)).status_code == 204
        assert (await c.get(f"/v1/sessions/{sid}/stream", params={"access_token": "dev:bob"})).status_code == 404


# --- item 13: headers, validation messages -------------------------------------------------------------


async def test_every_response_says_nosniff_and_validation_names_the_field(harness: Any) -> None:
    async with serve_like_up(harness.app(), harness.settings) as (base, _), \
            httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        responses = [await c.get("/healthz"), await c.get("/v1/sessions"), await c.get("/nope"),
                     await c.get("/v1/sessions", headers={"Authorization": ""}),
                     await c.post("/v1/sessions", content=b"x", headers={"content-type": "text/plain"}),
                     await c.get("/schema/openapi.json")]
        for r in responses:
            assert r.headers.get("x-content-type-options") == "nosniff", (r.url, r.status_code)
        r = await c.post("/v1/sessions", json={"title": 5})
        assert r.status_code == 400
        err = r.json()["error"]
        assert err["code"] == "invalid_input" and "title" in err["message"]
        assert err["fields"][0]["field"] == "title"
        r = await c.get("/v1/sessions", params={"limit": 1000, "secret": "s3cr3t"})
        assert r.status_code == 400 and "limit" in r.json()["error"]["message"]
        assert "s3cr3t" not in r.text  # the query string is not echoed


# --- item 11: slow clients -----------------------------------------------------------------------------


def _recv_all(sock: socket.socket, timeout: float) -> bytes:
    sock.settimeout(timeout)
    data = b""
    try:
        while chunk := sock.recv(4096):
            data += chunk
    except TimeoutError:
        return data + b"<still open>"
    return data


@pytest.mark.parametrize("protocol", ["httptools", "h11"])
async def test_stalled_headers_and_bodies_are_timed_out(harness: Any, protocol: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import chat.app.server as server

    if protocol == "h11":  # uvicorn's fallback when httptools is missing gets the same deadline
        monkeypatch.setattr(server, "HttpToolsProtocol", None)
    async with serve_like_up(harness.app(), harness.settings) as (_, port):
        def stall(payload: bytes) -> tuple[bytes, float]:
            with socket.create_connection(("127.0.0.1", port)) as s:
                start = time.monotonic()
                s.sendall(payload)
                return _recv_all(s, 5.0), time.monotonic() - start

        # connects and sends nothing / half the headers: 408 and closed after the header timeout (0.5 s)
        for payload in (b"", b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"):
            reply, took = await asyncio.to_thread(stall, payload)
            assert reply.startswith(b"HTTP/1.1 408") and not reply.endswith(b"<still open>"), reply
            assert took < 3.0
        # headers done, body announced but never sent: 408 after the body timeout
        head = (b"POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer dev:alice\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"ti")
        reply, took = await asyncio.to_thread(stall, head)
        assert reply.startswith(b"HTTP/1.1 408"), reply
        assert b"request_timeout" in reply and took < 3.0
        # a prompt client is unaffected
        prompt = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        reply, _ = await asyncio.to_thread(stall, prompt)
        assert reply.startswith(b"HTTP/1.1 200")


async def test_oversized_headers_are_refused(tmp_path: Path) -> None:
    harness = make_harness(tmp_path, ScriptedModel(["x"]), header_timeout_seconds=30.0)
    async with serve_like_up(harness.app(), harness.settings) as (_, port):
        def send() -> bytes:
            reply = b""
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.settimeout(0.05)
                try:
                    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    for _ in range(100):  # 400 KB of headers, slowly, reading what comes back
                        s.sendall(b"X-Filler: " + b"a" * 4000 + b"\r\n")
                        try:
                            chunk = s.recv(4096)
                        except TimeoutError:
                            continue
                        if not chunk:
                            break
                        reply += chunk
                except OSError:  # reset once the server closed on us
                    pass
            return reply

        reply = await asyncio.to_thread(send)
        assert reply.startswith(b"HTTP/1.1 431"), reply[:200]


# --- item 13: the README and the 413 messages agree -------------------------------------------------------


async def test_readme_and_413_messages_name_the_same_limits() -> None:
    from ingest.sizes import limit_text
    from ingest.upload import receive_upload
    from store.config import Settings
    from store.errors import PayloadTooLarge

    readme = README.read_text(encoding="utf-8")
    defaults = Settings()
    upload_limit = limit_text(defaults.ingest.max_upload_bytes)
    json_limit = limit_text(defaults.server.max_json_body_bytes)
    assert (upload_limit, json_limit) == ("200 MiB", "1 MiB")
    upload_row = next(line for line in readme.splitlines() if line.startswith("| `DOCCHAT_MAX_UPLOAD_BYTES`"))
    json_row = next(line for line in readme.splitlines() if line.startswith("| `DOCCHAT_MAX_JSON_BODY_BYTES`"))
    assert upload_limit in upload_row and json_limit in json_row

    async def empty() -> AsyncIterator[bytes]:
        yield b""

    with pytest.raises(PayloadTooLarge) as info:
        await receive_upload(empty(), "multipart/form-data; boundary=x", max_bytes=defaults.ingest.max_upload_bytes,
                             content_length=defaults.ingest.max_upload_bytes * 2)
    assert f"the limit is {upload_limit}" in info.value.message
