"""What chat reads from ingest — a user's projects and one page's text — as async calls (chat's
``DocumentReader`` port): ``list_projects``, ``get_project``, ``read_page``, ``document_summaries``,
``document_identities``; nothing else."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ingest.documents import Documents, PageContent
from ingest.uploads import Uploads


class IngestReader:
    def __init__(self, uploads: Uploads, documents: Documents) -> None:
        self._uploads = uploads
        self._documents = documents

    async def list_projects(self, user_id: str) -> list[dict[str, Any]]:
        return await self._uploads.list_projects(user_id)

    async def get_project(self, user_id: str, project_id: str) -> dict[str, Any]:
        """The user's project; ``NotFound`` when it does not exist or is someone else's."""
        return await self._uploads.get_project(user_id, project_id)

    async def read_page(self, user_id: str, document_id: str, page: int) -> PageContent:
        """The page's text; ``NotFound`` for another user's document, a page out of range or not processed yet."""
        return await self._documents.read_page(user_id, document_id, page)

    async def document_identities(self, user_id: str, docs: Mapping[str, str | None]) -> dict[str, dict[str, Any]]:
        """Whose each document is (``{document_id: {company, tickers, former_names}}``; ``{}`` for none)."""
        return await self._documents.document_identities(user_id, docs)

    async def document_summaries(self, user_id: str, project_ids: Sequence[str]) -> list[dict[str, Any]]:
        """The documents of the user's projects, each with its ``summary`` (None until summarised)."""
        return await self._documents.document_summaries(user_id, project_ids)
