"""Bounds on one answer's work (issue 13 item 8: "a question's work stops when its limits or its client's
patience end").

* rounds: ``Agent`` runs at most ``max_tool_rounds`` tool rounds (then the model is told to answer);
* time: ``run_bounded`` stops the generation ``answer_timeout_seconds`` after it started — an ``error`` event
  ``time_limit`` is published, then the task is cancelled, and the agent saves the partial answer exactly as
  for a ``/stop`` (``done`` with ``interrupted``);
* the client's patience: under the ``partial`` disconnect policy the registry cancels an answer whose
  client has gone (``chat/core/generations.py``); under ``finish`` the time bound above still holds;
* the user's answer slot (``store/usage_limits.py``) is released when the generation ends, however it ends.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from chat.core import events
from chat.core.generations import Generation
from chat.core.ports import AnswerLeasePort
from store.logging import get_logger

log = get_logger(__name__)


async def run_bounded(
    gen: Generation,
    run: Callable[[Generation], Awaitable[None]],
    *,
    timeout_s: float,
    lease: AnswerLeasePort | None = None,
) -> None:
    """``run(gen)`` cut off after ``timeout_s`` (0 = no bound); ``lease`` released at the end."""
    task = asyncio.current_task()
    handle: asyncio.TimerHandle | None = None

    def expire() -> None:
        if gen.finished or task is None or task.done():
            return
        log.warning("answer_time_limit", session_id=gen.session_id, generation_id=gen.generation_id,
                    timeout_s=timeout_s)
        gen.publish("error", events.error(
            "time_limit", f"the answer was stopped after {timeout_s:g} s (answer_timeout_seconds)"))
        task.cancel()

    if timeout_s > 0:
        handle = asyncio.get_running_loop().call_later(timeout_s, expire)
    try:
        await run(gen)
    finally:
        if handle is not None:
            handle.cancel()
        if lease is not None:
            await asyncio.shield(lease.release())
