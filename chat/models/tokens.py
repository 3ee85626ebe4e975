"""Token estimates (pure; no tokenizer, no network) for budgets and the local models' usage."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from chat.models.port import ModelRequest


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
