"""``docchat eval retrieval``: recall@1/5/10 and MRR for keyword, vector and hybrid search.

The corpus is indexed into a fresh ``LanceIndex`` (under ``<data_dir>/eval/<dataset>``) with the
configured embedder; embeddings are cached in ``<data_dir>/eval/embeddings.sqlite`` so a second run only
pays for searching. A query's rank is the rank of the first hit whose (document, page) is a target;
hits are de-duplicated by (document, page) first, so several chunks of one page count once.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from retrieval.embed_cache import EmbeddingCache
from retrieval.eval_args import MODES
from retrieval.evaldata import EvalSet, Query, load_financebench, load_korquad
from retrieval.lance_index import LanceIndex
from retrieval.query_expansion import Lexicon, expand_query, load_lexicon
from retrieval.types import Chunk, Embedder, Hit, SearchFilter, SearchMode
from store.config import Settings
from store.errors import InvalidInput
from store.logging import get_logger

log = get_logger(__name__)

CUTOFFS = (1, 5, 10)


@dataclass(slots=True)
class ModeResult:
    ranks: list[int | None] = field(default_factory=list)  # 1-based rank of the first relevant unit
    seconds: float = 0.0

    def metrics(self) -> dict[str, float]:
        n = max(len(self.ranks), 1)
        out = {f"recall@{c}": sum(1 for r in self.ranks if r is not None and r <= c) / n for c in CUTOFFS}
        out["mrr"] = sum(1.0 / r for r in self.ranks if r is not None) / n
        out["queries"] = float(len(self.ranks))
        out["ms_per_query"] = 1000.0 * self.seconds / n
        return out


def first_relevant_rank(hits: Sequence[Hit], targets: frozenset[tuple[str, int]], k: int = 10) -> int | None:
    """Rank (1-based, after page de-duplication) of the first hit on a target page, within ``k``."""
    seen: set[tuple[str, int]] = set()
    rank = 0
    for h in hits:
        pages = {(h.document_id, p) for p in range(h.page_start, h.page_end + 1)}
        if pages <= seen:
            continue
        seen |= pages
        rank += 1
        if rank > k:
            return None
        if pages & targets:
            return rank
    return None


def _bar(label: str) -> Callable[[int, int], None]:
    state = {"last": 0.0}

    def tick(done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - state["last"] > 0.5:
            state["last"] = now
            width = 30
            fill = int(width * done / max(total, 1))
            sys.stderr.write(f"\r{label:<22} [{'#' * fill}{'.' * (width - fill)}] {done}/{total}")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    return tick


async def evaluate(
    evalset: EvalSet,
    embedder: Embedder,
    work_dir: Path,
    *,
    modes: Sequence[SearchMode] = MODES,
    scope: str = "document",
    cache: EmbeddingCache | None = None,
    show_progress: bool = False,
    vector_chars: int | None = None,
    fusion: str = "min_max",
    keyword_weight: float = 0.7,
    lexicon: Lexicon = (),
    expansion: str = "none",
) -> dict[str, Any]:
    """Index ``evalset`` and run every query in every mode. Returns ``{mode: metrics, "meta": …}``.

    Queries are expanded with ``lexicon`` exactly as ``Retriever.search`` does (keyword text and vector).
    """
    t0 = time.perf_counter()
    quiet: Callable[[int, int], None] | None = None
    texts = [u.text[:vector_chars] if vector_chars else u.text for u in evalset.units]
    need_vectors = any(m != "keyword" for m in modes)
    if not need_vectors:  # keyword-only: no embedding at all (vectors are placeholders, never searched)
        pvec = np.zeros((len(texts), embedder.dimension), dtype=np.float32)
        pvec[:, 0] = 1.0
    elif cache is not None:
        pvec = cache.embed(embedder, "passage", texts, progress=_bar("embedding passages") if show_progress else quiet)
    else:
        pvec = np.asarray(embedder.embed_passages(texts), dtype=np.float32)
    t_embed = time.perf_counter() - t0

    shutil.rmtree(work_dir, ignore_errors=True)
    index = LanceIndex(work_dir, embedder.dimension, ann_min_rows=10**9, fusion=fusion, keyword_weight=keyword_weight)
    await index.ensure()
    t1 = time.perf_counter()
    for start in range(0, len(evalset.units), 2000):
        await index.upsert(evalset.units[start : start + 2000], pvec[start : start + 2000].tolist())
    await index.optimize()
    t_index = time.perf_counter() - t1

    qtexts = [expand_query(q.text, lexicon) for q in evalset.queries]
    t2 = time.perf_counter()
    if not need_vectors:
        qvec = np.zeros((len(qtexts), embedder.dimension), dtype=np.float32)
    elif cache is not None:
        qvec = cache.embed(embedder, "query", qtexts, progress=_bar("embedding queries") if show_progress else quiet)
    else:
        qvec = np.asarray([embedder.embed_query(t) for t in qtexts], dtype=np.float32)
    t_qembed = time.perf_counter() - t2

    results = {m: ModeResult() for m in modes}
    tick = _bar("searching") if show_progress else None
    for i, (q, qtext, v) in enumerate(zip(evalset.queries, qtexts, qvec, strict=True)):
        flt = _filter(evalset, q, scope)
        for m in modes:
            s = time.perf_counter()
            hits = index.search_sync(qtext, v.tolist(), flt, 30, m)
            results[m].seconds += time.perf_counter() - s
            results[m].ranks.append(first_relevant_rank(hits, q.targets))
        if tick is not None:
            tick(i + 1, len(evalset.queries))
    await index.close()
    out: dict[str, Any] = {m: results[m].metrics() for m in modes}
    out["meta"] = {
        "dataset": evalset.name,
        "units": len(evalset.units),
        "queries": len(evalset.queries),
        "scope": scope,
        "vector_chars": vector_chars or "all",
        "fusion": f"{fusion} (keyword weight {keyword_weight})",
        "expansion": expansion,
        "embedder": embedder.model_id,
        "embed_passages_s": round(t_embed, 2),
        "index_s": round(t_index, 2),
        "embed_queries_s": round(t_qembed, 2),
        "total_s": round(time.perf_counter() - t0, 2),
        **{k: v for k, v in evalset.notes.items() if isinstance(v, int | float | str)},
    }
    return out


#: FinanceBench pages are embedded by their first ~512 tokens (e5-small's window; filing text runs ~440 tokens
#: per 2,000 characters): a page's heading and first lines say what it is about, and averaging the 2-3 windows
#: of a whole page blurs that (vector R@5 0.575 vs 0.487, hybrid 0.812 vs 0.825 with R@1/R@10/MRR all higher)
#: at a third of the embedding time. Keyword search always sees the whole page.
FINANCEBENCH_VECTOR_CHARS = 1900


def _vector_chars(args: argparse.Namespace) -> int | None:
    if args.vector_chars is not None:
        return int(args.vector_chars) if args.vector_chars > 0 else None
    if getattr(args, "units", "pages") == "chunks":
        return None  # chunks fit the model's window already
    return FINANCEBENCH_VECTOR_CHARS if args.dataset == "financebench" else None


def _filter(evalset: EvalSet, q: Query, scope: str) -> SearchFilter:
    if scope == "document":
        return SearchFilter(evalset.project_id, (q.document_id,))
    return SearchFilter(evalset.project_id)


def format_table(result: dict[str, Any]) -> str:
    meta = result["meta"]
    lines = [
        f"{meta['dataset']}: {meta['queries']} queries over {meta['units']} {meta.get('unit_kind', 'unit')}s "
        f"(scope: {meta['scope']}, "
        f"embedder: {meta['embedder']}, embedded text: {meta['vector_chars']} chars per unit, "
        f"fusion: {meta['fusion']}, query expansion: {meta.get('expansion', 'none')})",
        f"{'mode':<8} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6} {'ms/q':>7}",
    ]
    for m in MODES:
        if m in result:
            r = result[m]
            lines.append(
                f"{m:<8} {r['recall@1']:>6.3f} {r['recall@5']:>6.3f} {r['recall@10']:>6.3f} {r['mrr']:>6.3f} "
                f"{r['ms_per_query']:>7.1f}"
            )
    lines.append(
        f"time: embed passages {meta['embed_passages_s']}s, index {meta['index_s']}s, "
        f"embed queries {meta['embed_queries_s']}s, total {meta['total_s']}s"
    )
    return "\n".join(lines)


#: ``(segments, project_id, document_id, file_name) -> chunks`` — the ingest chunker, passed in by the CLI
#: (retrieval never imports ingest)
Chunker = Callable[[list[dict[str, Any]], str, str, str], list[Chunk]]


def as_chunks(evalset: EvalSet, chunker: Chunker) -> EvalSet:
    """The same corpus cut the way ingest cuts documents (pages → overlapping chunks), for ``--units chunks``:
    what chat's ``search_documents`` actually searches. A hit counts for every page its chunk spans."""
    by_doc: dict[str, list[Chunk]] = {}
    for unit in evalset.units:
        by_doc.setdefault(unit.document_id, []).append(unit)
    units: list[Chunk] = []
    for doc, pages in by_doc.items():
        segments = [{"page": u.page_start, "text": u.text} for u in pages]
        units += chunker(segments, evalset.project_id, doc, pages[0].file_name)
    return replace(evalset, units=units, notes={**evalset.notes, "unit_kind": "chunk"})


def run(args: argparse.Namespace, settings: Settings, *, chunker: Chunker | None = None) -> int:
    from retrieval.embeddings import build_embedder

    show = not args.json and sys.stderr.isatty()
    if args.dataset == "korquad":
        evalset = load_korquad(args.data, limit=args.limit, max_articles=args.max_articles)
    else:
        evalset = load_financebench(args.data, limit=args.limit, progress=_bar("reading PDFs") if show else None)
    if getattr(args, "units", "pages") == "chunks":
        if chunker is None:
            raise InvalidInput("--units chunks needs the ingest chunker (run it through `docchat eval retrieval`)")
        evalset = as_chunks(evalset, chunker)
    scope = args.scope or ("document" if args.dataset == "financebench" else "project")
    modes: Sequence[SearchMode] = MODES if args.mode == "all" else (args.mode,)
    embedder = build_embedder(settings)
    eval_dir = settings.server.data_dir / "eval"
    expansion = settings.retrieval.query_expansion if args.expansion is None else args.expansion
    cache = None if args.no_cache else EmbeddingCache(eval_dir / "embeddings.sqlite")
    try:
        result = asyncio.run(
            evaluate(
                evalset,
                embedder,
                eval_dir / args.dataset,
                modes=modes,
                scope=scope,
                cache=cache,
                show_progress=show,
                vector_chars=_vector_chars(args),
                fusion=args.fusion or settings.retrieval.hybrid_fusion,
                keyword_weight=(settings.retrieval.hybrid_keyword_weight
                                if args.keyword_weight is None else args.keyword_weight),
                lexicon=load_lexicon(expansion,
                                     settings.retrieval.query_lexicon_file if args.expansion is None else None),
                expansion=expansion,
            )
        )
    finally:
        if cache is not None:
            cache.close()
    if args.json:
        print(json.dumps(result))
    else:
        print(format_table(result))
    return 0
