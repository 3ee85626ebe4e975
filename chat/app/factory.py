"""The one Litestar app: chat API, ingest API, OpenAPI docs and the web UI.

Every route is listed here (``route_handlers``) and the services come in as Litestar dependencies by
name (built in ``chat/app/wiring.py``); errors are mapped to HTTP status in exactly one place
(``ERROR_STATUS``).
"""

from __future__ import annotations

from typing import Any

from litestar import Litestar, Request, Response, get
from litestar.config.cors import CORSConfig
from litestar.di import Provide
from litestar.exceptions import HTTPException, ValidationException
from litestar.middleware.base import DefineMiddleware
from litestar.openapi.config import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin

from chat.app import chat_routes, ops_routes, share_routes
from chat.app.auth import BearerAuthMiddleware, dev_token_verifier, is_loopback
from chat.app.docs_ui import LocalSwaggerPlugin, docs_asset_handlers, swagger_dir
from chat.app.guards import RequestGuard, security_headers
from chat.app.health import StarvationProbe
from chat.app.web_routes import web_route_handlers
from chat.app.wiring import Services, build_services
from ingest.api import IngestController, OpsController
from ingest.review_api import ReviewController
from store import errors
from store.config import Settings
from store.logging import get_logger

log = get_logger(__name__)

#: the single mapping from the error hierarchy to HTTP status (most specific first)
ERROR_STATUS: tuple[tuple[type[errors.DocchatError], int], ...] = (
    (errors.LimitExceeded, 429),
    (errors.PayloadTooLarge, 413),
    (errors.RequestTimeout, 408),
    (errors.MisdirectedRequest, 421),
    (errors.UnsupportedMediaType, 415),
    (errors.ItemTooLarge, 413),
    (errors.InvalidInput, 400),
    (errors.InvalidHistory, 409),
    (errors.Conflict, 409),
    (errors.NotFound, 404),
    (errors.Unauthorized, 401),
    (errors.Forbidden, 403),
    (errors.Throttled, 429),
    (errors.RetryableError, 503),
    (errors.UpstreamError, 502),
    (errors.ConfigError, 500),
    (errors.PermanentError, 422),
)


_CLOSE_AFTER = frozenset({408, 413, 415, 421})


def status_for(exc: errors.DocchatError) -> int:
    for cls, status in ERROR_STATUS:
        if isinstance(exc, cls):
            return status
    return 500


def _docchat_error_handler(request: Request[Any, Any, Any], exc: errors.DocchatError) -> Response[Any]:
    status = status_for(exc)
    if status >= 500:
        log.error("request_failed", path=request.url.path, code=exc.code, status=status, exc_info=exc)
    body: dict[str, Any] = {"code": exc.code, "message": exc.message}
    # refused before the body was read (or while it stalls): close, so unread bytes never parse as a request
    headers: dict[str, str] = {"Connection": "close"} if status in _CLOSE_AFTER else {}
    if isinstance(exc, errors.LimitExceeded):  # which limit, and when trying again can succeed
        body.update(limit=exc.limit, retry_after=exc.retry_after)
        headers["Retry-After"] = str(exc.retry_after)
    return Response({"error": body}, status_code=status, headers=headers)


def _http_error_handler(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    if isinstance(exc, ValidationException):
        return _validation_error(exc)
    if exc.status_code == 413:
        return Response({"error": {"code": "payload_too_large", "message": "the request body is too large"}},
                        status_code=413)
    return Response(
        {"error": {"code": "http_error", "message": str(exc.detail)}},
        status_code=exc.status_code,
        headers=exc.headers,
    )


def _validation_error(exc: ValidationException) -> Response[Any]:
    """400 naming each field that failed (``title: Expected `str`, got `int```), never echoing the query string."""
    fields: list[dict[str, str]] = []
    for item in exc.extra if isinstance(exc.extra, list) else []:
        if isinstance(item, dict):
            key = str(item.get("key") or "body")
            source = getattr(item.get("source"), "value", item.get("source"))
            fields.append({"field": "body" if key == "data" else key, "source": str(source or ""),
                           "message": str(item.get("message", ""))})
    what = "; ".join(f"{f['field']}: {f['message']}" for f in fields) or "the request is not valid"
    return Response({"error": {"code": "invalid_input", "message": f"invalid request: {what}", "fields": fields}},
                    status_code=400)


def _unexpected_error_handler(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    log.error("unhandled_error", path=request.url.path, error_type=type(exc).__name__, exc_info=exc)
    return Response({"error": {"code": "internal", "message": "internal server error"}}, status_code=500)


@get("/healthz", exclude_from_auth=True, sync_to_thread=False)
def healthz(request: Request[Any, Any, Any]) -> Response[dict[str, Any]]:
    """200 ``{"status": "ok"}``; 503 ``{"status": "starved", …}`` while the event loop or the request thread
    pool lags more than ``DOCCHAT_HEALTH_MAX_LAG_SECONDS`` (see ``chat/app/health.py``)."""
    probe = request.app.state.get("health")
    if not isinstance(probe, StarvationProbe) or not probe.enabled:
        return Response({"status": "ok"})
    healthy, lag = probe.report()
    body: dict[str, Any] = {"status": "ok" if healthy else "starved", "loop_lag_s": lag.loop_s,
                            "pool_lag_s": lag.pool_s}
    return Response(body, status_code=200 if healthy else 503)


#: each group of routes and the dependencies its handlers take (a group is served when they are provided:
#: tests and benchmarks wire only the services they need)
ROUTES: tuple[tuple[frozenset[str], tuple[Any, ...]], ...] = (
    (frozenset({"chat"}), tuple(chat_routes.ROUTES)),
    (frozenset({"chat"}), tuple(share_routes.ROUTES)),  # issue 16: read-only shares, document selection
    (frozenset({"chat", "documents"}), tuple(share_routes.PAGE_ROUTES)),  # a shared chat's cited pages
    (frozenset({"uploads", "documents"}), (IngestController,)),
    (frozenset({"dead_letters"}), (OpsController,)),
    (frozenset({"reviews"}), (ReviewController,)),  # issue 15: review queue, audit log, export
    (frozenset({"ops"}), ops_routes.ROUTES),
)


def route_handlers(svc: Services) -> list[Any]:
    """Every handler of the app: health, the chat API, the ingest API and (when enabled) the web UI.
    OpenAPI docs are served at ``/schema`` by Litestar itself."""
    handlers: list[Any] = [healthz, *docs_asset_handlers()]
    for needs, group in ROUTES:
        if needs <= svc.dependencies.keys():
            handlers += group
    if svc.web_ui:
        handlers += web_route_handlers(svc.settings)
    return handlers


def _constant(value: Any) -> Any:
    def provide() -> Any:
        return value

    return provide


def _request_middleware(svc: Services) -> list[Any]:
    """Latency by route and the request id (``chat/app/prom.py``), when the ops views are wired."""
    ops = svc.dependencies.get("ops")
    if ops is None:
        return []
    from chat.app.prom import request_middleware

    return [request_middleware(ops.prom)]


def create_app(settings: Settings, *, services: Services | None = None) -> Litestar:
    """Build the app. ``services`` defaults to ``build_services(settings)`` (started on app start-up)."""
    svc = services if services is not None else build_services(settings)
    local = settings.server.backend == "local"
    if local and not is_loopback(settings.server.host):
        raise errors.ConfigError("local mode (dev tokens) may only listen on loopback; set DOCCHAT_BACKEND=aws")
    verifier = dev_token_verifier if local else svc.token_verifier()
    probe = StarvationProbe(settings.server.health_max_lag_seconds)
    return Litestar(
        route_handlers=route_handlers(svc),
        dependencies={
            "services": Provide(lambda: svc, sync_to_thread=False),
            **{name: Provide(_constant(dep), sync_to_thread=False) for name, dep in svc.dependencies.items()},
        },
        middleware=[
            DefineMiddleware(RequestGuard, settings=settings),  # Host, body type/size/depth/pace: before auth
            *_request_middleware(svc),  # latency by route, request id (chat/app/prom.py)
            DefineMiddleware(BearerAuthMiddleware, verifier=verifier, require_loopback_peer=local),
        ],
        before_send=[security_headers()],
        exception_handlers={
            errors.DocchatError: _docchat_error_handler,
            HTTPException: _http_error_handler,
            Exception: _unexpected_error_handler,
        },
        on_startup=[svc.start, probe.start],
        on_shutdown=[probe.stop, svc.stop],
        openapi_config=_openapi_config(),
        cors_config=CORSConfig(allow_origins=[]) if not local else None,
        request_max_body_size=settings.server.max_json_body_bytes,  # the upload route sets its own (none)
        state={"services": svc, "health": probe},  # type: ignore[arg-type]
    )


def _openapi_config() -> OpenAPIConfig:
    """``/schema/openapi.json``, and Swagger UI at ``/schema`` served from our origin (``chat/app/docs_ui.py``).
    Litestar's stock docs pages (scripts from public CDNs) are never served."""
    plugins: list[Any] = [JsonRenderPlugin()]
    if swagger_dir() is not None:
        plugins.insert(0, LocalSwaggerPlugin())
    return OpenAPIConfig(title="docchat", version="0.1.0", path="/schema", render_plugins=plugins)
