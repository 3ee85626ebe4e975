"""A session deleted by another process under a running answer, with no stop first (the race the delete's stop
cannot cover): the stream still ends with ``done``, the logs stay quiet (no warning, no error).

The owner learns of the delete twice, in an order nobody controls: its next write finds no session
(``NotFound``), and its lease keeper finds no lease and cancels the task (``generation_lease_lost``). These
tests force each interleaving that once made ``test_shared_generations``'s
``test_session_deleted_under_a_running_answer_without_a_stop_is_quiet`` flaky: the store below deletes the
session at the start of the tool results' write and cancels the answer's task at a chosen point.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from structlog.testing import capture_logs

from chat.core import events
from chat.core.generations import Generation, GenerationRegistry
from chat.models.scripted import Reply, ScriptedModel, Text, ToolUse
from store.errors import NotFound
from tests.chat.core.test_turn_integrity import Setup, events_of
from tests.chat.turn_checks import GatedStore


class DeletingStore(GatedStore):
    """Deletes the session (as another process would) when the append of a turn_id suffix begins.

    ``hold_after_delete``: the append then waits in its thread (``wait_held`` / ``release``) before it runs
    — and fails, the session being gone. ``cancel_on_check``: the next ``get_session`` (the agent asking
    whether the session is gone) first cancels that task, as the lease keeper does when it sees the lease gone.
    """

    delete_at: str | None = None
    hold_after_delete = False
    cancel_on_check: tuple[asyncio.AbstractEventLoop, asyncio.Task[None]] | None = None
    _armed = False

    def append_message(self, session_id: str, role: str, blocks: Iterable[Any], **kw: Any) -> int:
        if self.delete_at is not None and str(kw.get("turn_id") or "").endswith(self.delete_at):
            self.delete_at = None
            self.delete_session(session_id)
            self._armed = True
            if self.hold_after_delete:
                self._held.set()
                self._release.wait(10)
        return super().append_message(session_id, role, blocks, **kw)

    def get_session(self, session_id: str, *, user_id: str | None = None) -> Any:
        if self._armed and self.cancel_on_check is not None:
            loop, task = self.cancel_on_check
            self.cancel_on_check = None
            # scheduled before this call's own result: the task's wait for it is cancelled, deterministically
            loop.call_soon_threadsafe(task.cancel)
        return super().get_session(session_id, user_id=user_id)


def _setup(tmp_path: Path) -> tuple[Setup, DeletingStore]:
    model = ScriptedModel([Reply(ToolUse("search_documents", {"query": "revenue"})), Reply(Text("never shown"))])
    s = Setup(tmp_path, model)
    store = DeletingStore(s.sessions.items, s.sessions.blobs)
    s.sessions = store
    s.agent.sessions = s.agent.writer.sessions = store
    return s, store


def _quiet(logs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in logs if e["log_level"] in ("warning", "error", "critical")]


async def test_a_cancel_while_the_agent_checks_that_the_session_is_gone_still_ends_with_done(
    tmp_path: Path,
) -> None:
    s, store = _setup(tmp_path)
    store.delete_at = ":r0"  # the results' write finds no session: NotFound, then the gone-check
    with capture_logs() as logs:
        gen, task = s.start("go")
        store.cancel_on_check = (asyncio.get_running_loop(), task)
        await asyncio.gather(task, return_exceptions=True)
    evs = events_of(gen)
    assert "tool" in [n for n, _ in evs] and evs[-1] == ("done", events.done(None, "session_deleted")), evs
    assert store.cancel_on_check is None  # the cancel did hit the check
    assert _quiet(logs) == []
    assert [e for e in logs if e["event"] == "answer_ended"]


async def test_a_cancel_under_the_write_that_finds_no_session_is_quiet(tmp_path: Path) -> None:
    s, store = _setup(tmp_path)
    store.delete_at, store.hold_after_delete = ":r0", True
    with capture_logs() as logs:
        gen, task = s.start("go")
        await store.wait_held()
        task.cancel()  # the lease keeper's cancel, while the results' write is in flight
        await asyncio.sleep(0.01)
        store.release()  # the write now runs, and fails: NotFound
        await asyncio.gather(task, return_exceptions=True)
    evs = events_of(gen)
    assert evs[-1][0] == "done" and evs[-1][1]["stop_reason"] == "interrupted", evs
    assert _quiet(logs) == [], _quiet(logs)
    assert [e for e in logs if e["event"] == "partial_not_saved"]
    try:
        s.sessions.get_session(s.sid)
    except NotFound:
        pass
    else:
        raise AssertionError("the session was not deleted")


async def test_a_cancel_that_escapes_the_run_still_ends_the_stream_with_done() -> None:
    """The registry's last line: a run whose cancel was not handled (a bug) still closes its clients' streams."""
    reg = GenerationRegistry()
    started = threading.Event()

    async def run(g: Generation) -> None:
        g.publish("start", events.start("t", "s"))
        started.set()
        await asyncio.sleep(10)

    with capture_logs() as logs:
        gen = reg.begin(generation_id="g", session_id="s", user_id="u", turn_id="t", run=run)
        await asyncio.sleep(0.01)
        assert started.is_set()
        reg.cancel(gen)
        await asyncio.gather(gen.task or asyncio.sleep(0), return_exceptions=True)
    assert [e.event for e in gen.buffered()] == ["start", "done"]
    assert gen.buffered()[-1].data == events.done(None, "interrupted")
    assert [e["event"] for e in logs if e["log_level"] == "warning"] == ["generation_ended_without_done"]
