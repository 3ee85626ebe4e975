"""The chat-model port: one request type and one streaming Protocol for every model.

Every model (Claude on Bedrock, the embedded extractive ``LocalModel``, the test
double ``ScriptedModel``) streams raw Anthropic Messages events as plain dicts —
``message_start``, ``content_block_start``, ``content_block_delta`` (``text_delta``,
``thinking_delta``, ``signature_delta``, ``input_json_delta``, ``citations_delta``,
``compaction_delta``), ``content_block_stop``, ``message_delta`` (``usage``,
``stop_reason``) and ``message_stop`` — and raises ``store.errors.Throttled`` /
``store.errors.UpstreamError`` when the upstream fails. ``chat.core.stream.MessageAccumulator``
turns the events back into a message.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from store.errors import DocchatError, Throttled, UpstreamError

if TYPE_CHECKING:
    from store.config import Settings

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


async def complete_via_stream(model: ChatModel, request: ModelRequest) -> dict[str, Any]:
    """``complete`` for any model: accumulate its stream into one message."""
    from chat.core.stream import MessageAccumulator

    acc = MessageAccumulator()
    async for event in model.stream(request):
        acc.feed(event)
    return acc.message


# Error types (first-party names and Bedrock exception names) that mean "back off and retry".
_THROTTLE_TYPES = frozenset(
    {
        "rate_limit_error",
        "overloaded_error",
        "throttlingException",
        "ThrottlingException",
        "serviceUnavailableException",
        "ServiceUnavailableException",
        "modelNotReadyException",
        "ModelNotReadyException",
        "tooManyRequestsException",
    }
)


def error_from_frame(error_type: str, message: str) -> DocchatError:
    """Translate an upstream error (an ``error`` event or an event-stream exception frame)."""
    if error_type in _THROTTLE_TYPES:
        return Throttled(message or "the model is throttling requests", error_type=error_type)
    return UpstreamError(message or "the model failed", error_type=error_type)


# --------------------------------------------------------------------------- token estimates


def estimate_tokens(text: str) -> int:
    """A CJK-aware token estimate: ~1 token per CJK character, ~4 characters per token otherwise.

    Claude's tokenizer is not public; this errs on the high side for Latin text and is close for
    Hangul/Kana/Han, which is what budget decisions need. It runs in C-speed string operations
    (UTF-8 length minus character count ≈ 2 × the 3-byte characters), so estimating a long history
    on the request path stays cheap.
    """
    if not text:
        return 0
    chars = len(text)
    if text.isascii():
        return (chars + 3) // 4
    wide = (len(text.encode("utf-8", "surrogatepass")) - chars) // 2
    return wide + (chars - wide + 3) // 4


def estimate_block_tokens(block: Any) -> int:
    """Estimate one content block (text, thinking, tool_use, tool_result, compaction, …)."""
    if isinstance(block, str):
        return estimate_tokens(block)
    if not isinstance(block, Mapping):
        return 0
    kind = block.get("type")
    overhead = 4
    if kind == "text":
        return overhead + estimate_tokens(str(block.get("text", "")))
    if kind == "thinking":
        return overhead + estimate_tokens(str(block.get("thinking", "")))
    if kind == "redacted_thinking":
        return overhead + len(str(block.get("data", ""))) // 8
    if kind in ("tool_use", "server_tool_use"):
        raw = json.dumps(block.get("input", {}), ensure_ascii=False, separators=(",", ":"))
        return overhead + 8 + estimate_tokens(str(block.get("name", ""))) + estimate_tokens(raw)
    if kind == "tool_result":
        content = block.get("content", "")
        if isinstance(content, str):
            return overhead + 8 + estimate_tokens(content)
        if isinstance(content, list):
            return overhead + 8 + sum(estimate_block_tokens(b) for b in content)
        return overhead + 8
    if kind == "compaction":
        return overhead + estimate_tokens(str(block.get("content") or ""))
    if kind in ("image", "document"):
        return 1600  # a page image is ~1.6k tokens
    return overhead + estimate_tokens(json.dumps(block, ensure_ascii=False, separators=(",", ":")))


def estimate_message_tokens(message: Mapping[str, Any]) -> int:
    content = message.get("content", "")
    if isinstance(content, str):
        return 4 + estimate_tokens(content)
    return 4 + sum(estimate_block_tokens(b) for b in content)


def estimate_messages_tokens(messages: Iterable[Mapping[str, Any]]) -> int:
    return sum(estimate_message_tokens(m) for m in messages)


def estimate_tools_tokens(tools: Iterable[Mapping[str, Any]]) -> int:
    return sum(
        8 + estimate_tokens(json.dumps(dict(t), ensure_ascii=False, separators=(",", ":"), sort_keys=True))
        for t in tools
    )


def estimate_request_tokens(request: ModelRequest) -> int:
    """System + tools + messages, estimated (what ``count_tokens`` returns for the local models)."""
    system = sum(estimate_block_tokens(b) for b in request.system)
    return estimate_tools_tokens(request.tools) + system + estimate_messages_tokens(request.messages)


# --------------------------------------------------------------------------- factory


def build_chat_model(settings: Settings, *, purpose: str = PURPOSE_ANSWER) -> ChatModel:
    """The one place a chat model (and its Anthropic client) is built from settings.

    ``purpose="title"`` gives the cheap title model (Haiku on Bedrock; the same local model).
    """
    if settings.chat_model == "bedrock":
        from chat.models.bedrock import BedrockModel, build_bedrock_client

        model_id = settings.bedrock_title_model_id if purpose == PURPOSE_TITLE else settings.bedrock_model_id
        return BedrockModel.from_settings(build_bedrock_client(settings), settings, model_id=model_id)
    from chat.models.local import LocalModel

    return LocalModel(context_window=settings.context_window_tokens)
