"""Storage: the item table (DynamoDB subset), blob store, session store (seed 002), workflow store (seed 000).

The factories below are the one place where store adapters and AWS clients are
built from ``Settings``; everything else receives them as arguments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from store.config import Settings
from store.schema import SESSIONS_TABLE, WORKFLOW_TABLE

if TYPE_CHECKING:
    from store.blobs import BlobStore
    from store.items import ItemTable
    from store.sessions import SessionStore

__all__ = ["aws_client", "open_blob_store", "open_item_table", "open_session_store"]


def aws_client(settings: Settings, service: str, **config: Any) -> Any:
    """A boto3 client for ``service`` honouring the region and endpoint (moto, DynamoDB Local) in ``settings``.

    Retries use botocore's ``standard`` mode; ``config`` adds ``botocore.config.Config`` options.
    """
    import boto3
    from botocore.config import Config

    cfg = Config(
        region_name=settings.aws_region,
        retries={"max_attempts": 5, "mode": "standard"},
        connect_timeout=5,
        read_timeout=config.pop("read_timeout", 30),
        max_pool_connections=config.pop("max_pool_connections", 32),
        **config,
    )
    return boto3.client(service, endpoint_url=settings.aws_endpoint_url, config=cfg)  # type: ignore[call-overload]


def open_item_table(settings: Settings, which: Literal["workflows", "sessions"]) -> ItemTable:
    """The workflow (seed 000) or session (seed 002) table: SQLite under ``data_dir`` locally, DynamoDB on AWS."""
    spec = {"workflows": WORKFLOW_TABLE, "sessions": SESSIONS_TABLE}[which]
    if settings.backend == "aws":
        from store.dynamo import DynamoItemTable

        table_name = settings.workflow_table if which == "workflows" else settings.sessions_table
        return DynamoItemTable(aws_client(settings, "dynamodb"), table_name, spec)
    from store.sqlite_items import SqliteItemTable

    return SqliteItemTable(settings.data_dir / f"{which}.db", spec)


def open_blob_store(settings: Settings, which: Literal["documents", "sessions"]) -> BlobStore:
    """Documents or session-overflow blobs: files under ``data_dir/blobs/<which>/`` locally, S3 on AWS."""
    if settings.backend == "aws":
        from store.blobs import S3BlobStore

        bucket = settings.documents_bucket if which == "documents" else settings.sessions_bucket
        return S3BlobStore(aws_client(settings, "s3"), bucket)
    from store.blobs import FileBlobStore

    return FileBlobStore(settings.data_dir / "blobs" / which)


def open_session_store(settings: Settings | None = None) -> SessionStore:
    """The session store (seed 002) on the configured backend; settings from the environment when omitted."""
    from store.sessions import SessionStore

    settings = settings or Settings.from_env()
    return SessionStore(
        open_item_table(settings, "sessions"),
        open_blob_store(settings, "sessions"),
        ttl_days=settings.session_ttl_days,
        inline_max_bytes=settings.inline_max_bytes,
    )
