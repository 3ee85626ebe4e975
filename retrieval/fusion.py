"""Hybrid fusion and score normalisation — pure functions over ranked ids and scores.

``reciprocal_rank_fusion`` is what the LanceDB adapter uses (rank-based, so BM25 and cosine scales never
have to agree). ``min_max`` / ``z_score`` + ``weighted_arithmetic_mean`` reproduce OpenSearch's
``normalization-processor`` (technique ``min_max``, combination ``arithmetic_mean`` with weights), so the
two adapters' behaviour can be reasoned about with the same code.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

RRF_K = 60


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[str]], *, k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[tuple[str, float]]:
    """Fuse ranked id lists: ``score(d) = Σ_i w_i / (k + rank_i(d))`` with 1-based ranks.

    An id missing from a list contributes nothing for it. Ties are broken by the best single rank,
    then by first appearance (so the result is deterministic). Duplicate ids within one list count once
    (their best rank).
    """
    if k < 0:
        raise ValueError("k must be >= 0")
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError("one weight per ranking")
    scores: dict[str, float] = {}
    best_rank: dict[str, int] = {}
    order: dict[str, int] = {}
    for ranking, w in zip(rankings, weights, strict=True):
        seen: set[str] = set()
        for rank, doc_id in enumerate(ranking, start=1):
            if doc_id in seen:
                continue
            seen.add(doc_id)
            scores[doc_id] = scores.get(doc_id, 0.0) + w / (k + rank)
            best_rank[doc_id] = min(best_rank.get(doc_id, rank), rank)
            order.setdefault(doc_id, len(order))
    return sorted(scores.items(), key=lambda kv: (-kv[1], best_rank[kv[0]], order[kv[0]]))


def min_max(scores: Mapping[str, float]) -> dict[str, float]:
    """Scale to [0, 1]. All-equal scores map to 1.0 (each hit is as good as the best one)."""
    if not scores:
        return {}
    lo, hi = min(scores.values()), max(scores.values())
    if hi - lo <= 0.0 or not math.isfinite(hi - lo):
        return dict.fromkeys(scores, 1.0)
    return {d: (s - lo) / (hi - lo) for d, s in scores.items()}


def z_score(scores: Mapping[str, float]) -> dict[str, float]:
    """Standardise to mean 0 / std 1 (population std). Constant scores map to 0.0."""
    if not scores:
        return {}
    vals = list(scores.values())
    mean = sum(vals) / len(vals)
    var = sum((v - mean) ** 2 for v in vals) / len(vals)
    if var <= 0.0:
        return dict.fromkeys(scores, 0.0)
    std = math.sqrt(var)
    return {d: (s - mean) / std for d, s in scores.items()}


def weighted_arithmetic_mean(
    normalized: Sequence[Mapping[str, float]], weights: Sequence[float] | None = None
) -> list[tuple[str, float]]:
    """OpenSearch's ``arithmetic_mean`` combination: ``Σ w_i s_i / Σ w_i``; a missing score counts as 0.

    Returns ids sorted by combined score (desc), ties by first appearance.
    """
    if weights is None:
        weights = [1.0] * len(normalized)
    if len(weights) != len(normalized):
        raise ValueError("one weight per score list")
    if any(w < 0 for w in weights) or sum(weights) <= 0:
        raise ValueError("weights must be non-negative and not all zero")
    total = float(sum(weights))
    combined: dict[str, float] = {}
    order: dict[str, int] = {}
    for scores, w in zip(normalized, weights, strict=True):
        for d, s in scores.items():
            combined[d] = combined.get(d, 0.0) + w * s
            order.setdefault(d, len(order))
    return sorted(((d, s / total) for d, s in combined.items()), key=lambda kv: (-kv[1], order[kv[0]]))


def normalized_hybrid(
    keyword: Mapping[str, float],
    vector: Mapping[str, float],
    *,
    keyword_weight: float = 0.5,
    technique: str = "min_max",
) -> list[tuple[str, float]]:
    """Normalise each sub-query's scores then combine with weights ``[keyword_weight, 1 - keyword_weight]``."""
    if not 0.0 <= keyword_weight <= 1.0:
        raise ValueError("keyword_weight must be within [0, 1]")
    norm = min_max if technique == "min_max" else z_score if technique == "z_score" else None
    if norm is None:
        raise ValueError(f"unknown normalisation technique {technique!r}")
    return weighted_arithmetic_mean([norm(keyword), norm(vector)], [keyword_weight, 1.0 - keyword_weight])
