"""Ingest speed in one run (issue 18) — print numbers, assert nothing. Entry point: ``python -m ingest.bench``.

    python -m ingest.bench                       # the Apple 10-Q (46 pages) from ../shared/evaldata
    python -m ingest.bench path/to/a.pdf         # another PDF
    python -m ingest.bench --all DIR             # every PDF of DIR uploaded at once (upload → searchable, each)

One process, a fresh data directory, the embedded adapters and the real service path (``accept_upload`` then a
worker), exactly as ``docchat up`` runs them. Printed in one JSON line, so the ratios come from one run on
whatever load the machine has:

- ``raw_s``: pypdfium2 text extraction of every page + rendering every page at ``render_dpi`` (no PNG encode);
- ``to_segments_s``: upload → every segment written (``segment_builder`` ended);
- ``to_searchable_s``: upload → a keyword (BM25) search filtered to the document returns one of its chunks;
- ``to_first_answer_s``: upload → the embedded reader's answer (hybrid search, as chat runs it), asked every 0.3 s,
  cites the document;
- ``to_ready_s``: upload → the workflow is ``completed`` (every vector written);
- ``indexing_ratio``: chunks/s of the vector fill inside the pipeline (the warm, second upload) ÷ the embedder's own
  chunks/s on the same chunk texts (batches of ``EMBED_BATCH``), measured right after it in the same process;
- ``peak_rss_mb``: this process and its children (sandboxes);
- ``embedder_loaded_after_start_s``: the model loads in the background from ``Retriever.start``; the upload goes in
  right after start-up, as the first upload after ``docchat up`` would.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ingest.filetypes import SNIFF_BYTES
from ingest.upload import ReceivedFile
from store.config import Settings

DEFAULT_PDF = Path(__file__).resolve().parents[1] / ".." / "shared" / "evaldata" / "docugami_sec10q" / "docs"
DEFAULT_NAME = "2023 Q1 AAPL.pdf"
QUESTION = "What were Apple's total net sales for the three months ended December 31, 2022?"
POLL_S = 0.3


def _default_pdf() -> Path:
    for base in (DEFAULT_PDF, Path("/work/shared/evaldata/docugami_sec10q/docs")):
        if (base / DEFAULT_NAME).exists():
            return (base / DEFAULT_NAME).resolve()
    raise SystemExit(f"{DEFAULT_NAME} not found under ../shared/evaldata; name a PDF")


def raw_seconds(pdf: Path, dpi: int) -> dict[str, float]:
    """pypdfium2 alone: the text of every page, then every page rendered to a bitmap at ``dpi``."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        t0 = time.perf_counter()
        for page in doc:
            tp = page.get_textpage()
            tp.get_text_range()
            tp.close()
            page.close()
        text_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        for page in doc:
            page.render(scale=dpi / 72).close()
            page.close()
        render_s = time.perf_counter() - t0
        pages = len(doc)
    finally:
        doc.close()
    return {"pages": pages, "raw_text_s": round(text_s, 3), "raw_render_s": round(render_s, 3),
            "raw_s": round(text_s + render_s, 3)}


def received(path: Path, tmp: Path) -> ReceivedFile:
    copy = tmp / f"upload-{path.name}"
    h = hashlib.sha256()
    with path.open("rb") as src, copy.open("wb") as dst:
        while chunk := src.read(1 << 20):
            h.update(chunk)
            dst.write(chunk)
    return ReceivedFile(copy, path.name, copy.stat().st_size, h.hexdigest(), path.read_bytes()[:SNIFF_BYTES])


def _cites(hits: list[Any], document_id: str) -> bool:
    from chat.models.reader import Passage, read

    passages = [Passage(ref=f"S{i}", text=h.text, document_id=h.document_id, file_name=h.file_name,
                        page=h.page_start) for i, h in enumerate(hits, 1)]
    answer = read(QUESTION, passages)
    refs = {p.ref for p in passages if p.document_id == document_id}
    return not answer.declined and any(ref in refs for ref, _ in answer.quotes)


class _Watch:
    """Polls one document every ``POLL_S``: keyword hit, cited answer, segments, ready."""

    def __init__(self, parts: Any, retriever: Any, project_id: str, document_id: str, workflow_id: str,
                 t0: float) -> None:
        self.parts, self.retriever = parts, retriever
        self.project_id, self.document_id, self.workflow_id = project_id, document_id, workflow_id
        self.t0 = t0
        self.marks: dict[str, float] = {}

    def _mark(self, name: str) -> None:
        self.marks.setdefault(name, round(time.perf_counter() - self.t0, 2))

    async def run(self, *, answer: bool = True) -> dict[str, Any]:
        """Three pollers side by side (a search waiting on the model must not delay the status marks)."""
        from retrieval.types import SearchFilter

        flt = SearchFilter(self.project_id, document_ids=(self.document_id,))
        pflt = SearchFilter(self.project_id)
        done = asyncio.Event()

        async def keyword() -> None:
            while not done.is_set() and "to_searchable_s" not in self.marks:
                if await self.retriever.index.search(QUESTION, None, flt, k=1, mode="keyword"):
                    self._mark("to_searchable_s")
                await asyncio.sleep(POLL_S)

        async def ask() -> None:
            while answer and not done.is_set() and "to_first_answer_s" not in self.marks:
                hits = await self.retriever.search(QUESTION, pflt, k=8)
                if hits and _cites(hits, self.document_id):
                    self._mark("to_first_answer_s")
                await asyncio.sleep(POLL_S)

        async def status() -> dict[str, Any]:
            while True:
                view = await self.parts.documents.workflow_status("bench", self.workflow_id)
                if view["steps"]["segment_builder"]["status"] == "completed":
                    self._mark("to_segments_s")
                if view["status"] in ("completed", "failed"):
                    self._mark("to_ready_s")
                    return view
                await asyncio.sleep(POLL_S)

        tasks = [asyncio.create_task(keyword()), asyncio.create_task(ask())]
        view = await status()
        if view["status"] == "completed":  # ready: both must find it now; give them a last round
            await asyncio.sleep(2 * POLL_S)
        done.set()
        await asyncio.gather(*tasks)
        return {**self.marks, "status": view["status"], "steps": view["steps"]}


def _step_span(step: dict[str, Any]) -> float:
    from datetime import datetime

    if not step.get("started_at") or not step.get("ended_at"):
        return 0.0
    t0 = datetime.fromisoformat(step["started_at"].replace("Z", "+00:00"))
    t1 = datetime.fromisoformat(step["ended_at"].replace("Z", "+00:00"))
    return (t1 - t0).total_seconds()


async def run_bench(pdfs: list[Path], data_dir: Path, tmp: Path) -> dict[str, Any]:
    from ingest.build import build_ingest
    from retrieval.search import EMBED_BATCH, build_retriever
    from store import open_blob_store, open_item_table

    settings = Settings.from_env(data_dir=data_dir, backend="local")
    t_load = time.perf_counter()
    retriever = build_retriever(settings)
    await retriever.start()  # the model loads in the background: the upload below does not wait for it
    warm = asyncio.ensure_future(retriever.warmed())
    warm.add_done_callback(lambda _: marks_load.append(time.perf_counter() - t_load))
    marks_load: list[float] = []
    parts = build_ingest(settings, items=open_item_table(settings, "workflows"),
                         blobs=open_blob_store(settings, "documents"), index=retriever)
    runner = parts.runner(reserve_high=False, wait_seconds=0.2)
    await runner.start()
    out: dict[str, Any] = {"embedder": retriever.embedder.model_id}
    # one PDF: uploaded right after start-up, then once more (another project) with everything warm
    rounds = ("", "second_") if len(pdfs) == 1 else ("",)
    for prefix in rounds:
        project = await parts.uploads.create_project("bench", f"bench{prefix}")
        t0 = time.perf_counter()
        watches = []
        for pdf in pdfs:
            res = await parts.uploads.accept_upload("bench", project["project_id"], received(pdf, tmp))
            watches.append(_Watch(parts, retriever, project["project_id"], res.document_id, res.workflow_id, t0))
        marks = await asyncio.gather(*(w.run(answer=len(pdfs) == 1) for w in watches))
        if len(pdfs) > 1:
            ready = [m.get("to_ready_s", 0.0) for m in marks]
            searchable = [m.get("to_searchable_s", 0.0) for m in marks]
            out.update({"documents": len(pdfs), "to_all_searchable_s": max(searchable), "to_all_ready_s": max(ready),
                        "to_first_searchable_s": min(searchable),
                        "failed": sum(1 for m in marks if m.get("status") != "completed")})
            continue
        m = dict(marks[0])
        steps = m.pop("steps")
        out.update({prefix + k: v for k, v in m.items()})
        out[prefix + "step_s"] = {k: round(_step_span(v), 2) for k, v in steps.items()  # type: ignore[attr-defined]
                                  if v.get("status") == "completed"}
        await warm
        out["embedder_loaded_after_start_s"] = round(marks_load[0], 2) if marks_load else None
        if rounds[-1] != prefix:
            continue  # the ratio is taken on the warm round: the first one's vector fill waits for the model
        fill = steps.get("indexing") or {}  # type: ignore[attr-defined]
        n = int(fill.get("total") or 0)
        texts = await _chunk_texts(retriever, project["project_id"], watches[0].document_id)
        t = time.perf_counter()
        for i in range(0, len(texts), EMBED_BATCH):
            await asyncio.to_thread(retriever.embedder.embed_passages, texts[i:i + EMBED_BATCH])
        alone = len(texts) / max(1e-9, time.perf_counter() - t)
        inside = n / max(1e-9, _step_span(fill))
        out.update({"chunks": n, "pipeline_chunks_per_s": round(inside, 2), "embedder_chunks_per_s": round(alone, 2),
                    "indexing_ratio": round(inside / alone, 3) if alone else None})
    await runner.stop()
    await warm
    await parts.close()
    await retriever.close()
    return out


async def _chunk_texts(retriever: Any, project_id: str, document_id: str) -> list[str]:
    """The document's chunk texts as indexed (LanceDB: a filtered scan of the table)."""
    from retrieval.lance_index import filter_sql
    from retrieval.types import SearchFilter

    where = filter_sql(SearchFilter(project_id, document_ids=(document_id,)))
    tbl = retriever.index._table()
    rows = await asyncio.to_thread(lambda: tbl.search().where(where).select(["text"]).limit(100_000).to_list())
    return [r["text"] for r in rows]


def _peak() -> dict[str, float]:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"peak_rss_mb": round(me.ru_maxrss / 1024, 1), "peak_child_rss_mb": round(kids.ru_maxrss / 1024, 1),
            "cpu_s": round(me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ingest.bench")
    parser.add_argument("pdf", nargs="?", type=Path, help=f"the PDF (default: evaldata's {DEFAULT_NAME!r})")
    parser.add_argument("--all", type=Path, metavar="DIR", help="upload every PDF of DIR at once")
    args = parser.parse_args(argv)
    from store.logging import configure_logging

    configure_logging("WARNING")
    pdfs = sorted(args.all.glob("*.pdf")) if args.all else [args.pdf or _default_pdf()]
    dpi = Settings.from_env().ingest.render_dpi
    raw = {"pages": 0, "raw_text_s": 0.0, "raw_render_s": 0.0, "raw_s": 0.0}
    for pdf in pdfs:
        for k, v in raw_seconds(pdf, dpi).items():
            raw[k] = round(raw[k] + v, 3)
    with tempfile.TemporaryDirectory(prefix="docchat-speed-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        res = asyncio.run(run_bench(pdfs, data, Path(tmp)))
    out: dict[str, Any] = {"bench": "ingest_speed", "file": pdfs[0].name if len(pdfs) == 1 else str(args.all),
                           **raw, **res}
    for key in ("to_segments_s", "to_searchable_s", "to_first_answer_s", "to_ready_s", "to_all_searchable_s",
                "second_to_searchable_s", "second_to_first_answer_s"):
        if out.get(key):
            out[key.replace("to_", "x_raw_", 1).removesuffix("_s")] = round(out[key] / raw["raw_s"], 2)
    out.update(_peak())
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
