"""Does search find a statement question's page? ``python -m bench.statement_search --data-dir D [--show]``

Over an eval data dir that ``docchat eval answers --dataset sec10q`` (or ``bench.reader_statements capture``)
ingested, each question of the set is searched in its own project (k = 8, hybrid, embedded defaults) as the
local model searches it (``chat.models.local.search_queries``), and as the bare question; the share of questions
with a hit on the gold page is printed for both. For a development set only (``--show`` prints the misses).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from chat.evaluation.catalog import load
from chat.models.reader.queries import search_queries
from retrieval.search import build_retriever
from retrieval.types import SearchFilter
from store.config import Settings


async def _run(args: argparse.Namespace) -> int:
    settings = Settings().with_overrides(data_dir=Path(args.data_dir))
    dataset = load(args.dataset, args.data)
    retriever = build_retriever(settings)
    table = retriever.index._table()  # type: ignore[attr-defined]
    rows = table.search().select(["project_id", "file_name"]).limit(1_000_000).to_list()
    project_of = {r["file_name"]: r["project_id"] for r in rows}
    file_of = {d.key: d.file_name for d in dataset.documents}
    found = {"question": 0, "local": 0}
    for q in dataset.questions:
        gold = {(file_of[d], p) for d, p in q.pages}
        project = project_of.get(file_of[q.document])
        if project is None:
            continue
        flt = SearchFilter(project_id=project)
        for how, queries in (("question", [q.text]), ("local", search_queries(q.text))):
            pages: set[tuple[str, int]] = set()
            for query in queries:
                for hit in await retriever.search(query, flt, k=8):
                    pages.update((hit.file_name, p) for p in range(hit.page_start, hit.page_end + 1))
            ok = bool(gold & pages)
            found[how] += ok
            if args.show and not ok:
                print(f"MISS {how} {q.qid} gold={sorted(gold)} queries={queries} got={sorted(pages)}")
    n = max(len(dataset.questions), 1)
    print(f"{len(dataset.questions)} questions: gold page found by the bare question {found['question'] / n:.0%}, "
          f"by the local model's searches {found['local'] / n:.0%}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.statement_search", description=__doc__.split("\n")[0])
    p.add_argument("--dataset", default="sec10q")
    p.add_argument("--data-dir", required=True)
    p.add_argument("--data", type=Path, default=None)
    p.add_argument("--show", action="store_true")
    return asyncio.run(_run(p.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
