"""Accumulate Anthropic Messages stream events into a message (pure; no I/O).

The same job as the SDK's ``accumulate_event``, on plain dicts, plus what a server
needs when a client goes away mid-stream: ``partial_blocks()`` applies the session
store's partial-turn rule (seed 002, option B) to what has arrived so far.

It is the inverse of the model port's stream (``chat.models.port``), so it lives in the
model layer: every model's ``complete`` is ``complete_via_stream``, and the agent loop
(``chat.core``) feeds it the events of each round.
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any

from chat.models.errors import error_from_frame
from store.blocks import partial_turn
from store.errors import UpstreamError

if TYPE_CHECKING:
    from chat.models.port import ChatModel, ModelRequest

Block = dict[str, Any]


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


async def complete_via_stream(model: ChatModel, request: ModelRequest) -> dict[str, Any]:
    """``complete`` for any model: accumulate its stream into one message."""
    acc = MessageAccumulator()
    async for event in model.stream(request):
        acc.feed(event)
    return acc.message
