"""The prompt-cache benchmark command prints a per-turn table and the hit ratio."""

from __future__ import annotations

from bench.prompt_cache import main, simulate_conversation, summarize


def test_bench_prints_table(capsys) -> None:
    main(["--turns", "4", "--hits", "4"])
    out = capsys.readouterr().out
    assert "cache_read" in out and "cache-hit ratio, turns 3..4" in out
    assert len([line for line in out.splitlines() if line.strip()[:1].isdigit()]) == 4


async def test_more_history_means_a_higher_ratio() -> None:
    rows = await simulate_conversation(6, hits=4, chunk_tokens=128)
    assert summarize(rows, from_turn=5) > summarize(rows, from_turn=2) > 0
