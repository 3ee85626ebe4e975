"""Upload-time parsing, apart from the pool that serves requests.

Opening an uploaded file (``ingest.inspect.inspect_document``) blocks a thread on a sandboxed child for as
long as the parser takes — up to the parse timeout on a malformed PDF. Run on the loop's default executor,
a few such uploads took every thread that ``asyncio.to_thread`` store calls of *other* requests wait for
(6 slow uploads: another user's ``GET /v1/sessions`` took 13 s). ``ParsePool`` gives uploads their own
threads (``DOCCHAT_UPLOAD_PARSE_CONCURRENCY``), a bounded wait for one (``DOCCHAT_UPLOAD_PARSE_QUEUE``, then
503), and children that are niced and stopped after ``DOCCHAT_UPLOAD_PARSE_TIMEOUT_SECONDS``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ingest.sandbox import Limits
from store.config import Settings
from store.errors import RetryableError

T = TypeVar("T")

#: nice increment of upload-time parser children (the server process keeps the CPU it needs)
UPLOAD_NICE = 10


def upload_limits(settings: Settings) -> Limits:
    """The sandbox bounds at upload time: the shorter timeout, the same memory, niced."""
    ing = settings.ingest
    return Limits(timeout_s=min(float(ing.parse_timeout_seconds), float(ing.upload_parse_timeout_seconds)),
                  memory_mb=int(ing.parse_memory_mb), nice=UPLOAD_NICE)


class ParsePool:
    """A bounded executor for blocking upload-time parses: ``await pool.run(fn, *args)``."""

    def __init__(self, concurrency: int, max_waiting: int) -> None:
        self.concurrency = concurrency
        self.max_waiting = max_waiting
        self._executor = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="upload-parse")
        self._in_flight = 0

    @classmethod
    def from_settings(cls, settings: Settings) -> ParsePool:
        from ingest.sandbox_spares import configure

        configure(settings.ingest.sandbox_spares)  # spares for the upload check, started after a first one
        return cls(settings.ingest.upload_parse_concurrency, settings.ingest.upload_parse_queue)

    @property
    def in_flight(self) -> int:
        return self._in_flight

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._in_flight >= self.concurrency + self.max_waiting:
            raise RetryableError("the server is busy checking other uploads; try again in a minute")
        self._in_flight += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, lambda: fn(*args))
        finally:
            self._in_flight -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
