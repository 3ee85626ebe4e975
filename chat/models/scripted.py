"""``ScriptedModel``: a chat-model double that streams scripted, real Anthropic event shapes.

Like pydantic-ai's ``TestModel``/``FunctionModel``: give it a list of replies (one per
request, in order) or a function that receives each ``ModelRequest`` and returns a reply.
A reply is built from blocks::

    ScriptedModel([
        Reply(ToolUse("search_documents", {"query": "revenue"})),
        Reply(Thinking("…", signature="sig"), Text("Revenue grew 12% [S1].")),
    ])

``Fail(Throttled("slow down"))`` inside a reply raises at that point of the stream (after
the events before it), the way an upstream error frame does. ``delay`` sleeps between
events (per-event latency for streaming and concurrency tests). Every request is kept
in ``.requests`` so a test can assert what the model was sent.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from typing import Any

from chat.models.accumulator import complete_via_stream
from chat.models.errors import error_from_frame
from chat.models.port import ModelRequest
from chat.models.replies import (
    Compaction,
    Fail,
    RedactedThinking,
    Reply,
    ScriptBlock,
    Text,
    Thinking,
    ToolUse,
    Usage,
    reply_events,
)
from chat.models.tokens import estimate_request_tokens
from store.errors import UpstreamError

#: A script entry: a ``Reply``, a bare string (one text block), or raw event dicts (replayed as given).
ScriptEntry = Reply | str | Sequence[dict[str, Any]]
ScriptFunction = Callable[[ModelRequest], ScriptEntry | Awaitable[ScriptEntry]]

__all__ = [
    "Compaction",
    "Fail",
    "RedactedThinking",
    "Reply",
    "ScriptBlock",
    "ScriptEntry",
    "ScriptFunction",
    "ScriptedModel",
    "Text",
    "Thinking",
    "ToolUse",
    "Usage",
    "reply_events",
]


class ScriptedModel:
    """A ``ChatModel`` whose responses are scripted. Runs out → ``UpstreamError`` (a test bug, loudly)."""

    def __init__(
        self,
        script: Iterable[ScriptEntry] | ScriptFunction,
        *,
        delay: float = 0.0,
        model_id: str = "scripted-model",
        supports_compaction: bool = False,
        context_window: int = 200_000,
    ) -> None:
        self.model_id = model_id
        self.supports_compaction = supports_compaction
        self.context_window = context_window
        self.delay = delay
        self.requests: list[ModelRequest] = []
        self._function: ScriptFunction | None = None
        self._entries: list[ScriptEntry] = []
        if callable(script):
            self._function = script
        else:
            self._entries = list(script)
        self._position = 0
        self._ids = itertools.count(1)

    @property
    def remaining(self) -> int:
        return len(self._entries) - self._position if self._function is None else -1

    async def _next_entry(self, request: ModelRequest) -> ScriptEntry:
        if self._function is not None:
            result = self._function(request)
            if inspect.isawaitable(result):
                return await result
            return result
        if self._position >= len(self._entries):
            raise UpstreamError("ScriptedModel: the script has no reply left for this request")
        entry = self._entries[self._position]
        self._position += 1
        return entry

    async def stream(self, request: ModelRequest) -> AsyncIterator[dict[str, Any]]:
        self.requests.append(request)
        entry = await self._next_entry(request)
        message_id = f"msg_scripted_{next(self._ids):06d}"
        events: Sequence[dict[str, Any] | Fail]
        if isinstance(entry, str):
            entry = Reply(Text(entry))
        if isinstance(entry, Reply):
            events = reply_events(
                entry,
                model=request.model or self.model_id,
                message_id=message_id,
                input_tokens=estimate_request_tokens(request),
            )
        else:
            events = list(entry)
        for event in events:
            if self.delay > 0:
                await asyncio.sleep(self.delay)
            if isinstance(event, Fail):
                raise event.error
            if event.get("type") == "error":
                err = event.get("error") or {}
                raise error_from_frame(str(err.get("type", "")), str(err.get("message", "scripted error")))
            yield dict(event)

    async def complete(self, request: ModelRequest) -> dict[str, Any]:
        return await complete_via_stream(self, request)

    def count_tokens(self, request: ModelRequest) -> int:
        return estimate_request_tokens(request)
