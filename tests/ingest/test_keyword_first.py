"""Issue 18: several queued documents each become keyword-searchable before any of them spends CPU on its vector
fill (or on rendering pages for the viewer): the worker takes the next document once one is searchable, and the
background steps wait while a worker is on a text path (``ingest/keyword_first.py``)."""

from __future__ import annotations

import asyncio
import itertools

from ingest import keyword_first
from ingest.keyword_first import KeywordFirst
from ingest.pipeline import Pipeline
from ingest.worker import Worker
from tests.ingest.conftest import RecordingIndexer
from tests.ingest.test_worker import _submit


class _Ordered(RecordingIndexer):
    def __init__(self, events: list[tuple[str, str]]) -> None:
        super().__init__()
        self.events = events

    async def index_keywords(self, chunks) -> None:
        self.events.append(("searchable", chunks[0].document_id))
        await super().index_keywords(chunks)

    async def index_chunks(self, chunks, progress=None) -> None:
        self.events.append(("embedding", chunks[0].document_id))
        await super().index_chunks(chunks, progress)


async def _run_until_done(worker: Worker, store, workflows: list[str], within: float = 90.0) -> None:
    stop = asyncio.Event()
    task = asyncio.create_task(worker.run(stop, wait_seconds=0.2))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    try:
        while loop.time() < deadline:
            views = [store.get_workflow("alice", wid) for wid in workflows]
            if all(v["status"] in ("completed", "failed") for v in views):
                break
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        await asyncio.wait_for(task, timeout=60)


async def test_queued_documents_are_all_searchable_before_any_vector_fill(settings, store, blobs, queue, clock,
                                                                          tmp_path, monkeypatch):
    events: list[tuple[str, str]] = []
    real = Pipeline._render_child

    def render_child(self, job, pid, mine):
        events.append(("rendering", job.claim.document_id))
        real(self, job, pid, mine)

    monkeypatch.setattr(Pipeline, "_render_child", render_child)
    for i in range(3):
        (tmp_path / str(i)).mkdir()
    docs = [_submit(store, blobs, queue, tmp_path / str(i), pages=2, sha=f"{i}" * 64)[1] for i in range(3)]
    worker = Worker(store=store, queue=queue, settings=settings,
                    pipeline=Pipeline(settings, store, blobs, _Ordered(events)))
    await _run_until_done(worker, store, [d.workflow_id for d in docs])
    assert all(store.get_workflow("alice", d.workflow_id)["status"] == "completed" for d in docs)
    searchable = [i for i, (what, _) in enumerate(events) if what == "searchable"]
    later = [i for i, (what, _) in enumerate(events) if what in ("embedding", "rendering")]
    assert [events[i][1] for i in searchable] == [d.document_id for d in docs]  # in queue order
    assert later and max(searchable) < min(later), events
    assert worker.pipeline.keyword_first.held == 0


async def test_background_renderings_take_turns(settings, store, blobs, queue, clock, tmp_path, monkeypatch):
    """The documents a worker keeps in the background do not all start their rendering children at once."""
    import threading
    import time

    spans: list[tuple[str, float, float]] = []
    real = Pipeline._segment_prep
    lock = threading.Lock()

    def segment_prep(self, job):
        t0 = time.monotonic()
        real(self, job)
        with lock:
            spans.append((job.claim.document_id, t0, time.monotonic()))

    monkeypatch.setattr(Pipeline, "_segment_prep", segment_prep)
    for i in range(3):
        (tmp_path / str(i)).mkdir()
    docs = [_submit(store, blobs, queue, tmp_path / str(i), pages=2, sha=f"{i}" * 64)[1] for i in range(3)]
    worker = Worker(store=store, queue=queue, settings=settings,
                    pipeline=Pipeline(settings, store, blobs, _Ordered([])))
    await _run_until_done(worker, store, [d.workflow_id for d in docs])
    assert len(spans) == 3
    spans.sort(key=lambda s: s[1])
    assert all(a[2] <= b[1] for a, b in itertools.pairwise(spans)), spans  # one after another


async def test_one_document_alone_fills_its_vectors_at_once(settings, store, blobs, queue, clock, tmp_path):
    events: list[tuple[str, str]] = []
    (tmp_path / "a").mkdir()
    _, doc = _submit(store, blobs, queue, tmp_path / "a", pages=2)
    worker = Worker(store=store, queue=queue, settings=settings,
                    pipeline=Pipeline(settings, store, blobs, _Ordered(events)))
    await _run_until_done(worker, store, [doc.workflow_id])
    assert store.get_workflow("alice", doc.workflow_id)["status"] == "completed"
    assert [what for what, _ in events][:2] == ["searchable", "embedding"]


async def test_the_gate_waits_for_every_slot() -> None:
    gate = KeywordFirst()
    await asyncio.wait_for(gate.idle(), 1)  # nobody on a text path: no wait
    gate.take()
    gate.take()
    waiter = asyncio.create_task(gate.idle())
    await asyncio.sleep(0.01)
    gate.give()
    await asyncio.sleep(0.01)
    assert not waiter.done()
    gate.give()
    await asyncio.wait_for(waiter, 1)
    gate.give()  # never below zero
    assert gate.held == 0


async def test_an_uploads_check_holds_a_text_slot_so_background_work_yields_to_it(settings, tmp_path):
    """Issue 18: the upload's sandboxed check is on the path to searchable: vector fills and the model build
    (KeywordFirst listeners) wait for it as for a worker's text path."""
    import hashlib

    from ingest.build import build_ingest
    from ingest.filetypes import SNIFF_BYTES
    from ingest.inspect import inspect_document
    from ingest.sample_docs import write_text_pdf
    from ingest.upload import ReceivedFile
    from store.blobs import FileBlobStore
    from store.schema import WORKFLOW_TABLE
    from store.sqlite_items import SqliteItemTable
    from tests.ingest.test_upload_pool import _NoIndex

    items = SqliteItemTable(settings.server.data_dir / "workflows.db", WORKFLOW_TABLE, purge_interval_s=None)
    svc = build_ingest(settings, items=items, blobs=FileBlobStore(settings.server.data_dir / "blobs"),
                       index=_NoIndex())
    told: list[str] = []
    svc.pipeline.keyword_first.listen(lambda: told.append("busy"), lambda: told.append("idle"))
    held: list[int] = []

    def inspector(path, kind, s):
        held.append(svc.pipeline.keyword_first.held)
        return inspect_document(path, kind, s)

    svc.uploads.inspector = inspector
    pdf = write_text_pdf(tmp_path / "a.pdf", 1, lines=5, seed=1)
    data = pdf.read_bytes()
    try:
        project = await svc.uploads.create_project("alice", "P")
        got = await svc.uploads.accept_upload("alice", project["project_id"], ReceivedFile(
            pdf, "a.pdf", len(data), hashlib.sha256(data).hexdigest(), data[:SNIFF_BYTES]))
    finally:
        await svc.close()
    await asyncio.sleep(keyword_first.LISTEN_GRACE_S + 0.2)  # "idle" after the grace
    assert got.created and held == [1] and told == ["busy", "idle"]
    assert svc.pipeline.keyword_first.held == 0


async def test_listeners_hear_idle_only_after_a_grace_without_a_slot(monkeypatch) -> None:
    """Issue 18: an upload's check gives its slot back just before a worker takes one for the same document; the
    model's load must not start in that gap. The vector fills (``idle()``) do not wait for the grace."""
    monkeypatch.setattr(keyword_first, "LISTEN_GRACE_S", 0.2)
    gate = KeywordFirst()
    told: list[str] = []
    gate.listen(lambda: told.append("busy"), lambda: told.append("idle"))
    gate.take()
    gate.give()
    await asyncio.wait_for(gate.idle(), 1)  # fills go on at once
    gate.take()  # within the grace
    await asyncio.sleep(0.3)
    assert told == ["busy"]
    gate.give()
    await asyncio.sleep(0.1)
    assert told == ["busy"]
    await asyncio.sleep(0.2)
    assert told == ["busy", "idle"]
