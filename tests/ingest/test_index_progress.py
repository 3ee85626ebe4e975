"""The indexing step reports progress per embedding round (a few chunks), not once per 64 chunks: an upload's
"Index chunks n/N" keeps moving (issue 16: "Index chunks 0/28 80%" for 17 s)."""

from __future__ import annotations

from tests.ingest.test_worker import _submit, _worker


async def test_indexing_ticks_per_embedding_round(settings, store, blobs, queue, indexer, clock, tmp_path):
    ticks: list[int] = []

    def fault(step: str, done: int) -> None:
        if step == "indexing":
            ticks.append(done)

    _, c = _submit(store, blobs, queue, tmp_path, pages=6)
    worker = _worker(settings, store, blobs, queue, indexer, clock, fault=fault)
    assert await worker.run_once() == "completed"
    total = len(indexer.index)
    assert total > 8, total
    assert ticks == [min(n, total) for n in range(8, total + 8, 8)]
    step = store.get_workflow("alice", c.workflow_id)["steps"]["indexing"]
    assert step["done"] == step["total"] == total
