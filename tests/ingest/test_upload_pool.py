"""Upload-time parsing runs on its own bounded pool (issue 13 item 11): slow files being opened do not take
the threads that other users' requests wait for; the wait for a parse slot is bounded; parser children are
niced and stopped sooner than the worker's."""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

import ingest.inspect
from chat.app.factory import create_app
from chat.app.wiring import Services
from ingest.build import build_ingest
from ingest.inspect import DocumentInfo
from ingest.parse_pool import UPLOAD_NICE, upload_limits
from ingest.sample_docs import write_text_pdf
from ingest.sandbox import Limits, run_sandboxed
from store.blobs import FileBlobStore
from store.config import Settings
from store.schema import WORKFLOW_TABLE
from store.sqlite_items import SqliteItemTable

ALICE = {"Authorization": "Bearer dev:alice"}
BOB = {"Authorization": "Bearer dev:bob"}
SLOW_S = 1.5


class _NoIndex:
    async def index_keywords(self, chunks: Any) -> None:
        return None

    async def index_chunks(self, chunks: Any, progress: Any = None) -> None:
        return None

    async def delete_document(self, project_id: str, document_id: str) -> None:
        return None


@asynccontextmanager
async def _serve(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """The ingest API under uvicorn, no workers (uploads stay pending: only upload-time work runs)."""
    items = SqliteItemTable(settings.server.data_dir / "workflows.db", WORKFLOW_TABLE, purge_interval_s=None)
    svc = build_ingest(settings, items=items, blobs=FileBlobStore(settings.server.data_dir / "blobs"),
                       index=_NoIndex())
    app = create_app(settings, services=Services(settings, dependencies={"uploads": svc.uploads,
                                                                         "documents": svc.documents},
                                                 on_stop=[svc.close]))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve())
    for _ in range(1000):
        if server.started:
            break
        await asyncio.sleep(0.01)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            yield client
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 20)
        items.close()


def _slow_inspect(path: Path, kind: str, settings: Settings, **_: Any) -> DocumentInfo:
    """A deliberately slow opener: blocks its thread like a malformed PDF in the sandbox does."""
    time.sleep(SLOW_S)
    return DocumentInfo(kind="pdf", page_count=1, encrypted=False, page_sizes=((612.0, 792.0),))


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings.from_env(env={}, data_dir=tmp_path / "data", max_upload_bytes=2_000_000,
                             upload_parse_concurrency=2, upload_parse_queue=16)


@pytest.fixture
def pdf(tmp_path: Path) -> bytes:
    return write_text_pdf(tmp_path / "doc.pdf", 1, lines=5).read_bytes()


async def _upload(client: httpx.AsyncClient, pid: str, data: bytes) -> httpx.Response:
    return await client.post(f"/v1/projects/{pid}/documents", files={"file": ("f.pdf", data, "application/pdf")},
                             headers=ALICE)


async def test_slow_uploads_do_not_slow_other_users_requests(settings: Settings, pdf: bytes,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # a 4-thread request pool, as on a small machine (6 slow uploads would take all of it)
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=4))
    monkeypatch.setattr(ingest.inspect, "inspect_document", _slow_inspect)
    async with _serve(settings) as client:
        pid = (await client.post("/v1/projects", json={"name": "P"}, headers=ALICE)).json()["project_id"]
        await client.get("/v1/projects", headers=BOB)  # warm up
        uploads = [asyncio.create_task(_upload(client, pid, pdf + b"%" + bytes([65 + i]) * 8)) for i in range(6)]
        await asyncio.sleep(0.4)  # every upload is now being opened or waiting for a parse slot
        latencies = []
        for _ in range(3):
            start = time.monotonic()
            r = await client.get("/v1/projects", headers=BOB)
            latencies.append(time.monotonic() - start)
            assert r.status_code == 200
        results = await asyncio.gather(*uploads)
    assert [r.status_code for r in results] == [202] * 6, [r.text for r in results]
    assert max(latencies) < 0.5 * SLOW_S, latencies  # unbounded before: waited for a slow upload's thread


async def test_uploads_waiting_for_a_parse_slot_are_bounded(settings: Settings, pdf: bytes,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingest.inspect, "inspect_document", _slow_inspect)
    async with _serve(settings.with_overrides(upload_parse_concurrency=1, upload_parse_queue=1)) as client:
        pid = (await client.post("/v1/projects", json={"name": "P"}, headers=ALICE)).json()["project_id"]
        results = await asyncio.gather(*[_upload(client, pid, pdf + bytes([65 + i]) * 4) for i in range(3)])
    codes = sorted(r.status_code for r in results)
    assert codes == [202, 202, 503], [r.text for r in results]
    busy = next(r for r in results if r.status_code == 503)
    assert "busy" in busy.json()["error"]["message"]


def test_upload_time_limits_are_shorter_and_niced() -> None:
    s = Settings(parse_timeout_seconds=120.0, upload_parse_timeout_seconds=20.0, parse_memory_mb=512)
    assert upload_limits(s) == Limits(timeout_s=20.0, memory_mb=512, nice=UPLOAD_NICE)
    assert upload_limits(s.with_overrides(parse_timeout_seconds=5.0)).timeout_s == 5.0


def test_sandbox_child_runs_niced() -> None:
    base = os.nice(0)
    assert run_sandboxed(os.nice, 0, limits=Limits(timeout_s=20.0, memory_mb=1024, nice=7)) == min(base + 7, 19)
    assert run_sandboxed(os.nice, 0, limits=Limits(timeout_s=20.0, memory_mb=1024)) == base


# --- the upload route keeps its own body limit, and its own pace check ------------------------------------


async def test_uploads_are_not_held_to_the_json_limit(settings: Settings, tmp_path: Path) -> None:
    big = write_text_pdf(tmp_path / "big.pdf", 1, lines=5).read_bytes() + b"%" + b"x" * 1_200_000  # > 1 MiB
    async with _serve(settings.with_overrides(max_json_body_bytes=1024 * 1024)) as client:
        pid = (await client.post("/v1/projects", json={"name": "P"}, headers=ALICE)).json()["project_id"]
        r = await _upload(client, pid, big)
        assert r.status_code == 202, r.text
        r = await _upload(client, pid, big + b"y" * 1_000_000)  # over DOCCHAT_MAX_UPLOAD_BYTES (2 MB here)
        assert r.status_code == 413 and "MiB" in r.json()["error"]["message"]


async def test_an_upload_that_stalls_is_stopped(settings: Settings) -> None:
    async with _serve(settings.with_overrides(body_timeout_seconds=0.5)) as client:
        pid = (await client.post("/v1/projects", json={"name": "P"}, headers=ALICE)).json()["project_id"]
        port = client.base_url.port

        def stall() -> tuple[bytes, float]:
            head = (f"POST /v1/projects/{pid}/documents HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    "Authorization: Bearer dev:alice\r\nContent-Type: multipart/form-data; boundary=B\r\n"
                    "Content-Length: 100000\r\n\r\n--B\r\nContent-Disposition: form-data; name=\"file\"; "
                    "filename=\"a.pdf\"\r\n\r\n%PDF-1.4\n").encode()
            with socket.create_connection(("127.0.0.1", port)) as s:
                start = time.monotonic()
                s.sendall(head)
                s.settimeout(5.0)
                reply = b""
                try:
                    while chunk := s.recv(4096):
                        reply += chunk
                except TimeoutError:
                    reply += b"<still open>"
                return reply, time.monotonic() - start

        reply, took = await asyncio.to_thread(stall)
        assert reply.startswith(b"HTTP/1.1 408") and b"request_timeout" in reply, reply[:300]
        assert not reply.endswith(b"<still open>") and took < 3.0
        assert (await client.get(f"/v1/projects/{pid}/documents", headers=ALICE)).json()["items"] == []
