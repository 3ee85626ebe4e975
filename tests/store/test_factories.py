"""store/__init__.py factories: local files by default, AWS clients honouring region and endpoint."""

from __future__ import annotations

from pathlib import Path

import boto3
import pytest

from store import aws_client, open_blob_store, open_item_table, open_session_store
from store.blobs import FileBlobStore, S3BlobStore
from store.config import Settings
from store.dynamo import DynamoItemTable
from store.schema import SESSIONS_TABLE, WORKFLOW_TABLE, create_table_kwargs
from store.sqlite_items import SqliteItemTable


def test_local_layout(tmp_path: Path) -> None:
    s = Settings.from_env({}, data_dir=tmp_path)
    wf = open_item_table(s, "workflows")
    ss = open_item_table(s, "sessions")
    try:
        assert isinstance(wf, SqliteItemTable) and wf.path == tmp_path / "workflows.db"
        assert isinstance(ss, SqliteItemTable) and ss.path == tmp_path / "sessions.db"
        assert wf.spec is WORKFLOW_TABLE and ss.spec is SESSIONS_TABLE
    finally:
        wf.close()
        ss.close()
    docs = open_blob_store(s, "documents")
    assert isinstance(docs, FileBlobStore) and docs.root == (tmp_path / "blobs" / "documents").resolve()
    assert isinstance(open_blob_store(s, "sessions"), FileBlobStore)


def test_aws_client_honours_endpoint_and_region() -> None:
    s = Settings.from_env({"AWS_REGION": "eu-west-2", "AWS_ENDPOINT_URL": "http://127.0.0.1:4566"})
    c = aws_client(s, "dynamodb")
    assert c.meta.region_name == "eu-west-2"
    assert c.meta.endpoint_url == "http://127.0.0.1:4566"


def test_aws_backend_on_moto(moto_aws: None) -> None:
    s = Settings.from_env({"DOCCHAT_BACKEND": "aws", "AWS_REGION": "us-east-1"})
    raw = boto3.client("dynamodb", region_name="us-east-1")
    raw.create_table(**create_table_kwargs(s.store.sessions_table, SESSIONS_TABLE))
    boto3.client("s3", region_name="us-east-1").create_bucket(Bucket=s.store.sessions_bucket)
    assert isinstance(open_item_table(s, "sessions"), DynamoItemTable)
    assert isinstance(open_blob_store(s, "documents"), S3BlobStore)
    store = open_session_store(s)
    sid = store.create_session("alice")
    store.append_message(sid, "user", [{"type": "text", "text": "x" * (s.store.inline_max_bytes + 1)}])
    assert store.load_messages(sid)[0]["content"][0]["text"].startswith("xxx")
    assert list(store.blobs.list(f"sessions/{sid}/")) == [f"sessions/{sid}/000001.json"]


def test_open_session_store_reads_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DOCCHAT_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DOCCHAT_BACKEND", "local")
    store = open_session_store(Settings.from_env())
    try:
        assert store.create_session("alice")
        assert (tmp_path / "sessions.db").exists()
    finally:
        store.close()
