"""Issue 18: a document is keyword-searchable as soon as its chunks exist, the vectors follow; a worker dying
between the two moments loses nothing and duplicates nothing (real LanceDB index, toy embedder)."""

from __future__ import annotations

import pytest

from ingest.pipeline import Pipeline
from ingest.worker import Worker
from retrieval.lance_index import LanceIndex
from retrieval.search import Retriever
from retrieval.types import SearchFilter
from tests.ingest.test_worker import Crash, _submit
from tests.retrieval.conftest import DIM, ToyEmbedder, toy_vector


class _Counting(Retriever):
    def __init__(self, *a, **k) -> None:
        super().__init__(*a, **k)
        self.keyword_writes = 0
        self.deletes = 0

    async def index_keywords(self, chunks) -> None:
        self.keyword_writes += len(chunks)
        await super().index_keywords(chunks)

    async def delete_document(self, project_id: str, document_id: str) -> None:
        self.deletes += 1
        await super().delete_document(project_id, document_id)


@pytest.fixture
async def retriever(tmp_path):
    r = _Counting(ToyEmbedder(), LanceIndex(tmp_path / "lance", DIM))
    await r.start()
    yield r
    await r.close()


def _worker(settings, store, blobs, queue, retriever, clock, fault=None):
    return Worker(store=store, queue=queue, pipeline=Pipeline(settings, store, blobs, retriever, fault=fault),
                  settings=settings, clock=clock)


#: words of the body text ("Page N …" is the running header, which chunking leaves out)
QUERY = "contract payment invoice"


async def _ids(retriever, pid, did, mode):
    flt = SearchFilter(pid, document_ids=(did,))
    hits = await retriever.index.search(QUERY, toy_vector(QUERY), flt, k=500, mode=mode)
    return [h.chunk_id for h in hits]


async def test_searchable_before_ready_and_a_crash_between_loses_and_duplicates_nothing(
        settings, store, blobs, queue, retriever, clock, tmp_path):
    pid, c = _submit(store, blobs, queue, tmp_path)

    def fault(name, n):
        if name == "keyword_indexing":  # recorded searchable, no vector written yet
            raise Crash(name)

    with pytest.raises(Crash):
        await _worker(settings, store, blobs, queue, retriever, clock, fault=fault).run_once()
    view = store.get_workflow("alice", c.workflow_id)
    assert view["searchable"] is True and view["ready"] is False and view["status"] == "in_progress"
    assert view["steps"]["keyword_indexing"]["status"] == "completed"
    total = view["steps"]["keyword_indexing"]["total"]
    assert total > 1 and await retriever.index.count(SearchFilter(pid)) == total  # every chunk, as a row
    assert await _ids(retriever, pid, c.document_id, "keyword")  # found by BM25
    assert await _ids(retriever, pid, c.document_id, "vector") == []  # no vector written yet
    assert (await retriever.index.search(QUERY, toy_vector(QUERY),
                                         SearchFilter(pid), k=3, mode="hybrid"))  # hybrid finds them by BM25

    clock.t += settings.queue.queue_visibility_seconds + 1  # the dead worker's lease and visibility run out
    assert await _worker(settings, store, blobs, queue, retriever, clock).run_once() == "completed"
    view = store.get_workflow("alice", c.workflow_id)
    assert view["searchable"] is True and view["ready"] is True
    expected = [f"{c.document_id}:{i:05d}" for i in range(total)]
    assert sorted(await _ids(retriever, pid, c.document_id, "vector")) == expected  # every vector, once
    assert await retriever.index.count(SearchFilter(pid)) == total
    # the redelivery kept the document searchable: no second delete, no second keyword write
    assert retriever.deletes == 1 and retriever.keyword_writes == total


async def test_the_view_says_neither_before_the_keyword_write(settings, store, blobs, queue, tmp_path):
    _, c = _submit(store, blobs, queue, tmp_path)
    view = store.get_workflow("alice", c.workflow_id)
    assert view["searchable"] is False and view["ready"] is False
    assert view["steps"]["keyword_indexing"]["label"]


async def test_rendering_does_not_hold_up_the_text_path(settings, store, blobs, queue, retriever, clock, tmp_path):
    """A text-layer PDF is searchable while its pages are still being rendered; the workflow completes only once
    every page is rendered (the viewer needs them)."""
    import threading

    _, c = _submit(store, blobs, queue, tmp_path, pages=4)
    searchable = threading.Event()
    seen: list[bool] = []

    def fault(name, n):
        if name == "keyword_indexing":
            searchable.set()
        elif name == "segment_prep" and n == 1:
            seen.append(searchable.wait(timeout=30))  # the first rendered page waits for the keyword write

    assert await _worker(settings, store, blobs, queue, retriever, clock, fault=fault).run_once() == "completed"
    assert seen == [True]
    view = store.get_workflow("alice", c.workflow_id)
    assert view["steps"]["segment_prep"]["status"] == "completed" and view["ready"]
    assert all(blobs.exists(f"workflows/{c.workflow_id}/pages/{p:04d}.png") for p in range(1, 5))


async def test_rendering_starts_only_once_the_document_is_searchable(settings, store, blobs, queue, retriever, clock,
                                                                    tmp_path, monkeypatch):
    """No page needs OCR: no rendering child runs before the keyword write (none of the CPU on the path to the
    first answer goes to pages only the viewer needs)."""
    events: list[str] = []
    real = Pipeline._render_child

    def render_child(self, job, pid, mine):
        events.append("render_child")
        real(self, job, pid, mine)

    monkeypatch.setattr(Pipeline, "_render_child", render_child)
    _submit(store, blobs, queue, tmp_path, pages=3)

    def fault(name, n):
        if name in ("format_parser", "keyword_indexing") and name not in events:
            events.append(name)

    assert await _worker(settings, store, blobs, queue, retriever, clock, fault=fault).run_once() == "completed"
    assert events.index("format_parser") < events.index("keyword_indexing") < events.index("render_child")


async def test_pages_needed_for_ocr_are_rendered_before_the_segments(settings, store, blobs, queue, retriever, clock,
                                                                     tmp_path, monkeypatch):
    events: list[str] = []
    monkeypatch.setattr(Pipeline, "_needs_pages", lambda self, job: True)  # as for OCR pages
    _submit(store, blobs, queue, tmp_path, pages=3)

    def fault(name, n):
        if name in ("segment_prep", "segment_builder:item") and name not in events:
            events.append(name)

    assert await _worker(settings, store, blobs, queue, retriever, clock, fault=fault).run_once() == "completed"
    assert events == ["segment_prep", "segment_builder:item"]


def test_pixel_size_matches_the_rendered_page(tmp_path) -> None:
    from ingest.sample_docs import write_text_pdf
    from ingest.steps.segment_prep import pixel_size, render_pages

    pdf = write_text_pdf(tmp_path / "a.pdf", 1, lines=3)
    for dpi in (72, 150, 201):
        (rp,) = list(render_pages(pdf, "pdf", [1], dpi))
        assert pixel_size(rp.width_pt, rp.height_pt, dpi) == (rp.width_px, rp.height_px)


async def test_the_text_layer_of_a_long_document_is_read_by_two_children(settings, store, blobs, queue, indexer,
                                                                          clock, tmp_path, monkeypatch):
    """Issue 18: the text layer is the critical path; every page is read once, across both children."""
    import threading

    import ingest.pipeline as pipeline_mod
    import ingest.steps.text_layer as text_layer

    monkeypatch.setattr(pipeline_mod, "TEXT_PARALLEL_MIN_PAGES", 2)
    calls: list[list[int]] = []
    threads: set[str] = set()
    real = text_layer.iter_text_and_words

    def spy(path, pages, **kw):
        calls.append(list(pages))
        threads.add(threading.current_thread().name)
        yield from real(path, pages, **kw)

    monkeypatch.setattr(text_layer, "iter_text_and_words", spy)
    _, c = _submit(store, blobs, queue, tmp_path, pages=4)
    worker = Worker(store=store, queue=queue, pipeline=Pipeline(settings, store, blobs, indexer), settings=settings,
                    clock=clock)
    assert await worker.run_once() == "completed"
    assert sorted(calls) == [[1, 3], [2, 4]] and len(threads) == 2
    assert store.get_workflow("alice", c.workflow_id)["steps"]["format_parser"]["done"] == 4
    assert [s["segment_index"] for s in store.list_segments(c.workflow_id).items] == [1, 2, 3, 4]


async def test_a_rendering_failure_after_searchable_takes_the_document_out_of_the_index(
        settings, store, blobs, queue, indexer, clock, tmp_path):
    import threading

    from store.errors import PermanentError

    _, c = _submit(store, blobs, queue, tmp_path, pages=3)
    searchable = threading.Event()

    def fault(name, n):
        if name == "keyword_indexing":
            searchable.set()
        elif name == "segment_prep" and n == 1:
            assert searchable.wait(timeout=30)
            raise PermanentError("page 2 cannot be rendered")

    worker = Worker(store=store, queue=queue, pipeline=Pipeline(settings, store, blobs, indexer, fault=fault),
                    settings=settings, clock=clock)
    assert await worker.run_once() == "failed"
    assert indexer.keyword_writes > 0 and indexer.index == {}  # it was searchable, it is not any more
    view = store.get_workflow("alice", c.workflow_id)
    assert view["status"] == "failed" and view["steps"]["keyword_indexing"]["status"] == "pending"


async def test_rendering_and_fields_of_a_text_layer_pdf_wait_for_the_vector_fill(
        settings, store, blobs, queue, retriever, clock, tmp_path, monkeypatch):
    """Issue 18: nothing runs beside the embedder but the searches — the viewer's pages and the key fields of a PDF
    that needs no OCR start once every vector is written; the workflow completes with every page rendered."""
    order: list[tuple[str, str]] = []
    real = store.record_step

    def record_step(claim, name, status, **kw):
        order.append((name, status))
        return real(claim, name, status, **kw)

    monkeypatch.setattr(store, "record_step", record_step)
    _pid, c = _submit(store, blobs, queue, tmp_path, pages=3)
    assert await _worker(settings, store, blobs, queue, retriever, clock).run_once() == "completed"
    filled = order.index(("indexing", "completed"))
    assert order.index(("segment_prep", "in_progress")) > filled
    assert order.index(("field_extractor", "in_progress")) > filled
    from ingest.results import page_png_key

    assert all(blobs.exists(page_png_key(c.workflow_id, p)) for p in (1, 2, 3))


async def test_a_page_asked_for_before_its_rendering_is_rendered_on_demand(
        settings, store, blobs, queue, retriever, clock, tmp_path):
    """Issue 18: a searchable document's page the viewer asks for before the background rendering reached it is
    rendered now, with the same bytes and metadata the pipeline writes."""
    from ingest.documents import Documents
    from ingest.results import meta_key, page_png_key

    _pid, c = _submit(store, blobs, queue, tmp_path, pages=3)
    assert await _worker(settings, store, blobs, queue, retriever, clock).run_once() == "completed"
    png_key, mk = page_png_key(c.workflow_id, 2), meta_key(c.workflow_id, 2)
    rendered, meta = blobs.get(png_key), blobs.get(mk)
    blobs.delete(png_key)
    blobs.delete(mk)  # as between searchable and the rendering after the vector fill
    docs = Documents(settings, store=store, blobs=blobs, queue=queue, index=retriever)
    image = await docs.page_image("alice", c.document_id, 2)
    assert image.png == rendered and blobs.get(png_key) == rendered and blobs.get(mk) == meta
    assert image.width_pt and image.height_pt
