"""Pure functions over Messages-API content blocks (seed 002): no I/O here.

A turn is stored as its whole block array, exactly as the model returned it
(text, thinking — even with empty text —, redacted_thinking, tool_use,
tool_result, compaction, and block types we do not know yet). What is shown to
people is extracted by the chat layer (``chat/core/display.py``).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from store.errors import InvalidHistory, InvalidInput

Block = dict[str, Any]
Message = dict[str, Any]

#: Tool-call block types (``server_tool_use`` is answered inside the same assistant turn, not by the client).
TOOL_USE_TYPES = frozenset({"tool_use", "server_tool_use"})
TOOL_RESULT_TYPE = "tool_result"


def to_plain(blocks: Iterable[Any]) -> list[Block]:
    """SDK block objects (pydantic) or dicts → plain dicts, ``None`` fields left out of SDK objects."""
    out: list[Block] = []
    for b in blocks:
        if isinstance(b, Mapping):
            out.append(dict(b))
        elif hasattr(b, "model_dump"):
            out.append(b.model_dump(exclude_none=True, mode="json"))
        elif hasattr(b, "to_dict"):
            out.append(b.to_dict(exclude_none=True))
        else:
            raise InvalidInput(f"cannot store a block of type {type(b).__name__}")
    return out


def dumps_blocks(blocks: Sequence[Mapping[str, Any]]) -> str:
    """The stored form of a block array: compact JSON, non-ASCII kept as is (byte-exact round trip)."""
    return json.dumps(list(blocks), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def loads_blocks(text: str | bytes) -> list[Block]:
    value = json.loads(text)
    if not isinstance(value, list):
        raise InvalidHistory("stored blocks are not a JSON array")
    return value


def _blocks_of(message: Mapping[str, Any]) -> list[Any]:
    content = message.get("content")
    return content if isinstance(content, list) else []


def _is_tool_result_turn(message: Mapping[str, Any]) -> bool:
    return message.get("role") == "user" and any(
        isinstance(b, Mapping) and b.get("type") == TOOL_RESULT_TYPE for b in _blocks_of(message)
    )


def trim_to_valid_window(messages: Sequence[Message], keep: int) -> list[Message]:
    """Keep roughly the newest ``keep`` messages, starting at a whole user turn (never a tool_result-only one).

    The window may come out shorter than ``keep`` (never longer) so that no
    ``tool_use``/``tool_result`` pair is cut in half.
    """
    if keep <= 0:
        return []
    if len(messages) <= keep:
        return list(messages)
    start = len(messages) - keep
    while start < len(messages):
        m = messages[start]
        if m.get("role") != "user" or _is_tool_result_turn(m):
            start += 1
            continue
        break
    return list(messages[start:])


def valid_start(messages: Sequence[Message]) -> list[Message]:
    """Drop leading user turns that carry ``tool_result`` blocks: their ``tool_use`` is gone.

    Used on load, where the oldest messages may be missing (TTL expired them, or a crashed append left a gap);
    an orphan ``tool_result`` at the head would make every later request of the session fail.
    """
    start = 0
    while start < len(messages) and _is_tool_result_turn(messages[start]):
        start += 1
    return list(messages[start:])


def assert_pairs_ok(messages: Sequence[Mapping[str, Any]], *, allow_pending_tail: bool = False) -> None:
    """Raise ``InvalidHistory`` unless every tool_use is answered by a tool_result in the next user turn.

    A ``tool_result`` must answer a ``tool_use`` of the assistant turn just before it; every ``tool_use`` must
    be answered in the following user turn. With ``allow_pending_tail`` the last assistant turn may still
    wait for its results (the state between a model response and running its tools).
    """
    pending: set[str] = set()
    pending_at: int | None = None
    for i, m in enumerate(messages):
        role = m.get("role")
        if role not in ("user", "assistant"):
            raise InvalidHistory(f"message {i} has role {role!r}", index=i)
        blocks = _blocks_of(m)
        if role == "assistant":
            if pending:
                raise InvalidHistory(f"tool_use without tool_result: {sorted(pending)}", index=pending_at)
            for b in blocks:
                if isinstance(b, Mapping) and b.get("type") == "tool_use":
                    tid = b.get("id")
                    if not isinstance(tid, str) or not tid:
                        raise InvalidHistory(f"tool_use without an id in message {i}", index=i)
                    if tid in pending:
                        raise InvalidHistory(f"duplicate tool_use id {tid!r}", index=i)
                    pending.add(tid)
            pending_at = i if pending else None
            continue
        for b in blocks:
            if isinstance(b, Mapping) and b.get("type") == TOOL_RESULT_TYPE:
                tid = b.get("tool_use_id")
                if tid not in pending:
                    raise InvalidHistory(f"tool_result without tool_use: {tid!r}", index=i)
                pending.discard(tid)
        if pending:
            raise InvalidHistory(f"tool_use without tool_result: {sorted(pending)}", index=pending_at)
        pending_at = None
    if pending and not (allow_pending_tail and pending_at == len(messages) - 1):
        raise InvalidHistory(f"tool_use without tool_result: {sorted(pending)}", index=pending_at)


def partial_turn(
    blocks: Sequence[Mapping[str, Any]],
    completed: Collection[int],
    *,
    keep_open_text: bool = False,
) -> list[Block]:
    """What to store of an interrupted assistant turn (the partial-turn rule of seed 002).

    ``blocks`` are the blocks received so far (by index), ``completed`` the indexes that got their
    ``content_block_stop``. Kept: completed ``text`` blocks (with ``keep_open_text`` also the text streamed so
    far of an unfinished one); completed thinking blocks that carry a signature, and completed
    ``redacted_thinking``. Dropped: every ``tool_use``/``server_tool_use`` (a half-streamed one has broken input,
    and even a complete one would have no tool_result — either would poison the session), thinking without a
    signature, and anything unfinished. When no text survives the result is ``[]`` (thinking alone is not a turn).
    """
    out: list[Block] = []
    for i, b in enumerate(blocks):
        kind = b.get("type")
        done = i in completed
        if kind in TOOL_USE_TYPES:
            continue
        if kind == "text":
            if (done or keep_open_text) and b.get("text"):
                out.append({k: v for k, v in b.items() if k != "citations" or done})
        elif kind == "thinking":
            if done and b.get("signature"):
                out.append(dict(b))
        elif kind == "redacted_thinking":
            if done and b.get("data"):
                out.append(dict(b))
        # everything else of an interrupted turn is dropped
    if not any(b.get("type") == "text" for b in out):
        return []
    return out


def message_usage(usage: Mapping[str, Any] | None) -> dict[str, int]:
    """Normalise usage to seed 002's four counters (accepts Anthropic's ``*_tokens`` names too)."""
    u = usage or {}

    def pick(*names: str) -> int:
        for n in names:
            v = u.get(n)
            if isinstance(v, int | float) and not isinstance(v, bool):
                return int(v)
        return 0

    return {
        "input": pick("input", "input_tokens"),
        "output": pick("output", "output_tokens"),
        "cache_read": pick("cache_read", "cache_read_input_tokens"),
        "cache_write": pick("cache_write", "cache_creation_input_tokens"),
    }
