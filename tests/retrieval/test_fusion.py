from __future__ import annotations

import pytest

from retrieval.fusion import min_max, normalized_hybrid, reciprocal_rank_fusion, weighted_arithmetic_mean, z_score


def test_rrf_scores_and_order() -> None:
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["b", "d"]], k=60)
    scores = dict(fused)
    assert scores["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert scores["a"] == pytest.approx(1 / 61)
    assert [d for d, _ in fused] == ["b", "a", "d", "c"]  # a and d tie on score; a has first appearance


def test_rrf_tie_breaks_by_best_rank_then_first_seen() -> None:
    fused = reciprocal_rank_fusion([["x", "y"], ["y", "x"]])
    assert [d for d, _ in fused] == ["x", "y"]


def test_rrf_weights_and_duplicates() -> None:
    fused = dict(reciprocal_rank_fusion([["a", "a", "b"], ["b"]], k=0, weights=[1.0, 3.0]))
    assert fused == {"a": pytest.approx(1.0), "b": pytest.approx(1 / 3 + 3.0)}


def test_rrf_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        reciprocal_rank_fusion([["a"]], weights=[1.0, 2.0])
    with pytest.raises(ValueError):
        reciprocal_rank_fusion([["a"]], k=-1)


def test_rrf_empty() -> None:
    assert reciprocal_rank_fusion([[], []]) == []


def test_min_max() -> None:
    assert min_max({"a": 2.0, "b": 4.0, "c": 3.0}) == {"a": 0.0, "b": 1.0, "c": 0.5}
    assert min_max({"a": 5.0, "b": 5.0}) == {"a": 1.0, "b": 1.0}
    assert min_max({}) == {}


def test_z_score() -> None:
    z = z_score({"a": 1.0, "b": 2.0, "c": 3.0})
    assert z["b"] == pytest.approx(0.0)
    assert z["c"] == pytest.approx(1.224744871)
    assert z_score({"a": 7.0}) == {"a": 0.0}


def test_weighted_mean_counts_missing_as_zero() -> None:
    out = dict(weighted_arithmetic_mean([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.2}], [0.3, 0.7]))
    assert out["a"] == pytest.approx(0.3)
    assert out["b"] == pytest.approx(0.15 + 0.7)
    assert out["c"] == pytest.approx(0.14)


def test_weighted_mean_validates_weights() -> None:
    with pytest.raises(ValueError):
        weighted_arithmetic_mean([{"a": 1.0}], [0.0])
    with pytest.raises(ValueError):
        weighted_arithmetic_mean([{"a": 1.0}], [1.0, 1.0])


def test_normalized_hybrid_like_opensearch_processor() -> None:
    kw = {"a": 12.0, "b": 6.0, "c": 3.0}  # BM25 scale
    vec = {"b": 0.9, "c": 0.8, "d": 0.7}  # cosine scale
    ranked = normalized_hybrid(kw, vec, keyword_weight=0.5)
    scores = dict(ranked)
    assert scores["a"] == pytest.approx(0.5)
    assert scores["b"] == pytest.approx(0.5 * (3 / 9) + 0.5 * 1.0)
    assert ranked[0][0] == "b"
    assert dict(normalized_hybrid(kw, vec, keyword_weight=1.0))["d"] == pytest.approx(0.0)
    with pytest.raises(ValueError):
        normalized_hybrid(kw, vec, technique="l2")
    with pytest.raises(ValueError):
        normalized_hybrid(kw, vec, keyword_weight=1.5)
