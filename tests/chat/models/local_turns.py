"""Shared by the LocalModel conversation tests: a page as ``read_page`` returns it, and one model turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chat.core.prompt import SYSTEM_PROMPT, build_request
from chat.core.tools import TOOLS
from chat.models.accumulator import MessageAccumulator
from chat.models.local import LocalModel


@dataclass
class PageStub:
    """What ``format_page`` reads of a stored page."""

    document_id: str
    file_name: str
    page: int
    text: str
    page_count: int = 1


async def local_turn(messages: list[dict[str, Any]], model: LocalModel | None = None) -> dict[str, Any]:
    """The assistant message the local model streams for ``messages`` (with the chat's tools)."""
    acc = MessageAccumulator()
    async for e in (model or LocalModel()).stream(build_request(SYSTEM_PROMPT, TOOLS, messages, max_tokens=1024)):
        acc.feed(e)
    return acc.message
