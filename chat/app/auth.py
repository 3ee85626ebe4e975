"""Authentication: who is asking.

* local mode: ``Authorization: Bearer dev:<user>``, accepted only when the server
  listens on loopback (checked at app construction and per request peer).
* aws mode: a JWT from the configured OpenID Connect issuer or Cognito pool, verified against its JWKS
  (see ``chat/app/jwt_auth.py``); verification runs in a worker thread, since a JWKS fetch is blocking I/O.

The middleware puts the user id (a ``str``) on ``request.user``, and on ``request.auth`` what the verifier's
``identify`` returns when it has one (aws mode: the user's groups and claims), else the token.

The token comes from the ``Authorization`` header. ``?access_token=`` is read only on GET routes that opt
in (``opt={"query_token": True}``: the SSE streams, which an ``EventSource`` cannot send a header to) and
never on a write, so a link or a cross-site form cannot act as anyone.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable
from typing import Any

from litestar.connection import ASGIConnection
from litestar.middleware.authentication import AbstractAuthenticationMiddleware, AuthenticationResult
from litestar.types import ASGIApp

from store.errors import Unauthorized

#: paths that need no credentials (prefix match)
PUBLIC_PREFIXES = ("/healthz", "/schema", "/static", "/favicon")
PUBLIC_EXACT = ("/",)

TokenVerifier = Callable[[str], str]  # token -> user id, raises Unauthorized

#: handler opt key: the route accepts ``?access_token=`` (GET event streams only)
QUERY_TOKEN = "query_token"  # noqa: S105 - an opt key, not a secret


def query_token_allowed(scope: Any) -> bool:
    """May this request authenticate with ``?access_token=``? Only a GET to a handler that opts in."""
    if scope.get("method") != "GET":
        return False
    opt = getattr(scope.get("route_handler"), "opt", None) or {}
    return bool(opt.get(QUERY_TOKEN))


def is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def valid_user_id(user: str) -> bool:
    """A user id that can be a key part: 1-128 characters, none of ``# / \\`` or line breaks/tabs."""
    return 0 < len(user) <= 128 and not any(c in user for c in "#/\\\n\r\t")


def dev_token_verifier(token: str) -> str:
    if not token.startswith("dev:"):
        raise Unauthorized("local mode accepts 'Bearer dev:<user>' tokens only")
    user = token[4:].strip()
    if not valid_user_id(user):
        raise Unauthorized("invalid user name in dev token")
    return user


class BearerAuthMiddleware(AbstractAuthenticationMiddleware):
    def __init__(self, app: ASGIApp, verifier: TokenVerifier, *, require_loopback_peer: bool) -> None:
        super().__init__(app=app, exclude=None, exclude_from_auth_key="exclude_from_auth")
        self.verifier = verifier
        self.require_loopback_peer = require_loopback_peer

    async def authenticate_request(self, connection: ASGIConnection) -> AuthenticationResult:  # type: ignore[type-arg]
        path = connection.scope.get("path", "")
        header = connection.headers.get("authorization", "")
        token = header[7:].strip() if header.lower().startswith("bearer ") else ""
        public = path in PUBLIC_EXACT or path.startswith(PUBLIC_PREFIXES)
        if not token and "access_token" in connection.query_params and not public:
            if not query_token_allowed(connection.scope):
                raise Unauthorized(
                    "?access_token= is accepted only on GET event streams; send 'Authorization: Bearer …'"
                )
            token = connection.query_params.get("access_token", "")
        if not token:
            if public:
                return AuthenticationResult(user=None, auth=None)
            raise Unauthorized("missing 'Authorization: Bearer …' header")
        if self.require_loopback_peer:
            client = connection.client
            if client is not None and not is_loopback(client.host):
                raise Unauthorized("dev tokens are accepted only from loopback")
            return AuthenticationResult(user=self.verifier(token), auth=token)
        identify = getattr(self.verifier, "identify", None)
        if identify is None:
            return AuthenticationResult(user=await asyncio.to_thread(self.verifier, token), auth=token)
        identity = await asyncio.to_thread(identify, token)
        return AuthenticationResult(user=identity.user, auth=identity)
