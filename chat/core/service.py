"""``ChatService``: the ``"chat"`` component — sessions, asking, resuming, stopping.

Ownership is checked here: a session or project that is not the caller's is a
``NotFound`` (404), never a 403 that would confirm it exists. Blocking store
calls run off the event loop. It owns no routes: the app shell (``chat.app``) lists
the chat handlers and injects this service as the ``chat`` dependency. Its ports are
``chat.core.ports`` (sessions, documents, search) and ``chat.models.port.ChatModel``.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import structlog

from chat.core.agent import Agent
from chat.core.answer_guard import run_bounded
from chat.core.answer_metrics import AnswerMetrics
from chat.core.chat_export import file_name as export_file_name
from chat.core.chat_export import to_markdown
from chat.core.chat_search import MAX_QUERY_CHARS, MAX_SCANNED, match, message_texts, terms
from chat.core.display import display_items, usage_totals
from chat.core.generations import Generation, GenerationRegistry
from chat.core.ports import ChatLimits, DocumentReader, DocumentSearch, GenerationLeasePort, PiiMasker, SessionStorePort
from chat.core.shared import SharedGenerations
from chat.core.turn import AskContext
from chat.models.port import ChatModel
from store.config import Settings
from store.errors import InvalidInput, NotFound, SessionConflict
from store.logging import get_logger
from store.metrics import MetricsRecorder, record_safely
from store.session_keys import iso_ms
from store.session_shares import SessionShares

log = get_logger(__name__)

MAX_TITLE_CHARS = 200


class ChatService:
    """Component ``"chat"``: the sessions API and the streaming answers."""

    name = "chat"

    def __init__(
        self,
        *,
        settings: Settings,
        sessions: SessionStorePort,
        model: ChatModel,
        retriever: DocumentSearch | None = None,
        ingest: DocumentReader | None = None,
        registry: GenerationRegistry | None = None,
        limits: ChatLimits | None = None,
        masker: PiiMasker | None = None,
        leases: GenerationLeasePort | None = None,
        metrics: MetricsRecorder | None = None,
    ) -> None:
        self.settings = settings
        self.metrics = metrics  # the read models (store/metrics.py); None = not recorded
        self.limits = limits  # per-user limits (store/usage_limits.py); None = unlimited
        self.sessions = sessions
        self.model = model
        self.retriever = retriever
        self.ingest = ingest
        self.registry = registry or GenerationRegistry(
            policy=settings.chat.disconnect_policy,
            grace_s=settings.chat.disconnect_grace_seconds,
            retention_s=settings.chat.generation_retention_seconds,
        )
        if leases is None:  # the lease lives in the session table: one generation per session across processes
            from store.session_lease import SessionLeases

            leases = SessionLeases(sessions.items, ttl_days=settings.store.session_ttl_days)
        self.shared = SharedGenerations(self.registry, leases, settings.chat)
        # issue 16: read-only shares live in the session table too (SHARE# items, "shared with me" on GSI1)
        self.shares = SessionShares(sessions.items, ttl_days=settings.store.session_ttl_days)
        self.agent = Agent(
            model=model,
            sessions=sessions,
            settings=settings,
            retriever=retriever,
            ingest=ingest,
            masker=masker,
        )

    # --- lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        log.info("chat_started", model=self.model.model_id, policy=self.registry.policy)

    async def stop(self) -> None:
        await self.registry.close()

    # --- ownership -------------------------------------------------------------------

    async def _meta(self, user_id: str, session_id: str) -> Mapping[str, Any]:
        """The session's META view; ``NotFound`` when it does not exist or is someone else's."""
        return await asyncio.to_thread(self.sessions.get_session, session_id, user_id=user_id)

    async def _turns(self, session_id: str) -> list[dict[str, Any]]:
        """Every stored message with seq/usage (display pages followed to the end)."""
        out: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            page = await asyncio.to_thread(self.sessions.list_messages, session_id, cursor, 500)
            out.extend(page["items"])
            cursor = page.get("next_cursor")
            if not cursor:
                return out

    async def _user_projects(self, user_id: str) -> list[str]:
        if self.ingest is None:
            return []
        projects = await self.ingest.list_projects(user_id)
        return [str(p["project_id"]) for p in projects]

    async def _check_project(self, user_id: str, project_id: str) -> None:
        if self.ingest is None:
            raise NotFound("project not found")
        await self.ingest.get_project(user_id, project_id)  # NotFound if not the user's

    # --- sessions ----------------------------------------------------------------------

    async def create_session(self, user_id: str, *, title: str | None, project_id: str | None) -> dict[str, Any]:
        if title is not None:
            title = _clean_title(title)
        if project_id:
            await self._check_project(user_id, project_id)
        if self.limits is not None:
            await self.limits.admit_session(user_id)
        sid: str = await asyncio.to_thread(
            self.sessions.create_session, user_id=user_id, title=title, project_id=project_id
        )
        meta = await self._meta(user_id, sid)
        return {
            "session_id": sid,
            "title": meta.get("title"),
            "project_id": meta.get("project_id"),
            "created_at": meta.get("created_at"),
        }

    async def list_sessions(self, user_id: str, *, limit: int, cursor: str | None) -> dict[str, Any]:
        page = await asyncio.to_thread(self.sessions.list_sessions, user_id, limit=limit, cursor=cursor)
        items = [
            {
                "session_id": it["session_id"],
                "title": it.get("title"),
                "updated_at": it.get("updated_at"),
                "project_id": it.get("project_id"),
                "pinned": bool(it.get("pinned")),
            }
            for it in page.get("items", [])
        ]
        return {"items": items, "next_cursor": page.get("next_cursor")}

    async def _readable(self, user_id: str, session_id: str) -> tuple[Mapping[str, Any], str]:
        """The session's META view and ``"owner"``/``"viewer"`` (issue 16: shared read-only); else ``NotFound``."""
        return await asyncio.to_thread(self.shares.readable, session_id, user_id)

    async def get_session(self, user_id: str, session_id: str) -> dict[str, Any]:
        meta, access = await self._readable(user_id, session_id)
        generating = await self.shared.generating(session_id)
        return {
            "access": access,
            "owner": meta.get("owner") if access == "viewer" else user_id,
            "document_ids": meta.get("document_ids"),
            "session_id": session_id,
            "title": meta.get("title"),
            "project_id": meta.get("project_id"),
            "created_at": meta.get("created_at"),
            "updated_at": meta.get("updated_at"),
            "last_seq": meta.get("last_seq"),
            "usage": usage_totals(meta.get("usage") or {}),
            "generating": generating,
            "pinned": bool(meta.get("pinned")),
        }

    async def rename_session(self, user_id: str, session_id: str, title: str) -> dict[str, Any]:
        await self._meta(user_id, session_id)
        clean = _clean_title(title)
        await asyncio.to_thread(self.sessions.rename_session, session_id, clean, user_id=user_id)
        return {"session_id": session_id, "title": clean}

    async def delete_session(self, user_id: str, session_id: str) -> None:
        await self._meta(user_id, session_id)
        await self.shared.stop(session_id, timeout_s=5.0)  # here or on another process: its partial is saved first
        await asyncio.to_thread(self.sessions.delete_session, session_id, user_id=user_id)

    async def cited_document_owner(self, user_id: str, session_id: str, document_id: str) -> str:
        """Whose document a reader of the chat may see a page of: the chat's owner's, when the chat (yours, or
        one shared with you) cites ``document_id`` in an answer; ``NotFound`` otherwise (issue 16: a shared
        viewer opens the cited pages, never the owner's other documents)."""
        meta, access = await self._readable(user_id, session_id)
        cited = {str(c.get("document_id")) for it in display_items(await self._turns(session_id))
                 for c in it.get("citations") or ()}
        if document_id not in cited:
            raise NotFound("that document is not cited in this chat")
        return str(meta.get("owner")) if access == "viewer" else user_id

    async def display_messages(self, user_id: str, session_id: str) -> list[dict[str, Any]]:
        await self._readable(user_id, session_id)  # the owner, or a user it is shared with (read-only)
        return display_items(await self._turns(session_id))

    async def search_sessions(self, user_id: str, query: str, *, limit: int) -> dict[str, Any]:
        """The user's chats whose title or text holds every word of ``query``, newest activity first
        (``chat.core.chat_search``: at most ``MAX_SCANNED`` sessions read)."""
        if len(query) > MAX_QUERY_CHARS:
            raise InvalidInput(f"q is longer than {MAX_QUERY_CHARS} characters")
        words = terms(query)
        if not words:
            raise InvalidInput("q must not be empty")
        hits: list[dict[str, Any]] = []
        scanned = 0
        cursor: str | None = None
        while scanned < MAX_SCANNED:
            page = await asyncio.to_thread(self.sessions.list_sessions, user_id, limit=100, cursor=cursor)
            for it in page.get("items", []):
                if scanned >= MAX_SCANNED:
                    break
                scanned += 1
                title = it.get("title")
                found = match(title, [], words)
                if found is None:
                    found = match(title, message_texts(await self._turns(str(it["session_id"]))), words)
                if found is not None:
                    hits.append({"session_id": it["session_id"], "title": title, "updated_at": it.get("updated_at"),
                                 "project_id": it.get("project_id"), "pinned": bool(it.get("pinned")), **found})
            cursor = page.get("next_cursor")
            if not cursor:
                break
        hits.sort(key=lambda h: str(h.get("updated_at") or ""), reverse=True)
        return {"items": hits[:limit], "next_cursor": None, "scanned": scanned, "complete": cursor is None}

    async def pin_session(self, user_id: str, session_id: str, pinned: bool) -> dict[str, Any]:
        await self._meta(user_id, session_id)
        await asyncio.to_thread(self.sessions.pin_session, session_id, pinned, user_id=user_id)
        return {"session_id": session_id, "pinned": pinned}

    async def set_feedback(
        self, user_id: str, session_id: str, seq: int, rating: str | None, comment: str | None
    ) -> dict[str, Any]:
        """Thumbs up/down (+ comment) on an answer, stored on its message; counted in the usage read model
        (``feedback_up`` / ``feedback_down``)."""
        await self._meta(user_id, session_id)
        before = await asyncio.to_thread(self.sessions.get_feedback, session_id, seq)
        feedback = await asyncio.to_thread(self.sessions.set_feedback, session_id, seq, rating, comment)
        # the read models count ratings net: a changed rating moves from one counter to the other, a cleared
        # one is taken back, a re-saved comment counts nothing
        old, new = (before or {}).get("rating"), (feedback or {}).get("rating")
        if old != new:
            delta = {f"feedback_{r}": v for r, v in ((old, -1), (new, 1)) if r}
            given = {f"feedback_{new}": 1} if new else None  # the ops series: ratings given per minute
            record_safely(self.metrics, counts=given, usage=delta, user=user_id)
        log.info("feedback_set", session_id=session_id, seq=seq, rating=rating)
        return {"session_id": session_id, "seq": seq, "feedback": feedback}

    async def export_markdown(self, user_id: str, session_id: str) -> tuple[str, str]:
        """``(file name, Markdown)`` of the whole chat."""
        meta = await self._meta(user_id, session_id)
        items = display_items(await self._turns(session_id))
        return export_file_name(meta), to_markdown(meta, items, exported_at=iso_ms(time.time()))

    async def _replace_turn(self, session_id: str, seq: int) -> None:
        """Regenerate / edit-and-resend: the last question ``seq`` and its answer are set aside (kept, not
        shown, not sent to the model); the new question is appended after them."""
        if await self.shared.generating(session_id):
            raise SessionConflict("an answer is being written in this chat", session_id=session_id)
        turns = await self._turns(session_id)
        questions = [t for t in turns if t["role"] == "user" and not t.get("superseded")
                     and not any(isinstance(b, dict) and b.get("type") == "tool_result" for b in t["content"])]
        if questions and int(questions[-1]["seq"]) == seq:
            await asyncio.to_thread(self.sessions.supersede_turn, session_id, seq)
            return
        if any(int(t["seq"]) == seq and t.get("superseded") for t in turns):
            return  # a retry of this very request: already set aside
        raise InvalidInput("only the last question can be regenerated or edited")

    # --- asking ------------------------------------------------------------------------

    async def ask(
        self,
        user_id: str,
        session_id: str,
        *,
        text: str,
        project_id: str | None = None,
        turn_id: str | None = None,
        replaces_seq: int | None = None,
    ) -> tuple[Generation, int]:
        """Start answering (or, for a retried ``turn_id``, re-attach to that answer); returns (gen, replay-from).

        ``replaces_seq``: the seq of the last question, which this one replaces (regenerate, edit-and-resend).
        """
        meta = await self._meta(user_id, session_id)
        if turn_id is not None and (not turn_id or len(turn_id) > 100 or not turn_id.replace("-", "").isalnum()):
            raise InvalidInput("turn_id must be 1-100 letters, digits or dashes")
        current = self.registry.get(session_id)
        if turn_id and current is not None and current.turn_id == turn_id and current.user_id == user_id:
            return await self.shared.claimed(current), 0  # a retry of the same request: replay it, never answer twice
        if replaces_seq is not None:
            await self._replace_turn(session_id, replaces_seq)
            meta = await self._meta(user_id, session_id)
        try:
            projects = await self._projects_for(user_id, project_id or meta.get("project_id"))
        except NotFound:
            if project_id:
                raise
            raise NotFound("this chat's project no longer exists; start a new chat or choose another project") from None
        ctx = AskContext(
            session_id=session_id,
            user_id=user_id,
            text=text,
            turn_id=turn_id or uuid.uuid4().hex,
            project_ids=tuple(projects),
            needs_title=not meta.get("title"),
            last_seq_before=int(meta.get("last_seq") or 0),
            document_ids=tuple(meta["document_ids"]) if meta.get("document_ids") else None,
        )
        # a retry of the answer running (here or on another process) follows it: not counted as a new question
        counted = self.limits is not None and not await self.shared.answering(session_id, user_id, ctx.turn_id)
        lease = await self.limits.admit_question(user_id) if counted and self.limits is not None else None
        timeout_s = self.settings.chat.answer_timeout_seconds
        structlog.contextvars.bind_contextvars(session_id=session_id)  # the answer's task inherits it
        try:
            # across processes: the session's lease decides who answers; a retry follows the running answer
            gen = await self.shared.begin(
                session_id=session_id, user_id=user_id, turn_id=ctx.turn_id,
                run=lambda g: run_bounded(g, lambda g2: self.agent.run(g2, ctx), timeout_s=timeout_s, lease=lease),
            )
        except BaseException:
            if lease is not None:
                await lease.release()
            raise
        if self.metrics is not None and gen.role != "follower":  # set before the answer's task first runs
            gen.observer = AnswerMetrics(self.metrics, user=user_id,
                                         project=projects[0] if len(projects) == 1 else None)
        if gen.role == "follower" and lease is not None:  # another process answers it: no slot held here
            await lease.release()
        return gen, 0

    async def _projects_for(self, user_id: str, project_id: str | None) -> Sequence[str]:
        if project_id:
            await self._check_project(user_id, project_id)
            return [project_id]
        return await self._user_projects(user_id)

    async def resume(
        self, user_id: str, session_id: str, last: tuple[str, int] | None
    ) -> tuple[Generation, int] | None:
        await self._meta(user_id, session_id)
        return await self.shared.resume(session_id, user_id, last)

    async def stop_generation(self, user_id: str, session_id: str) -> dict[str, Any]:
        await self._meta(user_id, session_id)
        return await self.shared.stop(session_id)


    # --- issue 16: sharing read-only, the document selection ------------------------------

    async def share(self, user_id: str, session_id: str, with_user: str) -> dict[str, Any]:
        return dict(await asyncio.to_thread(self.shares.share, session_id, user_id, with_user))

    async def unshare(self, user_id: str, session_id: str, with_user: str) -> None:
        await asyncio.to_thread(self.shares.unshare, session_id, user_id, with_user)

    async def list_shares(self, user_id: str, session_id: str) -> list[dict[str, Any]]:
        return [dict(s) for s in await asyncio.to_thread(self.shares.list_shares, session_id, user_id)]

    async def shared_with(self, user_id: str, *, limit: int = 50) -> list[dict[str, Any]]:
        return [dict(s) for s in await asyncio.to_thread(self.shares.shared_with, user_id, limit)]

    async def set_documents(self, user_id: str, session_id: str, document_ids: list[str] | None) -> dict[str, Any]:
        """Which documents the chat's tools use: ``None`` = all of its projects', else those ids (owner only).
        The ids need no check here: the search filter keeps the chat's projects, and reading a page checks
        the document's owner."""
        await self._meta(user_id, session_id)
        await asyncio.to_thread(self.sessions.set_documents, session_id, document_ids, user_id=user_id)
        meta = await self._meta(user_id, session_id)
        return {"session_id": session_id, "document_ids": meta.get("document_ids")}


def _clean_title(title: str) -> str:
    clean = " ".join(title.split())
    if not clean:
        raise InvalidInput("title must not be empty")
    if len(clean) > MAX_TITLE_CHARS:
        raise InvalidInput(f"title is longer than {MAX_TITLE_CHARS} characters")
    return clean
