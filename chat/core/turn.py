"""One user turn being answered: the request context and what the running turn has produced so far."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal

from chat.core.agent_tools import RefBook
from chat.models.accumulator import MessageAccumulator

#: What a turn write stores: the question, a tool_use round, its results, the answer (complete or interrupted).
WriteKind = Literal["user", "tool_use", "results", "answer"]


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
    #: issue 16: the session's document selection (``None`` = all documents of ``project_ids``)
    document_ids: tuple[str, ...] | None = None


@dataclass(slots=True)
class Write:
    """A message write in flight (one at a time per turn; ``TurnWriter.settle`` waits for it)."""

    task: asyncio.Future[int]
    message: dict[str, Any]
    kind: WriteKind


@dataclass(slots=True)
class TurnState:
    """What the running turn has produced so far (for the partial-answer rule)."""

    messages: list[dict[str, Any]]
    seqs: list[int] = field(default_factory=list)
    summary: str | None = None
    refs: RefBook = field(default_factory=RefBook)
    #: the round whose streamed text the client has seen and the store does not hold yet
    accumulator: MessageAccumulator | None = None
    pending_tool_use: list[dict[str, Any]] | None = None  # stored tool_use blocks still without stored results
    pending_results: list[dict[str, Any]] | None = None  # their results, once the tools ran (shown to the client)
    inflight: Write | None = None  # the write in flight
    user_seq: int | None = None  # the question's seq, once stored
    answering: bool = False  # the model loop has begun (a retried question is being answered here)
    answered: bool = False  # the turn's closing assistant message is stored
    retried: bool = False  # the question was stored by an earlier attempt (a retried turn_id): its turns stand
    next_answer_round: int = 0  # an ``:a<n>`` turn_id below this is taken (a tool_use turn stored, or maybe stored)
    citations_sent: bool = False
    last_seq: int | None = None
    answer_text: str = ""
    stop_reason: str = "end_turn"
    round: int = 0

    def add(self, message: dict[str, Any], seq: int) -> None:
        """Track a stored message of this turn."""
        self.messages.append(message)
        self.seqs.append(seq)
