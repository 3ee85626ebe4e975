"""SSE event types and their wire encoding (pure).

Every event the chat API streams has an SSE ``event:`` name, a JSON ``data:``
payload and an ``id:`` of the form ``<generation_id>.<n>`` (``n`` counts from
1 within one generation), so a client that reconnects with ``Last-Event-ID``
gets exactly what it missed (see ``chat/core/generations.py``).

Events are encoded once, when they are published, and the bytes are shared by
every subscriber and every replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import msgspec

EventName = Literal["start", "text", "tool", "citation", "usage", "done", "error"]
EVENT_NAMES: frozenset[str] = frozenset({"start", "text", "tool", "citation", "usage", "done", "error"})

#: an SSE comment line; clients ignore it, proxies see traffic (sent every ``sse_keepalive_seconds``)
KEEPALIVE = b": keep-alive\n\n"


@dataclass(frozen=True, slots=True)
class ChatEvent:
    """One published event: its position ``n`` in the generation, name, payload and encoded bytes."""

    n: int
    event: EventName
    data: dict[str, Any]
    wire: bytes

    @property
    def id(self) -> str:
        return self.wire.split(b"\n", 1)[0][4:].decode()


def parse_event_id(value: str | None) -> tuple[str, int] | None:
    """``"<generation_id>.<n>"`` → ``(generation_id, n)``; anything else → None."""
    if not value:
        return None
    gen, sep, num = value.strip().rpartition(".")
    if not sep or not gen or not num.isdigit():
        return None
    return gen, int(num)


_json_encode = msgspec.json.Encoder().encode  # compact UTF-8 JSON, ~10x json.dumps on small payloads


def encode(generation_id: str, n: int, event: EventName, data: dict[str, Any]) -> bytes:
    """The SSE frame for one event. JSON never contains a raw newline, so ``data:`` is one line."""
    return b"id: %s.%d\nevent: %s\ndata: %s\n\n" % (
        generation_id.encode(),
        n,
        event.encode(),
        _json_encode(data),
    )


def make_event(generation_id: str, n: int, event: EventName, data: dict[str, Any]) -> ChatEvent:
    if event not in EVENT_NAMES:
        raise ValueError(f"unknown SSE event {event!r}")
    return ChatEvent(n=n, event=event, data=data, wire=encode(generation_id, n, event, data))


# --- payload builders (the documented shapes) ---------------------------------


def start(turn_id: str, session_id: str) -> dict[str, Any]:
    return {"turn_id": turn_id, "session_id": session_id}


def text(delta: str) -> dict[str, Any]:
    return {"delta": delta}


def tool(name: str, tool_input: dict[str, Any], status: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "input": tool_input, "status": status, **extra}


def usage(u: dict[str, Any]) -> dict[str, int]:
    return {
        "input": int(u.get("input", 0) or 0),
        "output": int(u.get("output", 0) or 0),
        "cache_read": int(u.get("cache_read", 0) or 0),
        "cache_write": int(u.get("cache_write", 0) or 0),
    }


def done(seq: int | None, stop_reason: str) -> dict[str, Any]:
    return {"seq": seq, "stop_reason": stop_reason}


def error(code: str, message: str) -> dict[str, Any]:
    return {"code": code, "message": message}


# --- a small client-side parser (used by ``docchat ask``, tests and the benchmark) ---


@dataclass(slots=True)
class SSEMessage:
    event: str
    data: str
    id: str | None


class SSEParser:
    """Incremental SSE parser: ``feed(bytes)`` returns the complete messages seen so far (comments dropped)."""

    def __init__(self) -> None:
        self._buf = b""
        self.comments = 0
        self.last_id: str | None = None

    def feed(self, chunk: bytes) -> list[SSEMessage]:
        self._buf += chunk.replace(b"\r\n", b"\n")
        out: list[SSEMessage] = []
        while True:
            end = self._buf.find(b"\n\n")
            if end < 0:
                return out
            frame, self._buf = self._buf[:end], self._buf[end + 2 :]
            event, data, eid = "message", [], None
            only_comments = True
            for line in frame.decode("utf-8").split("\n"):
                if line.startswith(":"):
                    continue
                only_comments = False
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    event = value
                elif field == "data":
                    data.append(value)
                elif field == "id":
                    eid = value
            if only_comments:
                self.comments += 1
                continue
            if eid is not None:
                self.last_id = eid
            out.append(SSEMessage(event=event, data="\n".join(data), id=eid))
