"""Fit the weights of the Korean lead-sentence choice (``chat.models.reader.choice.WEIGHTS``) on captured searches.

    python -m bench.reader_statements capture --dataset korquad --split calibration --data-dir D   # once, ~7 min
    python -m bench.reader_choice --data-dir D                                                      # ~2 min

For every positive question of the capture whose best evidence is a Korean sentence, ``choose``'s candidates (the
top ``TOP_K`` sentences) and their features are computed with the current reader; a candidate is right when a gold
span is inside it. A conditional-logit (softmax over one question's candidates) is fitted by gradient descent with
a small L2 penalty, two-fold by article: fitted on one half of the articles, measured on the other. Prints the
share of questions whose chosen sentence holds the gold for: the search order (rank 0), the weights in
``choice.py``, the two-fold held-out fit, and the fit on all — and the all-data weights, to be written into
``choice.py`` by hand. Only for the calibration split: the report split's questions must not shape the weights.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bench.reader_statements import replayed
from chat.models.local import passages_of
from chat.models.reader.choice import WEIGHTS, candidate_features
from chat.models.reader.evidence import gather
from chat.models.reader.question import analyze

L2 = 1e-3
STEPS = 3000
RATE = 0.05


def _holds(golds: Sequence[str], text: str) -> bool:
    squashed = "".join(text.split())
    return any("".join(g.split()) in squashed for g in golds)


def _article(keys: frozenset[tuple[str, int]] | Sequence[tuple[str, int]]) -> int:
    digits = re.sub(r"\D", "", min(keys)[0]) if keys else ""
    return int(digits) if digits else 0


def collect(data_dir: Path, data: Path | None) -> tuple[list[str], list[tuple[np.ndarray, np.ndarray, int]]]:
    names = list(WEIGHTS)
    groups: list[tuple[np.ndarray, np.ndarray, int]] = []
    for q, positive, sources in replayed(data_dir, data):
        if not positive:
            continue
        question = analyze(q.text)
        if question.language != "ko":
            continue
        ranked = gather(question, passages_of(sources))
        if not ranked or ranked[0].kind != "sentence":
            continue
        cands = candidate_features(question, ranked)
        if len(cands) < 2:
            continue
        x = np.array([[f[n] for n in names] for _, f in cands], dtype=float)
        y = np.array([_holds(q.golds, ev.quote_text) for ev, _ in cands], dtype=float)
        groups.append((x, y, _article(q.pages)))
    return names, groups


def fit(groups: Sequence[tuple[np.ndarray, np.ndarray, int]], n: int, steps: int = STEPS) -> np.ndarray:
    w = np.zeros(n)
    m, v = np.zeros(n), np.zeros(n)
    usable = [(x, y) for x, y, _ in groups if y.any()]
    for step in range(1, steps + 1):
        grad = L2 * w
        for x, y in usable:
            s = x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            pos = p * y
            q = pos / pos.sum()
            grad -= (q - p) @ x / len(usable)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def accuracy(groups: Sequence[tuple[np.ndarray, np.ndarray, int]], w: np.ndarray) -> float:
    if not groups:
        return 0.0
    hits = 0.0
    for x, y, _ in groups:
        s = x @ w
        hits += y[int(np.argmax(s))]  # ties: the first (best-ranked) candidate
    return hits / len(groups)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.reader_choice", description=__doc__.split("\n")[0])
    p.add_argument("--data-dir", type=Path, required=True, help="a capture of the KorQuAD calibration split")
    p.add_argument("--data", type=Path, default=None, help="evaluation data root (default ../shared/evaldata)")
    args = p.parse_args(argv)
    names, groups = collect(args.data_dir, args.data)
    current = np.array([WEIGHTS[n] for n in names])
    first = np.zeros(len(names))
    first[names.index("rank")] = -1.0
    print(f"{len(groups)} questions with a sentence choice; gold in any candidate: "
          f"{sum(bool(y.any()) for _, y, _ in groups) / max(len(groups), 1):.1%}")
    print(f"search order (rank 0): {accuracy(groups, first):.1%}")
    print(f"weights in choice.py:  {accuracy(groups, current):.1%}")
    folds = [[g for g in groups if (g[2] // 2) % 2 == k] for k in (0, 1)]
    held = [accuracy(folds[1 - k], fit(folds[k], len(names))) for k in (0, 1)]
    sizes = [len(f) for f in folds]
    print(f"two-fold held out:     {(held[0] * sizes[1] + held[1] * sizes[0]) / max(sum(sizes), 1):.1%} "
          f"({held[0]:.1%} / {held[1]:.1%})")
    w = fit(groups, len(names))
    print(f"fit on all:            {accuracy(groups, w):.1%}")
    print("WEIGHTS = {" + ", ".join(f'"{n}": {v:.2f}' for n, v in zip(names, w, strict=True)) + "}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
