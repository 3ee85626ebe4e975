"""The prompt-cache benchmark: the simulated prefix cache, the 20-turn hit ratio, the command's table."""

from __future__ import annotations

import itertools

from bench.prompt_cache import PrefixCache, main, simulate_conversation, summarize
from chat.core.prompt import SYSTEM_PROMPT, build_request, prefix_chain
from chat.core.tools import TOOLS
from chat.models.port import ModelRequest


def test_bench_prints_table(capsys) -> None:
    main(["--turns", "4", "--hits", "4"])
    out = capsys.readouterr().out
    assert "cache_read" in out and "cache-hit ratio, turns 3..4" in out
    assert len([line for line in out.splitlines() if line.strip()[:1].isdigit()]) == 4


async def test_more_history_means_a_higher_ratio() -> None:
    rows = await simulate_conversation(6, hits=4, chunk_tokens=128)
    assert summarize(rows, from_turn=5) > summarize(rows, from_turn=2) > 0


# --------------------------------------------------------------------------- simulated prefix cache


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _req(messages: list[dict]) -> ModelRequest:
    return build_request(SYSTEM_PROMPT, TOOLS, messages, max_tokens=100)


def test_prefix_cache_hits_ttl_and_min_tokens() -> None:
    clock = _Clock()
    cache = PrefixCache(clock=clock, min_tokens=1024)
    big = "매출 보고서 " * 800
    msgs = [{"role": "user", "content": [{"type": "text", "text": big}]}]
    chain = prefix_chain(_req(msgs))
    first = cache.account(chain)
    assert first.cache_read_input_tokens == 0 and first.cache_creation_input_tokens == chain.total_tokens
    second = cache.account(chain)
    assert second.cache_read_input_tokens == chain.total_tokens and second.total == chain.total_tokens
    clock.now += 299  # a hit refreshes the 5-minute TTL …
    assert cache.account(chain).cache_read_input_tokens == chain.total_tokens
    clock.now += 299
    assert cache.account(chain).cache_read_input_tokens == chain.total_tokens
    clock.now += 301  # … and it expires after 5 idle minutes
    assert cache.account(chain).cache_read_input_tokens == 0
    tiny = prefix_chain(_req([{"role": "user", "content": [{"type": "text", "text": "hi"}]}]))
    fresh = PrefixCache(clock=clock, min_tokens=100_000)
    fresh.account(tiny)
    assert fresh.account(tiny).cache_read_input_tokens == 0  # below the minimum nothing is cached
    assert len(fresh) == 0


async def test_cache_hit_ratio_of_a_20_turn_conversation() -> None:
    rows = await simulate_conversation(20)
    assert len(rows) == 20 and all(r.requests >= 2 for r in rows)  # a statement question may search twice
    # nothing was cached before the first turn: what it reads (its tool round's second request reading the
    # system + tools prefix the first wrote) it wrote itself
    assert rows[0].cache_read <= rows[0].cache_write
    assert summarize(rows, from_turn=3) >= 0.90
    # only grows as history grows, among turns of the same shape (a turn with a second search round reads the
    # cached prefix once more, so its ratio is higher than the next plain turn's)
    ratios = [r.hit_ratio for r in rows[2:] if r.requests == 2]
    assert len(ratios) >= 12 and all(b >= a for a, b in itertools.pairwise(ratios))
    # only the new turn is processed fresh: under 4,000 tokens per tool round it makes
    assert all(r.uncached + r.cache_write < 4000 * (r.requests - 1) for r in rows[1:])
