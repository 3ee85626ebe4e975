"""Accumulate Anthropic Messages stream events into a message (pure; no I/O).

The same job as the SDK's ``accumulate_event``, on plain dicts, plus what a server
needs when a client goes away mid-stream: ``partial_blocks()`` applies the session
store's partial-turn rule (seed 002, option B) to what has arrived so far.
"""

from __future__ import annotations

import copy
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from chat.models.port import error_from_frame, estimate_tokens
from store.blocks import partial_turn
from store.errors import UpstreamError

Block = dict[str, Any]

_USAGE_KEYS = (
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
)


class MessageAccumulator:
    """Feed stream events in order; read ``.message`` at any time."""

    def __init__(self) -> None:
        self._message: dict[str, Any] = {
            "id": None,
            "type": "message",
            "role": "assistant",
            "model": None,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {},
        }
        self._json_buffers: dict[int, str] = {}
        self._closed: set[int] = set()
        self.started = False
        self.finished = False
        self.events = 0

    # ------------------------------------------------------------------ feeding
    def feed(self, event: dict[str, Any]) -> None:
        """Apply one event. Unknown event types are ignored (forward compatible)."""
        self.events += 1
        kind = event.get("type")
        if kind == "message_start":
            self._start(event.get("message") or {})
        elif kind == "content_block_start":
            index = int(event["index"])
            block = copy.deepcopy(event.get("content_block") or {})
            content: list[Block] = self._message["content"]
            while len(content) <= index:
                content.append({})
            if block.get("type") in ("tool_use", "server_tool_use"):
                self._json_buffers[index] = ""
                block.setdefault("input", {})
            content[index] = block
        elif kind == "content_block_delta":
            self._delta(int(event["index"]), event.get("delta") or {})
        elif kind == "content_block_stop":
            self._stop_block(int(event["index"]))
        elif kind == "message_delta":
            delta = event.get("delta") or {}
            if "stop_reason" in delta:
                self._message["stop_reason"] = delta["stop_reason"]
            if "stop_sequence" in delta:
                self._message["stop_sequence"] = delta["stop_sequence"]
            self._merge_usage(event.get("usage") or {})
            if "context_management" in event:
                self._message["context_management"] = event["context_management"]
        elif kind == "message_stop":
            self.finished = True
        elif kind == "error":
            err = event.get("error") or {}
            raise error_from_frame(str(err.get("type") or ""), str(err.get("message") or "model stream error"))

    def _start(self, message: dict[str, Any]) -> None:
        self.started = True
        for key, value in message.items():
            if key == "content":
                self._message["content"] = copy.deepcopy(list(value or []))
                self._closed.update(range(len(self._message["content"])))
            elif key == "usage":
                self._message["usage"] = {}
                self._merge_usage(value or {})
            else:
                self._message[key] = copy.deepcopy(value)

    def _merge_usage(self, usage: dict[str, Any]) -> None:
        """message_delta usage is cumulative: a present value replaces the earlier one."""
        target: dict[str, Any] = self._message["usage"]
        for key, value in usage.items():
            if value is not None:
                target[key] = copy.deepcopy(value)

    def _delta(self, index: int, delta: dict[str, Any]) -> None:
        content: list[Block] = self._message["content"]
        if index >= len(content):
            raise UpstreamError("content_block_delta before content_block_start", index=index)
        block = content[index]
        kind = delta.get("type")
        if kind == "text_delta":
            block["text"] = str(block.get("text", "")) + str(delta.get("text", ""))
        elif kind == "thinking_delta":
            block["thinking"] = str(block.get("thinking", "")) + str(delta.get("thinking", ""))
        elif kind == "signature_delta":
            block["signature"] = str(delta.get("signature", ""))
        elif kind == "input_json_delta":
            self._json_buffers[index] = self._json_buffers.get(index, "") + str(delta.get("partial_json", ""))
        elif kind == "citations_delta":
            block.setdefault("citations", []).append(copy.deepcopy(delta.get("citation")))
        elif kind == "compaction_delta":
            if delta.get("content") is not None:
                block["content"] = str(block.get("content") or "") + str(delta["content"])
            if delta.get("encrypted_content") is not None:
                block["encrypted_content"] = delta["encrypted_content"]

    def _stop_block(self, index: int) -> None:
        content: list[Block] = self._message["content"]
        if index >= len(content):
            return
        raw = self._json_buffers.pop(index, None)
        if raw is not None:
            try:
                content[index]["input"] = json.loads(raw) if raw.strip() else {}
            except json.JSONDecodeError as exc:
                raise UpstreamError("the model sent invalid tool input JSON", index=index) from exc
        self._closed.add(index)

    # ------------------------------------------------------------------ reading
    @property
    def message(self) -> dict[str, Any]:
        """The message so far (a deep copy): ``content``, ``usage``, ``stop_reason``, ``id``, ``model``."""
        msg = copy.deepcopy(self._message)
        msg["content"] = [b for b in msg["content"] if b]
        return msg

    @property
    def content(self) -> list[Block]:
        return list(self.message["content"])

    @property
    def usage(self) -> dict[str, Any]:
        return dict(self._message["usage"])

    @property
    def stop_reason(self) -> str | None:
        value = self._message["stop_reason"]
        return str(value) if value is not None else None

    @property
    def text(self) -> str:
        return "".join(str(b.get("text", "")) for b in self._message["content"] if b.get("type") == "text")

    def completed_indices(self) -> set[int]:
        return set(self._closed)

    def partial_blocks(self, *, keep_open_text: bool = False) -> list[Block]:
        """What may be stored when the stream is cut off (seed 002 option B), via ``store.blocks.partial_turn``.

        Completed text blocks only (with ``keep_open_text`` also the text streamed so far of an unfinished
        one); never a tool_use; thinking only when complete and signed; ``[]`` when no text survives.
        """
        content = [copy.deepcopy(b) for b in self._message["content"]]
        return partial_turn(content, self._closed, keep_open_text=keep_open_text)


# --------------------------------------------------------------------------- building streams
# The other direction: a reply described as blocks → the events a real Messages stream carries.
# The LocalModel answers through it and the ScriptedModel test double replays it.


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
