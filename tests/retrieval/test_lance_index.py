"""LanceIndex specifics beyond the contract: fusion options, ANN index, SQL quoting, persistence layout."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from retrieval.lance_index import LanceIndex, filter_sql
from retrieval.types import SearchFilter
from store.errors import ConfigError, InvalidInput
from tests.retrieval.conftest import DIM, chunk, toy_vector


def test_filter_sql_quotes_values() -> None:
    assert filter_sql(SearchFilter("o'brien")) == "project_id = 'o''brien'"
    assert filter_sql(SearchFilter("p", ("a", "b'c"))) == "project_id = 'p' AND document_id IN ('a', 'b''c')"
    assert filter_sql(SearchFilter("p", ())).endswith("AND false")
    with pytest.raises(InvalidInput):
        filter_sql(SearchFilter(""))


def test_bad_fusion_settings() -> None:
    with pytest.raises(ConfigError):
        LanceIndex(Path("x"), DIM, fusion="max")
    with pytest.raises(ConfigError):
        LanceIndex(Path("x"), DIM, keyword_weight=2.0)


@pytest.mark.parametrize("fusion", ["min_max", "z_score", "rrf"])
async def test_every_fusion_puts_the_chunk_strong_in_both_legs_first(tmp_path, fusion: str) -> None:
    idx = LanceIndex(tmp_path, DIM, fusion=fusion)
    chunks = [chunk("d", i, t) for i, t in enumerate(["alpha beta gamma", "beta delta", "gamma epsilon", "zeta"])]
    await idx.upsert(chunks, [toy_vector(c.text) for c in chunks])
    hits = await idx.search("alpha beta", toy_vector("alpha beta gamma"), SearchFilter("p1"), k=3)
    assert hits[0].chunk_id == "d:00000"
    assert {"vector_rank", "keyword_rank"} <= set(hits[0].extra)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


async def test_ann_index_is_built_when_large_enough_and_stays_accurate(tmp_path) -> None:
    rng = np.random.default_rng(3)
    vecs = rng.standard_normal((600, DIM)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    chunks = [chunk(f"d{i // 50}", i % 50, f"text {i}") for i in range(600)]
    idx = LanceIndex(tmp_path, DIM, ann_min_rows=500)
    await idx.upsert(chunks, vecs.tolist())
    await idx.optimize()
    names = {ix.name for ix in idx._table().list_indices()}
    assert "vector_idx" in names
    hits = await idx.search("text", vecs[123].tolist(), SearchFilter("p1"), k=5, mode="vector")
    assert hits[0].chunk_id == chunks[123].chunk_id
    assert await idx.count(SearchFilter("p1")) == 600


async def test_a_table_from_before_the_layout_columns_is_migrated_on_open(tmp_path) -> None:
    import lancedb
    import pyarrow as pa

    from retrieval import lance_index
    from retrieval.types import BBox, Chunk

    old_schema = pa.schema([f for f in lance_index._schema(DIM) if f.name not in ("page_offsets", "line_boxes")])
    old = chunk("old", 0, "legacy revenue paragraph")
    row = {k: v for k, v in lance_index._row(old, toy_vector(old.text), DIM).items() if k in old_schema.names}
    db = lancedb.connect(str(tmp_path))
    db.create_table(lance_index.TABLE, data=pa.Table.from_pylist([row], schema=old_schema))

    idx = LanceIndex(tmp_path, DIM)
    await idx.ensure()
    (hit,) = await idx.search("legacy revenue", None, SearchFilter("p1"), k=1, mode="keyword")
    assert hit.chunk_id == "old:00000" and (hit.page_offsets, hit.line_boxes) == ((), ())
    new = Chunk("new:00000", "p1", "new", "n.pdf", "fresh revenue\n\nsecond page", 1, 2,
                page_offsets=((1, 0), (2, 15)), line_boxes=((15, BBox(2, 1.0, 2.0, 3.0, 4.0)),))
    await idx.upsert([new], [toy_vector(new.text)])
    (hit,) = await idx.search("fresh second", None, SearchFilter("p1"), k=1, mode="keyword")
    assert hit.page_offsets == ((1, 0), (2, 15)) and hit.line_boxes == new.line_boxes
    await idx.close()
    await LanceIndex(tmp_path, DIM).ensure()  # reopening the migrated table changes nothing


async def test_an_index_commit_lost_to_another_process_opening_the_same_index_is_retried(tmp_path, monkeypatch) -> None:
    # `docchat up --aws-local`: API processes and a worker open a fresh index at once and each creates its indices;
    # the loser of a commit gets lance's "Retryable commit conflict" and must go on with the winner's index
    real = LanceIndex._create_indices
    calls = []

    def conflict_once(tbl, fts, btree):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("lance error: Retryable commit conflict for version 4: This CreateIndex transaction "
                               "was preempted by concurrent transaction CreateIndex at version 4. Please retry.")
        real(tbl, fts, btree)

    monkeypatch.setattr(LanceIndex, "_create_indices", staticmethod(conflict_once))
    idx = LanceIndex(tmp_path, DIM)
    await idx.ensure()
    await idx.upsert([chunk("d1", 0, "alpha beta")], [toy_vector("alpha beta")])
    hits = await idx.search("alpha", None, SearchFilter("p1"), k=1, mode="keyword")
    assert [h.chunk_id for h in hits] == ["d1:00000"]
    assert len(calls) == 2


async def test_an_index_error_that_is_not_a_conflict_is_not_retried(tmp_path, monkeypatch) -> None:
    from store.errors import UpstreamError

    def broken(tbl, fts, btree):
        raise OSError("disk full")

    monkeypatch.setattr(LanceIndex, "_create_indices", staticmethod(broken))
    with pytest.raises(UpstreamError, match="disk full"):
        await LanceIndex(tmp_path, DIM).ensure()
