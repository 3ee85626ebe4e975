"""One user turn being answered: the request context and what the running turn has produced so far."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from chat.core.agent_tools import RefBook
from chat.models.accumulator import MessageAccumulator


@dataclass(frozen=True, slots=True)
class AskContext:
    session_id: str
    user_id: str
    text: str
    turn_id: str
    #: projects the tools may search, already checked to be the user's; the first is the default
    project_ids: tuple[str, ...]
    #: whether the session had no title before this question (title generation after the first exchange)
    needs_title: bool = False
    #: the session's last seq when the request arrived: a user turn stored at or below it is a retry
    last_seq_before: int = 0


@dataclass(slots=True)
class TurnState:
    """What the running turn has produced so far (for the partial-answer rule)."""

    messages: list[dict[str, Any]]
    seqs: list[int] = field(default_factory=list)
    summary: str | None = None
    refs: RefBook = field(default_factory=RefBook)
    accumulator: MessageAccumulator | None = None  # of the round in flight
    pending_tool_use: list[dict[str, Any]] | None = None  # tool_use blocks still without results
    append_task: asyncio.Future[int] | None = None  # the tool_use turn's write, running alongside the tools
    last_seq: int | None = None
    answer_text: str = ""
    round: int = 0

    def add(self, message: dict[str, Any], seq: int | None) -> None:
        """Track a message of this turn (``seq`` None: its write is still in flight)."""
        self.messages.append(message)
        self.seqs.append(seq if seq is not None else -1)
