"""Claude on Amazon Bedrock through ``anthropic.AsyncAnthropicBedrock``.

The client is built once from settings (``build_bedrock_client``) and passed in. Requests
go to ``invoke-with-response-stream``; events come back as the SDK's typed events and
leave here as plain dicts (``model_dump(exclude_none=True)``), so thinking blocks with
their signatures, redacted thinking and compaction blocks are kept verbatim. With betas
or ``context_management`` the beta Messages endpoint is used (the SDK sends the betas as
``anthropic_beta`` in the Bedrock body). Library errors are translated here: throttling
and overload → ``Throttled``; every other failure → ``UpstreamError``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import anthropic

from chat.models.accumulator import complete_via_stream
from chat.models.errors import error_from_frame, translate_anthropic_error
from chat.models.port import ModelRequest
from chat.models.tokens import estimate_request_tokens

if TYPE_CHECKING:
    from store.config import Settings

COMPACTION_BETA = "compact-2026-01-12"
COMPACTION_EDIT = "compact_20260112"
#: Models that accept the ``compact-2026-01-12`` beta (Bedrock user guide, "Compaction").
_COMPACTION_MODELS = ("claude-sonnet-4-6", "claude-opus-4-6", "claude-opus-4-7", "claude-mythos")


def model_supports_compaction(model_id: str) -> bool:
    return any(name in model_id for name in _COMPACTION_MODELS)





class BedrockModel:
    """A ``ChatModel`` backed by Claude on Bedrock."""

    def __init__(
        self,
        client: anthropic.AsyncAnthropicBedrock,
        model_id: str,
        *,
        context_window: int = 200_000,
        supports_compaction: bool | None = None,
    ) -> None:
        self.client = client
        self.model_id = model_id
        self.context_window = context_window
        self.supports_compaction = (
            model_supports_compaction(model_id) if supports_compaction is None else supports_compaction
        )

    @classmethod
    def from_settings(
        cls, client: anthropic.AsyncAnthropicBedrock, settings: Settings, *, model_id: str | None = None
    ) -> BedrockModel:
        mid = model_id or settings.chat.bedrock_model_id
        return cls(
            client,
            mid,
            context_window=settings.chat.context_window_tokens,
            supports_compaction=settings.chat.bedrock_compaction,
        )

    async def stream(self, request: ModelRequest) -> AsyncIterator[dict[str, Any]]:
        params = request.api_params(self.model_id)
        model = params["model"]
        betas = list(request.betas)
        if request.context_management is not None and COMPACTION_BETA not in betas and _uses_compaction(request):
            betas.append(COMPACTION_BETA)
        try:
            if betas or request.context_management is not None:
                beta_api: Any = self.client.beta.messages
                stream: Any = await beta_api.create(**params, betas=betas, stream=True)
            else:
                api: Any = self.client.messages
                stream = await api.create(**params, stream=True)
            try:
                async for event in stream:
                    data: dict[str, Any] = event.model_dump(exclude_none=True)
                    if data.get("type") == "error":  # pragma: no cover - the SDK raises on error frames
                        err = data.get("error") or {}
                        raise error_from_frame(str(err.get("type", "")), str(err.get("message", "")))
                    yield data
            finally:
                # the consumer may stop early (client gone): release the HTTP connection now
                await stream.close()
        except anthropic.AnthropicError as exc:
            raise translate_anthropic_error(exc, model) from exc

    async def complete(self, request: ModelRequest) -> dict[str, Any]:
        return await complete_via_stream(self, request)

    def count_tokens(self, request: ModelRequest) -> int:
        # Bedrock has no count_tokens for the Messages API in this SDK; a CJK-aware estimate.
        return estimate_request_tokens(request)


def _uses_compaction(request: ModelRequest) -> bool:
    edits = (request.context_management or {}).get("edits") or []
    return any(isinstance(e, dict) and e.get("type") == COMPACTION_EDIT for e in edits)
