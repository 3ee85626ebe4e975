"""The ports chat consumes (consumer-side Protocols): the session store, the document reader, the search.

Each is the slice of the adapter that chat actually calls, so a test double implements exactly
that and nothing else. The model port is ``chat.models.port.ChatModel``.

* ``SessionStorePort`` — ``store.sessions.SessionStore``: blocking methods; chat runs them off the
  event loop (``asyncio.to_thread``).
* ``DocumentReader`` — what chat needs from ingest (projects and pages), async; a document or
  project that is not the user's raises ``store.errors.NotFound``.
* ``DocumentSearch`` — ``retrieval.search.Retriever.search``, async.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from chat.models.tool_format import PageLike
from retrieval.types import Hit, SearchFilter, SearchMode
from store.items import ItemTable


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


class DocumentSearch(Protocol):
    """Hybrid search over the indexed chunks of one project (``SearchFilter``)."""

    async def search(
        self, query: str, flt: SearchFilter, *, k: int = 8, mode: SearchMode = "hybrid"
    ) -> Sequence[Hit]: ...
