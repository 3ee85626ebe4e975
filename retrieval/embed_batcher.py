"""Passages of every document being indexed, embedded together (issue 18: batch across queued documents).

Each ``Retriever.index_chunks`` round hands its texts to one ``EmbedBatcher``; one drain task per event loop
takes every request waiting (whole requests, up to ``max_texts`` texts) and embeds them in one
``embed_passages`` call in a worker thread. So two documents indexed at once (the high-lane worker next to
a general one, or several workers) share the embedder's batches instead of running two sessions over the same
cores, and on a GPU the batches are as large as the queue allows. One request alone is embedded as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from retrieval.types import Embedder

#: texts per coalesced embed call (several documents' rounds of ``EMBED_BATCH`` together)
MAX_TEXTS = 256


class EmbedBatcher:
    def __init__(self, embedder: Embedder, *, max_texts: int = MAX_TEXTS) -> None:
        self.embedder = embedder
        self.max_texts = max(1, max_texts)
        self._pending: list[tuple[list[str], asyncio.Future[list[list[float]]]]] = []
        self._drain: asyncio.Task[None] | None = None
        self.calls = 0  # embed calls made (for tests and benchmarks)

    async def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        fut: asyncio.Future[list[list[float]]] = asyncio.get_running_loop().create_future()
        self._pending.append((list(texts), fut))
        if self._drain is None or self._drain.done():
            self._drain = asyncio.create_task(self._run(), name="embed-batcher")
        return await fut

    def _take(self) -> list[tuple[list[str], asyncio.Future[list[list[float]]]]]:
        batch = [self._pending.pop(0)]
        size = len(batch[0][0])
        while self._pending and size + len(self._pending[0][0]) <= self.max_texts:
            item = self._pending.pop(0)
            size += len(item[0])
            batch.append(item)
        return batch

    async def _run(self) -> None:
        while self._pending:
            await asyncio.sleep(0)  # let the requests of this loop iteration join the batch
            batch = self._take()
            texts = [t for req, _ in batch for t in req]
            self.calls += 1
            try:
                vectors = await asyncio.to_thread(self.embedder.embed_passages, texts)
            except Exception as exc:
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            start = 0
            for req, fut in batch:
                if not fut.done():  # a caller that was cancelled no longer waits
                    fut.set_result(vectors[start:start + len(req)])
                start += len(req)
