"""Answering a retried ``turn_id`` from the store: the stored answer again, never a second model call."""

from __future__ import annotations

from typing import Any

from chat.core import events
from chat.core.agent_tools import sources_from_history
from chat.core.citations import citations_for
from chat.core.generations import Generation
from chat.core.history import History
from chat.core.partial import is_interrupted


def is_user_text(message: dict[str, Any]) -> bool:
    """A user question (not a turn of tool results)."""
    if message.get("role") != "user":
        return False
    content = message.get("content")
    if isinstance(content, str):
        return True
    return not any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content or [])


def replay_stored_answer(gen: Generation, user_seq: int, history: History) -> bool:
    """Publish the stored answer to the user turn ``user_seq`` (a retried ``turn_id``); False = none stored.

    The retry of a request whose generation has left memory gets the answer the session holds —
    its text, its citations and ``done`` with that answer's seq and ``"replayed": true`` — not a
    second model call. A turn that was stored but never answered (the first attempt died before
    any reply) returns False and is answered now; one whose tool round was cut off mid-way ends
    with ``duplicate_turn`` (the stored history shows what there is).
    """
    if user_seq not in history.seqs:  # summarised away: nothing left to replay
        gen.publish("done", events.done(user_seq, "duplicate_turn"))
        return True
    start = history.seqs.index(user_seq) + 1
    end = start
    while end < len(history.messages) and not is_user_text(history.messages[end]):
        end += 1
    if end == start:
        if end == len(history.messages):
            return False  # stored, never answered, still the newest turn: answer it now
        gen.publish("done", events.done(user_seq, "duplicate_turn"))  # later questions exist: keep the order
        return True
    final_i = end - 1
    final = history.messages[final_i]
    blocks = [b for b in final.get("content") or [] if isinstance(b, dict)]
    if final.get("role") != "assistant" or any(b.get("type") == "tool_use" for b in blocks):
        gen.publish("done", events.done(history.seqs[final_i], "duplicate_turn"))
        return True
    text = "".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text")
    if text:
        gen.publish("text", events.text(text))
    for citation in citations_for(text, sources_from_history(history.messages[: final_i + 1])):
        gen.publish("citation", citation)
    stop = "interrupted" if is_interrupted(blocks) else "end_turn"
    gen.publish("done", {**events.done(history.seqs[final_i], stop), "replayed": True})
    return True
