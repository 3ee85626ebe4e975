"""Ingest speed in one run (issue 18) — print numbers, assert nothing. Entry point: ``python -m ingest.bench``.

    python -m ingest.bench                       # the Apple 10-Q (46 pages) from ../shared/evaldata
    python -m ingest.bench path/to/a.pdf         # another PDF
    python -m ingest.bench --all DIR             # every PDF of DIR uploaded at once (upload → searchable, each)
    python -m ingest.bench --restart             # as after a restart: the model file built before start-up

One process, a fresh data directory, the embedded adapters and the real service path (``accept_upload`` then a
worker), exactly as ``docchat up`` runs them. Printed in one JSON line, so the ratios come from one run on
whatever load the machine has:

- ``raw_s``: pypdfium2 text extraction of every page + rendering every page at ``render_dpi`` (no PNG encode);
  ``raw_cpu_s``: its CPU seconds;
- ``to_segments_s``: upload → every segment written (``segment_builder`` recorded ``completed``);
- ``to_searchable_s``: upload → a keyword (BM25) search filtered to the document returns one of its chunks;
- ``to_first_answer_s``: upload → the embedded reader's answer (hybrid search, as chat runs it) cites the document;
- ``to_ready_s``: upload → the workflow is ``completed`` (every vector written);
- ``cpu_to_*_s``: CPU seconds of this process and its sandboxes (finished and running) from the upload to that
  mark; ``x_raw_*`` = wall ÷ ``raw_s``, ``cpu_x_raw_*`` = CPU ÷ ``raw_cpu_s`` (on a shared, loaded machine the
  CPU ratios are the steadier ones);
- ``second_*``: the same upload again (another project) with everything warm; ``first_vs_second_searchable``;
- ``indexing_ratio``: chunks/s of the vector fill inside the pipeline (the warm, second upload) ÷ the embedder's own
  chunks/s on the same chunk texts (calls of ``EMBED_BATCH``, the pipeline's), measured right after it in the
  same process with the same session (same ONNX Runtime threads); ``indexing_ratio_cpu``: the same in CPU
  seconds per chunk (this process only);
- ``peak_rss_mb``: this process; ``peak_child_rss_mb``: the largest child (a child's figure counts the pages it
  shared with this process when it was forked, so it can read like the parent's);
- ``embedder_loaded_after_start_s`` / ``embedder_load_cpu_s``: the model loads in the background from
  ``Retriever.start`` (its file built in a niced thread on a fresh data directory); the upload goes in right after
  start-up, as the first upload after ``docchat up`` would.

No polling: the watches are woken by the pipeline's own writes (the index's ``upsert``/``upsert_text`` and the
workflow's step records, hooked on the instances built here), so a mark is taken when the write lands and the
probe costs a search per write, not one every 0.3 s (``asks`` counts them).
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
    c0 = time.process_time()
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
            "raw_s": round(text_s + render_s, 3), "raw_cpu_s": round(time.process_time() - c0, 3)}


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


def cpu_seconds(*, children: bool = True) -> float:
    """CPU seconds of this process (every thread) and, with ``children``, of its children (sandboxes): those reaped
    (``RUSAGE_CHILDREN``) and those still running (``/proc``: a rendering child runs for most of the upload)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    total = me.ru_utime + me.ru_stime
    if children:
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        total += kids.ru_utime + kids.ru_stime + _live_children_cpu()
    return total


def _live_children_cpu() -> float:
    """utime + stime of this process's running children, from ``/proc/<pid>/stat`` (0 where there is no /proc)."""
    import os

    me, tick, total = os.getpid(), os.sysconf("SC_CLK_TCK"), 0.0
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return 0.0
    for pid in entries:
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me:  # ppid; fields[11], [12]: utime, stime in clock ticks
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


class _Events:
    """What the pipeline writes, as it writes it (no polling): the index's writes and the workflow's step records.

    Installed on the instances the bench built (``retriever.index``, ``parts.store``); each write wakes the watches
    and, for the vector fill, snapshots this process's CPU at the moment the step starts and ends."""

    def __init__(self, loop: asyncio.AbstractEventLoop, index: Any, store: Any) -> None:
        self.loop = loop
        self.watches: list[_Watch] = []
        self.fill_cpu: dict[str, dict[str, float]] = {}  # workflow id -> {"start": cpu, "end": cpu}
        for name in ("upsert", "upsert_text"):
            self._wrap_async(index, name)
        record, complete, fail = store.record_step, store.complete, store.fail

        def record_step(claim: Any, name: str, status: str, **kw: Any) -> Any:
            out = record(claim, name, status, **kw)
            if name == "indexing" and status == "in_progress" and not kw.get("done"):
                self.fill_cpu.setdefault(claim.workflow_id, {}).setdefault("start", cpu_seconds(children=False))
            if name == "indexing" and status == "completed":
                self.fill_cpu.setdefault(claim.workflow_id, {})["end"] = cpu_seconds(children=False)
            self._notify(("step", claim.workflow_id, name, status))
            return out

        def done(fn: Any, what: str) -> Any:
            def call(claim: Any, **kw: Any) -> Any:
                out = fn(claim, **kw)
                self._notify(("workflow", claim.workflow_id, what, what))
                return out
            return call

        store.record_step = record_step
        store.complete, store.fail = done(complete, "completed"), done(fail, "failed")

    def _wrap_async(self, obj: Any, name: str) -> None:
        fn = getattr(obj, name)

        async def call(chunks: Any, *args: Any, **kw: Any) -> Any:
            out = await fn(chunks, *args, **kw)
            self._notify(("index", {c.document_id for c in chunks}, name, ""))
            return out

        setattr(obj, name, call)

    def _notify(self, event: tuple[Any, ...]) -> None:
        for w in list(self.watches):
            self.loop.call_soon_threadsafe(w.event, event)


class _Watch:
    """One document: marks taken when the pipeline's own writes say so. The keyword search and the cited answer
    are tried after each index write of this document (polled every ``POLL_S`` only once written and not yet
    found: a write the search does not see at once); segments and ready come from the step records."""

    def __init__(self, retriever: Any, project_id: str, document_id: str, workflow_id: str, t0: float,
                 cpu0: float) -> None:
        self.retriever = retriever
        self.project_id, self.document_id, self.workflow_id = project_id, document_id, workflow_id
        self.t0, self.cpu0 = t0, cpu0
        self.marks: dict[str, float] = {}
        self.status = ""
        self.asks = 0
        self._written = asyncio.Event()
        self._finished = asyncio.Event()

    def event(self, event: tuple[Any, ...]) -> None:
        kind, target, name, status = event
        if kind == "index" and self.document_id in target:
            self._written.set()
        elif kind == "step" and target == self.workflow_id and name == "segment_builder" and status == "completed":
            self._mark("to_segments_s")
        elif kind == "workflow" and target == self.workflow_id:
            self.status = status
            self._mark("to_ready_s")
            self._finished.set()

    def _mark(self, name: str) -> None:
        if name not in self.marks:
            self.marks[name] = round(time.perf_counter() - self.t0, 2)
            self.marks["cpu_" + name] = round(cpu_seconds() - self.cpu0, 2)

    async def run(self, *, answer: bool = True) -> dict[str, Any]:
        from retrieval.types import SearchFilter

        flt = SearchFilter(self.project_id, document_ids=(self.document_id,))
        pflt = SearchFilter(self.project_id)

        async def probe() -> None:
            while not self._finished.is_set():
                await self._wait(None)
                self._written.clear()
                while await self._try(flt, pflt, answer) and not self._finished.is_set():
                    await self._wait(POLL_S)  # written but not seen yet: again after POLL_S or the next write
            await self._try(flt, pflt, answer)  # ready: both must find it now

        await probe()
        return {**self.marks, "status": self.status, "asks": self.asks}

    async def _wait(self, within: float | None) -> None:
        """Until this document is written to the index again or its workflow ends (or ``within`` seconds)."""
        waiters = [asyncio.ensure_future(self._written.wait()), asyncio.ensure_future(self._finished.wait())]
        await asyncio.wait(waiters, timeout=within, return_when=asyncio.FIRST_COMPLETED)
        for w in waiters:
            w.cancel()

    async def _try(self, flt: Any, pflt: Any, answer: bool) -> bool:
        """One round of the pending checks; True while one of them still waits."""
        if "to_searchable_s" not in self.marks:
            self.asks += 1
            if await self.retriever.index.search(QUESTION, None, flt, k=1, mode="keyword"):
                self._mark("to_searchable_s")
        if answer and "to_first_answer_s" not in self.marks and "to_searchable_s" in self.marks:
            self.asks += 1
            hits = await self.retriever.search(QUESTION, pflt, k=8)
            if hits and _cites(hits, self.document_id):
                self._mark("to_first_answer_s")
        return "to_searchable_s" not in self.marks


def _step_span(step: dict[str, Any]) -> float:
    from datetime import datetime

    if not step.get("started_at") or not step.get("ended_at"):
        return 0.0
    t0 = datetime.fromisoformat(step["started_at"].replace("Z", "+00:00"))
    t1 = datetime.fromisoformat(step["ended_at"].replace("Z", "+00:00"))
    return (t1 - t0).total_seconds()


async def run_bench(pdfs: list[Path], data_dir: Path, tmp: Path, *, restart: bool = False) -> dict[str, Any]:
    from ingest.build import build_ingest
    from retrieval.search import EMBED_BATCH, build_retriever
    from store import open_blob_store, open_item_table

    settings = Settings.from_env(data_dir=data_dir, backend="local")
    if restart:  # a restarted server: the model file is in <data_dir>/models already (built here, not timed)
        from retrieval.embeddings import build_embedder

        prepare = getattr(build_embedder(settings), "prepare", None)
        if callable(prepare):
            await asyncio.to_thread(prepare)
    t_load = time.perf_counter()
    retriever = build_retriever(settings)
    await retriever.start()  # the model loads in the background: the upload below does not wait for it
    warm = asyncio.ensure_future(retriever.warmed())
    warm.add_done_callback(lambda _: marks_load.append(time.perf_counter() - t_load))
    marks_load: list[float] = []
    parts = build_ingest(settings, items=open_item_table(settings, "workflows"),
                         blobs=open_blob_store(settings, "documents"), index=retriever)
    events = _Events(asyncio.get_running_loop(), retriever.index, parts.store)
    runner = parts.runner(reserve_high=False, wait_seconds=0.2)
    await runner.start()
    t_settle = time.perf_counter()
    settled = await retriever.settle()  # as ``docchat up``'s last start-up hook: a restart's load done here
    out: dict[str, Any] = {"embedder": retriever.embedder.model_id, "model_loaded_at_start": settled,
                           "start_settle_s": round(time.perf_counter() - t_settle, 3)}
    # one PDF: uploaded right after start-up, then once more (another project) with everything warm
    rounds = ("", "second_") if len(pdfs) == 1 else ("",)
    for prefix in rounds:
        project = await parts.uploads.create_project("bench", f"bench{prefix}")
        t0, cpu0 = time.perf_counter(), cpu_seconds()
        watches = []
        for pdf in pdfs:
            res = await parts.uploads.accept_upload("bench", project["project_id"], received(pdf, tmp))
            w = _Watch(retriever, project["project_id"], res.document_id, res.workflow_id, t0, cpu0)
            events.watches.append(w)
            watches.append(w)
        marks = await asyncio.gather(*(w.run(answer=len(pdfs) == 1) for w in watches))
        events.watches.clear()
        if len(pdfs) > 1:
            ready = [m.get("to_ready_s", 0.0) for m in marks]
            searchable = [m.get("to_searchable_s", 0.0) for m in marks]
            out.update({"documents": len(pdfs), "to_all_searchable_s": max(searchable), "to_all_ready_s": max(ready),
                        "to_first_searchable_s": min(searchable),
                        "cpu_to_all_ready_s": max(m.get("cpu_to_ready_s", 0.0) for m in marks),
                        "failed": sum(1 for m in marks if m.get("status") != "completed")})
            continue
        m = dict(marks[0])
        view = await parts.documents.workflow_status("bench", watches[0].workflow_id)
        steps = view["steps"]
        out.update({prefix + k: v for k, v in m.items()})
        out[prefix + "step_s"] = {k: round(_step_span(v), 2) for k, v in steps.items()
                                  if v.get("status") == "completed"}
        await warm
        out["embedder_loaded_after_start_s"] = round(marks_load[0], 2) if marks_load else None
        out["embedder_load_cpu_s"] = getattr(retriever, "load_cpu_s", None)
        fill = steps.get("indexing") or {}
        n = int(fill.get("total") or 0)
        fcpu = events.fill_cpu.get(watches[0].workflow_id, {})
        inside = n / max(1e-9, _step_span(fill))
        inside_cpu = (fcpu["end"] - fcpu["start"]) / n if n and "end" in fcpu and "start" in fcpu else None
        out[prefix + "pipeline_chunks_per_s"] = round(inside, 2)
        out[prefix + "pipeline_cpu_per_chunk_s"] = round(inside_cpu, 4) if inside_cpu else None
        if rounds[-1] != prefix:
            continue  # the ratio is taken on the warm round: the first one's vector fill waits for the model
        texts = await _chunk_texts(retriever, project["project_id"], watches[0].document_id)
        t, c = time.perf_counter(), cpu_seconds(children=False)
        for i in range(0, len(texts), EMBED_BATCH):  # the pipeline's call size (Retriever.index_chunks)
            await asyncio.to_thread(retriever.embedder.embed_passages, texts[i:i + EMBED_BATCH])
        alone = len(texts) / max(1e-9, time.perf_counter() - t)
        alone_cpu = (cpu_seconds(children=False) - c) / max(1, len(texts))
        out.update({"chunks": n, "embedder_chunks_per_s": round(alone, 2), "embedder_cpu_per_chunk_s":
                    round(alone_cpu, 4), "indexing_ratio": round(inside / alone, 3) if alone else None,
                    "indexing_ratio_cpu": round(alone_cpu / inside_cpu, 3) if inside_cpu else None})
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
    parser.add_argument("--restart", action="store_true",
                        help="start as a restarted server would: the model file already built (default: first start)")
    args = parser.parse_args(argv)
    from store.logging import configure_logging

    configure_logging("WARNING")
    pdfs = sorted(args.all.glob("*.pdf")) if args.all else [args.pdf or _default_pdf()]
    dpi = Settings.from_env().ingest.render_dpi
    raw = {"pages": 0, "raw_text_s": 0.0, "raw_render_s": 0.0, "raw_s": 0.0, "raw_cpu_s": 0.0}
    for pdf in pdfs:
        for k, v in raw_seconds(pdf, dpi).items():
            raw[k] = round(raw[k] + v, 3)
    with tempfile.TemporaryDirectory(prefix="docchat-speed-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        res = asyncio.run(run_bench(pdfs, data, Path(tmp), restart=args.restart))
    out: dict[str, Any] = {"bench": "ingest_speed", "file": pdfs[0].name if len(pdfs) == 1 else str(args.all),
                           "start": "restart" if args.restart else "first", **raw, **res}
    for key in ("to_segments_s", "to_searchable_s", "to_first_answer_s", "to_ready_s", "to_all_searchable_s",
                "second_to_segments_s", "second_to_searchable_s", "second_to_first_answer_s"):
        if out.get(key):  # wall ÷ raw wall, and CPU (this process + sandboxes) ÷ raw CPU
            out[key.replace("to_", "x_raw_", 1).removesuffix("_s")] = round(out[key] / raw["raw_s"], 2)
        cpu = key.replace("to_", "cpu_to_", 1)
        if out.get(cpu) and raw["raw_cpu_s"]:
            out[cpu.replace("cpu_to_", "cpu_x_raw_", 1).removesuffix("_s")] = round(out[cpu] / raw["raw_cpu_s"], 2)
    if out.get("to_searchable_s") and out.get("second_to_searchable_s"):
        out["first_vs_second_searchable"] = round(out["to_searchable_s"] / out["second_to_searchable_s"], 2)
    out.update(_peak())
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
