"""Prompt-cache benchmark: a multi-turn conversation through the real request layout.

``python -m bench.prompt_cache [--turns 20] [--hits 8] [--chunk-tokens 256]`` runs a
conversation against the ``LocalModel`` (question → ``search_documents`` tool_use → tool
result with ``--hits`` passages → quoted answer), builds every request with
``chat.core.prompt.build_request``, runs each through ``PrefixCache`` (below) and prints,
per turn, the tokens read from the simulated prefix cache, written to it, and not cached,
plus the cache-hit ratio. The test suite runs the same simulation (``tests/bench/test_prompt_cache.py``).

``PrefixCache`` simulates Anthropic prompt caching: a hash of the request prefix at every
block boundary (``chat.core.prompt.prefix_chain``), lookups at each ``cache_control`` breakpoint
with the 20-block look-back, writes at breakpoints of at least ``min_tokens``, a 5-minute
TTL refreshed on every hit. Its split (``input_tokens``, ``cache_read_input_tokens``,
``cache_creation_input_tokens``) is what Anthropic's usage would report for the same requests.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chat.core.prompt import LOOKBACK_BLOCKS, SYSTEM_PROMPT, PrefixChain, build_request, prefix_chain
from chat.core.tools import TOOLS
from chat.models.accumulator import MessageAccumulator
from chat.models.local import LocalModel
from chat.models.tool_format import format_search_results
from retrieval.types import Hit

_WORDS = (
    "revenue growth margin customer contract delivery schedule warranty payment invoice quarter report region "
    "sales cost supplier audit inventory forecast budget liability"
).split()


# --------------------------------------------------------------------------- simulated prompt cache


@dataclass(frozen=True, slots=True)
class CacheUsage:
    input_tokens: int  # not read from and not written to the cache
    cache_read_input_tokens: int
    cache_creation_input_tokens: int

    @property
    def total(self) -> int:
        return self.input_tokens + self.cache_read_input_tokens + self.cache_creation_input_tokens


class PrefixCache:
    """An in-process model of Anthropic's prefix cache (per model, like the real one per model/org)."""

    def __init__(
        self,
        *,
        ttl_seconds: float = 300.0,
        min_tokens: int = 1024,
        lookback: int = LOOKBACK_BLOCKS,
        max_entries: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ttl = ttl_seconds
        self.min_tokens = min_tokens
        self.lookback = lookback
        self.max_entries = max_entries
        self.clock = clock
        self._entries: OrderedDict[bytes, float] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def _alive(self, key: bytes, now: float) -> bool:
        expires = self._entries.get(key)
        if expires is None:
            return False
        if expires <= now:
            del self._entries[key]
            return False
        return True

    def _put(self, key: bytes, now: float) -> None:
        self._entries[key] = now + self.ttl
        self._entries.move_to_end(key)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)

    def account(self, chain: PrefixChain) -> CacheUsage:
        """Look up and write the request's breakpoints; return the usage split."""
        now = self.clock()
        total = chain.total_tokens
        if not chain.breakpoints:
            return CacheUsage(total, 0, 0)
        read_idx = -1
        for bp in chain.breakpoints:
            for j in range(bp, max(bp - self.lookback, 0) - 1, -1):
                if self._alive(chain.digests[j], now):
                    if j > read_idx:
                        read_idx = j
                    self._put(chain.digests[j], now)  # a hit refreshes the TTL
                    break
        read = chain.tokens[read_idx] if read_idx >= 0 else 0
        written_to = read
        for bp in chain.breakpoints:
            if bp > read_idx and chain.tokens[bp] >= self.min_tokens:
                self._put(chain.digests[bp], now)
                written_to = max(written_to, chain.tokens[bp])
        creation = written_to - read
        return CacheUsage(total - read - creation, read, creation)


# --------------------------------------------------------------------------- the conversation


@dataclass(frozen=True, slots=True)
class TurnUsage:
    turn: int
    requests: int
    cache_read: int
    cache_write: int
    uncached: int

    @property
    def total(self) -> int:
        return self.cache_read + self.cache_write + self.uncached

    @property
    def hit_ratio(self) -> float:
        return self.cache_read / self.total if self.total else 0.0


def _passage(rng: random.Random, tokens: int) -> str:
    words = [rng.choice(_WORDS) for _ in range(max(tokens * 4 // 7, 1))]  # ~7 chars per word+space ≈ 1.75 tokens
    return " ".join(words) + "."


def _hits(rng: random.Random, turn: int, count: int, chunk_tokens: int) -> list[Hit]:
    return [
        Hit(
            chunk_id=f"doc{turn % 3}:{turn * 10 + i:05d}",
            document_id=f"doc{turn % 3}",
            file_name=f"report-{turn % 3}.pdf",
            page_start=i + 1,
            page_end=i + 1,
            text=_passage(rng, chunk_tokens),
            score=1.0 / (i + 1),
        )
        for i in range(count)
    ]


async def simulate_conversation(
    turns: int = 20,
    *,
    hits: int = 8,
    chunk_tokens: int = 256,
    model: LocalModel | None = None,
    cache: PrefixCache | None = None,
    seed: int = 7,
) -> list[TurnUsage]:
    """Run ``turns`` question/tool/answer exchanges; every request goes through ``cache``; usage summed per turn."""
    rng = random.Random(seed)
    model = model or LocalModel()
    cache = cache or PrefixCache()
    messages: list[dict[str, Any]] = []
    out: list[TurnUsage] = []
    for turn in range(1, turns + 1):
        messages.append(
            {
                "role": "user",
                "content": [{"type": "text", "text": f"How did {rng.choice(_WORDS)} change in quarter {turn}?"}],
            }
        )
        read = write = uncached = requests = 0
        for _ in range(3):  # question → tool_use → answer (bounded)
            request = build_request(SYSTEM_PROMPT, TOOLS, messages, max_tokens=1024)
            usage = cache.account(prefix_chain(request, seed=model.model_id))
            acc = MessageAccumulator()
            async for event in model.stream(request):
                acc.feed(event)
            message = acc.message
            requests += 1
            read += usage.cache_read_input_tokens
            write += usage.cache_creation_input_tokens
            uncached += usage.input_tokens
            messages.append({"role": "assistant", "content": message["content"]})
            if message["stop_reason"] != "tool_use":
                break
            uses = [block for block in message["content"] if block.get("type") == "tool_use"]
            # a turn's search results are ``hits`` passages however many searches the model asked for at once
            # (the local model searches a statement question twice): each search gets its share
            share = -(-hits // max(len(uses), 1))
            results = [
                {
                    "type": "tool_result",
                    "tool_use_id": block["id"],
                    "content": format_search_results(
                        _hits(rng, turn, share, chunk_tokens), 1 + (turn - 1) * hits + n * share
                    ),
                }
                for n, block in enumerate(uses)
            ]
            messages.append({"role": "user", "content": results})
        out.append(TurnUsage(turn, requests, read, write, uncached))
    return out


def summarize(rows: list[TurnUsage], *, from_turn: int = 3) -> float:
    tail = [r for r in rows if r.turn >= from_turn]
    total = sum(r.total for r in tail)
    return sum(r.cache_read for r in tail) / total if total else 0.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--hits", type=int, default=8)
    parser.add_argument("--chunk-tokens", type=int, default=256)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    rows = asyncio.run(simulate_conversation(args.turns, hits=args.hits, chunk_tokens=args.chunk_tokens))
    elapsed = time.perf_counter() - t0
    print(f"{'turn':>4} {'reqs':>4} {'cache_read':>10} {'cache_write':>11} {'uncached':>8} {'hit%':>6}")
    for r in rows:
        print(
            f"{r.turn:>4} {r.requests:>4} {r.cache_read:>10} {r.cache_write:>11} {r.uncached:>8} "
            f"{100 * r.hit_ratio:>5.1f}%"
        )
    print(f"cache-hit ratio, turns 3..{args.turns}: {100 * summarize(rows):.1f}% of input tokens read from cache")
    print(f"simulated {sum(r.requests for r in rows)} requests in {elapsed * 1000:.0f} ms")


if __name__ == "__main__":
    main()
