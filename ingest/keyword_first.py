"""Keyword indexing before vector fill, across the documents of one process (issue 18).

A worker that has made its document keyword-searchable hands its *text slot* straight on to its next receive:
the document's vector fill, rendering and field extraction go on in the background while the worker takes the
next queued document through its text path. Every background step waits for :meth:`KeywordFirst.idle`, which
holds while any worker holds a slot, so each queued document becomes keyword-searchable before any of them
spends CPU on embedding. A worker gives its slot up when the queue has nothing for it at once (then the fills
run, while it long-polls) or when it has ``MAX_BEHIND`` documents in the background. Listeners hear when the
first slot is taken and the last one given back: the retriever pauses its one-time model build meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from store.logging import get_logger

log = get_logger(__name__)

#: documents a worker keeps in their background phase (vector fill) while it takes the next one's text path
MAX_BEHIND = 16
#: the listeners hear "idle" this long after the last slot was given back, unless one is taken again meanwhile: an
#: upload's check gives its slot back a moment before a worker takes one for the same document's text path, and the
#: model's load (not pausable once begun) must not start in between; the vector fills (``idle``) do not wait for it
LISTEN_GRACE_S = 1.0


class KeywordFirst:
    """Counts the text slots held; :meth:`idle` waits until none is."""

    def __init__(self) -> None:
        self._held = 0
        self._idle: asyncio.Event | None = None
        self._listeners: list[tuple[Callable[[], None], Callable[[], None]]] = []
        self._told_busy = False  # the listeners' state: told "busy" and not yet "idle"
        self._grace: asyncio.TimerHandle | None = None

    def listen(self, busy: Callable[[], None], idle: Callable[[], None]) -> None:
        """``busy()`` when a first slot is taken, ``idle()`` ``LISTEN_GRACE_S`` after the last one is given back
        (e.g. the retriever pausing and continuing its model build and load: ``Retriever.pause_background`` /
        ``resume_background``; the sandbox spares' start-ups)."""
        self._listeners.append((busy, idle))

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
        if self._grace is not None:  # taken again within the grace: the listeners stay "busy"
            self._grace.cancel()
            self._grace = None
        if not self._told_busy:
            self._told_busy = True
            self._tell(0)

    def give(self) -> None:
        if self._held == 0:
            return
        self._held -= 1
        if self._held == 0:
            self._event().set()
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no event loop (a thread of its own): at once
                self._tell_idle()
                return
            self._grace = loop.call_later(LISTEN_GRACE_S, self._tell_idle)

    def _tell_idle(self) -> None:
        self._grace = None
        if self._held == 0 and self._told_busy:
            self._told_busy = False
            self._tell(1)

    def _tell(self, which: int) -> None:
        for listener in self._listeners:
            try:
                listener[which]()
            except Exception:  # a listener's failure must not stop the workers
                log.warning("keyword_first_listener_failed", which="busy" if which == 0 else "idle")

    async def idle(self) -> None:
        """Return once no document is on its way to keyword-searchable (at once when none is)."""
        while self._held:
            await self._event().wait()
