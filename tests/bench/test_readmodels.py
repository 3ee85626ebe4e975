"""bench.readmodels: the windows read 60/72/288 items whatever the traffic; at seed 004's traffic the counters
cost less than one (background) write per event, while at a tenth of it a flush a second costs more than one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import bench.readmodels as br
from store.metrics import SqliteMetricsStore


@pytest.mark.parametrize(("questions", "uploads", "below_one"), [(1_000_000, 300_000, True),
                                                                  (100_000, 30_000, False)])
def test_a_day_reads_a_fixed_number_of_items_and_counts_its_writes(
        questions: int, uploads: int, below_one: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(br, "QUESTIONS_PER_DAY", questions)
    monkeypatch.setattr(br, "UPLOADS_PER_DAY", uploads)
    store = SqliteMetricsStore(tmp_path / "m.db")
    end = 1_800_000_150.0
    m = br.simulate_day(store, scale=1, end=end, full_minutes=1, users=5000, session_questions=5,
                        rng=random.Random(1))
    assert m["events"] > 150
    assert (m["writes"] / m["events"] < 1) is below_one
    rows = {r["window"]: r for r in br.read_costs(store, end, runs=1)}
    assert {w: r["series_items"] for w, r in rows.items()} == {"1h": 60, "6h": 72, "24h": 288}
    assert {w: r["summary_items"] for w, r in rows.items()} == {"1h": 61, "6h": 73, "24h": 289}
