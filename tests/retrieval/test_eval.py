"""Retrieval evaluation: metric logic (pure) and small real runs on ../shared/evaldata (skipped if absent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import structlog

from chat.cli.main import main as docchat
from retrieval.embed_cache import EmbeddingCache
from retrieval.eval import ModeResult, evaluate, first_relevant_rank
from retrieval.evaldata import load_financebench, load_korquad
from retrieval.types import Hit
from store.errors import NotFound
from tests.retrieval.conftest import ToyEmbedder

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "evaldata"
needs_data = pytest.mark.skipif(not (DATA / "korquad_v1").is_dir(), reason=f"evaluation data absent at {DATA}")


def hit(doc: str, p0: int, p1: int | None = None) -> Hit:
    return Hit(f"{doc}:{p0}", doc, "f", p0, p1 or p0, "t", 1.0)


def test_first_relevant_rank_dedupes_pages() -> None:
    hits = [hit("a", 1), hit("a", 1), hit("a", 2), hit("b", 7)]
    assert first_relevant_rank(hits, frozenset({("b", 7)})) == 3
    assert first_relevant_rank(hits, frozenset({("a", 2)})) == 2
    assert first_relevant_rank(hits, frozenset({("c", 1)})) is None
    assert first_relevant_rank(hits, frozenset({("b", 7)}), k=2) is None
    assert first_relevant_rank([hit("a", 4, 5)], frozenset({("a", 5)})) == 1


def test_metrics() -> None:
    m = ModeResult(ranks=[1, 3, None, 7], seconds=0.4).metrics()
    assert m["recall@1"] == 0.25 and m["recall@5"] == 0.5 and m["recall@10"] == 0.75
    assert m["mrr"] == pytest.approx((1 + 1 / 3 + 1 / 7) / 4)
    assert m["ms_per_query"] == pytest.approx(100.0)


def test_missing_data_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(NotFound, match="evaluation data"):
        load_korquad(tmp_path / "nope")


@needs_data
def test_loaders_read_real_data() -> None:
    kq = load_korquad(DATA, limit=5, max_articles=2)
    assert len(kq.queries) == 5 and kq.units and all(u.language == "ko" for u in kq.units)
    assert all(next(iter(q.targets))[0] == q.document_id for q in kq.queries)
    fb = load_financebench(DATA, limit=1)
    assert fb.queries[0].document_id == "3M_2018_10K"
    assert {d for d, _ in fb.queries[0].targets} == {"3M_2018_10K"}
    assert len(fb.units) > 50 and all(u.document_id == "3M_2018_10K" for u in fb.units)


@needs_data
async def test_small_korquad_run_all_modes(tmp_path) -> None:
    evalset = load_korquad(DATA, limit=30, max_articles=3)
    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    out = await evaluate(evalset, ToyEmbedder(), tmp_path / "ix", cache=cache)
    assert set(out) == {"keyword", "vector", "hybrid", "meta"}
    assert out["keyword"]["recall@10"] >= 0.8  # bigram BM25 on a 3-article corpus
    assert out["meta"]["queries"] == 30
    again = await evaluate(evalset, ToyEmbedder(), tmp_path / "ix", cache=cache)  # from the cache
    assert again["hybrid"]["recall@5"] == out["hybrid"]["recall@5"]
    cache.close()


@needs_data
def test_cli_json_keyword_only(tmp_path, capsys) -> None:
    try:
        code = docchat(
            [
                "eval",
                "retrieval",
                "--dataset",
                "korquad",
                "--limit",
                "20",
                "--max-articles",
                "2",
                "--mode",
                "keyword",
                "--json",
                "--data",
                str(DATA),
                "--data-dir",
                str(tmp_path),
            ]
        )
    finally:
        structlog.reset_defaults()  # main() bound the log stream to capsys' stderr, which closes after this test
    assert code == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(out) == {"keyword", "meta"}
    assert 0.0 <= out["keyword"]["recall@5"] <= 1.0 and out["meta"]["embed_passages_s"] == 0.0


def test_financebench_pages_are_embedded_by_their_first_window_unless_told_otherwise() -> None:
    import argparse

    from retrieval.eval import FINANCEBENCH_VECTOR_CHARS, _vector_chars

    def ns(dataset: str, chars: int | None) -> argparse.Namespace:
        return argparse.Namespace(dataset=dataset, vector_chars=chars)

    assert _vector_chars(ns("financebench", None)) == FINANCEBENCH_VECTOR_CHARS
    assert _vector_chars(ns("korquad", None)) is None
    assert _vector_chars(ns("financebench", 0)) is None  # 0 = the whole page
    assert _vector_chars(ns("korquad", 800)) == 800


def test_units_chunks_cuts_each_document_with_the_given_chunker() -> None:
    from retrieval.eval import as_chunks
    from retrieval.evaldata import EvalSet, Query
    from retrieval.types import Chunk

    pages = [Chunk(f"d:{p}", "proj", "d", "d.pdf", f"page {p} text", p, p, chunk_index=p - 1) for p in (1, 2, 3)]
    evalset = EvalSet("x", "proj", pages, [Query("q", frozenset({("d", 2)}), "d")])
    seen: list[tuple[list[int], str, str, str]] = []

    def chunker(segments, project_id, document_id, file_name):
        seen.append(([s["page"] for s in segments], project_id, document_id, file_name))
        return [Chunk("d:00000", project_id, document_id, file_name, "page 1 text page 2 text", 1, 2)]

    out = as_chunks(evalset, chunker)
    assert seen == [([1, 2, 3], "proj", "d", "d.pdf")]
    assert [(c.page_start, c.page_end) for c in out.units] == [(1, 2)]
    assert out.queries == evalset.queries and out.notes["unit_kind"] == "chunk"


@needs_data
def test_cli_units_chunks_runs_the_ingest_chunker(tmp_path, capsys) -> None:
    args = ["eval", "retrieval", "--dataset", "korquad", "--limit", "20", "--max-articles", "2", "--mode", "keyword",
            "--units", "chunks", "--json", "--data", str(DATA), "--data-dir", str(tmp_path)]
    try:
        code = docchat(args)
    finally:
        structlog.reset_defaults()
    assert code == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["meta"]["unit_kind"] == "chunk" and out["meta"]["units"] > 0
    assert out["keyword"]["recall@5"] > 0.5
