"""A local fake of the Bedrock runtime for Titan Text Embeddings V2 (``InvokeModel``) on loopback.

Vectors are ``toy_vector(inputText, dimensions)`` (tests/retrieval/conftest.py); it can throttle the first N
calls, delay answers, and records every request (path, body, SigV4 header).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import boto3
from botocore.config import Config

from tests.retrieval.conftest import toy_vector


class FakeBedrock:
    """Answers POST /model/{id}/invoke like Titan Text Embeddings V2; can throttle the first N calls."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.throttle_next = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.delay_s = 0.0
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, status: int, body: dict[str, Any], error_type: str | None = None) -> None:
                raw = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                if error_type:
                    self.send_header(
                        "x-amzn-ErrorType", f"{error_type}:http://internal.amazon.com/coral/com.amazon.bedrock/"
                    )
                self.end_headers()
                self._leave()  # no longer in flight once the answer leaves: the client may send its next call
                self.wfile.write(raw)

            def _leave(self) -> None:
                if getattr(self, "_in_flight", False):
                    self._in_flight = False
                    with fake._lock:
                        fake.in_flight -= 1

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with fake._lock:
                    fake.requests.append(
                        {"path": self.path, "body": body, "auth": self.headers.get("Authorization", "")}
                    )
                    throttle = fake.throttle_next > 0
                    fake.throttle_next -= 1 if throttle else 0
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                self._in_flight = True
                try:
                    time.sleep(fake.delay_s)
                    if throttle:
                        return self._send(
                            429,
                            {"message": "Too many requests, please wait before trying again."},
                            "ThrottlingException",
                        )
                    if not self.path.startswith("/model/") or not self.path.endswith("/invoke"):
                        return self._send(404, {"message": "Unknown operation"}, "UnknownOperationException")
                    dims = body.get("dimensions", 1024)
                    if dims not in (256, 512, 1024) or not body.get("inputText"):
                        return self._send(400, {"message": "Malformed input request"}, "ValidationException")
                    vec = toy_vector(body["inputText"], dims)
                    if not body.get("normalize", True):
                        vec = [x * 3.0 for x in vec]
                    self._send(
                        200,
                        {
                            "embedding": vec,
                            "inputTextTokenCount": len(body["inputText"].split()),
                            "embeddingsByType": {"float": vec},
                        },
                    )
                finally:
                    self._leave()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def client(url: str) -> Any:
    return boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=url,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=Config(retries={"total_max_attempts": 1, "mode": "standard"}, max_pool_connections=16),
    )
