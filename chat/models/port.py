"""The chat-model port: one request type and one streaming Protocol for every model.

Every model (Claude on Bedrock, the embedded extractive ``LocalModel``, the test
double ``ScriptedModel``) streams raw Anthropic Messages events as plain dicts —
``message_start``, ``content_block_start``, ``content_block_delta`` (``text_delta``,
``thinking_delta``, ``signature_delta``, ``input_json_delta``, ``citations_delta``,
``compaction_delta``), ``content_block_stop``, ``message_delta`` (``usage``,
``stop_reason``) and ``message_stop`` — and raises ``store.errors.Throttled`` /
``store.errors.UpstreamError`` when the upstream fails. ``chat.models.accumulator.MessageAccumulator``
turns the events back into a message.

The rest of the model layer: token estimates in ``chat.models.tokens``, upstream error
translation in ``chat.models.errors``, building a model from settings in ``chat.models.factory``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Block = dict[str, Any]
Message = dict[str, Any]

#: ``ModelRequest.metadata["purpose"]``: what a request is for. Never sent upstream.
PURPOSE_ANSWER = "answer"
PURPOSE_TITLE = "title"
PURPOSE_SUMMARY = "summary"


@dataclass(slots=True)
class ModelRequest:
    """One Messages API request, laid out tools → system → messages (see ``chat.core.prompt``)."""

    system: list[Block]
    messages: list[Message]
    tools: list[dict[str, Any]]
    max_tokens: int
    thinking: dict[str, Any] | None = None
    betas: tuple[str, ...] = ()
    context_management: dict[str, Any] | None = None
    model: str | None = None
    #: internal hints (``purpose``, ``project_id``…); never sent upstream.
    metadata: dict[str, Any] = field(default_factory=dict)
    tool_choice: dict[str, Any] | None = None

    @property
    def purpose(self) -> str:
        return str(self.metadata.get("purpose", PURPOSE_ANSWER))

    def api_params(self, default_model: str) -> dict[str, Any]:
        """Keyword arguments for ``messages.create`` (None values left out; betas separate)."""
        params: dict[str, Any] = {
            "model": self.model or default_model,
            "max_tokens": self.max_tokens,
            "messages": self.messages,
        }
        if self.system:
            params["system"] = self.system
        if self.tools:
            params["tools"] = self.tools
        if self.tool_choice is not None:
            params["tool_choice"] = self.tool_choice
        if self.thinking is not None:
            params["thinking"] = self.thinking
        if self.context_management is not None:
            params["context_management"] = self.context_management
        return params


@runtime_checkable
class ChatModel(Protocol):
    """A model that streams Anthropic Messages events as plain dicts."""

    model_id: str
    supports_compaction: bool
    context_window: int

    def stream(self, request: ModelRequest) -> AsyncIterator[dict[str, Any]]:
        """Yield the raw stream events; raise ``Throttled`` / ``UpstreamError`` on failure."""
        ...

    async def complete(self, request: ModelRequest) -> dict[str, Any]:
        """The whole message (``content``, ``usage``, ``stop_reason``) — for titles and summaries."""
        ...

    def count_tokens(self, request: ModelRequest) -> int:
        """An estimate of the request's input tokens (no network)."""
        ...
