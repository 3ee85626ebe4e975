"""The choice-weight fit (``bench.reader_choice``): a conditional logit over each question's candidates."""

from __future__ import annotations

import numpy as np

from bench.reader_choice import _holds, accuracy, fit


def _groups(seed: int) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """Questions of 4 candidates: feature 0 marks the right one (with noise), feature 1 is noise only."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(120):
        right = int(rng.integers(4))
        x = rng.normal(0.0, 0.3, size=(4, 2))
        x[right, 0] += 1.0
        y = np.zeros(4)
        y[right] = 1.0
        out.append((x, y, i))
    return out


def test_the_fit_finds_the_feature_that_marks_the_answer() -> None:
    train, test = _groups(1), _groups(2)
    w = fit(train, 2, steps=500)
    assert w[0] > 1.0 and abs(w[1]) < w[0] / 3
    assert accuracy(test, w) > 0.8
    assert accuracy(test, np.zeros(2)) < 0.5  # ties go to the first candidate: chance level


def test_a_gold_span_is_found_across_spacing() -> None:
    assert _holds(["고페르 나무"], "선체는 고페르나무(잣나무)로 되고")
    assert not _holds(["역청"], "선체는 고페르나무로 되고")
