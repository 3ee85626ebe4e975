"""The tool loop: one user turn → model rounds with ``search_documents`` / ``read_page`` → a cited answer.

Every turn is stored as its block array the moment it exists (seed 002; ``chat.core.turn_writer``):
the user turn, each assistant turn (``tool_use`` rounds and the final answer, with usage), and
each user ``tool_result`` turn — with ``turn_id``s derived from the request's ``turn_id`` so a
retried write never duplicates. ``assert_pairs_ok`` runs on every request before it goes to the model.

If the generation is cancelled (client gone under the ``partial`` policy, or ``POST …/stop``), the model
fails or the agent has a bug, the partial answer is saved per seed 002 option B (``chat.core.partial``,
``TurnWriter.save_partial``): every stored question ends with an answer turn — complete, partial or
interrupted — holding the text the client was shown, and ``done`` carries its seq. The tool round limit
also ends with an (interrupted) answer turn. Whatever a hard crash left in the store is repaired on load
(``chat.core.history.repaired``). A retried ``turn_id`` whose answer is already stored gets that answer
back (``chat.core.replay``); the session is titled after its first exchange (``chat.core.titles``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from chat.core import events
from chat.core.agent_tools import DetectorMasker, ToolRunner, ToolScope, error_result, sources_from_history
from chat.core.citations import citations_for, cited_refs, max_ref_number
from chat.core.context import fit_context
from chat.core.generations import Generation
from chat.core.history import load_history, repaired, save_summary
from chat.core.partial import interrupted_blocks
from chat.core.ports import DocumentReader, DocumentSearch, PiiMasker, SessionStorePort
from chat.core.prompt import SYSTEM_PROMPT, build_request
from chat.core.replay import replay_stored_answer
from chat.core.titles import set_title
from chat.core.tools import TOOLS
from chat.core.turn import AskContext, TurnState
from chat.core.turn_writer import TurnWriter, run_to_end
from chat.models.accumulator import MessageAccumulator
from chat.models.factory import is_remote_model
from chat.models.port import PURPOSE_ANSWER, ChatModel, ModelRequest
from store.blocks import assert_pairs_ok, message_usage
from store.config import Settings
from store.errors import DocchatError, NotFound
from store.logging import get_logger

log = get_logger(__name__)


class Agent:
    """Answers one user turn; publishes SSE events into a ``Generation``."""

    def __init__(
        self,
        *,
        model: ChatModel,
        sessions: SessionStorePort,
        settings: Settings,
        retriever: DocumentSearch | None = None,
        ingest: DocumentReader | None = None,
        search_k: int = 8,
        masker: PiiMasker | None = None,
    ) -> None:
        self.model = model
        self.sessions = sessions
        self.settings = settings
        # a remote model sees documents' personal data masked; the embedded reader reads the original
        if is_remote_model(settings) and masker is None and settings.ingest.pii_mode == "mask":
            masker = DetectorMasker()
        self.tools = ToolRunner(retriever=retriever, ingest=ingest, search_k=search_k,
                                masker=masker if is_remote_model(settings) else None)
        self.writer = TurnWriter(sessions, model.model_id)

    # --- the loop ------------------------------------------------------------------

    async def run(self, gen: Generation, ctx: AskContext) -> None:
        gen.publish("start", events.start(ctx.turn_id, ctx.session_id))
        state = TurnState(messages=[])
        try:
            await self._answer(gen, ctx, state)
        except asyncio.CancelledError:
            # a stop, the client gone, a shutdown: the question still ends with an answer turn
            await run_to_end(self.writer.save_partial(ctx, state))
            complete = state.answered and state.stop_reason != "interrupted"
            if complete:
                self._publish_citations(gen, state)
            gen.publish("done", events.done(state.last_seq, state.stop_reason if complete else "interrupted"))
            raise
        except DocchatError as exc:
            # deleted meanwhile (any process). The owner's lease keeper sees the lease gone too and cancels this
            # task, maybe during the check: it runs to its end, or the cancel would end the stream without ``done``
            if isinstance(exc, NotFound) and await run_to_end(self._session_gone(ctx)):
                log.info("answer_ended", session_id=ctx.session_id, reason="session_deleted")
                gen.publish("done", events.done(None, "session_deleted"))
                return
            log.warning("answer_failed", session_id=ctx.session_id, code=exc.code, error_type=type(exc).__name__)
            await run_to_end(self.writer.save_partial(ctx, state))
            gen.publish("error", events.error(exc.code, exc.message))
            gen.publish("done", events.done(state.last_seq, "error"))
        except Exception as exc:  # a bug: the answer fails, the session does not
            log.error("answer_crashed", session_id=ctx.session_id, error_type=type(exc).__name__, exc_info=exc)
            await run_to_end(self.writer.save_partial(ctx, state))
            gen.publish("error", events.error("internal", "the answer failed"))
            gen.publish("done", events.done(state.last_seq, "error"))

    async def _answer(self, gen: Generation, ctx: AskContext, state: TurnState) -> None:
        question = {"role": "user", "content": [{"type": "text", "text": ctx.text}]}
        # the question is written while the history loads (one round trip less on the critical path)
        self.writer.begin(ctx, state, "user", question, turn_id=f"{ctx.turn_id}:u")
        history = await asyncio.to_thread(load_history, self.sessions, ctx.session_id)
        user_seq = await self.writer.settle(state)
        assert user_seq is not None
        if user_seq <= ctx.last_seq_before or (history.seqs and user_seq <= history.seqs[-1]):
            # the same turn_id was answered before (a retried request): the stored answer, never a second one.
            # The history (read once this process holds the session) decides too: ``last_seq_before`` was read
            # when the request arrived, and another process may have answered the turn while this one waited
            state.retried = True  # the close path keeps that attempt's turns
            view = repaired(history, ctx.session_id, close_tail=False, log_repairs=False)
            if replay_stored_answer(gen, user_seq, view):
                return
        # whatever a crash left behind, the history sent is valid (store.block_repair)
        prior = repaired(history, ctx.session_id, close_tail=True, without_seq=user_seq)
        state.messages, state.seqs, state.summary = prior.messages, prior.seqs, prior.summary
        state.add(question, user_seq)
        state.answering = True
        state.refs.sources = sources_from_history(prior.messages)
        seen_refs = [*state.refs.sources, *cited_refs(history.summary or "")]
        state.refs.next_s = max_ref_number(seen_refs, "S") + 1
        state.refs.next_p = max_ref_number(seen_refs, "P") + 1
        for rnd in range(self.settings.chat.max_tool_rounds + 1):
            state.round = rnd
            request = await self._build_request(ctx, state)
            assert_pairs_ok(request.messages)
            message = await self._stream_round(gen, state, request)
            blocks = list(message.get("content") or [])
            usage = message_usage(message.get("usage"))
            stop_reason = str(message.get("stop_reason") or "end_turn")
            tool_uses = [b for b in blocks if b.get("type") == "tool_use"]
            if stop_reason != "tool_use" or not tool_uses:
                state.stop_reason = stop_reason
                await self.writer.write_answer(ctx, state, blocks, usage=usage)
                gen.publish("usage", events.usage(usage))
                break
            # the tool_use turn is written while the tools run; its results are appended after it
            state.pending_tool_use = tool_uses
            tool_turn = {"role": "assistant", "content": blocks}
            meta = {"turn_id": f"{ctx.turn_id}:a{rnd}", "usage": usage, "model": self.model.model_id}
            self.writer.begin(ctx, state, "tool_use", tool_turn, **meta)
            gen.publish("usage", events.usage(usage))
            if rnd >= self.settings.chat.max_tool_rounds:
                results = [
                    error_result(b["id"], "tool round limit reached; answer with the sources you have")
                    for b in tool_uses
                ]
                state.stop_reason = "max_tool_rounds"
            else:
                scope = ToolScope(ctx.user_id, ctx.project_ids, ctx.document_ids)
                results = await self.tools.run(gen, state.refs, scope, tool_uses)
            state.pending_results = results
            await self.writer.settle(state)
            results_turn = {"role": "user", "content": results}
            await self.writer.write(ctx, state, "results", results_turn, turn_id=f"{ctx.turn_id}:r{rnd}")
            if state.stop_reason == "max_tool_rounds":
                # one more round without tools: the answer from the sources gathered so far; a model that still
                # asks for a tool (or says nothing) leaves the interrupted note — the question ends with an answer
                if not await self._final_answer(ctx, gen, state):
                    await self.writer.write_answer(ctx, state, interrupted_blocks(None))
                break
        self._publish_citations(gen, state)
        if ctx.needs_title:
            # before `done`, so a client that refreshes its session list on `done` sees the title
            await set_title(self.sessions, self.model, self.settings, ctx.session_id, ctx.text, state.answer_text)
        gen.publish("done", events.done(state.last_seq, state.stop_reason))

    def _publish_citations(self, gen: Generation, state: TurnState) -> None:
        if not state.citations_sent:
            state.citations_sent = True
            for citation in citations_for(state.answer_text, state.refs.sources):
                gen.publish("citation", citation)

    async def _session_gone(self, ctx: AskContext) -> bool:
        try:
            await asyncio.to_thread(self.sessions.get_session, ctx.session_id)
        except NotFound:
            return True
        return False

    async def _final_answer(self, ctx: AskContext, gen: Generation, state: TurnState) -> bool:
        """At the tool-round limit, the model answers with ``tool_choice: none``; False when it gave no text
        (nothing is stored then)."""
        request = await self._build_request(ctx, state, tools_allowed=False)
        assert_pairs_ok(request.messages)
        message = await self._stream_round(gen, state, request)
        blocks = [b for b in list(message.get("content") or []) if b.get("type") != "tool_use"]
        if not any(b.get("type") == "text" and str(b.get("text") or "").strip() for b in blocks):
            state.answer_text = ""
            return False
        usage = message_usage(message.get("usage"))
        await self.writer.write_answer(ctx, state, blocks, usage=usage)
        gen.publish("usage", events.usage(usage))
        return True

    async def _build_request(self, ctx: AskContext, state: TurnState, *, tools_allowed: bool = True) -> ModelRequest:
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
                ttl_days=self.settings.store.session_ttl_days,
            )
            del state.messages[: plan.summary.covers]
            del state.seqs[: plan.summary.covers]
            state.summary = plan.summary.text
            log.info("history_summarised", session_id=ctx.session_id, upto_seq=upto)
        return build_request(
            SYSTEM_PROMPT,
            TOOLS,
            plan.messages,
            max_tokens=self.settings.chat.max_output_tokens,
            context_management=plan.context_management,
            betas=plan.betas,
            metadata={"purpose": PURPOSE_ANSWER, "user_id": ctx.user_id},
            tool_choice=None if tools_allowed else {"type": "none"},
        )

    async def _stream_round(self, gen: Generation, state: TurnState, request: ModelRequest) -> dict[str, Any]:
        """Stream one model round: text deltas go out as ``text`` events; returns the accumulated message."""
        acc = MessageAccumulator()
        state.accumulator = acc
        round_text: list[str] = []
        async for ev in self.model.stream(request):
            acc.feed(ev)
            if ev.get("type") == "content_block_delta":
                delta = ev.get("delta") or {}
                if delta.get("type") == "text_delta" and delta.get("text"):
                    round_text.append(delta["text"])
                    gen.publish("text", events.text(delta["text"]))
        # the final round's text is the answer whose refs become citations
        state.answer_text = "".join(round_text)
        message: dict[str, Any] = acc.message
        return message
