"""Keyword indexing before vector fill, across the documents of one process (issue 18).

A worker that has made its document keyword-searchable hands its *text slot* straight on to its next receive:
the document's vector fill, rendering and field extraction go on in the background while the worker takes the
next queued document through its text path. Every background step waits for :meth:`KeywordFirst.idle`, which
holds while any worker holds a slot, so each queued document becomes keyword-searchable before any of them
spends CPU on embedding. A worker gives its slot up when the queue has nothing for it at once (then the fills
run, while it long-polls) or when it has ``max_behind`` documents in the background.
"""

from __future__ import annotations

import asyncio

#: documents a worker keeps in their background phase (vector fill) while it takes the next one's text path
MAX_BEHIND = 8


class KeywordFirst:
    """Counts the text slots held; :meth:`idle` waits until none is."""

    def __init__(self) -> None:
        self._held = 0
        self._idle: asyncio.Event | None = None

    def _event(self) -> asyncio.Event:
        if self._idle is None:
            self._idle = asyncio.Event()
            if self._held == 0:
                self._idle.set()
        return self._idle

    @property
    def held(self) -> int:
        return self._held

    def take(self) -> None:
        self._held += 1
        self._event().clear()

    def give(self) -> None:
        self._held = max(0, self._held - 1)
        if self._held == 0:
            self._event().set()

    async def idle(self) -> None:
        """Return once no document is on its way to keyword-searchable (at once when none is)."""
        while self._held:
            await self._event().wait()
