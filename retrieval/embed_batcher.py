"""Passages of every document being indexed, embedded together (issue 18: batch across queued documents).

Each ``Retriever.index_chunks`` round hands its texts to one ``EmbedBatcher``; one drain task per event loop
takes every request waiting (whole requests, up to ``max_texts`` texts) and embeds them in one
``embed_passages`` call in a worker thread. So two documents indexed at once (the high-lane worker next to
a general one, or several workers) share the embedder's batches instead of running two sessions over the same
cores, and on a GPU the batches are as large as the queue allows. One request alone is embedded as before.

Progress: a request may pass ``progress(done)`` (texts of that request embedded so far). When the embedder takes
a ``progress`` argument (``OnnxE5Embedder``: after every session run) it is called from inside the call, so a
round of 64 texts still ticks every few texts without being cut into small calls (a call of 8 texts sorts and
pads 8 texts at a time and cost ~24% more CPU per text than one of 64). Several requests in one call share the
call's count in proportion. A request whose ``progress`` raises (its claim was lost) gets that exception; the
call stops early only when every request in it has raised. An embedder without ``progress`` gets calls of
``SLICE`` texts when someone waits for progress.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from retrieval.types import Embedder

#: texts per coalesced embed call (several documents' rounds of ``EMBED_BATCH`` together)
MAX_TEXTS = 256

#: texts per call, for an embedder that cannot report progress from inside a call (a tick after each)
SLICE = 8

RequestProgress = Callable[[int], None]


@dataclass
class _Request:
    texts: list[str]
    future: asyncio.Future[list[list[float]]]
    progress: RequestProgress | None = None
    error: BaseException | None = field(default=None, repr=False)


class _Stop(Exception):
    """Raised into the embedder: every request of the call has given up."""


def takes_progress(embedder: Embedder) -> bool:
    """Whether ``embedder.embed_passages`` accepts a ``progress`` keyword."""
    try:
        return "progress" in inspect.signature(embedder.embed_passages).parameters
    except (TypeError, ValueError):
        return False


class EmbedBatcher:
    def __init__(self, embedder: Embedder, *, max_texts: int = MAX_TEXTS,
                 yield_to: Callable[[], None] | None = None) -> None:
        self.embedder = embedder
        self.yield_to = yield_to  # called (embed thread) between session runs of a call with progress: may wait
        self.max_texts = max(1, max_texts)
        self._pending: list[_Request] = []
        self._drain: asyncio.Task[None] | None = None
        self._with_progress = takes_progress(embedder)
        self.calls = 0  # embed calls made (for tests and benchmarks)

    async def embed_passages(self, texts: Sequence[str], progress: RequestProgress | None = None) -> list[list[float]]:
        if not texts:
            return []
        fut: asyncio.Future[list[list[float]]] = asyncio.get_running_loop().create_future()
        self._pending.append(_Request(list(texts), fut, progress))
        if self._drain is None or self._drain.done():
            self._drain = asyncio.create_task(self._run(), name="embed-batcher")
        return await fut

    def _take(self) -> list[_Request]:
        batch = [self._pending.pop(0)]
        size = len(batch[0].texts)
        while self._pending and size + len(self._pending[0].texts) <= self.max_texts:
            item = self._pending.pop(0)
            size += len(item.texts)
            batch.append(item)
        return batch

    def _call(self, batch: list[_Request], texts: list[str]) -> list[list[float]]:
        """The embed call (worker thread), with the requests' progress fed from inside it when possible."""
        if all(r.progress is None for r in batch):
            return self.embedder.embed_passages(texts)
        lock = threading.Lock()

        def tick(done: int, total: int) -> None:
            if self.yield_to is not None and done < total:
                self.yield_to()  # e.g. a search is running: its query is embedded first
            with lock:
                for r in batch:
                    if r.progress is None or r.error is not None:
                        continue
                    try:
                        r.progress(min(len(r.texts), done * len(r.texts) // max(1, total)))
                    except BaseException as exc:  # handed to that request's caller
                        r.error = exc
                if all(r.error is not None for r in batch):
                    raise _Stop

        if self._with_progress:
            return self.embedder.embed_passages(texts, progress=tick)  # type: ignore[call-arg]
        out: list[list[float]] = []  # an embedder without progress: small calls, a tick after each
        for start in range(0, len(texts), SLICE):
            out.extend(self.embedder.embed_passages(texts[start:start + SLICE]))
            tick(len(out), len(texts))
        return out

    async def _run(self) -> None:
        while self._pending:
            await asyncio.sleep(0)  # let the requests of this loop iteration join the batch
            batch = self._take()
            texts = [t for r in batch for t in r.texts]
            self.calls += 1
            try:
                vectors = await asyncio.to_thread(self._call, batch, texts)
            except Exception as exc:
                for r in batch:
                    if not r.future.done():
                        r.future.set_exception(r.error if isinstance(exc, _Stop) and r.error else exc)
                continue
            start = 0
            for r in batch:
                if not r.future.done():  # a caller that was cancelled no longer waits
                    if r.error is not None:
                        r.future.set_exception(r.error)
                    else:
                        r.future.set_result(vectors[start:start + len(r.texts)])
                start += len(r.texts)
