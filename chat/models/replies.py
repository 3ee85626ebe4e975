"""Synthetic Messages streams (pure): a reply described as blocks → the events a real stream carries.

The other direction of ``chat.models.accumulator``. The ``LocalModel`` answers through it and the
``ScriptedModel`` test double replays it.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from chat.models.tokens import estimate_tokens


@dataclass(frozen=True, slots=True)
class Text:
    text: str
    chunk: int = 12  # characters per text_delta


@dataclass(frozen=True, slots=True)
class Thinking:
    thinking: str
    signature: str
    chunk: int = 40


@dataclass(frozen=True, slots=True)
class RedactedThinking:
    data: str


@dataclass(frozen=True, slots=True)
class ToolUse:
    name: str
    input: dict[str, Any]
    id: str | None = None
    chunk: int = 16  # characters of JSON per input_json_delta


@dataclass(frozen=True, slots=True)
class Compaction:
    content: str
    chunk: int = 0  # 0: the whole summary in one compaction_delta


@dataclass(frozen=True, slots=True)
class Fail:
    """Raise ``error`` at this point of the stream."""

    error: Exception


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int | None = None  # None: estimated from the request
    output_tokens: int | None = None  # None: estimated from the reply
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0


ScriptBlock = Text | Thinking | RedactedThinking | ToolUse | Compaction | Fail


@dataclass(slots=True)
class Reply:
    """One scripted model response."""

    blocks: tuple[ScriptBlock, ...]
    usage: Usage = field(default_factory=Usage)
    stop_reason: str | None = None  # None: "tool_use" if a ToolUse is present, else "end_turn"

    def __init__(
        self,
        *blocks: ScriptBlock,
        usage: Usage | None = None,
        stop_reason: str | None = None,
    ) -> None:
        self.blocks = tuple(blocks)
        self.usage = usage or Usage()
        self.stop_reason = stop_reason


def _chunks(text: str, size: int) -> list[str]:
    if size <= 0 or len(text) <= size:
        return [text]
    return [text[i : i + size] for i in range(0, len(text), size)]


def reply_events(reply: Reply, *, model: str, message_id: str, input_tokens: int) -> list[dict[str, Any] | Fail]:
    """The event sequence a real Messages stream would carry for ``reply``."""
    usage = reply.usage
    in_tokens = usage.input_tokens if usage.input_tokens is not None else input_tokens
    start_usage: dict[str, Any] = {
        "input_tokens": in_tokens,
        "output_tokens": 1,
        "cache_read_input_tokens": usage.cache_read_input_tokens,
        "cache_creation_input_tokens": usage.cache_creation_input_tokens,
    }
    events: list[dict[str, Any] | Fail] = [
        {
            "type": "message_start",
            "message": {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": start_usage,
            },
        }
    ]
    out_tokens = 0
    index = 0
    tool_counter = itertools.count(1)
    has_tool = False
    for block in reply.blocks:
        if isinstance(block, Fail):
            events.append(block)
            continue
        if isinstance(block, Text):
            events.append(
                {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}
            )
            for piece in _chunks(block.text, block.chunk):
                events.append(
                    {"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": piece}}
                )
            out_tokens += estimate_tokens(block.text)
        elif isinstance(block, Thinking):
            events.append(
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "thinking", "thinking": "", "signature": ""},
                }
            )
            if block.thinking:
                for piece in _chunks(block.thinking, block.chunk):
                    events.append(
                        {
                            "type": "content_block_delta",
                            "index": index,
                            "delta": {"type": "thinking_delta", "thinking": piece},
                        }
                    )
            events.append(
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "signature_delta", "signature": block.signature},
                }
            )
            out_tokens += estimate_tokens(block.thinking)
        elif isinstance(block, RedactedThinking):
            events.append(
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "redacted_thinking", "data": block.data},
                }
            )
        elif isinstance(block, ToolUse):
            has_tool = True
            tool_id = block.id or f"toolu_{message_id[-8:]}{next(tool_counter):04d}"
            events.append(
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "tool_use", "id": tool_id, "name": block.name, "input": {}},
                }
            )
            raw = json.dumps(block.input, ensure_ascii=False)
            for piece in _chunks(raw, block.chunk):
                events.append(
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "input_json_delta", "partial_json": piece},
                    }
                )
            out_tokens += estimate_tokens(raw) + 8
        elif isinstance(block, Compaction):
            events.append(
                {"type": "content_block_start", "index": index, "content_block": {"type": "compaction", "content": ""}}
            )
            for piece in _chunks(block.content, block.chunk):
                events.append(
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "compaction_delta", "content": piece},
                    }
                )
        events.append({"type": "content_block_stop", "index": index})
        index += 1
    stop_reason = reply.stop_reason or ("tool_use" if has_tool else "end_turn")
    final_usage = dict(start_usage)
    final_usage["output_tokens"] = usage.output_tokens if usage.output_tokens is not None else max(out_tokens, 1)
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": final_usage,
        }
    )
    events.append({"type": "message_stop"})
    return events
