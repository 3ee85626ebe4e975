"""Storing a turn as it happens (seed 002): each message the moment it exists, and the partial answer.

Every write is a ``SessionStorePort.append_message`` run off the event loop, with a ``turn_id``
derived from the request's so a retried write never duplicates. When a generation is cut off
(client gone under the ``partial`` policy, ``POST …/stop``, an upstream error) ``save_partial``
stores what may be kept (``chat.core.partial``) and answers any unanswered ``tool_use`` with an
error ``tool_result`` — the stored history never has a dangling tool call.
"""

from __future__ import annotations

import asyncio
from typing import Any

from chat.core.agent_tools import error_result
from chat.core.partial import interrupted_blocks
from chat.core.ports import SessionStorePort
from chat.core.turn import AskContext, TurnState
from store.errors import NotFound
from store.logging import get_logger

log = get_logger(__name__)


class TurnWriter:
    """Appends the messages of one session's turns; knows the partial-answer rule."""

    def __init__(self, sessions: SessionStorePort, model_id: str) -> None:
        self.sessions = sessions
        self.model_id = model_id

    async def append(self, ctx: AskContext, role: str, blocks: list[dict[str, Any]], **meta: Any) -> int:
        seq: int = await asyncio.to_thread(self.sessions.append_message, ctx.session_id, role, blocks, **meta)
        return seq

    async def settle_append(self, state: TurnState) -> None:
        """Wait for the in-flight tool_use turn write and record its seq (raises if the write failed).

        If the wait itself is cancelled the write is still tracked, so ``save_partial`` waits for it
        before it answers the tool_use — results are never stored ahead of their tool_use turn.
        """
        task = state.append_task
        if task is None:
            return
        try:
            seq = await asyncio.shield(task)
        except Exception:
            # never stored: drop it from this turn and never answer it (a result would dangle)
            state.append_task = None
            state.messages.pop()
            state.seqs.pop()
            state.pending_tool_use = None
            raise
        state.append_task = None
        state.last_seq = seq
        state.seqs[-1] = seq

    async def save_partial(self, ctx: AskContext, state: TurnState) -> None:
        """Seed 002 option B: completed text only, marked interrupted; never a dangling ``tool_use``."""
        try:
            if state.append_task is not None:
                try:
                    await self.settle_append(state)
                except Exception as exc:
                    log.warning("tool_use_turn_not_stored", session_id=ctx.session_id, error_type=type(exc).__name__)
            if state.pending_tool_use:
                results = [
                    error_result(b["id"], "interrupted before the tool finished") for b in state.pending_tool_use
                ]
                state.last_seq = await self.append(ctx, "user", results, turn_id=f"{ctx.turn_id}:r{state.round}")
                state.pending_tool_use = None
                state.add({"role": "user", "content": results}, state.last_seq)
            acc = state.accumulator
            if acc is None and state.messages and state.messages[-1].get("role") == "assistant":
                return  # the last assistant turn is complete; nothing was cut off
            blocks = interrupted_blocks(acc)
            state.last_seq = await self.append(
                ctx,
                "assistant",
                blocks,
                turn_id=f"{ctx.turn_id}:a{state.round}",
                model=self.model_id,
            )
            state.answer_text = "".join(str(b.get("text", "")) for b in blocks)
        except NotFound:  # the session was deleted while it was being answered: nothing to keep
            log.info("partial_not_saved", session_id=ctx.session_id, reason="session_deleted")
        except Exception as exc:  # saving must never mask the original outcome
            log.error("partial_save_failed", session_id=ctx.session_id, error_type=type(exc).__name__, exc_info=exc)
