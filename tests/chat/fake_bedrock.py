"""A local fake of the Bedrock runtime's ``invoke-with-response-stream`` (loopback only).

It speaks the AWS event-stream framing the real service uses, so the real
``anthropic.AsyncAnthropicBedrock`` client (and botocore's ``EventStreamBuffer`` inside it)
decodes its answers. Each frame::

    prelude   total length (u32) | headers length (u32) | CRC32 of those 8 bytes
    headers   name-len (u8) name | type 7 = string | value-len (u16) value   (repeated)
    payload   {"bytes": base64(<one Messages stream event as JSON>)}
    trailer   CRC32 of everything before

Script it with ``FakeBedrock.push(events)`` (a list of Messages events; an ``ExceptionFrame``
item sends an error frame there and ends the stream) or ``push_http_error(status, type)``.
Every request is recorded (path, headers, JSON body).
"""

from __future__ import annotations

import base64
import json
import struct
import threading
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def _header(name: str, value: str) -> bytes:
    n, v = name.encode(), value.encode()
    return bytes([len(n)]) + n + b"\x07" + struct.pack(">H", len(v)) + v


def encode_frame(headers: dict[str, str], payload: bytes) -> bytes:
    """One AWS event-stream message."""
    hb = b"".join(_header(k, v) for k, v in headers.items())
    prelude = struct.pack(">II", 12 + len(hb) + len(payload) + 4, len(hb))
    message = prelude + struct.pack(">I", zlib.crc32(prelude)) + hb + payload
    return message + struct.pack(">I", zlib.crc32(message))


def chunk_frame(event: dict[str, Any]) -> bytes:
    payload = json.dumps({"bytes": base64.b64encode(json.dumps(event).encode()).decode()}).encode()
    return encode_frame(
        {":event-type": "chunk", ":content-type": "application/json", ":message-type": "event"}, payload
    )


def exception_frame(exception_type: str, message: str) -> bytes:
    return encode_frame(
        {":exception-type": exception_type, ":content-type": "application/json", ":message-type": "exception"},
        json.dumps({"message": message}).encode(),
    )


@dataclass(frozen=True)
class ExceptionFrame:
    exception_type: str = "throttlingException"
    message: str = "Too many requests, please wait before trying again."


@dataclass(frozen=True)
class HttpError:
    status: int
    error_type: str
    message: str = "request rejected"


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class _State:
    script: deque[list[Any] | HttpError] = field(default_factory=deque)
    requests: list[RecordedRequest] = field(default_factory=list)
    delay: float = 0.0


def _handler(state: _State) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

        def _send_json(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            raw = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(raw)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = {"_raw": raw.decode(errors="replace")}
            state.requests.append(RecordedRequest("POST", self.path, dict(self.headers.items()), body))
            if not self.path.startswith("/model/") or not self.path.endswith("/invoke-with-response-stream"):
                self._send_json(404, {"message": f"unknown path {self.path}"}, {"x-amzn-ErrorType": "UnknownOperation"})
                return
            if not self.headers.get("Authorization", "").startswith("AWS4-HMAC-SHA256 "):
                self._send_json(403, {"message": "missing SigV4 signature"}, {"x-amzn-ErrorType": "AccessDenied"})
                return
            if not state.script:
                self._send_json(500, {"message": "fake bedrock: no scripted response"})
                return
            entry = state.script.popleft()
            if isinstance(entry, HttpError):
                self._send_json(entry.status, {"message": entry.message}, {"x-amzn-ErrorType": entry.error_type})
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/vnd.amazon.eventstream")
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("x-amzn-bedrock-content-type", "application/json")
            self.end_headers()
            for item in entry:
                frame = (
                    exception_frame(item.exception_type, item.message)
                    if isinstance(item, ExceptionFrame)
                    else chunk_frame(item)
                )
                self.wfile.write(f"{len(frame):x}\r\n".encode() + frame + b"\r\n")
                self.wfile.flush()
                if isinstance(item, ExceptionFrame):
                    break
                if state.delay:
                    time.sleep(state.delay)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

    return Handler


class FakeBedrock:
    """``with FakeBedrock() as fake: client = AsyncAnthropicBedrock(base_url=fake.url, …)``"""

    def __init__(self, *, delay: float = 0.0) -> None:
        self._state = _State(delay=delay)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self._state))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-bedrock", daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def requests(self) -> list[RecordedRequest]:
        return self._state.requests

    def push(self, events: list[Any]) -> None:
        self._state.script.append(list(events))

    def push_http_error(self, status: int, error_type: str, message: str = "request rejected") -> None:
        self._state.script.append(HttpError(status, error_type, message))

    def __enter__(self) -> FakeBedrock:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
