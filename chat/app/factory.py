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
from litestar.exceptions import HTTPException
from litestar.middleware.base import DefineMiddleware
from litestar.openapi.config import OpenAPIConfig

from chat.app import chat_routes, ops_routes
from chat.app.auth import BearerAuthMiddleware, dev_token_verifier, is_loopback
from chat.app.web_routes import web_route_handlers
from chat.app.wiring import Services, build_services
from ingest.api import IngestController, OpsController
from store import errors
from store.config import Settings
from store.logging import get_logger

log = get_logger(__name__)

#: the single mapping from the error hierarchy to HTTP status (most specific first)
ERROR_STATUS: tuple[tuple[type[errors.DocchatError], int], ...] = (
    (errors.LimitExceeded, 429),
    (errors.PayloadTooLarge, 413),
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
    headers: dict[str, str] = {}
    if isinstance(exc, errors.LimitExceeded):  # which limit, and when trying again can succeed
        body.update(limit=exc.limit, retry_after=exc.retry_after)
        headers["Retry-After"] = str(exc.retry_after)
    return Response({"error": body}, status_code=status, headers=headers)


def _http_error_handler(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    return Response(
        {"error": {"code": "http_error", "message": str(exc.detail)}},
        status_code=exc.status_code,
        headers=exc.headers,
    )


def _unexpected_error_handler(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    log.error("unhandled_error", path=request.url.path, error_type=type(exc).__name__, exc_info=exc)
    return Response({"error": {"code": "internal", "message": "internal server error"}}, status_code=500)


@get("/healthz", exclude_from_auth=True, sync_to_thread=False)
def healthz() -> dict[str, str]:
    return {"status": "ok"}


#: each group of routes and the dependencies its handlers take (a group is served when they are provided:
#: tests and benchmarks wire only the services they need)
ROUTES: tuple[tuple[frozenset[str], tuple[Any, ...]], ...] = (
    (frozenset({"chat"}), tuple(chat_routes.ROUTES)),
    (frozenset({"uploads", "documents"}), (IngestController,)),
    (frozenset({"dead_letters"}), (OpsController,)),
    (frozenset({"ops"}), ops_routes.ROUTES),
)


def route_handlers(svc: Services) -> list[Any]:
    """Every handler of the app: health, the chat API, the ingest API and (when enabled) the web UI.
    OpenAPI docs are served at ``/schema`` by Litestar itself."""
    handlers: list[Any] = [healthz]
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
    return Litestar(
        route_handlers=route_handlers(svc),
        dependencies={
            "services": Provide(lambda: svc, sync_to_thread=False),
            **{name: Provide(_constant(dep), sync_to_thread=False) for name, dep in svc.dependencies.items()},
        },
        middleware=[*_request_middleware(svc),
                    DefineMiddleware(BearerAuthMiddleware, verifier=verifier, require_loopback_peer=local)],
        exception_handlers={
            errors.DocchatError: _docchat_error_handler,
            HTTPException: _http_error_handler,
            Exception: _unexpected_error_handler,
        },
        on_startup=[svc.start],
        on_shutdown=[svc.stop],
        openapi_config=OpenAPIConfig(title="docchat", version="0.1.0", path="/schema"),
        cors_config=CORSConfig(allow_origins=[]) if not local else None,
        request_max_body_size=settings.ingest.max_upload_bytes + 1024 * 1024,
        state={"services": svc},  # type: ignore[arg-type]
    )
