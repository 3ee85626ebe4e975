"""Search cost against the number of projects (issue 13 item 9): ``python -m bench.project_fanout``.

A user with ``--projects`` empty projects (default 200) and one project holding a document (60 chunks) asks a
short question and an 18,000-character one. Each question goes through ``search_documents`` the way the agent
runs it (``chat.core.agent_tools.ToolRunner``) on the embedded backend (LanceDB + the packaged local embedder):

* **before** — the code before this change: one query embedding and one index search per project
  (``asyncio.gather`` over the projects), the whole question searched;
* **after** — one embedding and one index query over the project-id set, the query cut to
  ``query_max_chars`` (default 1000).

Prints wall and CPU seconds per question (median of ``--repeats``) and the hits (the same document is found
either way). Nothing is downloaded: the embedder ships with the package.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from chat.core.agent_tools import RefBook, ToolRunner, ToolScope
from retrieval.search import Retriever, build_retriever
from retrieval.types import Chunk, Hit, SearchFilter
from store.config import Settings

SHORT = "How much did quarterly revenue grow, and what drove the growth?"
SENTENCES = [
    "Quarterly revenue grew by {n} percent thanks to cloud services and new enterprise contracts.",
    "Capital expenditure was {n} million dollars for property, plant and equipment.",
    "Operating margin improved to {n} percent as logistics costs fell.",
    "The board approved a dividend of {n} cents per share and a share buyback.",
]


def long_question(chars: int = 18_000) -> str:
    filler = "Please consider every segment, region and product line in the annual report when answering. "
    return (SHORT + " " + filler * (chars // len(filler) + 1))[:chars]


def corpus(project_id: str, n: int = 60) -> list[Chunk]:
    return [
        Chunk(chunk_id=f"doc1:{i:05d}", project_id=project_id, document_id="doc1", file_name="annual-report.pdf",
              text=" ".join(s.format(n=i + j) for j, s in enumerate(SENTENCES)), page_start=1 + i // 4,
              page_end=1 + i // 4, chunk_index=i)
        for i in range(n)
    ]


class Before:
    """The search as it was: one embedding and one index query per project, results merged by score."""

    def __init__(self, retriever: Retriever, k: int = 8) -> None:
        self.retriever = retriever
        self.k = k

    async def search(self, query: str, projects: tuple[str, ...]) -> list[Hit]:
        per_project = await asyncio.gather(
            *(self.retriever.search(query, SearchFilter(project_id=p), k=self.k) for p in projects)
        )
        return sorted((h for hs in per_project for h in hs), key=lambda h: -float(h.score))[: self.k]


async def _time(fn: Any, repeats: int) -> tuple[float, float, Any]:
    walls, cpus, out = [], [], None
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        out = await fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), out


async def run(projects: int, repeats: int, data_dir: Path) -> dict[str, Any]:
    settings = Settings(data_dir=data_dir)
    with_data = "project-with-data"
    ids = tuple([f"empty-{i:03d}" for i in range(projects)] + [with_data])
    after = build_retriever(settings)
    uncapped = Retriever(after.embedder, after.index, after.lexicon, query_max_chars=100_000)
    await after.start()
    await after.index_chunks(corpus(with_data))
    old = Before(uncapped)
    tools = ToolRunner(retriever=after, ingest=None, search_k=8)
    scope = ToolScope("alice", ids)
    await tools._search_documents(RefBook(), scope, SHORT, None)  # warm up (model load, table open)
    rows: list[dict[str, Any]] = []
    for label, question in ((f"short ({len(SHORT)} chars)", SHORT), ("long (18,000 chars)", long_question())):
        reps = repeats if len(question) < 1000 else max(1, repeats // 3)
        bw, bc, bhits = await _time(lambda q=question: old.search(q, ids), reps)
        aw, ac, (text, n) = await _time(lambda q=question: tools._search_documents(RefBook(), scope, q, None), reps)
        rows.append({"question": label, "projects": len(ids), "before_wall_s": round(bw, 3),
                     "before_cpu_s": round(bc, 3), "after_wall_s": round(aw, 3), "after_cpu_s": round(ac, 3),
                     "speedup_wall": round(bw / aw, 1) if aw else None,
                     "same_top_hit": bool(bhits) and bhits[0].chunk_id in text, "hits_after": n})
    await after.close()
    return {"embedder": after.embedder.model_id, "repeats": repeats, "rows": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--projects", type=int, default=200, help="empty projects besides the one with data")
    ap.add_argument("--repeats", type=int, default=3, help="runs per measurement (median; long: a third)")
    ap.add_argument("--dir", type=Path, default=None, help="data dir (default: a temporary one)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="docchat-fanout-") as tmp:
        result = asyncio.run(run(args.projects, args.repeats, args.dir or Path(tmp)))
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"embedder: {result['embedder']}; median of {result['repeats']} (long question: a third of that)")
    print(f"{'question':<22} {'projects':>8} {'before wall':>12} {'before cpu':>11} {'after wall':>11} "
          f"{'after cpu':>10} {'speed-up':>9} {'same top hit':>13}")
    for r in result["rows"]:
        print(f"{r['question']:<22} {r['projects']:>8} {r['before_wall_s']:>11.3f}s {r['before_cpu_s']:>10.3f}s "
              f"{r['after_wall_s']:>10.3f}s {r['after_cpu_s']:>9.3f}s {r['speedup_wall']:>8}x "
              f"{r['same_top_hit']!s:>13}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
