"""Retriever facade + build_retriever wiring."""

from __future__ import annotations

import asyncio

import pytest

from retrieval.lance_index import LanceIndex
from retrieval.opensearch_index import OpenSearchIndex
from retrieval.search import Retriever, build_retriever
from retrieval.types import SearchFilter
from store.config import Settings
from store.errors import ConfigError, InvalidInput
from tests.retrieval.conftest import DIM, ToyEmbedder, chunk
from tests.retrieval.fake_opensearch import FakeOpenSearch


class CountingEmbedder(ToyEmbedder):
    def __init__(self) -> None:
        self.passage_calls: list[int] = []
        self.query_calls = 0

    def embed_passages(self, texts):
        self.passage_calls.append(len(texts))
        return super().embed_passages(texts)

    def embed_query(self, text):
        self.query_calls += 1
        return super().embed_query(text)


async def test_index_search_delete_round_trip(tmp_path) -> None:
    emb = CountingEmbedder()
    r = build_retriever(Settings(data_dir=tmp_path), embedder=emb)
    assert isinstance(r.index, LanceIndex)
    await r.start()
    chunks = [chunk("d1", i, f"paragraph {i} about topic{i}") for i in range(70)] + [
        chunk("d2", 0, "매출 총이익은 전년 대비 증가했다", lang="ko")
    ]
    ticks: list[tuple[int, int]] = []
    await r.index_chunks(chunks, progress=lambda d, t: ticks.append((d, t)))
    assert emb.passage_calls == [8] * 8 + [7]  # embedded in small rounds: a progress tick every few chunks
    assert ticks == [(n, 71) for n in range(8, 72, 8)] + [(71, 71)]
    hits = await r.search("매출 총이익", SearchFilter("p1"), k=3)
    assert hits[0].chunk_id == "d2:00000"
    kw = await r.search("topic7", SearchFilter("p1"), k=3, mode="keyword")
    assert kw[0].chunk_id == "d1:00007"
    assert emb.query_calls == 1  # keyword mode does not embed
    await r.delete_document("p1", "d2")
    assert all(h.document_id != "d2" for h in await r.search("매출 총이익", SearchFilter("p1"), k=5))
    await r.close()
    assert (tmp_path / "lance").is_dir()


async def test_index_persists_across_restarts(tmp_path) -> None:
    s = Settings(data_dir=tmp_path)
    r1 = build_retriever(s, embedder=ToyEmbedder())
    await r1.start()
    await r1.index_chunks([chunk("d1", 0, "persistent dividend policy")])
    await r1.close()
    r2 = build_retriever(s, embedder=ToyEmbedder())
    await r2.start()
    assert [h.chunk_id for h in await r2.search("dividend", SearchFilter("p1"), mode="keyword")] == ["d1:00000"]
    await r2.close()


async def test_dimension_change_is_reported(tmp_path) -> None:
    s = Settings(data_dir=tmp_path)
    r1 = build_retriever(s, embedder=ToyEmbedder())
    await r1.start()
    await r1.close()

    class Wide(ToyEmbedder):
        dimension = 64

    with pytest.raises(InvalidInput, match="re-index"):
        await build_retriever(s, embedder=Wide()).start()


async def test_empty_query_is_invalid(tmp_path) -> None:
    r = Retriever(ToyEmbedder(), LanceIndex(tmp_path, 32))
    with pytest.raises(InvalidInput):
        await r.search("   ", SearchFilter("p1"))


def test_opensearch_backend_wiring(tmp_path) -> None:
    s = Settings(
        data_dir=tmp_path,
        index_backend="opensearch",
        opensearch_service="es",
        opensearch_index="ix",
        opensearch_analyzers="ko=nori",
        hybrid_keyword_weight=0.3,
    )
    r = build_retriever(s, embedder=ToyEmbedder(), opensearch_client=FakeOpenSearch().client())
    assert isinstance(r.index, OpenSearchIndex)
    body = r.index.index_body()
    assert body["mappings"]["properties"]["vector"]["dimension"] == 32
    assert body["mappings"]["properties"]["text"]["fields"]["ko"] == {"type": "text", "analyzer": "nori"}
    with pytest.raises(ConfigError):
        build_retriever(s.with_overrides(opensearch_endpoint=None), embedder=ToyEmbedder())


def test_cap_query_cuts_long_queries_at_a_word_boundary() -> None:
    from retrieval.search import cap_query

    assert cap_query("  short question  ", 100) == "short question"
    long = "revenue " * 500
    capped = cap_query(long, 1000)
    assert len(capped) <= 1000 and capped.endswith("revenue") and long.startswith(capped)
    cjk = "매출" * 1000  # no spaces: a hard cut
    assert cap_query(cjk, 1000) == cjk[:1000]


async def test_a_long_question_is_searched_by_its_head_not_refused(tmp_path) -> None:
    """Issue 13 item 9: an 18,000-character question is cut to query_max_chars before embedding and BM25."""

    class Recording(ToyEmbedder):
        seen: list[str] = []

        def embed_query(self, text: str) -> list[float]:
            self.seen.append(text)
            return super().embed_query(text)

    emb = Recording()
    r = Retriever(emb, LanceIndex(tmp_path, 32), query_max_chars=200)
    await r.start()
    await r.index_chunks([chunk("d1", 0, "Quarterly revenue grew by 12 percent.")])
    question = "What did quarterly revenue do? " + "Please explain in detail. " * 700
    assert len(question) > 18_000
    hits = await r.search(question, SearchFilter("p1"), k=3)
    assert hits and hits[0].chunk_id == "d1:00000"
    assert len(emb.seen[-1]) <= 200 and emb.seen[-1].startswith("What did quarterly revenue do?")
    await r.close()


def test_build_retriever_takes_the_query_cap_from_settings(tmp_path) -> None:
    settings = Settings(data_dir=tmp_path, query_max_chars=321)
    assert build_retriever(settings, embedder=ToyEmbedder()).query_max_chars == 321


async def test_start_loads_the_embedding_model_in_the_background(tmp_path) -> None:
    """Issue 18: start-up does not wait for the model, and neither does the first upload after it."""
    import threading

    from retrieval.lance_index import LanceIndex

    release, started = threading.Event(), threading.Event()

    class SlowLoad(ToyEmbedder):
        loads = 0

        def load(self) -> None:
            SlowLoad.loads += 1
            started.set()
            release.wait(30)

    r = Retriever(SlowLoad(), LanceIndex(tmp_path / "lance", DIM))
    await asyncio.wait_for(r.start(), 30)  # returns while the model is still loading
    assert await asyncio.to_thread(started.wait, 30)
    assert SlowLoad.loads == 1 and r._warm is not None and not r._warm.done()
    release.set()
    await asyncio.wait_for(r.warmed(), 30)
    await r.start()  # a second start does not load again
    await r.close()
    assert SlowLoad.loads == 1


async def test_the_models_load_waits_while_a_document_is_on_its_way_to_searchable(tmp_path) -> None:
    """Issue 18: the session is created at normal priority, so it is not created beside a text path (an upload's
    check or a worker's text layer: ``pause_background``); it starts once ``resume_background`` is called."""
    import threading

    from retrieval.lance_index import LanceIndex

    loaded = threading.Event()

    class Loading(ToyEmbedder):
        def load(self) -> None:
            loaded.set()

    r = Retriever(Loading(), LanceIndex(tmp_path / "lance", DIM))
    r.pause_background()
    await r.start()
    await asyncio.sleep(0.3)
    assert not loaded.is_set() and r._warm is not None and not r._warm.done()
    r.resume_background()
    await asyncio.wait_for(r.warmed(), 30)
    assert loaded.is_set()
    await r.close()


async def test_the_model_files_preparation_waits_while_a_document_is_on_its_way_to_searchable(tmp_path) -> None:
    """Issue 18: ``prepare`` (the weights' hash; on a fresh data directory the build child's start) is CPU in this
    process too: it waits for ``resume_background`` like the load."""
    import threading

    from retrieval.lance_index import LanceIndex

    prepared = threading.Event()

    class Preparing(ToyEmbedder):
        def prepare(self) -> None:
            prepared.set()

        def load(self) -> None:
            pass

    r = Retriever(Preparing(), LanceIndex(tmp_path / "lance", DIM))
    r.pause_background()
    await r.start()
    await asyncio.sleep(0.3)
    assert not prepared.is_set()
    r.resume_background()
    await asyncio.wait_for(r.warmed(), 30)
    assert prepared.is_set()
    await r.close()


async def test_settle_waits_for_a_load_that_only_reads_the_file_and_no_longer_than_asked(tmp_path) -> None:
    """Issue 18: start-up's last hook (``settle``) lets a restart's model load finish before requests come, so
    the first upload does not share its cores with it; a load still going at the deadline is left running."""
    import threading
    import time

    release = threading.Event()

    class Quick(ToyEmbedder):
        loaded = False

        def load(self) -> None:
            time.sleep(0.3)
            self.loaded = True

    quick = Retriever(Quick(), LanceIndex(tmp_path / "quick", DIM))
    await quick.start()
    assert quick._warm is not None and not quick._warm.done()
    assert await asyncio.wait_for(quick.settle(10), 30) is True
    assert quick._warm.done() and quick.embedder.loaded
    await quick.close()

    class Stuck(ToyEmbedder):
        def load(self) -> None:
            release.wait(30)

    stuck = Retriever(Stuck(), LanceIndex(tmp_path / "stuck", DIM))
    await stuck.start()
    t0 = time.perf_counter()
    assert await asyncio.wait_for(stuck.settle(0.3), 30) is False
    assert 0.25 <= time.perf_counter() - t0 < 5 and stuck._warm is not None and not stuck._warm.done()
    release.set()
    await stuck.close()


async def test_settle_does_not_wait_for_the_model_files_build(tmp_path) -> None:
    """A fresh data directory builds the model file (tens of seconds, in a child keyword indexing pauses): start-up
    does not wait for that; ``settle`` returns as soon as the build child runs."""
    import sys
    import time

    class Building(ToyEmbedder):
        def prepare(self, builder=None) -> None:
            assert builder is not None
            builder([sys.executable, "-c", "import time; time.sleep(2)"])

        def load(self) -> None:
            pass

    r = Retriever(Building(), LanceIndex(tmp_path / "lance", DIM))
    await r.start()
    t0 = time.perf_counter()
    assert await asyncio.wait_for(r.settle(20), 30) is False
    assert time.perf_counter() - t0 < 1.9 and r._warm is not None and not r._warm.done()
    await asyncio.wait_for(r.warmed(), 30)
    assert await r.settle(1) is True  # done: nothing left to wait for
    await r.close()


async def test_documents_indexed_at_once_share_embed_calls(tmp_path) -> None:
    """Issue 18: two documents' rounds waiting together are embedded in one call; each gets its own vectors."""
    from retrieval.embed_batcher import EmbedBatcher

    calls: list[int] = []

    class Recording(ToyEmbedder):
        def embed_passages(self, texts):
            calls.append(len(texts))
            return super().embed_passages(texts)

    r = Retriever(Recording(), LanceIndex(tmp_path / "lance", DIM))
    await r.start()
    a = [chunk("docA", i, f"alpha text number {i}") for i in range(3)]
    b = [chunk("docB", i, f"beta words number {i}") for i in range(2)]
    await asyncio.gather(r.index_chunks(a), r.index_chunks(b))
    assert calls == [5] and r.batcher.calls == 1
    hits = await r.search("beta words", SearchFilter("p1"), k=2, mode="vector")
    assert {h.document_id for h in hits} == {"docB"}  # vectors went back to the right chunks

    failing = EmbedBatcher(Recording(), max_texts=2)
    failing.embedder.embed_passages = lambda texts: (_ for _ in ()).throw(RuntimeError("boom"))  # type: ignore
    with pytest.raises(RuntimeError):
        await failing.embed_passages(["x"])
    await r.close()


async def test_hybrid_search_answers_by_keyword_while_the_model_loads(tmp_path) -> None:
    import threading

    release = threading.Event()

    class SlowLoad(ToyEmbedder):
        def load(self) -> None:
            release.wait(30)

        def embed_query(self, text):
            raise AssertionError("no query embedding before the model is loaded")

    r = Retriever(SlowLoad(), LanceIndex(tmp_path / "lance", DIM))
    await r.start()
    await r.index.upsert_text([chunk("docA", 0, "capital expenditure was large")])
    hits = await r.search("capital expenditure", SearchFilter("p1"), k=3)
    assert [h.chunk_id for h in hits] == ["docA:00000"]
    release.set()
    await r.close()


async def test_a_model_a_vector_fill_built_serves_searches_before_the_background_load_has_its_turn(tmp_path) -> None:
    """Issue 18: the background load waits while a text path runs (``pause_background``), but a vector fill meanwhile
    builds the model on its first embed call; from then on a hybrid search embeds the question (it used to stay
    keyword-only until the load's turn: a search right after ``completed`` missed chunks only vectors find)."""

    class Lazy(ToyEmbedder):
        def __init__(self) -> None:
            self.built = False
            self.queries = 0

        @property
        def loaded(self) -> bool:
            return self.built

        def load(self) -> None:
            self.built = True

        def embed_passages(self, texts):
            self.built = True  # the first embed call builds the model, as the real embedders' ``_get`` does
            return super().embed_passages(texts)

        def embed_query(self, text):
            self.queries += 1
            return super().embed_query(text)

    emb = Lazy()
    r = Retriever(emb, LanceIndex(tmp_path / "lance", DIM))
    r.pause_background()
    await r.start()
    await r.index.upsert_text([chunk("docA", 0, "capital expenditure was large")])
    assert r.model_loading()
    await r.search("capital expenditure", SearchFilter("p1"), k=3)
    assert emb.queries == 0  # keyword only while nothing has built the model
    await r.index_chunks([chunk("docA", 0, "capital expenditure was large")])  # the vector fill builds it
    assert emb.built and not r.model_loading() and r._warm is not None and not r._warm.done()
    hits = await r.search("capital expenditure", SearchFilter("p1"), k=3)
    assert emb.queries == 1 and [h.chunk_id for h in hits] == ["docA:00000"]
    assert "vector_rank" in hits[0].extra  # the vector leg ran
    r.resume_background()
    await asyncio.wait_for(r.warmed(), 30)
    await r.close()


class ProgressEmbedder(ToyEmbedder):
    """Reports progress from inside a call, like the real embedders (a tick every 4 texts)."""

    def __init__(self, gate: asyncio.Event | None = None) -> None:
        self.calls: list[int] = []
        self.log: list[str] = []

    def embed_passages(self, texts, progress=None):
        self.calls.append(len(texts))
        self.log.append(f"embed{len(self.calls)}")
        for done in range(4, len(texts) + 4, 4):
            if progress is not None:
                progress(min(done, len(texts)), len(texts))
        return super().embed_passages(texts)


async def test_index_chunks_embeds_whole_rounds_and_ticks_from_inside_the_call(tmp_path) -> None:
    """Issue 18: one embed call per round of 64 (calls of 8 cost ~24% more CPU per chunk on the ONNX embedder),
    progress still every few chunks (issue 16), monotonic, ending at the total."""
    emb = ProgressEmbedder()
    r = Retriever(emb, LanceIndex(tmp_path / "lance", DIM))
    await r.start()
    chunks = [chunk("d1", i, f"word{i} text") for i in range(71)]
    ticks: list[int] = []
    await r.index_chunks(chunks, progress=lambda d, t: ticks.append(d) if t == 71 else None)
    assert emb.calls == [64, 7]
    assert ticks == sorted(set(ticks)) and ticks[-1] == 71 and len(ticks) >= 16
    assert ticks[:3] == [4, 8, 12]
    assert await r.index.count(SearchFilter("p1")) == 71
    await r.close()


async def test_the_next_round_is_embedded_while_the_last_is_written(tmp_path) -> None:
    """Issue 18: the embedder does not wait on the index write (round 2 is embedding while round 1 upserts)."""
    emb = ProgressEmbedder()
    r = Retriever(emb, LanceIndex(tmp_path / "lance", DIM))
    await r.start()
    upsert = r.index.upsert

    async def slow_upsert(chunks, vectors):
        emb.log.append(f"write{len(chunks)}:start")
        await asyncio.sleep(0.3)
        await upsert(chunks, vectors)
        emb.log.append(f"write{len(chunks)}:end")

    r.index.upsert = slow_upsert  # type: ignore[method-assign]
    await r.index_chunks([chunk("d1", i, f"word{i}") for i in range(130)])
    ends = [i for i, entry in enumerate(emb.log) if entry == "write64:end"]
    assert emb.log.index("embed2") < ends[0] and emb.log.index("embed3") < ends[1]
    assert emb.calls == [64, 64, 2]
    await r.close()


async def test_a_request_whose_progress_raises_gets_the_error_alone() -> None:
    """Two documents in one embed call: the one whose claim was lost (progress raises) gets that error, the other its
    vectors; a call whose every request gave up stops early."""
    from retrieval.embed_batcher import EmbedBatcher

    emb = ProgressEmbedder()
    b = EmbedBatcher(emb)

    class Lost(Exception):
        pass

    def lost(_done: int) -> None:
        raise Lost

    ok_ticks: list[int] = []
    a, c = await asyncio.gather(b.embed_passages([f"a{i}" for i in range(8)], progress=lost),
                                b.embed_passages([f"c{i}" for i in range(8)], progress=ok_ticks.append),
                                return_exceptions=True)
    assert isinstance(a, Lost) and isinstance(c, list) and len(c) == 8 and b.calls == 1
    assert ok_ticks and ok_ticks[-1] == 8
    with pytest.raises(Lost):
        await b.embed_passages([f"x{i}" for i in range(40)], progress=lost)
    assert emb.log[-1] == "embed2"


async def test_start_builds_the_model_file_in_a_niced_thread_then_loads_it(tmp_path) -> None:
    """Issue 18 item 3: the model file (seconds of CPU on a fresh data directory) is built at a lower priority than
    the first upload's text path; the session is created at normal priority (its threads inherit it)."""
    import os
    import threading

    seen: dict[str, tuple[str, int]] = {}

    def nice_of_this_thread() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    class Loading(ToyEmbedder):
        def prepare(self) -> None:
            seen["prepare"] = (threading.current_thread().name, nice_of_this_thread())

        def load(self) -> None:
            seen["load"] = (threading.current_thread().name, nice_of_this_thread())

    from retrieval.search import LOAD_NICE

    base = nice_of_this_thread()
    r = Retriever(Loading(), LanceIndex(tmp_path / "lance", DIM))
    await r.start()
    await r.warmed()
    assert seen["prepare"][0] == "embedder-prepare"
    assert seen["prepare"][1] == min(19, base + LOAD_NICE)
    assert seen["load"][1] == base and seen["load"][0] != "embedder-prepare"
    assert nice_of_this_thread() == base and r.load_cpu_s >= 0
    await r.close()


async def test_a_vector_fill_yields_to_a_search_between_its_session_runs(tmp_path) -> None:
    """Issue 18: a question asked while a document's vectors are filled in is not queued behind the fill's batch:
    the fill waits between two session runs (every few chunks) until the search is over."""
    import threading

    ran = threading.Event()
    runs: list[int] = []

    class Runs(ToyEmbedder):
        def embed_passages(self, texts, progress=None):
            for done in range(4, len(texts) + 4, 4):
                runs.append(done)
                ran.set()
                if progress is not None:
                    progress(min(done, len(texts)), len(texts))
            return super().embed_passages(texts)

    index = LanceIndex(tmp_path / "lance", DIM)
    release = asyncio.Event()
    real_search = index.search

    async def slow_search(*a, **k):
        await release.wait()
        return await real_search(*a, **k)

    r = Retriever(Runs(), index)
    await r.start()
    await r.index_keywords([chunk("d0", 0, "alpha beta")])
    index.search = slow_search  # type: ignore[method-assign]
    search = asyncio.create_task(r.search("alpha", SearchFilter("p1"), k=3))
    await asyncio.sleep(0.05)
    fill = asyncio.create_task(r.index_chunks([chunk("d1", i, f"word{i} text") for i in range(20)],
                                              progress=lambda d, t: None))
    await asyncio.to_thread(ran.wait, 10)
    await asyncio.sleep(0.3)
    assert runs == [4]  # one session run, then it waits for the search
    release.set()
    assert await search
    await fill
    assert runs == [4, 8, 12, 16, 20]
    await r.close()


async def test_the_retriever_warms_the_index_at_start_and_the_warm_up_writes_nothing(tmp_path) -> None:
    """Issue 18: LanceDB's first write paid its engine's start on the first upload's path; a keyword search that
    matches nothing at start-up pays it instead."""
    warmed: list[bool] = []

    class Recording(LanceIndex):
        async def warm(self) -> None:
            warmed.append(True)
            await super().warm()

    index = Recording(tmp_path / "lance", DIM)
    r = Retriever(ToyEmbedder(), index)
    await r.start()
    assert warmed == [True]
    assert index._table().count_rows() == 0
    await index.upsert_text([chunk("docA", 0, "capital expenditure was large")])
    hits = await r.search("capital expenditure", SearchFilter("p1"), k=3, mode="keyword")
    assert [h.chunk_id for h in hits] == ["docA:00000"]
    await r.close()
