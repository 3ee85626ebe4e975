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
    def route_handlers(self) -> list[Any]: ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


@dataclass
class Services:
    settings: Settings
    components: dict[str, Component] = field(default_factory=dict)
    verifier: Callable[[str], str] | None = None

    def route_handlers(self) -> list[Any]:
        out: list[Any] = []
        for comp in self.components.values():
            out.extend(comp.route_handlers())
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


def build_services(settings: Settings) -> Services:
    """Wire the whole service from settings. Extended as each package lands."""
    return Services(settings=settings)
