"""Checks and doubles for the history-integrity tests (issue 13): a store that holds one write, the invariants."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from store.blobs import FileBlobStore
from store.block_repair import assert_request_history
from store.config import Settings
from store.schema import SESSIONS_TABLE
from store.sessions import SessionStore
from store.sqlite_items import SqliteItemTable


class GatedStore(SessionStore):
    """A SessionStore that can hold the append of one turn_id suffix in its thread after it landed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._gate: str | None = None
        self._held = threading.Event()
        self._release = threading.Event()
        self.append_delay_s = 0.0  # every append sleeps this long before and after the write

    def hold(self, suffix: str) -> None:
        self._gate = suffix
        self._held.clear()
        self._release.clear()

    async def wait_held(self, timeout_s: float = 5.0) -> None:
        for _ in range(int(timeout_s / 0.002)):
            if self._held.is_set():
                return
            await asyncio.sleep(0.002)
        raise AssertionError(f"no write of {self._gate!r} arrived")

    def release(self) -> None:
        self._gate = None
        self._release.set()

    def append_message(self, session_id: str, role: str, blocks: Iterable[Any], **kw: Any) -> int:
        if self.append_delay_s:
            threading.Event().wait(self.append_delay_s)
        seq = super().append_message(session_id, role, blocks, **kw)
        gate, turn_id = self._gate, kw.get("turn_id") or ""
        if gate is not None and turn_id.endswith(gate):
            self._held.set()
            self._release.wait(10)
        if self.append_delay_s:
            threading.Event().wait(self.append_delay_s)
        return seq


def gated_store(settings: Settings) -> GatedStore:
    return GatedStore(
        SqliteItemTable(settings.server.data_dir / "sessions.db", SESSIONS_TABLE),
        FileBlobStore(settings.server.data_dir / "blobs" / "sessions"),
    )


def assert_every_question_answered(stored: list[Mapping[str, Any]]) -> None:
    """The stored turns themselves (no repair): seqs without gaps, a valid request, ending with an answer."""
    seqs = [int(m["seq"]) for m in stored]
    assert seqs == list(range(1, len(stored) + 1)), f"seq gap: {seqs}"
    assert_request_history([{"role": m["role"], "content": m["content"]} for m in stored])
    if stored:
        last = stored[-1]
        assert last["role"] == "assistant", "the last question has no answer"
        assert not any(b.get("type") == "tool_use" for b in last["content"]), "the history ends in a tool call"
