"""Two processes, one LanceDB table: an API process's open index sees what a separate worker indexed.

The worker is a real second process (``subprocess``) writing through its own ``LanceIndex``; the parent's
index was opened (and searched) before, so it holds a table handle and a snapshot.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from retrieval.lance_index import LanceIndex
from retrieval.types import SearchFilter
from store.errors import ConfigError
from tests.retrieval.conftest import DIM, chunk, toy_vector

ROOT = Path(__file__).resolve().parents[2]

WORKER = """
import asyncio, sys
from pathlib import Path
from retrieval.lance_index import LanceIndex
from tests.retrieval.conftest import DIM, chunk, toy_vector

async def main() -> None:
    for path in sys.argv[1:]:
        index = LanceIndex(Path(path), DIM)
        chunks = [chunk("worker-doc", i, f"zebrafinch migration report part {i}") for i in range(5)]
        await index.upsert(chunks, [toy_vector(c.text) for c in chunks])

asyncio.run(main())
"""

FLT = SearchFilter("p1")


def _index_in_another_process(*paths: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", WORKER, *map(str, paths)], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]


async def _open_and_search(path: Path, consistency: float | None) -> LanceIndex:
    index = LanceIndex(path, DIM, read_consistency_seconds=consistency)
    first = chunk("api-doc", 0, "quarterly revenue summary")
    await index.upsert([first], [toy_vector(first.text)])
    hits = await index.search("revenue", toy_vector("revenue"), FLT, k=5)
    assert [h.document_id for h in hits] == ["api-doc"]
    return index


async def _worker_docs(index: LanceIndex) -> tuple[set[str], set[str], int]:
    kw = await index.search("zebrafinch", None, FLT, k=10, mode="keyword")
    hy = await index.search("zebrafinch migration", toy_vector("zebrafinch migration"), FLT, k=10)
    return {h.document_id for h in kw}, {h.document_id for h in hy}, await index.count(FLT)


SEEN = ({"worker-doc"}, {"worker-doc", "api-doc"}, 6)


async def test_open_indices_see_another_process_s_chunks_within_their_bound(tmp_path: Path) -> None:
    """One worker process writes three tables; the parent opened each before with a different interval:
    0.5 s (seen within the bound), 0 (seen on the very next read), None (the old behaviour: never seen)."""
    bound = 0.5
    bounded = await _open_and_search(tmp_path / "bounded", bound)
    strong = await _open_and_search(tmp_path / "strong", 0.0)
    snapshot = await _open_and_search(tmp_path / "snapshot", None)
    _index_in_another_process(tmp_path / "bounded", tmp_path / "strong", tmp_path / "snapshot")
    written = time.monotonic()
    assert await _worker_docs(strong) == SEEN
    deadline = written + bound + 2.0  # the bound, plus slack for a loaded machine
    seen = await _worker_docs(bounded)
    while seen != SEEN and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        seen = await _worker_docs(bounded)
    assert seen == SEEN, f"not seen {time.monotonic() - written:.2f}s after the write"
    await asyncio.sleep(max(0.0, written + bound + 0.1 - time.monotonic()))
    assert await _worker_docs(snapshot) == (set(), {"api-doc"}, 1)  # a process-local snapshot: stale


def test_the_setting_reaches_the_index_and_defaults_to_one_second(tmp_path: Path) -> None:
    from retrieval.search import build_retriever
    from store.config import Settings

    assert Settings().retrieval.index_read_consistency_seconds == 1.0
    retriever = build_retriever(Settings(data_dir=tmp_path, index_read_consistency_seconds=0.25))
    assert isinstance(retriever.index, LanceIndex)
    assert retriever.index._consistency is not None and retriever.index._consistency.total_seconds() == 0.25
    with pytest.raises(ConfigError, match="DOCCHAT_INDEX_READ_CONSISTENCY_SECONDS"):
        Settings(index_read_consistency_seconds=-1.0)


def test_a_negative_interval_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        LanceIndex(tmp_path, DIM, read_consistency_seconds=-1)
