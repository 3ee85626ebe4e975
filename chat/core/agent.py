"""The tool loop: one user turn → model rounds with ``search_documents`` / ``read_page`` → a cited answer.

Every turn is stored as its block array the moment it exists (seed 002): the
user turn, each assistant turn (``tool_use`` rounds and the final answer, with
usage), and each user ``tool_result`` turn — with ``turn_id``s derived from the
request's ``turn_id`` so a retried write never duplicates. ``assert_pairs_ok``
runs on every request before it goes to the model.

If the generation is cancelled (client gone under the ``partial`` policy, or
``POST …/stop``), the partial answer is saved per seed 002 option B: completed
text only, marked interrupted, no dangling ``tool_use`` (an unanswered one gets
an error ``tool_result``), no unsigned thinking.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from chat.core import events
from chat.core.agent_tools import (
    IngestLike,
    RefBook,
    RetrieverLike,
    ToolRunner,
    ToolScope,
    error_result,
    sources_from_history,
)
from chat.core.citations import citations_for, cited_refs, max_ref_number
from chat.core.context import fit_context
from chat.core.generations import Generation
from chat.core.history import load_history, save_summary
from chat.models.port import PURPOSE_ANSWER, PURPOSE_TITLE, ModelRequest
from chat.core.prompt import SYSTEM_PROMPT, build_request
from chat.core.stream import MessageAccumulator
from chat.core.tools import TOOLS
from store.blocks import assert_pairs_ok, message_usage, partial_turn
from store.config import Settings
from store.errors import DocchatError
from store.logging import get_logger

log = get_logger(__name__)

INTERRUPTED_NOTE = "\n\n[interrupted: the answer was cut off]"
TITLE_CHARS = 60


class SessionStoreLike(Protocol):
    def append_message(self, session_id: str, role: str, blocks: list[dict[str, Any]], **meta: Any) -> int: ...

    def load_messages(self, session_id: str, limit: int | None = None) -> list[dict[str, Any]]: ...

    def rename_session(self, session_id: str, title: str) -> None: ...


@dataclass(frozen=True, slots=True)
class AskContext:
    session_id: str
    user_id: str
    text: str
    turn_id: str
    #: projects the tools may search, already checked to be the user's; the first is the default
    project_ids: tuple[str, ...]
    #: whether the session had no title before this question (title generation after the first exchange)
    needs_title: bool = False
    #: the session's last seq when the request arrived: a user turn stored at or below it is a retry
    last_seq_before: int = 0


@dataclass(slots=True)
class _TurnState:
    """What the running turn has produced so far (for the partial-answer rule)."""

    messages: list[dict[str, Any]]
    seqs: list[int] = field(default_factory=list)
    summary: str | None = None
    refs: RefBook = field(default_factory=RefBook)
    accumulator: Any = None  # chat.core.stream.MessageAccumulator of the round in flight
    pending_tool_use: list[dict[str, Any]] | None = None  # tool_use blocks still without results
    append_task: asyncio.Future[int] | None = None  # the tool_use turn's write, running alongside the tools
    last_seq: int | None = None
    answer_text: str = ""
    round: int = 0

    def add(self, message: dict[str, Any], seq: int | None) -> None:
        """Track a message of this turn (``seq`` None: its write is still in flight)."""
        self.messages.append(message)
        self.seqs.append(seq if seq is not None else -1)


def _usage_of(message: dict[str, Any]) -> dict[str, int]:
    """Anthropic usage fields → the stored ``{input, output, cache_read, cache_write}``."""

    return message_usage(message.get("usage"))


def _is_user_text(message: dict[str, Any]) -> bool:
    """A user question (not a turn of tool results)."""
    if message.get("role") != "user":
        return False
    content = message.get("content")
    if isinstance(content, str):
        return True
    return not any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content or [])


class Agent:
    """Answers one user turn; publishes SSE events into a ``Generation``."""

    def __init__(
        self,
        *,
        model: Any,
        sessions: SessionStoreLike,
        settings: Settings,
        retriever: RetrieverLike | None = None,
        ingest: IngestLike | None = None,
        search_k: int = 8,
    ) -> None:
        self.model = model
        self.sessions = sessions
        self.settings = settings
        self.tools = ToolRunner(retriever=retriever, ingest=ingest, search_k=search_k)

    # --- the loop ------------------------------------------------------------------

    async def run(self, gen: Generation, ctx: AskContext) -> None:

        gen.publish("start", events.start(ctx.turn_id, ctx.session_id))
        user_blocks = [{"type": "text", "text": ctx.text}]
        # the user turn is written while the history loads (one round trip less on the critical path)
        try:
            user_seq, history = await asyncio.gather(
                self._append(ctx, "user", user_blocks, turn_id=f"{ctx.turn_id}:u"),
                asyncio.to_thread(load_history, self.sessions, ctx.session_id),
            )
        except DocchatError as exc:
            gen.publish("error", events.error(exc.code, exc.message))
            gen.publish("done", events.done(None, "error"))
            return
        if user_seq <= ctx.last_seq_before and self._replay_stored_answer(gen, user_seq, history):
            # the same turn_id was answered before (a retried request): the stored answer, never a second one
            return
        keep = [i for i, seq in enumerate(history.seqs) if seq != user_seq]
        state = _TurnState(
            messages=[history.messages[i] for i in keep], seqs=[history.seqs[i] for i in keep], summary=history.summary
        )
        state.add({"role": "user", "content": user_blocks}, user_seq)
        state.refs.sources = sources_from_history(history.messages)
        seen_refs = [*state.refs.sources, *cited_refs(history.summary or "")]
        state.refs.next_s = max_ref_number(seen_refs, "S") + 1
        state.refs.next_p = max_ref_number(seen_refs, "P") + 1
        stop_reason = "end_turn"
        try:
            for rnd in range(self.settings.max_tool_rounds + 1):
                state.round = rnd
                request = await self._build_request(ctx, state)
                assert_pairs_ok(request.messages)
                message = await self._stream_round(gen, state, request)
                blocks = list(message.get("content") or [])
                usage = _usage_of(message)
                stop_reason = str(message.get("stop_reason") or "end_turn")
                tool_uses = [b for b in blocks if b.get("type") == "tool_use"]
                assistant = {"role": "assistant", "content": blocks}
                meta = {"turn_id": f"{ctx.turn_id}:a{rnd}", "usage": usage, "model": self.model.model_id}
                if stop_reason != "tool_use" or not tool_uses:
                    state.last_seq = await self._append(ctx, "assistant", blocks, **meta)
                    state.accumulator = None
                    state.add(assistant, state.last_seq)
                    gen.publish("usage", events.usage(usage))
                    break
                # the tool_use turn is written while the tools run; its results are appended after it
                state.pending_tool_use = tool_uses
                state.append_task = asyncio.ensure_future(self._append(ctx, "assistant", blocks, **meta))
                state.accumulator = None
                state.add(assistant, None)
                gen.publish("usage", events.usage(usage))
                if rnd >= self.settings.max_tool_rounds:
                    results = [
                        error_result(b["id"], "tool round limit reached; answer with the sources you have")
                        for b in tool_uses
                    ]
                    stop_reason = "max_tool_rounds"
                else:
                    results = await self.tools.run(gen, state.refs, ToolScope(ctx.user_id, ctx.project_ids), tool_uses)
                await self._settle_append(state)
                state.last_seq = await self._append(ctx, "user", results, turn_id=f"{ctx.turn_id}:r{rnd}")
                state.pending_tool_use = None
                state.add({"role": "user", "content": results}, state.last_seq)
                if stop_reason == "max_tool_rounds":
                    break
        except asyncio.CancelledError:
            await asyncio.shield(self._save_partial(ctx, state))
            gen.publish("done", events.done(state.last_seq, "interrupted"))
            raise
        except DocchatError as exc:
            log.warning("answer_failed", session_id=ctx.session_id, code=exc.code, error_type=type(exc).__name__)
            await asyncio.shield(self._save_partial(ctx, state))
            gen.publish("error", events.error(exc.code, exc.message))
            gen.publish("done", events.done(state.last_seq, "error"))
            return
        for citation in citations_for(state.answer_text, state.refs.sources):
            gen.publish("citation", citation)
        if ctx.needs_title:
            # before `done`, so a client that refreshes its session list on `done` sees the title
            await self._set_title(ctx, state.answer_text)
        gen.publish("done", events.done(state.last_seq, stop_reason))

    def _replay_stored_answer(self, gen: Generation, user_seq: int, history: Any) -> bool:
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
        while end < len(history.messages) and not _is_user_text(history.messages[end]):
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
        from chat.core.display import is_interrupted

        stop = "interrupted" if is_interrupted(blocks) else "end_turn"
        gen.publish("done", {**events.done(history.seqs[final_i], stop), "replayed": True})
        return True

    async def _build_request(self, ctx: AskContext, state: _TurnState) -> Any:
        """Fit the history into the window (storing a new summary when one is made), then lay out the request."""
        plan = await fit_context(state.messages, self.model, self.settings, summary=state.summary)
        if plan.summary is not None and 0 < plan.summary.covers <= len(state.seqs):
            upto = state.seqs[plan.summary.covers - 1]
            await asyncio.to_thread(
                save_summary,
                self.sessions,
                ctx.session_id,
                plan.summary.text,
                upto,
                ttl_days=self.settings.session_ttl_days,
            )
            del state.messages[: plan.summary.covers]
            del state.seqs[: plan.summary.covers]
            state.summary = plan.summary.text
            log.info("history_summarised", session_id=ctx.session_id, upto_seq=upto)
        return build_request(
            SYSTEM_PROMPT,
            TOOLS,
            plan.messages,
            max_tokens=self.settings.max_output_tokens,
            context_management=plan.context_management,
            betas=plan.betas,
            metadata={"purpose": PURPOSE_ANSWER, "user_id": ctx.user_id},
        )

    async def _stream_round(self, gen: Generation, state: _TurnState, request: Any) -> dict[str, Any]:

        acc = MessageAccumulator()
        state.accumulator = acc
        tool_names: dict[int, str] = {}
        round_text: list[str] = []
        async for ev in self.model.stream(request):
            acc.feed(ev)
            kind = ev.get("type")
            if kind == "content_block_delta":
                delta = ev.get("delta") or {}
                if delta.get("type") == "text_delta" and delta.get("text"):
                    round_text.append(delta["text"])
                    gen.publish("text", events.text(delta["text"]))
            elif kind == "content_block_start":
                block = ev.get("content_block") or {}
                if block.get("type") == "tool_use":
                    tool_names[int(ev.get("index", 0))] = str(block.get("name", ""))
        # the final round's text is the answer whose refs become citations
        state.answer_text = "".join(round_text)
        message: dict[str, Any] = acc.message
        return message

    # --- persistence -----------------------------------------------------------------

    async def _append(self, ctx: AskContext, role: str, blocks: list[dict[str, Any]], **meta: Any) -> int:
        seq: int = await asyncio.to_thread(self.sessions.append_message, ctx.session_id, role, blocks, **meta)
        return seq

    async def _settle_append(self, state: _TurnState) -> None:
        """Wait for the in-flight tool_use turn write and record its seq (raises if the write failed).

        If the wait itself is cancelled the write is still tracked, so ``_save_partial`` waits for it
        before it answers the tool_use — results are never stored ahead of their tool_use turn.
        """
        task = state.append_task
        if task is None:
            return
        try:
            seq = await asyncio.shield(task)
        except Exception:
            # never stored: drop it from this turn and never answer it (a result would dangle)
            state.append_task = None
            state.messages.pop()
            state.seqs.pop()
            state.pending_tool_use = None
            raise
        state.append_task = None
        state.last_seq = seq
        state.seqs[-1] = seq

    async def _save_partial(self, ctx: AskContext, state: _TurnState) -> None:
        """Seed 002 option B: completed text only, marked interrupted; never a dangling ``tool_use``."""
        try:
            if state.append_task is not None:
                try:
                    await self._settle_append(state)
                except Exception as exc:
                    log.warning("tool_use_turn_not_stored", session_id=ctx.session_id, error_type=type(exc).__name__)
            if state.pending_tool_use:
                results = [
                    error_result(b["id"], "interrupted before the tool finished") for b in state.pending_tool_use
                ]
                state.last_seq = await self._append(ctx, "user", results, turn_id=f"{ctx.turn_id}:r{state.round}")
                state.pending_tool_use = None
                state.add({"role": "user", "content": results}, state.last_seq)
            acc = state.accumulator
            if acc is None and state.messages and state.messages[-1].get("role") == "assistant":
                return  # the last assistant turn is complete; nothing was cut off
            blocks = _received_text(acc) if acc is not None else []
            blocks.append({"type": "text", "text": INTERRUPTED_NOTE.strip() if not blocks else INTERRUPTED_NOTE})
            state.last_seq = await self._append(
                ctx,
                "assistant",
                blocks,
                turn_id=f"{ctx.turn_id}:a{state.round}",
                model=self.model.model_id,
            )
            state.answer_text = "".join(str(b.get("text", "")) for b in blocks)
        except Exception as exc:  # saving must never mask the original outcome
            log.error("partial_save_failed", session_id=ctx.session_id, error_type=type(exc).__name__, exc_info=exc)

    async def _set_title(self, ctx: AskContext, answer: str) -> None:
        try:
            title = await self.make_title(ctx.text, answer)
            if title:
                await asyncio.to_thread(self.sessions.rename_session, ctx.session_id, title)
        except Exception as exc:
            log.warning("title_failed", session_id=ctx.session_id, error_type=type(exc).__name__)

    async def make_title(self, question: str, answer: str) -> str:
        """Local model: the first question, truncated. Bedrock: the cheap title model via ``complete``."""
        if self.settings.chat_model == "local":
            return truncate_title(question)
        request = ModelRequest(
            system=[
                {
                    "type": "text",
                    "text": "Write a short title (at most 6 words) for this conversation. "
                    "Reply with the title only, no quotes.",
                }
            ],
            messages=[
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "text",
                            "text": json.dumps(
                                {"question": question[:2000], "answer": answer[:2000]}, ensure_ascii=False
                            ),
                        }
                    ],
                }
            ],
            tools=[],
            max_tokens=32,
            model=self.settings.bedrock_title_model_id,
            metadata={"purpose": PURPOSE_TITLE},
        )
        message = await self.model.complete(request)
        text = "".join(b.get("text", "") for b in message.get("content", []) if b.get("type") == "text")
        return truncate_title(text.strip().strip('"') or question)


def truncate_title(text: str, limit: int = TITLE_CHARS) -> str:
    one_line = " ".join(text.split())
    if len(one_line) <= limit:
        return one_line
    cut = one_line[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,.;:") + "…"


def _received_text(acc: Any) -> list[dict[str, Any]]:
    """The partial-turn rule with the text streamed so far of an unfinished text block kept.

    Characters already streamed to the user are complete; the unsafe parts of a cut turn (tool_use,
    unsigned thinking) are never kept. Only text survives: an interrupted turn carries no thinking.
    """

    content = acc.message.get("content") or []
    kept = partial_turn(content, acc.completed_indices(), keep_open_text=True)
    return [b for b in kept if b.get("type") == "text"]
