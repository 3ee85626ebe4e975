"""The browser UI: ``/`` (the page), ``/static/…`` (its ES modules and CSS) and ``GET /v1/config``.

The UI is plain ES modules under ``chat/app/web/`` — no bundler, nothing to build. These routes only
serve those files and tell the page how to sign in (``/v1/config``); every data call the page makes
goes to the ordinary JSON/SSE API with ``Authorization: Bearer …``.

All three routes are public (no credentials): ``/`` and ``/static`` are in ``chat.app.auth``'s public
paths and every handler here is also marked ``exclude_from_auth``.
"""

from __future__ import annotations

import getpass
import mimetypes
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from litestar import MediaType, Response, get
from litestar.params import FromPath

from store.config import Settings
from store.errors import NotFound
from store.logging import get_logger

log = get_logger(__name__)

WEB_DIR = Path(__file__).resolve().parent / "web"


def content_security_policy(settings: Settings) -> str:
    """A strict CSP for the page: our own scripts/styles only, page images as blob: URLs.

    Even if a rendering bug let model or document text through as HTML, inline scripts, inline
    event handlers and foreign origins would not run.
    """
    connect = ["'self'"]
    if settings.server.backend == "aws" and settings.auth.cognito_domain:
        connect.append(_cognito_origin(settings.auth.cognito_domain))
    if settings.server.backend == "aws" and settings.auth.oidc_issuer:
        connect.append(_origin(settings.auth.oidc_issuer))  # discovery and token endpoint
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' blob: data:",
            "connect-src " + " ".join(connect),
            "font-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


def _cognito_origin(domain: str) -> str:
    """``auth.example.com`` or ``https://x.auth.us-east-1.amazoncognito.com/`` → ``https://host``."""
    host = domain.strip().rstrip("/")
    scheme = "https"
    if "://" in host:
        given, host = host.split("://", 1)
        if given == "http" and host.split("/", 1)[0].split(":", 1)[0] in ("127.0.0.1", "localhost"):
            scheme = "http"  # the local issuer of `docchat up --aws-local` (loopback only)
    return f"{scheme}://" + host.split("/", 1)[0]


def _origin(url: str) -> str:
    parts = urlsplit(url.strip())
    return f"{parts.scheme}://{parts.netloc}"


def client_config(settings: Settings) -> dict[str, Any]:
    """What the page needs to know before it can call the API (no secrets: a public client id).

    With a generic OIDC issuer the page also gets ``oidc_issuer`` (it reads the endpoints from the issuer's
    discovery document) and the client id is ``DOCCHAT_OIDC_AUDIENCE`` (the page sends ID tokens)."""
    aws = settings.server.backend == "aws"
    auth = settings.auth
    if aws and auth.oidc_issuer:
        return {
            "mode": "aws",
            "cognito_domain": None,
            "client_id": auth.oidc_audience or auth.cognito_client_id,
            "oidc_issuer": auth.oidc_issuer.rstrip("/"),
            "render_dpi": settings.ingest.render_dpi,
            "max_upload_bytes": settings.ingest.max_upload_bytes,
        }
    cfg: dict[str, Any] = {
        "mode": settings.server.backend,
        "cognito_domain": (_cognito_origin(settings.auth.cognito_domain)
                           if aws and settings.auth.cognito_domain else None),
        "client_id": settings.auth.cognito_client_id if aws else None,
        "render_dpi": settings.ingest.render_dpi,
        "max_upload_bytes": settings.ingest.max_upload_bytes,
    }
    if not aws:
        # the name the sign-in form offers: the CLI's default user too (DOCCHAT_LOCAL_USER, else the OS user)
        cfg["default_user"] = settings.server.local_user or getpass.getuser()
    return cfg


def web_route_handlers(settings: Settings, web_dir: Path = WEB_DIR) -> list[Any]:
    """The page, its static files and ``/v1/config`` (``chat/app/factory.py`` registers them)."""
    index_path = web_dir / "index.html"
    if not index_path.is_file():
        log.warning("web_ui_missing", web_dir=str(web_dir))
    csp = content_security_policy(settings)
    config = client_config(settings)

    # "/s/<session id>": a chat shared read-only (issue 16) — the same page; it signs the viewer in and the API
    # decides (owner or a user it is shared with; anyone else 404). No secret in the link.
    @get(["/", "/s/{session_id:str}"], exclude_from_auth=True, include_in_schema=False, sync_to_thread=False)
    def index() -> Response[bytes]:
        # read per request: a few KB, and edits to the page show up without a restart
        return Response(
            index_path.read_bytes(),
            media_type=MediaType.HTML,  # Litestar adds "; charset=utf-8" to text/* types itself
            headers={
                "Content-Security-Policy": csp,
                "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer",
                "Cache-Control": "no-cache",
            },
        )

    ops_path = web_dir / "ops.html"

    @get(["/ops", "/usage"], exclude_from_auth=True, include_in_schema=False, sync_to_thread=False)
    def ops_page() -> Response[bytes]:
        """The Operations and Usage pages (``ops.html``; the data calls need a token like any API call)."""
        return Response(ops_path.read_bytes(), media_type="text/html; charset=utf-8",
                        headers={"Content-Security-Policy": csp, "X-Content-Type-Options": "nosniff",
                                 "Referrer-Policy": "no-referrer", "Cache-Control": "no-cache"})

    @get("/v1/config", exclude_from_auth=True, sync_to_thread=False, tags=["web"])
    def web_config() -> dict[str, Any]:
        """How the browser signs in: ``{mode, cognito_domain, client_id, render_dpi, max_upload_bytes}``
        (plus ``oidc_issuer`` with a generic OpenID Connect issuer)."""
        return config

    # the shipped files by their exact relative name ("app.js", "vendor/uplot/uPlot.min.css"): a name that is
    # not one of them is 404 — no path to normalise, so no traversal, and no NUL byte or 300-character name
    # ever reaches the file system
    files = ({p.relative_to(web_dir).as_posix(): p for p in sorted(web_dir.rglob("*")) if p.is_file()}
             if web_dir.is_dir() else {})

    @get("/static/{name:path}", exclude_from_auth=True, include_in_schema=False, sync_to_thread=False,
         name="web_static")
    def static(name: FromPath[str]) -> Response[bytes]:
        path = files.get(name.lstrip("/"))
        if path is None:
            raise NotFound("no such file")
        media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.name.endswith(".js"):
            media_type = "text/javascript"  # module scripts need a JavaScript type whatever the OS's table says
        return Response(path.read_bytes(), media_type=media_type, headers={"Cache-Control": "no-cache"})

    return [index, ops_page, web_config, static]
