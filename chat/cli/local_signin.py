"""Browser sign-in at the local OIDC issuer: the authorization-code flow with PKCE, Cognito-compatible paths.

``GET /oauth2/authorize`` shows a one-field form (the user name; the local issuer has no passwords, like
local mode), ``POST /oauth2/authorize`` redirects back with a one-time ``code``; ``POST /oauth2/token``
trades it (S256 ``code_verifier`` checked) or a refresh token for an ID + access token pair; ``GET /logout``
redirects to ``logout_uri``. These are the paths the web UI already uses against the Cognito hosted UI, and
the discovery document names them, so a generic OIDC client finds them too. Redirects go to loopback only.
"""

from __future__ import annotations

import base64
import hashlib
import html
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

from chat.cli.local_issuer import AUDIENCE, SigningKey, mint_token
from store.errors import ConfigError

CODE_TTL_S = 120
ACCESS_TTL_S = 3600
AUTHORIZE_PATH = "/oauth2/authorize"
TOKEN_PATH = "/oauth2/token"  # noqa: S105 - a URL path, not a secret
LOGOUT_PATH = "/logout"

Reply = tuple[int, dict[str, str], bytes]  # status, headers, body


@dataclass(frozen=True)
class _Grant:
    user: str
    client_id: str
    redirect_uri: str
    challenge: str
    expires: float


def _loopback_uri(uri: str) -> bool:
    parts = urlsplit(uri)
    return parts.scheme in ("http", "https") and parts.hostname in ("127.0.0.1", "localhost", "::1")


def _json(status: int, body: Mapping[str, Any], origin: str | None = None) -> Reply:
    import json

    headers = {"Content-Type": "application/json", "Cache-Control": "no-store"}
    if origin and _loopback_uri(origin):
        headers["Access-Control-Allow-Origin"] = origin  # the page calls /oauth2/token with fetch()
    return status, headers, json.dumps(dict(body)).encode()


def _error(error: str, description: str, origin: str | None = None) -> Reply:
    return _json(400, {"error": error, "error_description": description}, origin)


def _redirect(uri: str, params: Mapping[str, str]) -> Reply:
    sep = "&" if "?" in uri else "?"
    return 302, {"Location": uri + sep + urlencode(dict(params)), "Cache-Control": "no-store"}, b""


FORM = """<!doctype html><html><head><meta charset="utf-8"><title>docchat local sign-in</title></head>
<body style="font-family:sans-serif;max-width:24rem;margin:4rem auto">
<h1>docchat — local sign-in</h1><p>The local issuer of <code>docchat up --aws-local</code>: any name, no password.</p>
<form method="post" action="{action}">{hidden}
<label>User name <input name="username" required maxlength="64" autofocus></label>
<button type="submit">Sign in</button></form></body></html>"""


FORM_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"


class SignIn:
    """The flow's state (codes, refresh tokens) in memory: a restart of the stack signs everyone out."""

    def __init__(self, key: SigningKey, issuer: str, *, groups_claim: str = "cognito:groups") -> None:
        self.key = key
        self.issuer = issuer
        self.groups_claim = groups_claim
        self._codes: dict[str, _Grant] = {}
        self._refresh: dict[str, tuple[str, str]] = {}  # token -> (user, client_id)
        self._lock = threading.Lock()

    # --- authorize -------------------------------------------------------------------------------------
    def authorize_form(self, query: Mapping[str, str]) -> Reply:
        problem = self._check_request(query)
        if problem:
            return 400, {"Content-Type": "text/plain; charset=utf-8"}, problem.encode()
        keep = ("client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method")
        hidden = "".join(f'<input type="hidden" name="{k}" value="{html.escape(query.get(k, ""), quote=True)}">'
                         for k in keep)
        page = FORM.format(action=AUTHORIZE_PATH, hidden=hidden).encode()
        return 200, {"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                     "Content-Security-Policy": FORM_CSP}, page

    def authorize_submit(self, form: Mapping[str, str]) -> Reply:
        problem = self._check_request(form)
        if problem:
            return 400, {"Content-Type": "text/plain; charset=utf-8"}, problem.encode()
        user = form.get("username", "").strip()
        try:
            mint_token(self.key, user, issuer=self.issuer)  # the same user-name rule as dev-token
        except ConfigError:
            return 400, {"Content-Type": "text/plain; charset=utf-8"}, b"invalid user name"
        code = secrets.token_urlsafe(24)
        with self._lock:
            self._codes[code] = _Grant(user, form["client_id"], form["redirect_uri"], form["code_challenge"],
                                       time.monotonic() + CODE_TTL_S)
        params = {"code": code}
        if form.get("state"):
            params["state"] = form["state"]
        return _redirect(form["redirect_uri"], params)

    @staticmethod
    def _check_request(q: Mapping[str, str]) -> str | None:
        if q.get("client_id") != AUDIENCE:
            return f"unknown client_id (this issuer serves {AUDIENCE!r})"
        if not _loopback_uri(q.get("redirect_uri", "")):
            return "redirect_uri must be a loopback URL"
        if not q.get("code_challenge") or q.get("code_challenge_method", "S256") != "S256":
            return "PKCE with code_challenge_method=S256 is required"
        return None

    # --- token -----------------------------------------------------------------------------------------
    def token(self, form: Mapping[str, str], origin: str | None = None) -> Reply:
        grant_type = form.get("grant_type")
        if grant_type == "authorization_code":
            with self._lock:
                grant = self._codes.pop(form.get("code", ""), None)  # one use only
            if grant is None or grant.expires < time.monotonic():
                return _error("invalid_grant", "unknown or expired code", origin)
            if form.get("client_id") != grant.client_id or form.get("redirect_uri") != grant.redirect_uri:
                return _error("invalid_grant", "client_id or redirect_uri differs from the authorization", origin)
            digest = hashlib.sha256(form.get("code_verifier", "").encode()).digest()
            if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != grant.challenge:
                return _error("invalid_grant", "code_verifier does not match the code_challenge", origin)
            refresh = secrets.token_urlsafe(32)
            with self._lock:
                self._refresh[refresh] = (grant.user, grant.client_id)
            return _json(200, {**self._tokens(grant.user, grant.client_id), "refresh_token": refresh}, origin)
        if grant_type == "refresh_token":
            with self._lock:
                owner = self._refresh.get(form.get("refresh_token", ""))
            if owner is None or form.get("client_id") != owner[1]:
                return _error("invalid_grant", "unknown refresh token", origin)
            return _json(200, self._tokens(*owner), origin)
        return _error("unsupported_grant_type", "use authorization_code or refresh_token", origin)

    def _tokens(self, user: str, client_id: str) -> dict[str, Any]:
        id_token = mint_token(self.key, user, issuer=self.issuer, audience=client_id, ttl_seconds=ACCESS_TTL_S,
                              groups_claim=self.groups_claim)
        access = mint_token(self.key, user, issuer=self.issuer, audience=client_id, ttl_seconds=ACCESS_TTL_S,
                            groups_claim=self.groups_claim, kind="access")
        return {"id_token": id_token, "access_token": access, "token_type": "Bearer", "expires_in": ACCESS_TTL_S}

    # --- logout ----------------------------------------------------------------------------------------
    @staticmethod
    def logout(query: Mapping[str, str]) -> Reply:
        target = query.get("logout_uri", "")
        if not _loopback_uri(target):
            return 400, {"Content-Type": "text/plain; charset=utf-8"}, b"logout_uri must be a loopback URL"
        return 302, {"Location": target}, b""
