"""Do slow uploads starve other users' requests? (issue 13 item 11)

Serves the ingest API (embedded store, no workers: only upload-time work runs) under uvicorn on loopback,
uploads ``--uploads`` copies of ``--file`` (each with different trailing bytes, so none is a duplicate) from
one user, and meanwhile times another user's ``GET /v1/projects`` every ``--interval`` seconds, and
``/healthz``. Prints the latency percentiles, the slowest request and how the uploads ended.

    python -m bench.upload_starvation --file /path/to/slow.jpg [--uploads 6]

The file is read from where it is (the malformed-file corpora are not part of the repository).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.chat_common import free_port, pct

ALICE = {"Authorization": "Bearer dev:alice"}
BOB = {"Authorization": "Bearer dev:bob"}


class _NoIndex:
    async def index_keywords(self, chunks: Any) -> None:
        return None

    async def index_chunks(self, chunks: Any, progress: Any = None) -> None:
        return None

    async def delete_document(self, project_id: str, document_id: str) -> None:
        return None


async def run(data: bytes, name: str, uploads: int, interval: float) -> dict[str, Any]:
    import httpx
    import uvicorn

    from chat.app.factory import create_app
    from chat.app.wiring import Services
    from ingest.build import build_ingest
    from store.blobs import FileBlobStore
    from store.config import Settings
    from store.schema import WORKFLOW_TABLE
    from store.sqlite_items import SqliteItemTable

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), log_level="WARNING")
        items = SqliteItemTable(Path(tmp) / "workflows.db", WORKFLOW_TABLE, purge_interval_s=None)
        svc = build_ingest(settings, items=items, blobs=FileBlobStore(Path(tmp) / "blobs"), index=_NoIndex())
        app = create_app(settings, services=Services(settings, dependencies={"uploads": svc.uploads,
                                                                             "documents": svc.documents},
                                                     on_stop=[svc.close]))
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        task = asyncio.create_task(server.serve())
        while not server.started:  # noqa: ASYNC110 - uvicorn exposes no started event
            await asyncio.sleep(0.01)
        latencies: list[float] = []
        health: Counter[int] = Counter()
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120) as c:
                pid = (await c.post("/v1/projects", json={"name": "P"}, headers=ALICE)).json()["project_id"]
                await c.get("/v1/projects", headers=BOB)
                start = time.monotonic()
                jobs = [asyncio.create_task(c.post(f"/v1/projects/{pid}/documents", headers=ALICE,
                                                   files={"file": (name, data + b"\n%" + str(i).encode() * 8)}))
                        for i in range(uploads)]
                while not all(j.done() for j in jobs):
                    t = time.monotonic()
                    r = await c.get("/v1/projects", headers=BOB)
                    r.raise_for_status()
                    latencies.append(time.monotonic() - t)
                    health[(await c.get("/healthz")).status_code] += 1
                    await asyncio.sleep(interval)
                results = [j.result() for j in jobs]
                took = time.monotonic() - start
        finally:
            server.should_exit = True
            await task
            items.close()
    return {"uploads": Counter(r.status_code for r in results), "uploads_s": round(took, 2),
            "requests": len(latencies), "p50_ms": round(pct(latencies, 50) * 1000, 1),
            "p95_ms": round(pct(latencies, 95) * 1000, 1), "max_ms": round(max(latencies, default=0) * 1000, 1),
            "healthz": dict(health)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", type=Path, required=True, help="a slow-to-open file (e.g. a malformed JPEG or PDF)")
    ap.add_argument("--uploads", type=int, default=6)
    ap.add_argument("--interval", type=float, default=0.2, help="seconds between the other user's requests")
    args = ap.parse_args(argv)
    out = asyncio.run(run(args.file.read_bytes(), args.file.name, args.uploads, args.interval))
    for key, value in out.items():
        print(f"{key:>10}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
