"""Storing a turn as it happens (seed 002): each message the moment it exists, and the partial answer.

Every write is a ``SessionStorePort.append_message`` run off the event loop, with a ``turn_id``
derived from the request's so a retried write never duplicates. A turn has at most one write in
flight (``TurnState.inflight``), and nothing is written until it has settled: two writes of the same
``turn_id`` never race (a race leaves a seq gap and keeps whichever lost the client's view), and a
``tool_result`` is never stored ahead of its ``tool_use`` turn.

When a generation is cut off (client gone under the ``partial`` policy, ``POST …/stop``, an upstream or
internal error) ``save_partial`` closes the turn: it waits for the write in flight, answers a stored
``tool_use`` with its results (the real ones when the tools had finished and were shown, else an error
``tool_result``), and stores the answer the client saw — the text streamed so far and the interrupted
note. So every stored question ends with an answer turn, and the history never has a dangling tool call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

from chat.core.agent_tools import error_result
from chat.core.partial import interrupted_blocks
from chat.core.ports import SessionStorePort
from chat.core.turn import AskContext, TurnState, Write, WriteKind
from store.block_repair import TOOL_INTERRUPTED
from store.errors import NotFound
from store.logging import get_logger

log = get_logger(__name__)

T = TypeVar("T")


async def run_to_end(aw: Awaitable[T]) -> T:
    """Await ``aw`` to its end even if the waiting task is cancelled again meanwhile.

    For the partial save: a second cancel (a stop, then the client leaving) must not cut it in half,
    or leave the generation finished before its answer is stored.
    """
    task = asyncio.ensure_future(aw)
    while True:
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.done():
                return task.result()  # finished as the wait was cancelled (raises if it was cancelled itself)


class TurnWriter:
    """Appends the messages of one session's turns; knows the partial-answer rule."""

    def __init__(self, sessions: SessionStorePort, model_id: str) -> None:
        self.sessions = sessions
        self.model_id = model_id

    async def append(self, ctx: AskContext, role: str, blocks: list[dict[str, Any]], **meta: Any) -> int:
        seq: int = await asyncio.to_thread(self.sessions.append_message, ctx.session_id, role, blocks, **meta)
        return seq

    def begin(self, ctx: AskContext, state: TurnState, kind: WriteKind, message: dict[str, Any], **meta: Any) -> None:
        """Start writing ``message``; it joins the turn when ``settle`` sees it stored."""
        if state.inflight is not None:
            raise RuntimeError("a turn write is already in flight")
        task = asyncio.ensure_future(self.append(ctx, message["role"], message["content"], **meta))
        state.inflight = Write(task, message, kind)

    async def write(self, ctx: AskContext, state: TurnState, kind: WriteKind, message: dict[str, Any],
                    **meta: Any) -> int:
        self.begin(ctx, state, kind, message, **meta)
        seq = await self.settle(state)
        assert seq is not None
        return seq

    async def settle(self, state: TurnState) -> int | None:
        """Wait for the write in flight and record it (raises if it failed); None when nothing is in flight.

        If the wait itself is cancelled the write goes on and stays tracked: ``save_partial`` settles it.
        """
        w = state.inflight
        if w is None:
            return None
        try:
            seq = await asyncio.shield(w.task)
        except asyncio.CancelledError:
            if not w.task.done():
                raise  # our wait was cancelled, not the write: it stays in flight
            state.inflight = None
            if w.task.cancelled() or w.task.exception() is not None:
                self._failed(state, w)
            else:  # the write finished just as the wait was cancelled: it is stored
                self._stored(state, w, w.task.result())
            raise
        except Exception:
            state.inflight = None
            self._failed(state, w)
            raise
        state.inflight = None
        self._stored(state, w, seq)
        return seq

    @staticmethod
    def _stored(state: TurnState, w: Write, seq: int) -> None:
        state.last_seq = seq
        if w.kind == "user":
            state.user_seq = seq
            return
        state.add(w.message, seq)
        if w.kind in ("tool_use", "answer"):
            state.accumulator = None  # the round's text is stored now
        if w.kind == "tool_use":
            state.next_answer_round = state.round + 1
        if w.kind == "results":
            state.pending_tool_use = state.pending_results = None
        if w.kind == "answer":
            state.answered = True

    @staticmethod
    def _failed(state: TurnState, w: Write) -> None:
        if w.kind == "tool_use":
            # never stored (as far as we know): never answer it — a result would dangle. Its text, shown
            # already, stays in the accumulator for the interrupted answer.
            state.pending_tool_use = state.pending_results = None
            state.next_answer_round = state.round + 1  # its turn_id may have landed all the same

    async def write_answer(self, ctx: AskContext, state: TurnState, blocks: list[dict[str, Any]], **meta: Any) -> int:
        """Store the turn's closing assistant message (``:a<n>``, n = the round, after any stored tool_use turn)."""
        n = max(state.round, state.next_answer_round)
        message = {"role": "assistant", "content": blocks}
        return await self.write(ctx, state, "answer", message, turn_id=f"{ctx.turn_id}:a{n}", model=self.model_id,
                                **meta)

    async def save_partial(self, ctx: AskContext, state: TurnState) -> None:
        """Close the turn: seed 002 option B, never a dangling ``tool_use``, never an unanswered question."""
        try:
            if state.inflight is not None:
                kind = state.inflight.kind
                try:
                    await self.settle(state)
                except NotFound:
                    raise  # the session was deleted under the write: nothing to keep (below), not a failure
                except BaseException as exc:
                    log.warning("turn_write_failed", session_id=ctx.session_id, kind=kind,
                                error_type=type(exc).__name__)
            if state.user_seq is None or state.answered:
                return  # the question was never stored, or its answer is: nothing to close
            if not state.answering and (state.retried or state.user_seq <= ctx.last_seq_before):
                return  # a retried question stored before: its first attempt's turns stand
            if state.pending_tool_use:
                results = state.pending_results or [error_result(b["id"], TOOL_INTERRUPTED)
                                                     for b in state.pending_tool_use]
                await self.write(ctx, state, "results", {"role": "user", "content": results},
                                 turn_id=f"{ctx.turn_id}:r{state.round}")
            blocks = interrupted_blocks(state.accumulator)
            state.stop_reason = "interrupted"
            await self.write_answer(ctx, state, blocks)
            state.answer_text = "".join(str(b.get("text", "")) for b in blocks)
        except NotFound:  # the session was deleted while it was being answered: nothing to keep
            log.info("partial_not_saved", session_id=ctx.session_id, reason="session_deleted")
        except Exception as exc:  # saving must never mask the original outcome
            log.error("partial_save_failed", session_id=ctx.session_id, error_type=type(exc).__name__, exc_info=exc)
