"""The local OIDC issuer's loopback HTTP server (one thread): discovery, JWKS and the browser sign-in.

``/.well-known/openid-configuration`` and ``/.well-known/jwks.json`` come from ``chat/cli/local_issuer.py``;
``/oauth2/authorize``, ``/oauth2/token`` and ``/logout`` from ``chat/cli/local_signin.py``.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from chat.cli.local_issuer import discovery_document, ensure_key, jwks_document, write_issuer_record
from chat.cli.local_signin import AUTHORIZE_PATH, LOGOUT_PATH, TOKEN_PATH, Reply, SignIn

MAX_FORM_BYTES = 16 * 1024


class LocalIssuer:
    """The issuer of ``data_dir``'s key on ``host:port`` (0 = a free port); ``start()`` serves it in a thread."""

    def __init__(self, data_dir: Path, *, host: str = "127.0.0.1", port: int = 0,
                 groups_claim: str = "cognito:groups") -> None:
        self.key = ensure_key(data_dir)
        self.data_dir = data_dir
        self._server = ThreadingHTTPServer((host, port), _handler(self))
        self._server.daemon_threads = True
        self.url = f"http://{host}:{self._server.server_address[1]}"
        self.signin = SignIn(self.key, self.url, groups_claim=groups_claim)
        self.documents = {
            "/.well-known/openid-configuration": json.dumps(discovery_document(self.url)).encode(),
            "/.well-known/jwks.json": json.dumps(jwks_document(self.key)).encode(),
        }
        self._thread: threading.Thread | None = None

    @property
    def jwks_url(self) -> str:
        return f"{self.url}/.well-known/jwks.json"

    def get(self, path: str, query: dict[str, str]) -> Reply:
        if path in self.documents:
            # public documents: a page on another origin (the web UI's OIDC sign-in) reads the discovery document
            return 200, {"Content-Type": "application/json", "Cache-Control": "max-age=300",
                         "Access-Control-Allow-Origin": "*"}, self.documents[path]
        if path == AUTHORIZE_PATH:
            return self.signin.authorize_form(query)
        if path == LOGOUT_PATH:
            return self.signin.logout(query)
        return 404, {"Content-Type": "text/plain"}, b"not found"

    def post(self, path: str, form: dict[str, str], origin: str | None) -> Reply:
        if path == AUTHORIZE_PATH:
            return self.signin.authorize_submit(form)
        if path == TOKEN_PATH:
            return self.signin.token(form, origin)
        return 404, {"Content-Type": "text/plain"}, b"not found"

    def start(self) -> LocalIssuer:
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.1,), name="local-oidc",
                                        daemon=True)
        self._thread.start()
        write_issuer_record(self.data_dir, self.url)
        return self

    def stop(self) -> None:
        if self._thread is not None:  # shutdown() waits for serve_forever, so only once it was started
            self._server.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._server.server_close()


def _handler(issuer: LocalIssuer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            self._send(issuer.get(parts.path, dict(parse_qsl(parts.query))))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_FORM_BYTES:
                self._send((413, {"Content-Type": "text/plain"}, b"too large"))
                return
            form = dict(parse_qsl(self.rfile.read(length).decode("utf-8", errors="replace")))
            self._send(issuer.post(urlsplit(self.path).path, form, self.headers.get("Origin")))

        def _send(self, reply: Reply) -> None:
            status, headers, body = reply
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # quiet: no access log
            return

    return Handler
