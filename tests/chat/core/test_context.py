"""fit_context: compaction params, summaries at tool-pair-safe cuts, elision and trimming."""

from __future__ import annotations

import random

import pytest

from chat.core.context import (
    MIN_COMPACTION_TRIGGER,
    fit_context,
    render_transcript,
    safe_cuts,
    with_summary,
)
from chat.core.prompt import SYSTEM_PROMPT, build_request
from chat.core.tools import TOOLS
from chat.models.local import LocalModel
from chat.models.port import PURPOSE_SUMMARY, ModelRequest
from chat.models.scripted import Fail, Reply, ScriptedModel, Text, ToolUse, reply_events
from chat.models.tool_format import SUMMARY_OPEN, format_search_results
from retrieval.types import Hit
from store.blocks import assert_pairs_ok
from store.config import Settings
from store.errors import InvalidInput, UpstreamError

WORDS = "매출 영업이익 계약 납품 일정 보증 revenue margin contract delivery warranty invoice".split()


def _settings(tmp_path, **kw) -> Settings:
    base = {"context_window_tokens": 12_000, "compaction_threshold_tokens": 8_000, "max_output_tokens": 1024}
    base.update(kw)
    return Settings.from_env(env={}, data_dir=tmp_path, **base)


def _hits(rng: random.Random, turn: int, n: int = 8, words: int = 160) -> list[Hit]:
    return [
        Hit(
            chunk_id=f"d:{turn:03d}{i:02d}",
            document_id="d",
            file_name="보고서.pdf",
            page_start=i + 1,
            page_end=i + 1,
            text=" ".join(rng.choice(WORDS) for _ in range(words)) + ".",
            score=1.0,
        )
        for i in range(n)
    ]


def _exchange(i: int, rng: random.Random) -> list[dict]:
    return [
        {"role": "user", "content": [{"type": "text", "text": f"질문 {i}: 매출은?"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": f"t{i}", "name": "search_documents", "input": {"query": f"매출 {i}"}}
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": f"t{i}", "content": format_search_results(_hits(rng, i), i * 8)}
            ],
        },
        {"role": "assistant", "content": [{"type": "text", "text": f"답 {i} [S{i * 8}]"}]},
    ]


async def test_small_history_is_sent_unchanged(tmp_path) -> None:
    msgs = _exchange(1, random.Random(1))
    plan = await fit_context(
        msgs, LocalModel(), _settings(tmp_path, context_window_tokens=200_000, compaction_threshold_tokens=150_000)
    )
    assert plan.action == "none" and plan.messages == msgs and plan.context_management is None and plan.summary is None


async def test_compaction_params_for_a_model_that_supports_it(tmp_path) -> None:
    rng = random.Random(2)
    msgs = [m for i in range(4) for m in _exchange(i, rng)]
    model = ScriptedModel([], supports_compaction=True, context_window=200_000)
    plan = await fit_context(msgs, model, _settings(tmp_path, context_window_tokens=200_000))
    assert plan.action == "compaction"
    assert plan.messages == msgs  # the server compacts; we send everything
    assert plan.betas == ("compact-2026-01-12",)
    edit = plan.context_management["edits"][0]
    assert edit["type"] == "compact_20260112"
    assert edit["trigger"] == {"type": "input_tokens", "value": MIN_COMPACTION_TRIGGER}
    assert not model.requests  # no summary call


async def test_estimate_counts_from_the_newest_compaction_block(tmp_path) -> None:
    rng = random.Random(3)
    old = [m for i in range(6) for m in _exchange(i, rng)]
    compacted = [
        *old,
        {"role": "user", "content": [{"type": "text", "text": "계속"}]},
        {"role": "assistant", "content": [{"type": "compaction", "content": "요약"}, {"type": "text", "text": "네"}]},
        {"role": "user", "content": [{"type": "text", "text": "다음 질문"}]},
    ]
    model = ScriptedModel([], supports_compaction=True, context_window=12_000)
    plan = await fit_context(compacted, model, _settings(tmp_path))
    assert plan.action == "none" and plan.messages == compacted  # compaction blocks go back verbatim


def test_safe_cuts_skip_tool_result_turns() -> None:
    msgs = _exchange(1, random.Random(4)) + _exchange(2, random.Random(4))
    assert safe_cuts(msgs) == [0, 4]


def test_with_summary_replaces_an_older_summary() -> None:
    msgs = [{"role": "user", "content": "hi"}]
    once = with_summary(msgs, "first")
    twice = with_summary(once, "second")
    texts = [b["text"] for b in twice[0]["content"]]
    assert len(texts) == 2 and texts[0].startswith(SUMMARY_OPEN) and "second" in texts[0] and texts[1] == "hi"
    assert msgs == [{"role": "user", "content": "hi"}]


def test_transcript_lists_sources_not_document_text() -> None:
    text = render_transcript(_exchange(1, random.Random(5)))
    assert "[user] 질문 1: 매출은?" in text and "[tool search_documents]" in text and "S8 보고서.pdf p.1" in text


async def _conversation(model, settings, turns: int, *, store_summary: bool = True) -> dict:
    rng = random.Random(7)
    stored: list[dict] = []
    covers, summary = 0, None
    stats = {"summaries": 0, "max_tokens": 0, "actions": set()}
    for t in range(turns):
        stored.append(
            {"role": "user", "content": [{"type": "text", "text": f"{t}번째 질문: {rng.choice(WORDS)} 추이는?"}]}
        )
        for _ in range(3):
            plan = await fit_context(stored[covers:], model, settings, summary=summary)
            stats["actions"].add(plan.action)
            if plan.summary is not None:
                stats["summaries"] += 1
                if store_summary:
                    covers += plan.summary.covers
                    summary = plan.summary.text
                first = plan.messages[0]
                assert first["role"] == "user" and first["content"][0]["text"].startswith(SUMMARY_OPEN)
            request = build_request(
                SYSTEM_PROMPT,
                TOOLS,
                plan.messages,
                max_tokens=settings.chat.max_output_tokens,
                context_management=plan.context_management,
                betas=plan.betas,
            )
            assert_pairs_ok(request.messages)
            assert request.messages[0]["role"] == "user"
            used = model.count_tokens(request) + settings.chat.max_output_tokens
            stats["max_tokens"] = max(stats["max_tokens"], used)
            assert used <= min(model.context_window, settings.chat.context_window_tokens)
            message = await model.complete(request)
            stored.append({"role": "assistant", "content": message["content"]})
            tool_uses = [b for b in message["content"] if b["type"] == "tool_use"]
            if not tool_uses:
                break
            stored.append(
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": b["id"],
                            "content": format_search_results(_hits(rng, t), 1 + t * 8),
                        }
                        for b in tool_uses
                    ],
                }
            )
    assert_pairs_ok(stored)
    return stats


async def test_60_turns_with_large_tool_results_stay_in_the_window(tmp_path) -> None:
    settings = _settings(tmp_path)
    model = LocalModel(context_window=12_000)
    stats = await _conversation(model, settings, 60)
    assert stats["summaries"] >= 10
    assert "summarize" in stats["actions"]
    assert stats["max_tokens"] <= 12_000


async def test_30_turns_without_a_stored_summary_stay_valid(tmp_path) -> None:
    stats = await _conversation(LocalModel(context_window=12_000), _settings(tmp_path), 30, store_summary=False)
    assert stats["max_tokens"] <= 12_000


async def test_summary_failure_falls_back_to_trimming(tmp_path) -> None:
    local = LocalModel(context_window=12_000)

    async def answer(request: ModelRequest):
        if request.purpose == PURPOSE_SUMMARY:
            return Reply(Fail(UpstreamError("summariser down")))
        msg = await local.complete(request)
        return _replay(msg)

    model = ScriptedModel(answer, context_window=12_000)
    stats = await _conversation(model, _settings(tmp_path), 20)
    assert "trim" in stats["actions"] and stats["summaries"] == 0


def _replay(message: dict) -> list[dict]:
    blocks = [
        Text(b["text"]) if b["type"] == "text" else ToolUse(b["name"], b["input"], id=b["id"])
        for b in message["content"]
    ]
    return [
        e for e in reply_events(Reply(*blocks), model="m", message_id="msg_x", input_tokens=1) if isinstance(e, dict)
    ]


async def test_one_oversized_tool_result_is_clipped_to_fit(tmp_path) -> None:
    huge = "매출 " * 30_000
    msgs = [
        {"role": "user", "content": [{"type": "text", "text": "전체 페이지를 읽어줘"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "t1", "name": "read_page", "input": {"document_id": "d", "page": 1}}
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": huge}]},
    ]
    model = LocalModel(context_window=12_000)
    settings = _settings(tmp_path)
    plan = await fit_context(msgs, model, settings)
    assert plan.elided == 1 and plan.action in ("elide", "summarize")
    request = build_request(SYSTEM_PROMPT, TOOLS, plan.messages, max_tokens=1024)
    assert model.count_tokens(request) + 1024 <= 12_000
    assert_pairs_ok(plan.messages)
    assert "clipped to fit" in plan.messages[-1]["content"][0]["content"]


async def test_a_question_too_large_for_the_window_is_a_clear_error(tmp_path) -> None:
    msgs = [{"role": "user", "content": [{"type": "text", "text": "질문 " * 40_000}]}]
    with pytest.raises(InvalidInput):
        await fit_context(msgs, LocalModel(context_window=12_000), _settings(tmp_path))


async def test_summary_keeps_the_prefix_stable_for_caching(tmp_path) -> None:
    """After a stored summary, the next request's messages start with the previous request's messages."""
    rng = random.Random(9)
    settings = _settings(tmp_path)
    model = ScriptedModel([Reply(Text("요약: 매출 질문들"))] * 5, context_window=12_000)
    history = [m for i in range(5) for m in _exchange(i, rng)] + [{"role": "user", "content": "새 질문"}]
    plan = await fit_context(history, model, settings)
    assert plan.summary is not None and plan.action == "summarize"
    kept = history[plan.summary.covers :]
    kept += [{"role": "assistant", "content": [{"type": "text", "text": "답"}]}, {"role": "user", "content": "또 질문"}]
    nxt = await fit_context(kept, model, settings, summary=plan.summary.text)
    assert nxt.action == "none"
    assert nxt.messages[: len(plan.messages)] == plan.messages
