"""What a person sees of a stored conversation (pure): display text, summarised tool rounds, citations.

The store keeps block arrays verbatim (seed 002: the stored copy and the shown
copy are separate). Here one user question is one item, and everything the
assistant did to answer it — tool rounds and the final text — is one item:
its text, a one-line summary per tool call, the citations its text makes to
sources in the tool results, and the usage summed over its rounds.

The turns are shown as the next request sees them (``store.block_repair``): where
a crash left a question without an answer, its item is the synthetic
"[interrupted]" answer, marked ``"repaired": true``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chat.core.agent_tools import sources_from_history
from chat.core.citations import Source, citations_for
from chat.core.partial import is_interrupted
from chat.models.tool_format import parse_results, tool_result_text
from store.block_repair import is_repaired, repair_history

Turn = dict[str, Any]  # {"seq", "role", "content": [blocks], "usage"?, "interrupted"?, "created_at"?}

_USAGE_KEYS = ("input", "output", "cache_read", "cache_write")


def _text_of(blocks: Sequence[Any]) -> str:
    return "".join(str(b.get("text", "")) for b in blocks if isinstance(b, dict) and b.get("type") == "text")


def _blocks(turn: Turn) -> list[Any]:
    content = turn.get("content", turn.get("blocks", []))
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return list(content or [])


def _tool_summary(block: dict[str, Any]) -> str:
    name = str(block.get("name", "tool"))
    args = block.get("input") or {}
    if name == "search_documents":
        return f"searched: {str(args.get('query', ''))[:120]}"
    if name == "read_page":
        return f"read page {args.get('page')} of {args.get('document_id')}"
    return name


def usage_totals(usage: Mapping[str, Any]) -> dict[str, Any]:
    """The four counters and the cache-hit ratio: cache reads ÷ all input (uncached + read + written)."""
    totals = {k: int(usage.get(k, 0) or 0) for k in _USAGE_KEYS}
    all_input = totals["input"] + totals["cache_read"] + totals["cache_write"]
    return {**totals, "cache_hit_ratio": round(totals["cache_read"] / all_input, 4) if all_input else 0.0}


def with_repairs(turns: Sequence[Turn]) -> list[Turn]:
    """The stored turns as the next request sees them; a synthetic one takes the seq of the turn before it.

    The newest question and what follows it are left as stored: that answer may still be running.
    """
    stored = [t if "content" in t else {**t, "content": _blocks(t)} for t in turns]
    questions = [i for i, t in enumerate(stored) if t.get("role") == "user" and not _is_tool_results(t)]
    cut = questions[-1] if questions else len(stored)
    out: list[Turn] = []
    for turn in repair_history(stored[:cut], close_tail=True).messages:
        if is_repaired(turn):
            turn = {**turn, "seq": out[-1].get("seq") if out else None}
        out.append(turn)
    return out + stored[cut:]


def _is_tool_results(turn: Turn) -> bool:
    return any(isinstance(b, dict) and b.get("type") == "tool_result" for b in _blocks(turn))


def display_items(turns: Sequence[Turn]) -> list[dict[str, Any]]:

    items: list[dict[str, Any]] = []
    sources: dict[str, Source] = {}
    current: dict[str, Any] | None = None
    tool_ids: dict[str, dict[str, Any]] = {}  # tool_use id -> its entry in the answer's "tools"
    live = [t for t in turns if not t.get("superseded")]  # a replaced turn is not shown (store.session_marks)
    for turn in with_repairs(live):
        blocks = _blocks(turn)
        role = turn.get("role")
        is_tool_results = role == "user" and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in blocks
        )
        if role == "user" and not is_tool_results:
            current = None
            items.append({"seq": turn.get("seq"), "role": "user", "text": _text_of(blocks), "citations": []})
            continue
        if is_tool_results:
            sources.update(sources_from_history([{"role": "user", "content": blocks}]))
            if current is not None:
                for b in blocks:
                    if isinstance(b, dict) and b.get("is_error") and current["tools"]:
                        current["tools"][-1]["error"] = True
                    elif isinstance(b, dict) and b.get("type") == "tool_result":
                        # a reopened chat shows the search line's result count as the live one did
                        used = tool_ids.get(str(b.get("tool_use_id")))
                        if used is not None and used["name"] == "search_documents":
                            used["results"] = len(parse_results(tool_result_text(b)))
            continue
        if current is None:
            current = {
                "seq": turn.get("seq"),
                "role": "assistant",
                "text": "",
                "citations": [],
                "tools": [],
                "usage": dict.fromkeys(_USAGE_KEYS, 0),
                "interrupted": False,
            }
            items.append(current)
        current["seq"] = turn.get("seq")
        current["feedback"] = turn.get("feedback")  # kept on the answer's last round, whose seq it shows
        text = _text_of(blocks)
        if text:
            current["text"] = (current["text"] + "\n\n" + text) if current["text"] else text
            current["citations"] = citations_for(current["text"], sources)
        for b in blocks:
            if isinstance(b, dict) and b.get("type") == "tool_use":
                used = {"name": b.get("name"), "summary": _tool_summary(b), "input": b.get("input") or {}}
                current["tools"].append(used)
                tool_ids[str(b.get("id"))] = used
        u = turn.get("usage") or {}
        for k in _USAGE_KEYS:
            current["usage"][k] += int(u.get(k, 0) or 0)
        if is_interrupted(blocks):
            current["interrupted"] = True
        if is_repaired(turn):
            current["repaired"] = True
    return items
