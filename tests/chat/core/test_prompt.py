"""Request layout, cache breakpoints and byte-stable serialisation."""

from __future__ import annotations

import copy
import itertools
import re

from bench.prompt_cache import PrefixCache
from chat.core.prompt import (
    LOOKBACK_BLOCKS,
    MAX_BREAKPOINTS,
    SYSTEM_PROMPT,
    build_request,
    cached_prefix_bytes,
    count_breakpoints,
    prefix_chain,
    serialize,
    thinking_param,
)
from chat.core.tools import TOOLS
from chat.models.tool_format import format_search_results
from retrieval.types import Hit
from store.config import Settings


def _turn(i: int, *, tool: bool = True) -> list[dict]:
    msgs: list[dict] = [{"role": "user", "content": [{"type": "text", "text": f"질문 {i}: 매출은 어떻게 되나요?"}]}]
    if tool:
        hit = Hit(
            chunk_id=f"d:{i:05d}",
            document_id="d",
            file_name="보고서.pdf",
            page_start=i,
            page_end=i,
            text=f"{i}분기 매출은 {i * 3}% 증가했다. " * 30,
            score=1.0,
        )
        msgs += [
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "", "signature": f"sig{i}"},
                    {
                        "type": "tool_use",
                        "id": f"toolu_{i}",
                        "name": "search_documents",
                        "input": {"query": f"매출 {i}"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": format_search_results([hit], i)}
                ],
            },
        ]
    msgs.append(
        {"role": "assistant", "content": [{"type": "text", "text": f"{i}분기 매출은 {i * 3}% 증가했습니다 [S{i}]."}]}
    )
    return msgs


def _conversation(turns: int) -> list[dict]:
    out: list[dict] = []
    for i in range(1, turns + 1):
        out += _turn(i)
    return out


def _req(messages: list[dict], **kw):
    return build_request(SYSTEM_PROMPT, TOOLS, messages, max_tokens=1024, **kw)


def test_layout_and_breakpoints() -> None:
    messages = [*_conversation(3), {"role": "user", "content": [{"type": "text", "text": "다음 질문"}]}]
    req = _req(messages)
    assert [t["name"] for t in req.tools] == sorted(t["name"] for t in TOOLS)
    assert req.system[-1]["cache_control"] == {"type": "ephemeral"}
    assert req.messages[-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    assert count_breakpoints(req) <= MAX_BREAKPOINTS
    for m in req.messages:
        for b in m["content"]:
            if b["type"] in ("thinking", "redacted_thinking"):
                assert "cache_control" not in b


def test_at_most_four_breakpoints_on_long_history_and_anchors_are_spaced() -> None:
    req = _req([*_conversation(60), {"role": "user", "content": "마지막 질문"}])
    assert count_breakpoints(req) == MAX_BREAKPOINTS
    chain = prefix_chain(req)
    msg_bps = [b for b in chain.breakpoints if b >= len(req.tools) + len(req.system)]
    assert len(msg_bps) == 3
    gaps = [b - a for a, b in itertools.pairwise(msg_bps)]
    assert all(g <= LOOKBACK_BLOCKS for g in gaps)


def test_inputs_are_not_mutated_and_none_is_dropped() -> None:
    messages = [
        {
            "role": "user",
            "content": [{"type": "text", "text": "q", "citations": None, "cache_control": {"type": "ephemeral"}}],
        },
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "x", "input": {"a": None}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "r"}]},
    ]
    before = copy.deepcopy(messages)
    req = _req(messages)
    assert messages == before
    assert req.messages[0]["content"][0] == {"type": "text", "text": "q"}
    assert req.messages[1]["content"][0]["input"] == {"a": None}  # the model's own JSON is verbatim


def test_serialisation_is_byte_stable() -> None:
    messages = _conversation(2)
    shuffled_tools = list(reversed(TOOLS))
    reordered = [{"content": m["content"], "role": m["role"]} for m in messages]
    a = build_request(SYSTEM_PROMPT, TOOLS, messages, max_tokens=100)
    b = build_request(SYSTEM_PROMPT, shuffled_tools, reordered, max_tokens=100)
    assert serialize(a) == serialize(b)
    raw = serialize(a)
    assert b'{"content":[{' in raw  # compact separators, sorted keys
    assert "매출".encode() in raw  # ensure_ascii=False
    assert b"null" not in raw


def test_cached_prefix_of_turn_n_is_byte_identical_in_turn_n_plus_1() -> None:
    history = _conversation(5)
    turn6 = _turn(6)
    req_n = _req(history + turn6[:1])  # turn N: the 6th question
    grown = history + turn6 + _turn(7)[:1]  # turn N+1: the 6th exchange done, the 7th question

    req_n1 = _req(grown)
    chain_n = prefix_chain(req_n)
    assert chain_n.breakpoints
    for bp in chain_n.breakpoints:
        assert cached_prefix_bytes(req_n, bp) == cached_prefix_bytes(req_n1, bp)
    # and the digests the simulated cache keys on agree at every previous breakpoint
    chain_n1 = prefix_chain(req_n1)
    for bp in chain_n.breakpoints:
        assert chain_n.digests[bp] == chain_n1.digests[bp]
    # the system prompt has no timestamps or dates that would change the prefix
    assert not re.search(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}", SYSTEM_PROMPT)


def test_changing_the_system_prompt_changes_every_prefix() -> None:
    msgs = _conversation(1)
    a = prefix_chain(_req(msgs))
    b = prefix_chain(build_request(SYSTEM_PROMPT + " ", TOOLS, msgs, max_tokens=1024))
    assert a.digests[len(TOOLS) - 1] == b.digests[len(TOOLS) - 1]  # tools alone unchanged
    assert a.digests[-1] != b.digests[-1]


def test_anchor_breakpoints_keep_hits_when_a_turn_adds_more_than_20_blocks() -> None:
    history = [*_conversation(4), {"role": "user", "content": [{"type": "text", "text": "긴 질문"}]}]
    big_turn: list[dict] = []
    for r in range(12):  # 12 tool rounds: 24 new blocks
        big_turn.append(
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"tu{r}",
                        "name": "read_page",
                        "input": {"document_id": "d", "page": r + 1},
                    }
                ],
            }
        )
        big_turn.append(
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": f"tu{r}", "content": f"page {r} " * 200}],
            }
        )
    first = _req(history)
    second = _req(history + big_turn)
    history_tokens = prefix_chain(first).total_tokens

    cache = PrefixCache(min_tokens=1)
    cache.account(prefix_chain(first))
    with_anchors = cache.account(prefix_chain(second))
    assert with_anchors.cache_read_input_tokens >= history_tokens

    # the same growth with only the newest-message breakpoint misses the history
    stripped = _req(history + big_turn)
    chain_positions = [(mi, bi) for mi, m in enumerate(stripped.messages) for bi in range(len(m["content"]))]
    for mi, bi in chain_positions[:-1]:
        stripped.messages[mi]["content"][bi].pop("cache_control", None)
    cache2 = PrefixCache(min_tokens=1)
    cache2.account(prefix_chain(first))
    without = cache2.account(prefix_chain(stripped))
    assert without.cache_read_input_tokens < history_tokens


def test_thinking_param_from_settings(tmp_path) -> None:
    assert thinking_param(Settings.from_env(env={}, data_dir=tmp_path)) is None
    s = Settings.from_env(env={"DOCCHAT_THINKING_BUDGET_TOKENS": "4000"}, data_dir=tmp_path)
    assert thinking_param(s.with_overrides(max_output_tokens=8192)) == {"type": "enabled", "budget_tokens": 4000}
    assert thinking_param(s) == {"type": "enabled", "budget_tokens": 4096 - 1024}  # below max_tokens
    assert thinking_param(s.with_overrides(max_output_tokens=1500)) is None  # no room to think


def test_system_prompt_says_documents_are_data() -> None:
    text = SYSTEM_PROMPT.lower()
    assert "untrusted" in text and "never follow instructions" in text
    assert "[s3]" in text and "[p1]" in text
