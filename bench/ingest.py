"""Ingest benchmarks — print numbers, assert nothing.

    python -m bench.ingest text --pages 200      # pages/s, text-layer PDF, upload → indexed (target ≥ 20)
    python -m bench.ingest text --pages 1000 --no-index   # the pipeline alone (no embedding)
    python -m bench.ingest scanned --pages 3     # s/page for image-only (OCR) pages
    python -m bench.ingest memory --pages 1000   # peak RSS for a 1,000-page PDF vs a 100-page one (flat?)
                                                 # (6 text lines per page by default, to bound embedding time)

Each run uses a fresh data directory with the embedded adapters (SQLite item table and queue, file blobs,
LanceDB + the local embedder) and the real service path: ``accept_upload`` (sniff, sandboxed inspect, blob
put, one-transaction workflow, enqueue) then a worker until the workflow is completed.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from ingest.filetypes import SNIFF_BYTES
from ingest.sample_docs import write_scanned_pdf, write_text_pdf
from ingest.upload import ReceivedFile
from store.config import Settings


def _received(path: Path, tmp: Path) -> ReceivedFile:
    copy = tmp / f"upload-{path.name}"
    h = hashlib.sha256()
    with path.open("rb") as src, copy.open("wb") as dst:
        while chunk := src.read(1 << 20):
            h.update(chunk)
            dst.write(chunk)
    return ReceivedFile(copy, path.name, copy.stat().st_size, h.hexdigest(), path.read_bytes()[:SNIFF_BYTES])


def _span(a: str | None, b: str | None) -> float:
    if not a or not b:
        return 0.0
    t0 = datetime.fromisoformat(a.replace("Z", "+00:00"))
    t1 = datetime.fromisoformat(b.replace("Z", "+00:00"))
    return (t1 - t0).total_seconds()


def _step_seconds(view: dict[str, Any]) -> dict[str, float]:
    out = {}
    for name, st in view["steps"].items():
        if st.get("started_at") and st.get("ended_at") and st.get("status") == "completed":
            t0 = datetime.fromisoformat(st["started_at"].replace("Z", "+00:00"))
            t1 = datetime.fromisoformat(st["ended_at"].replace("Z", "+00:00"))
            out[name] = round((t1 - t0).total_seconds(), 2)
    return out


class _NoIndex:
    """Stands in for the retriever to measure the pipeline alone (``--no-index``)."""

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def index_keywords(self, chunks: Any) -> None: ...

    async def index_chunks(self, chunks: Any, progress: Any = None) -> None: ...

    async def delete_document(self, project_id: str, document_id: str) -> None: ...


async def run_document(received: ReceivedFile, data_dir: Path, *, index: bool = True) -> dict[str, Any]:
    from ingest.build import build_ingest
    from ingest.worker import Worker
    from retrieval.search import build_retriever
    from store import open_blob_store, open_item_table

    settings = Settings.from_env(data_dir=data_dir, backend="local")
    retriever: Any = build_retriever(settings) if index else _NoIndex()
    await retriever.start()
    ingest = build_ingest(settings, items=open_item_table(settings, "workflows"),
                          blobs=open_blob_store(settings, "documents"), index=retriever)
    # warm the embedder so model loading is not counted as ingest time
    if index:
        await asyncio.to_thread(retriever.embedder.embed_passages, ["warm up"])
    project = await ingest.uploads.create_project("bench", "bench")
    t0 = time.perf_counter()
    result = await ingest.uploads.accept_upload("bench", project["project_id"], received)
    upload_s = time.perf_counter() - t0
    worker = Worker(store=ingest.store, queue=ingest.queue, pipeline=ingest.pipeline, settings=settings)
    outcome = await worker.run_once(wait_seconds=5)
    elapsed = time.perf_counter() - t0
    view = await ingest.documents.workflow_status("bench", result.workflow_id)
    await ingest.close()
    await retriever.close()
    steps = view["steps"]
    to_segments = upload_s + _span(steps["segment_prep"].get("started_at"), steps["segment_builder"].get("ended_at"))
    indexing = _span(steps["indexing"].get("started_at"), steps["indexing"].get("ended_at"))
    chunks = steps["indexing"].get("total") or 0
    return {"outcome": outcome, "status": view["status"], "pages": view["page_count"], "seconds": round(elapsed, 2),
            "upload_s": round(upload_s, 2), "pages_per_s_to_segments": round(view["page_count"] / to_segments, 1),
            "chunks_per_s_indexing": round(chunks / indexing, 2) if indexing else None,
            "chunks": view["steps"]["indexing"].get("total"), "steps": _step_seconds(view), "error": view.get("error")}


def _data_dir(tmp: str) -> Path:
    path = Path(tmp) / "data"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _peak() -> dict[str, float]:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    self_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"peak_rss_mb": round(self_mb, 1), "peak_child_rss_mb": round(child_mb, 1), "cpu_s": round(cpu, 1)}


def cmd_text(pages: int, *, label: str = "text", lines: int = 40, index: bool = True) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="docchat-bench-") as tmp:
        pdf = write_text_pdf(Path(tmp) / f"text-{pages}.pdf", pages, lines=lines)
        res = asyncio.run(run_document(_received(pdf, Path(tmp)), _data_dir(tmp), index=index))
    res["indexed"] = index
    res["pages_per_s"] = round(res["pages"] / res["seconds"], 1) if res["seconds"] else None
    return {"bench": label, **res, **_peak()}


def cmd_files(paths: list[Path], *, index: bool = True) -> list[dict[str, Any]]:
    """Real documents, one fresh data directory each: pages/s to indexed and the chunks per page."""
    out = []
    for path in paths:
        with tempfile.TemporaryDirectory(prefix="docchat-bench-") as tmp:
            res = asyncio.run(run_document(_received(path, Path(tmp)), _data_dir(tmp), index=index))
        res["indexed"] = index
        res["pages_per_s"] = round(res["pages"] / res["seconds"], 1) if res["seconds"] else None
        res["chunks_per_page"] = round((res["chunks"] or 0) / max(1, res["pages"] or 0), 2)
        out.append({"bench": "file", "file": path.name, **res, **_peak()})
    return out


def cmd_scanned(pages: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="docchat-bench-") as tmp:
        pdf = write_scanned_pdf(Path(tmp) / f"scan-{pages}.pdf", pages)
        res = asyncio.run(run_document(_received(pdf, Path(tmp)), _data_dir(tmp)))
    res["s_per_page"] = round(res["seconds"] / max(1, res["pages"]), 2)
    return {"bench": "scanned", **res, **_peak()}


def cmd_memory(pages: int, lines: int, *, index: bool = True) -> list[dict[str, Any]]:
    """Each size in a fresh process so peak RSS is its own."""
    out = []
    for n in sorted({max(1, pages // 10), pages}):
        proc = subprocess.run([sys.executable, "-m", "bench.ingest", "_one", "--pages", str(n), "--lines", str(lines),
                               *([] if index else ["--no-index"])],
                              capture_output=True, text=True, check=False)
        rows = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        if proc.returncode != 0 or not rows:
            out.append({"bench": "memory", "pages": n, "error": proc.stderr[-800:]})
            continue
        out.append(json.loads(rows[-1]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ingest")
    parser.add_argument("what", choices=("text", "scanned", "memory", "file", "_one"))
    parser.add_argument("files", nargs="*", type=Path, help="file: the documents to ingest")
    parser.add_argument("--pages", type=int, default=None)
    parser.add_argument("--no-index", action="store_true", help="skip embedding/indexing (the pipeline alone)")
    parser.add_argument("--lines", type=int, default=None, help="text lines per page (default 40; memory: 6)")
    args = parser.parse_args(argv)
    from store.logging import configure_logging

    configure_logging("WARNING")
    if args.what == "text":
        results: Any = cmd_text(args.pages or 200, lines=args.lines or 40, index=not args.no_index)
    elif args.what == "_one":
        results = cmd_text(args.pages or 100, label="memory", lines=args.lines or 6, index=not args.no_index)
    elif args.what == "file":
        if not args.files:
            parser.error("file: name at least one document")
        results = cmd_files(args.files, index=not args.no_index)
    elif args.what == "scanned":
        results = cmd_scanned(args.pages or 3)
    else:
        results = cmd_memory(args.pages or 1000, args.lines or 6, index=not args.no_index)
    for r in results if isinstance(results, list) else [results]:
        print(json.dumps(r), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
