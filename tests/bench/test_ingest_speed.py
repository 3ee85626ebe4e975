"""bench/ingest_speed.py (``python -m ingest.bench``): marks come from the pipeline's own writes, not from polling,
and CPU is counted for running children too."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from dataclasses import dataclass
from types import SimpleNamespace

from bench.ingest_speed import _Events, _Watch, cpu_seconds


@dataclass
class _Chunk:
    document_id: str


class _Index:
    def __init__(self) -> None:
        self.rows: set[str] = set()
        self.searches = 0

    async def upsert_text(self, chunks):
        self.rows.update(c.document_id for c in chunks)

    async def upsert(self, chunks, vectors):
        self.rows.update(c.document_id for c in chunks)

    async def search(self, query, vector, flt, k, mode):
        self.searches += 1
        return [object()] if flt.document_ids[0] in self.rows else []


class _Store:
    def record_step(self, claim, name, status, **kw):
        return None

    def complete(self, claim, **kw):
        return True

    def fail(self, claim, **kw):
        return None


async def test_watch_marks_follow_the_writes_without_polling() -> None:
    index, store = _Index(), _Store()
    events = _Events(asyncio.get_running_loop(), index, store)
    w = _Watch(SimpleNamespace(index=index), "p", "d1", "w1", time.perf_counter(), cpu_seconds())
    events.watches.append(w)
    task = asyncio.create_task(w.run(answer=False))
    await asyncio.sleep(0.5)
    assert index.searches == 0  # nothing written yet: nothing asked
    claim = SimpleNamespace(workflow_id="w1")
    await asyncio.to_thread(store.record_step, claim, "segment_builder", "completed")
    await index.upsert_text([_Chunk("d1")])
    await asyncio.sleep(0.1)
    await asyncio.to_thread(store.record_step, claim, "indexing", "in_progress", done=0, total=1)
    await asyncio.to_thread(store.record_step, claim, "indexing", "completed", done=1, total=1)
    await asyncio.to_thread(store.complete, claim, total_segments=1)
    marks = await asyncio.wait_for(task, 10)
    assert marks["status"] == "completed"
    assert marks["to_segments_s"] <= marks["to_searchable_s"] <= marks["to_ready_s"]
    assert "cpu_to_searchable_s" in marks and marks["asks"] == 1 == index.searches
    assert set(events.fill_cpu["w1"]) == {"start", "end"}


def test_cpu_seconds_counts_a_running_child() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time\nt = time.process_time()\n"
                              "while time.process_time() - t < 0.5: pass\ntime.sleep(30)"])
    try:
        deadline = time.monotonic() + 30
        while cpu_seconds() - cpu_seconds(children=False) < 0.4 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert cpu_seconds() - cpu_seconds(children=False) >= 0.4  # still running, already counted
    finally:
        child.kill()
        child.wait()
