"""Everything the app needs, built once from settings and passed down.

Each package contributes a *component*: an object with ``route_handlers()``,
``async start()`` and ``async stop()``. The app registers every component as a
Litestar dependency under its name (``ingest``, ``chat``, …), so a handler that
declares a parameter ``ingest: IngestService`` receives it.

Clients (boto3, OpenSearch, Anthropic) are created inside the builders from the
settings and handed to adapters; nothing here is a module global.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from store.config import Settings
from store.errors import ConfigError


class Component(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...


@dataclass
class Services:
    settings: Settings
    components: dict[str, Component] = field(default_factory=dict)
    verifier: Callable[[str], str] | None = None

    def route_handlers(self) -> list[Any]:
        out: list[Any] = []
        for name, comp in self.components.items():
            if name == "chat":  # ChatService owns no routes: the app lists the chat handlers
                from chat.app.chat_routes import ROUTES

                out.extend(ROUTES)
                continue
            handlers = getattr(comp, "route_handlers", None)
            if handlers is not None:
                out.extend(handlers())
        return out

    def token_verifier(self) -> Callable[[str], str]:
        if self.verifier is None:
            raise ConfigError(
                "aws mode needs Cognito settings (DOCCHAT_COGNITO_USER_POOL_ID, DOCCHAT_COGNITO_CLIENT_ID)"
            )
        return self.verifier

    async def start(self) -> None:
        for comp in self.components.values():
            await comp.start()

    async def stop(self) -> None:
        for comp in reversed(list(self.components.values())):
            await comp.stop()


@dataclass
class RetrieverComponent:
    """Starts (``index.ensure()``) and closes the retriever shared by ingest and chat; no routes."""

    retriever: Any

    def route_handlers(self) -> list[Any]:
        return []

    async def start(self) -> None:
        await self.retriever.start()

    async def stop(self) -> None:
        await self.retriever.close()


def build_services(settings: Settings, *, model: Any = None) -> Services:
    """Wire the whole service from settings: stores, retriever, ingest, chat (and the web UI).

    ``model`` replaces the configured chat model (tests and benchmarks pass a double).
    """
    from chat.core.service import ChatService
    from chat.models.factory import build_chat_model
    from ingest.service import build_ingest_service
    from retrieval.search import build_retriever
    from store import open_blob_store, open_item_table, open_session_store

    if settings.backend == "local":
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    retriever = build_retriever(settings)
    ingest = build_ingest_service(
        settings,
        items=open_item_table(settings, "workflows"),
        blobs=open_blob_store(settings, "documents"),
        retriever=retriever,
    )
    chat = ChatService(
        settings=settings,
        sessions=open_session_store(settings),
        model=model if model is not None else build_chat_model(settings),
        retriever=retriever,
        ingest=ingest,
    )
    components: dict[str, Component] = {"retrieval": RetrieverComponent(retriever), "ingest": ingest, "chat": chat}
    web = _web_component(settings)
    if web is not None:
        components["web"] = web
    verifier: Callable[[str], str] | None = None
    if settings.backend == "aws" and settings.cognito_user_pool_id and settings.cognito_client_id:
        from chat.app.jwt_auth import CognitoVerifier

        verifier = CognitoVerifier.from_settings(settings)
    return Services(settings=settings, components=components, verifier=verifier)


def _web_component(settings: Settings) -> Component | None:
    try:
        from chat.app.web_routes import build_web_component
    except ImportError:  # the web UI is optional in an API-only install
        return None
    component: Component = build_web_component(settings)
    return component
