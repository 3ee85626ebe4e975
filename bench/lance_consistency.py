"""What seeing other processes' writes costs a LanceIndex search (``DOCCHAT_INDEX_READ_CONSISTENCY_SECONDS``).

    python -m bench.lance_consistency [--chunks 20000] [--queries 200] [--dir DIR]

One table of synthetic chunks (``bench.retrieval.synthetic_corpus``), searched in hybrid mode by indices that
differ only in how they notice a newer table version:

* ``none``  — ``read_consistency_interval=None``: never (the old behaviour; stale across processes);
* ``0s``    — check on every read (strong consistency);
* ``1s``    — check when a read comes more than 1 s after the last check (the default);
* ``mtime`` — a hand-rolled version check: stat the table's ``_versions`` directory before each search and
  ``checkout_latest()`` when it changed (local disks only).

Each variant is measured idle, and while another process upserts 10 chunks every 200 ms (a worker indexing).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from bench.retrieval import DIM, _pct, synthetic_corpus
from retrieval.lance_index import TABLE, LanceIndex
from retrieval.types import SearchFilter

VARIANTS: dict[str, float | None] = {"none": None, "0s": 0.0, "1s": 1.0, "mtime": None}


def _writer(path: str, stop: Any, seed: int) -> None:
    chunks, vecs = synthetic_corpus(2000, seed=seed)
    index = LanceIndex(Path(path), DIM, ann_min_rows=10**9)
    i = 0
    while not stop.is_set():
        part = [replace(c, chunk_id=f"w{i}:{c.chunk_id}") for c in chunks[i % 190 * 10 :][:10]]
        asyncio.run(index.upsert(part, vecs[i % 190 * 10 :][:10].tolist()))
        i += 1
        time.sleep(0.2)


class _MtimeIndex(LanceIndex):
    """Re-reads the latest version when the ``_versions`` directory changed (the alternative to the setting)."""

    def search_sync(self, text: str, vector: Any, flt: SearchFilter, k: int, mode: Any) -> Any:
        mark = (self._path / f"{TABLE}.lance" / "_versions").stat().st_mtime_ns
        if mark != getattr(self, "_mark", None):
            self._mark = mark
            self._table().checkout_latest()
        return super().search_sync(text, vector, flt, k, mode)


def _measure(indices: dict[str, LanceIndex], queries: list[tuple[str, list[float]]]) -> dict[str, Any]:
    """Each query on every index, rotating the order, so a growing table weighs on all variants alike."""
    flt = SearchFilter("bench")
    names = list(indices)
    lat: dict[str, list[float]] = {n: [] for n in names}
    for qi, (text, vec) in enumerate(queries):
        for name in names[qi % len(names) :] + names[: qi % len(names)]:
            s = time.perf_counter()
            indices[name].search_sync(text, vec, flt, 10, "hybrid")
            lat[name].append((time.perf_counter() - s) * 1000)
    return {
        n: {"p50_ms": round(_pct(v, 50), 2), "p95_ms": round(_pct(v, 95), 2), "mean_ms": round(float(np.mean(v)), 2)}
        for n, v in lat.items()
    }


def run(n: int, queries: int, root: Path) -> dict[str, Any]:
    chunks, vecs = synthetic_corpus(n)
    path = root / "lance"
    shutil.rmtree(path, ignore_errors=True)
    loader = LanceIndex(path, DIM, ann_min_rows=10**9)

    async def load() -> None:
        await loader.ensure()
        for s in range(0, n, 10_000):
            await loader.upsert(chunks[s : s + 10_000], vecs[s : s + 10_000].tolist())
        await loader.optimize()

    asyncio.run(load())
    rng = np.random.default_rng(3)
    picks = rng.integers(0, n, queries)
    qs = [(" ".join(chunks[p].text.split()[10:14]), vecs[p].tolist()) for p in picks]
    out: dict[str, Any] = {"chunks": n, "queries": queries}
    for scenario in ("idle", "writer"):
        stop = mp.get_context("spawn").Event()
        proc = None
        if scenario == "writer":
            proc = mp.get_context("spawn").Process(target=_writer, args=(str(path), stop, 5))
            proc.start()
            time.sleep(5.0)  # the writer is importing and writing
        indices: dict[str, LanceIndex] = {}
        for name, interval in VARIANTS.items():
            cls = _MtimeIndex if name == "mtime" else LanceIndex
            indices[name] = cls(path, DIM, ann_min_rows=10**9, read_consistency_seconds=interval)
            indices[name]._ensure()
            _measure({name: indices[name]}, qs[:20])  # warm caches
        res: dict[str, Any] = _measure(indices, qs)  # interleaved: each query on every variant in turn
        if proc is not None:
            stop.set()
            proc.join(30)
            res["writer_exit_code"] = proc.exitcode
        out[scenario] = res
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chunks", type=int, default=20_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "docchat-bench-rci")
    args = ap.parse_args()
    print(json.dumps(run(args.chunks, args.queries, args.dir), indent=2))


if __name__ == "__main__":
    main()
