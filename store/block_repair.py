"""Repairing a stored conversation so it is always a valid next request (seed 002), pure: no I/O here.

The session store is append-only and every turn is written the moment it exists, so a hard crash
(kill -9, a lost task) can leave the history in a state no later request may send:

* an assistant ``tool_use`` turn with no ``tool_result`` turn after it (the crash hit during the tools);
* a question with no answer after it (the crash hit before any reply), so two user turns follow each other;
* a ``tool_result`` turn with no answer after it (the crash hit after the tools, before the answer);
* orphan ``tool_result`` blocks (their ``tool_use`` turn expired or was never stored), a head that is not
  a question (the oldest turns expired).

``repair_history`` returns a copy that passes ``store.blocks.assert_pairs_ok``, opens with a question and
alternates user/assistant: a dangling ``tool_use`` gets a synthetic error ``tool_result``
(``TOOL_INTERRUPTED``), an unanswered turn gets a synthetic assistant turn (``INTERRUPTED_TEXT``, the same
note a cut-off answer is stored with), orphans and a broken head are left out, and two assistant turns in
a row are merged (what the Messages API does with consecutive same-role turns anyway). The stored blocks
themselves are never altered: a kept message is the same object, synthetic ones carry ``"repaired": True``.
A history that is already valid comes back unchanged (``Repair.changed`` is False).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from store.blocks import TOOL_RESULT_TYPE, assert_pairs_ok
from store.errors import InvalidHistory

Message = dict[str, Any]

#: The text of a synthetic answer, and the note a cut-off answer ends with (``chat.core.partial``).
INTERRUPTED_TEXT = "[interrupted: the answer was cut off]"
#: The content of the synthetic error ``tool_result`` that answers a tool call a crash cut off.
TOOL_INTERRUPTED = "interrupted before the tool finished"
#: The key that marks a message the repair made up (never stored; the messages view shows it).
REPAIRED_KEY = "repaired"


@dataclass(slots=True)
class Repair:
    """A repaired history, where each of its messages came from, and what was done (counts only)."""

    messages: list[Message] = field(default_factory=list)
    #: for each output message, the index of the input message it is (or, merged, ends with); None = synthetic
    origin: list[int | None] = field(default_factory=list)
    dropped_messages: int = 0  # input messages left out: unknown role, empty, orphan results, a broken head
    dropped_results: int = 0  # tool_result blocks that answer no tool_use of the turn before them
    dropped_tool_uses: int = 0  # tool_use blocks without an id or with an id repeated in their turn
    added_results: int = 0  # synthetic error tool_results for tool calls that were never answered
    added_answers: int = 0  # synthetic "[interrupted]" assistant turns after unanswered turns
    merged: int = 0  # assistant turns merged into the one before them

    @property
    def changed(self) -> bool:
        return any(self.counts().values())

    def counts(self) -> dict[str, int]:
        return {
            "dropped_messages": self.dropped_messages,
            "dropped_results": self.dropped_results,
            "dropped_tool_uses": self.dropped_tool_uses,
            "added_results": self.added_results,
            "added_answers": self.added_answers,
            "merged": self.merged,
        }


def synthetic_result(tool_use_id: str) -> dict[str, Any]:
    return {"type": TOOL_RESULT_TYPE, "tool_use_id": tool_use_id, "content": TOOL_INTERRUPTED, "is_error": True}


def interrupted_answer() -> Message:
    return {"role": "assistant", "content": [{"type": "text", "text": INTERRUPTED_TEXT}], REPAIRED_KEY: True}


def _blocks(message: Mapping[str, Any]) -> list[Any]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return list(content) if isinstance(content, list) else []


def _as_dict(message: Mapping[str, Any]) -> Message:
    """The message itself when it is a dict (kept messages are not copied)."""
    return message if isinstance(message, dict) else dict(message)


def _is_result(block: Any) -> bool:
    return isinstance(block, Mapping) and block.get("type") == TOOL_RESULT_TYPE


def _is_tool_use(block: Any) -> bool:
    return isinstance(block, Mapping) and block.get("type") == "tool_use"


class _Repairer:
    def __init__(self) -> None:
        self.r = Repair()
        self.pending: list[str] = []  # tool_use ids of the last output message, still unanswered

    def emit(self, message: Message, origin: int | None) -> None:
        self.r.messages.append(message)
        self.r.origin.append(origin)

    def last_role(self) -> str | None:
        return str(self.r.messages[-1]["role"]) if self.r.messages else None

    def answer_pending(self) -> None:
        """A synthetic tool_result turn for the tool calls that were never answered."""
        if self.pending:
            results = [synthetic_result(t) for t in self.pending]
            self.emit({"role": "user", "content": results, REPAIRED_KEY: True}, None)
            self.r.added_results += len(self.pending)
            self.pending = []

    def answer_user_turn(self) -> None:
        """A synthetic "[interrupted]" answer when the last output message is a user turn."""
        if self.last_role() == "user":
            self.emit(interrupted_answer(), None)
            self.r.added_answers += 1

    def assistant(self, i: int, message: Mapping[str, Any], blocks: list[Any]) -> None:
        if not self.r.messages:  # the history must open with a question
            self.r.dropped_messages += 1
            return
        kept: list[Any] = []
        ids: list[str] = []
        for b in blocks:
            if _is_result(b):  # a result is never part of an assistant turn
                self.r.dropped_results += 1
                continue
            if _is_tool_use(b):
                tid = b.get("id")
                if not isinstance(tid, str) or not tid or tid in ids:
                    self.r.dropped_tool_uses += 1
                    continue
                ids.append(tid)
            kept.append(b)
        if not kept:
            self.r.dropped_messages += 1
            return
        out = _as_dict(message) if len(kept) == len(blocks) else {**message, "content": kept}
        self.answer_pending()
        if self.last_role() == "assistant":  # two assistant turns in a row (a lost turn between): one turn
            prev = self.r.messages[-1]
            merged = {**prev, **out, "content": [*_blocks(prev), *kept]}
            merged.pop(REPAIRED_KEY, None)
            self.r.messages[-1] = merged
            self.r.origin[-1] = i
            self.r.merged += 1
        else:
            self.emit(out, i)
        self.pending = ids

    def user(self, i: int, message: Mapping[str, Any], blocks: list[Any]) -> None:
        calls = sum(1 for b in blocks if _is_tool_use(b))
        if calls:  # a tool call is never part of a user turn
            self.r.dropped_tool_uses += calls
            blocks = [b for b in blocks if not _is_tool_use(b)]
            if not blocks:
                self.r.dropped_messages += 1
                return
            message = {**message, "content": blocks}
        results = [b for b in blocks if _is_result(b)]
        others = [b for b in blocks if not _is_result(b)]
        if self.pending and results:
            answered: list[Any] = []
            seen: set[str] = set()
            for b in results:
                tid = b.get("tool_use_id")
                if isinstance(tid, str) and tid in self.pending and tid not in seen:
                    answered.append(b)
                    seen.add(tid)
            self.r.dropped_results += len(results) - len(answered)
            missing = [synthetic_result(t) for t in self.pending if t not in seen]
            self.r.added_results += len(missing)
            self.pending = []
            if len(answered) == len(results) and not missing and blocks[: len(results)] == results:
                self.emit(_as_dict(message), i)
            else:
                self.emit({**message, "content": [*answered, *missing, *others]}, i)
            return
        if results:  # results with no tool call to answer: their tool_use is gone
            self.r.dropped_results += len(results)
            if not others:
                self.r.dropped_messages += 1
                return
        # a question: close an unfinished round, answer an unanswered turn
        self.answer_pending()
        self.answer_user_turn()
        self.emit({**message, "content": others} if results else _as_dict(message), i)


def repair_history(messages: Sequence[Mapping[str, Any]], *, close_tail: bool = True) -> Repair:
    """A copy of ``messages`` (``[{"role", "content", ...}]``) that is a valid request history.

    ``close_tail``: the result ends with a closed assistant turn (what precedes a new question). Without it
    the tail may stay an unanswered user turn (a question about to be answered); a dangling ``tool_use`` at
    the tail is always answered with a synthetic error result.
    """
    rep = _Repairer()
    for i, m in enumerate(messages):
        role = m.get("role")
        blocks = _blocks(m)
        if role not in ("user", "assistant") or not blocks:
            rep.r.dropped_messages += 1
            continue
        if role == "assistant":
            rep.assistant(i, m, blocks)
        else:
            rep.user(i, m, blocks)
    rep.answer_pending()
    if close_tail:
        rep.answer_user_turn()
    return rep.r


def is_repaired(message: Mapping[str, Any]) -> bool:
    return bool(message.get(REPAIRED_KEY))


def assert_request_history(messages: Sequence[Mapping[str, Any]]) -> None:
    """Raise ``InvalidHistory`` unless ``messages`` is what a Messages API request may carry.

    ``assert_pairs_ok``, plus: it opens with a question (a user turn that is not tool results), roles
    alternate, no message is empty, and a user turn's ``tool_result`` blocks come before its other blocks.
    """
    assert_pairs_ok(messages)
    for i, m in enumerate(messages):
        blocks = _blocks(m)
        if not blocks:
            raise InvalidHistory(f"message {i} is empty", index=i)
        if i == 0 and (m.get("role") != "user" or any(_is_result(b) for b in blocks)):
            raise InvalidHistory("the history does not open with a question", index=0)
        if i and m.get("role") == messages[i - 1].get("role"):
            raise InvalidHistory(f"messages {i - 1} and {i} are both {m.get('role')} turns", index=i)
        wrong = _is_result if m.get("role") == "assistant" else _is_tool_use
        if any(wrong(b) for b in blocks):
            raise InvalidHistory(f"a block of the wrong role in message {i}", index=i)
        flags = [_is_result(b) for b in blocks]
        if flags != sorted(flags, reverse=True):
            raise InvalidHistory(f"tool_result blocks after other blocks in message {i}", index=i)
