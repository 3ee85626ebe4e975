"""The ports chat consumes (consumer-side Protocols): the session store, the document reader, the search.

Each is the slice of the adapter that chat actually calls, so a test double implements exactly
that and nothing else. The model port is ``chat.models.port.ChatModel``.

* ``SessionStorePort`` — ``store.sessions.SessionStore``: blocking methods; chat runs them off the
  event loop (``asyncio.to_thread``).
* ``DocumentReader`` — what chat needs from ingest (projects and pages), async; a document or
  project that is not the user's raises ``store.errors.NotFound``.
* ``DocumentSearch`` — ``retrieval.search.Retriever.search``, async.
* ``PiiMasker`` — ``ingest.pii.service.DocumentMasker``: a document's texts with personal data replaced by
  placeholders, for what goes to a remote model (async).
* ``GenerationLeasePort`` — ``store.session_lease.SessionLeases``: the session's generation lease, its
  stop flag and progress checkpoint (blocking; one generation per session across processes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from chat.models.tool_format import PageLike
from retrieval.types import Hit, SearchFilter, SearchMode
from store.items import ItemTable
from store.session_lease import Checkpoint, Lease


class SessionStorePort(Protocol):
    """The calls chat makes on ``store.sessions.SessionStore`` (all blocking)."""

    @property
    def items(self) -> ItemTable:
        """The session table itself (the running summary item, ``chat.core.history``)."""
        ...

    def create_session(self, user_id: str, title: str | None = None, *, project_id: str | None = None) -> str: ...

    def get_session(self, session_id: str, *, user_id: str | None = None) -> Mapping[str, Any]: ...

    def list_sessions(self, user_id: str, limit: int = 20, cursor: str | None = None) -> Mapping[str, Any]: ...

    def rename_session(self, session_id: str, title: str, *, user_id: str | None = None) -> None: ...

    def delete_session(self, session_id: str, *, user_id: str | None = None) -> None: ...

    def set_documents(
        self, session_id: str, document_ids: Sequence[str] | None, *, user_id: str | None = None
    ) -> None: ...

    def append_message(
        self,
        session_id: str,
        role: str,
        blocks: list[dict[str, Any]],
        *,
        turn_id: str | None = None,
        model: str | None = None,
        usage: Mapping[str, Any] | None = None,
    ) -> int: ...

    def list_messages(self, session_id: str, cursor: str | None = None, limit: int = 50) -> Mapping[str, Any]: ...

    def pin_session(self, session_id: str, pinned: bool, *, user_id: str | None = None) -> None: ...

    def set_feedback(
        self, session_id: str, seq: int, rating: str | None, comment: str | None = None
    ) -> Mapping[str, Any] | None: ...

    def get_feedback(self, session_id: str, seq: int) -> Mapping[str, Any] | None: ...

    def supersede_turn(self, session_id: str, seq: int) -> list[int]: ...


class DocumentReader(Protocol):
    """What chat reads from ingest: the user's projects and one page of a document (async)."""

    async def read_page(self, user_id: str, document_id: str, page: int) -> PageLike: ...

    async def list_projects(self, user_id: str) -> Sequence[Mapping[str, Any]]:
        """The user's projects, each with at least ``project_id``."""
        ...

    async def get_project(self, user_id: str, project_id: str) -> Mapping[str, Any]:
        """The project; ``NotFound`` when it does not exist or is not the user's."""
        ...


class DocumentCatalog(Protocol):
    """The ``DocumentReader`` that also lists documents with their summaries (``list_documents``)."""

    async def document_summaries(self, user_id: str, project_ids: Sequence[str]) -> Sequence[Mapping[str, Any]]:
        """Each document of the projects (already checked to be the user's): ``document_id``, ``file_name``,
        ``page_count``, ``status`` and ``summary`` (None until ``document_summarizer`` stored one)."""
        ...


class DocumentIdentities(Protocol):
    """The ``DocumentReader`` that also says whose each document is (``ingest.steps.identity``)."""

    async def document_identities(
        self, user_id: str, docs: Mapping[str, str | None]
    ) -> Mapping[str, Mapping[str, Any]]:
        """``{document_id: {company, tickers, former_names}}`` (``{}``: the cover names nobody) for ``{document_id:
        project_id}`` (a project already checked to be the user's; ``None``: look it up among the user's)."""
        ...


class DocumentSearch(Protocol):
    """Hybrid search over the indexed chunks of one project (``SearchFilter``)."""

    async def search(
        self, query: str, flt: SearchFilter, *, k: int = 8, mode: SearchMode = "hybrid"
    ) -> Sequence[Hit]: ...


class AnswerLeasePort(Protocol):
    """A held answer slot (``store.usage_limits.AnswerLease``): released once the answer has ended."""

    async def release(self) -> None: ...


class ChatLimits(Protocol):
    """The per-user limits chat applies (``store.usage_limits.UsageLimits``); over one → ``LimitExceeded``."""

    async def admit_question(self, user_id: str) -> AnswerLeasePort: ...

    async def admit_session(self, user_id: str) -> None: ...


class PiiMasker(Protocol):
    """A document's texts as a remote model may see them: personal data replaced by typed placeholders
    (``[PHONE_1]``, the same for the same value in the whole document); unchanged where the document's
    project has ``pii_mode=off``. Another user's document raises ``NotFound``."""

    async def mask_texts(self, user_id: str, document_id: str, texts: Sequence[str]) -> list[str]: ...


class GenerationLeasePort(Protocol):
    """The calls chat makes on ``store.session_lease.SessionLeases`` (all blocking)."""

    def acquire(
        self, session_id: str, *, generation_id: str, turn_id: str, user_id: str, owner: str, lease_s: float,
        owner_gone: Callable[[str], bool] | None = None,
    ) -> tuple[bool, Lease]: ...

    def get(self, session_id: str) -> Lease | None: ...

    def renew(self, session_id: str, generation_id: str, lease_s: float) -> Lease | None: ...

    def release(self, session_id: str, generation_id: str) -> bool: ...

    def request_stop(self, session_id: str) -> Lease | None: ...

    def watch(self, session_id: str, generation_id: str, until: float) -> bool: ...

    def write_checkpoint(
        self,
        session_id: str,
        *,
        generation_id: str,
        turn_id: str,
        user_id: str,
        events: str,
        last_n: int,
        finished: bool,
        first: bool = False,
    ) -> bool: ...

    def finish(
        self,
        session_id: str,
        *,
        generation_id: str,
        turn_id: str,
        user_id: str,
        events: str,
        last_n: int,
        first: bool = False,
    ) -> bool: ...

    def read_checkpoint(self, session_id: str) -> Checkpoint | None: ...
