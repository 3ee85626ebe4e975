"""Prompt-cache benchmark: a multi-turn conversation through the real request layout.

``python -m bench.prompt_cache [--turns 20] [--hits 8] [--chunk-tokens 256]`` runs a
conversation against the ``LocalModel`` (question → ``search_documents`` tool_use → tool
result with ``--hits`` passages → quoted answer), builds every request with
``chat.core.prompt.build_request``, and prints, per turn, the tokens read from the simulated
prefix cache, written to it, and not cached, plus the cache-hit ratio. The test suite
runs the same simulation (``tests/chat/test_local_model.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from dataclasses import dataclass
from typing import Any

from chat.models.local import LocalModel
from chat.core.prompt import SYSTEM_PROMPT, build_request
from chat.core.stream import MessageAccumulator
from chat.core.tools import TOOLS, format_search_results
from retrieval.types import Hit

_WORDS = (
    "revenue growth margin customer contract delivery schedule warranty payment invoice quarter report region "
    "sales cost supplier audit inventory forecast budget liability"
).split()


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
    turns: int = 20, *, hits: int = 8, chunk_tokens: int = 256, model: LocalModel | None = None, seed: int = 7
) -> list[TurnUsage]:
    """Run ``turns`` question/tool/answer exchanges; usage summed per turn."""
    rng = random.Random(seed)
    model = model or LocalModel()
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
            acc = MessageAccumulator()
            async for event in model.stream(request):
                acc.feed(event)
            message = acc.message
            requests += 1
            usage = message["usage"]
            read += int(usage.get("cache_read_input_tokens", 0))
            write += int(usage.get("cache_creation_input_tokens", 0))
            uncached += int(usage.get("input_tokens", 0))
            messages.append({"role": "assistant", "content": message["content"]})
            if message["stop_reason"] != "tool_use":
                break
            results = [
                {
                    "type": "tool_result",
                    "tool_use_id": block["id"],
                    "content": format_search_results(_hits(rng, turn, hits, chunk_tokens), 1 + (turn - 1) * hits),
                }
                for block in message["content"]
                if block.get("type") == "tool_use"
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
