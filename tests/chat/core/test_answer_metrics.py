"""One answer's numbers from its events: time to first token, tokens over every round, declines, errors."""

from __future__ import annotations

from pathlib import Path

from chat.core.answer_metrics import AnswerMetrics
from store.metrics import GLOBAL_PK, MetricsRecorder, SqliteMetricsStore, bucket_sk, day_sk, user_pk

NOW = 1_800_000_000.0


class Tick:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _run(tmp_path: Path, events: list[tuple[str, dict]]) -> dict:
    store = SqliteMetricsStore(tmp_path / "m.db", clock=lambda: NOW)
    rec = MetricsRecorder(store, flush_seconds=0, clock=lambda: NOW)
    tick = Tick()
    obs = AnswerMetrics(rec, user="alice", project="p1", clock=tick)
    for name, data in events:
        tick.t += 0.5
        obs(name, data)
    item = store.get(GLOBAL_PK, bucket_sk(NOW))
    assert item is not None
    day = store.get(user_pk("alice"), day_sk(NOW))
    assert day is not None and day["n.questions"] == 1 and day["n.p.p1.questions"] == 1
    return item


def test_a_cited_answer(tmp_path: Path) -> None:
    item = _run(tmp_path, [("start", {}), ("tool", {}), ("usage", {"input": 50, "output": 5, "cache_read": 100,
                                                                      "cache_write": 0}),
                           ("text", {"delta": "It grew "}), ("text", {"delta": "[S1]."}), ("citation", {}),
                           ("usage", {"input": 10, "output": 7, "cache_read": 0, "cache_write": 20}),
                           ("done", {"stop_reason": "end_turn"}), ("done", {"stop_reason": "end_turn"})])
    assert item["n.questions"] == 1 and item["n.answers"] == 1 and "n.declined" not in item
    assert item["s.ttft_seconds"] == 2.0 and item["s.answer_seconds"] == 4.0  # the second done is ignored
    assert (item["n.tokens_in"], item["n.tokens_out"], item["n.cache_read"], item["n.cache_write"]) == (60, 12, 100,
                                                                                                         20)


def test_a_decline_and_an_error(tmp_path: Path) -> None:
    item = _run(tmp_path, [("text", {"delta": "The documents do not say who the CEO is."}),
                           ("done", {"stop_reason": "end_turn"})])
    assert item["n.declined"] == 1 and item["n.answers"] == 1


def test_an_error_counts_by_code_and_is_no_answer(tmp_path: Path) -> None:
    item = _run(tmp_path, [("error", {"code": "upstream_error", "message": "x"}), ("done", {"stop_reason": "error"})])
    assert item["n.errors.upstream_error"] == 1 and "n.answers" not in item and "n.ttft_seconds" not in item
