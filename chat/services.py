"""Everything the app needs, built once from settings and passed down.

Clients (boto3, OpenSearch, Anthropic) are created here and handed to adapters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from store.config import Settings
from store.errors import ConfigError


@dataclass
class Services:
    settings: Settings
    extra_route_handlers: list[Any] = field(default_factory=list)

    def route_handlers(self) -> list[Any]:
        return list(self.extra_route_handlers)

    def token_verifier(self) -> Callable[[str], str]:
        raise ConfigError("aws mode needs Cognito settings (DOCCHAT_COGNITO_USER_POOL_ID, DOCCHAT_COGNITO_CLIENT_ID)")

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


def build_services(settings: Settings) -> Services:
    return Services(settings=settings)
