"""Everything the app needs, built once from settings and passed down.

``build_services`` returns ``Services``: the objects the HTTP handlers receive as Litestar dependencies,
by name — ``chat`` (``ChatService``), ``uploads`` (projects and uploads) and ``documents`` (documents,
workflows, pages, deletes) — plus two short lists of async hooks the app runs at start-up and at
shutdown. Services own no routes: ``chat/app/factory.py`` lists every handler itself.

Clients (boto3, OpenSearch, Anthropic) are created inside the builders from the settings and handed to
adapters; nothing here is a module global.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from store.config import Settings
from store.errors import ConfigError

if TYPE_CHECKING:
    from retrieval.search import Retriever

Hook = Callable[[], Awaitable[None]]


@dataclass
class Services:
    settings: Settings
    #: handed to the handlers by parameter name (``chat``, ``uploads``, ``documents``)
    dependencies: dict[str, Any] = field(default_factory=dict)
    on_start: list[Hook] = field(default_factory=list)  # run in this order at start-up
    on_stop: list[Hook] = field(default_factory=list)  # run in this order at shutdown
    verifier: Callable[[str], str] | None = None
    web_ui: bool = False  # serve the browser UI (``/``, ``/static``, ``/v1/config``)

    def token_verifier(self) -> Callable[[str], str]:
        if self.verifier is None:
            from chat.app.jwt_auth import NOT_CONFIGURED

            raise ConfigError(NOT_CONFIGURED)
        return self.verifier

    async def start(self) -> None:
        for hook in self.on_start:
            await hook()

    async def stop(self) -> None:
        for hook in self.on_stop:
            await hook()


def build_services(settings: Settings, *, model: Any = None) -> Services:
    """Wire the whole service from settings: stores, retriever, ingest, chat (and the web UI).

    The retriever (shared by ingest and chat) is started once, first, and closed last. Local mode runs the
    ingest workers in-process; aws mode leaves them to ``docchat worker``.
    ``model`` replaces the configured chat model (tests and benchmarks pass a double).
    """
    from chat.core.service import ChatService
    from chat.models.factory import build_chat_model
    from ingest.build import build_ingest
    from retrieval.search import build_retriever
    from store import open_blob_store, open_item_table, open_session_store
    from store.usage_limits import open_usage_limits

    verifier: Callable[[str], str] | None = None
    if settings.server.backend == "aws":  # first: no identity provider (or a bad one) stops start-up here
        from chat.app.jwt_auth import OidcVerifier

        verifier = OidcVerifier.from_settings(settings)
    if settings.server.backend == "local":
        settings.server.data_dir.mkdir(parents=True, exist_ok=True)
    from ingest.pii.service import embedding_masker

    retriever = build_retriever(settings, remote_text=embedding_masker(settings))  # seed 004: PII masked for Titan
    from chat.app.prom import Prom
    from store.metrics_open import open_metrics_store, open_recorder

    metrics_store = open_metrics_store(settings)  # the read models (issue 17): written as work happens
    metrics = open_recorder(settings, metrics_store)
    prom = Prom()
    if metrics is not None:
        metrics.listeners.append(prom.listener)
    limits = open_usage_limits(settings)  # per-user limits, shared by chat and ingest (issue 13 item 8)
    ingest = build_ingest(
        settings,
        items=open_item_table(settings, "workflows"),
        blobs=open_blob_store(settings, "documents"),
        index=retriever,
        limits=limits,
        metrics=metrics,
    )
    chat = ChatService(
        settings=settings,
        sessions=open_session_store(settings),
        model=model if model is not None else build_chat_model(settings),
        retriever=retriever,
        ingest=ingest.reader,
        limits=limits,
        masker=ingest.masker,
        metrics=metrics,
    )
    on_start: list[Hook] = [retriever.start]
    on_stop: list[Hook] = [chat.stop]
    if settings.server.backend == "local":
        runner = ingest.runner()
        on_start.append(runner.start)
        on_stop.append(runner.stop)
    else:  # aws: the workers scale to zero on empty queues, so the API also sends jobs left unsent (outbox)
        from ingest.sweeper import Sweeper

        sweeper = Sweeper(settings, ingest.store, ingest.queue)
        on_start.append(sweeper.start)
        on_stop.append(sweeper.stop)
    on_start.append(_settler(retriever))  # a restart's model load is done before requests come (issue 18)
    on_start.append(chat.start)
    on_stop += [ingest.close, retriever.close, _closer(limits.close)]
    from ingest.dlq import Admins, DeadLetters
    from ingest.review import Reviews

    identify = getattr(verifier, "identify", None)  # the token's groups (DOCCHAT_OIDC_GROUPS_CLAIM): "admin"
    admins = Admins(settings, groups_of=(lambda token: identify(token).groups) if identify is not None else None)
    dead_letters = DeadLetters(settings, store=ingest.store, queue=ingest.queue, admins=admins)
    dead_letters.metrics = metrics
    from chat.app.ops_routes import Ops
    from ingest.queue import PRIORITIES

    prom.watch_streams(chat.registry.streams_open)
    prom.watch_queue(lambda: {lane: ingest.queue.depth(lane) for lane in PRIORITIES})
    ops = Ops(store=metrics_store, admins=admins, prom=prom, recorder=metrics, aws=settings.server.backend == "aws")
    if metrics is not None:
        on_start.insert(0, _starter(metrics.start))
        on_stop.append(_closer(metrics.stop))
    return Services(
        settings=settings,
        dependencies={"chat": chat, "uploads": ingest.uploads, "documents": ingest.documents,
                      "dead_letters": dead_letters,  # the operators' dead-letter queues (ingest/dlq.py)
                      "reviews": Reviews(settings, store=ingest.store, blobs=ingest.blobs, index=ingest.index),
                      "ops": ops},  # read models, /metrics (chat/app/ops_routes.py)
        on_start=on_start,
        on_stop=on_stop,
        verifier=verifier,
        web_ui=True,
    )


def _starter(start: Callable[[], None]) -> Hook:
    async def hook() -> None:
        start()

    return hook


def _settler(retriever: Retriever) -> Hook:
    async def settle() -> None:
        await retriever.settle()

    return settle


def _closer(close: Callable[[], None]) -> Hook:
    async def hook() -> None:
        close()

    return hook
