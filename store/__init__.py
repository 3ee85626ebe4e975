"""Storage: the item table (DynamoDB subset), blob store, session store (seed 002), workflow store (seed 000).

The factories below build the store adapters from ``Settings``, with clients from ``store/clients.py``
(the one module that builds external clients); everything else receives them as arguments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from store.clients import aws_client
from store.config import Settings
from store.schema import SESSIONS_TABLE, WORKFLOW_TABLE

if TYPE_CHECKING:
    from store.blobs import BlobStore
    from store.items import ItemTable
    from store.sessions import SessionStore

__all__ = ["aws_client", "open_blob_store", "open_item_table", "open_session_store"]


def open_item_table(settings: Settings, which: Literal["workflows", "sessions"]) -> ItemTable:
    """The workflow (seed 000) or session (seed 002) table: SQLite under ``data_dir`` locally, DynamoDB on AWS."""
    spec = {"workflows": WORKFLOW_TABLE, "sessions": SESSIONS_TABLE}[which]
    if settings.server.backend == "aws":
        from store.dynamo import DynamoItemTable

        table_name = settings.store.workflow_table if which == "workflows" else settings.store.sessions_table
        return DynamoItemTable(aws_client(settings, "dynamodb"), table_name, spec)
    from store.sqlite_items import SqliteItemTable

    return SqliteItemTable(settings.server.data_dir / f"{which}.db", spec)


def open_blob_store(settings: Settings, which: Literal["documents", "sessions"]) -> BlobStore:
    """Documents or session-overflow blobs: files under ``data_dir/blobs/<which>/`` locally, S3 on AWS."""
    if settings.server.backend == "aws":
        from store.blobs import S3BlobStore

        bucket = settings.store.documents_bucket if which == "documents" else settings.store.sessions_bucket
        return S3BlobStore(aws_client(settings, "s3"), bucket)
    from store.blobs import FileBlobStore

    return FileBlobStore(settings.server.data_dir / "blobs" / which)


def open_session_store(settings: Settings) -> SessionStore:
    """The session store (seed 002) on the configured backend."""
    from store.sessions import SessionStore

    return SessionStore(
        open_item_table(settings, "sessions"),
        open_blob_store(settings, "sessions"),
        ttl_days=settings.store.session_ttl_days,
        inline_max_bytes=settings.store.inline_max_bytes,
    )
