"""Issue 13 item 4 against real processes: ``docchat worker`` is killed with SIGKILL mid-document; a second
``docchat worker`` already running takes the document over once the short lease (3 s here) runs out — not after
the queue's 300 s visibility timeout — and finishes it once: every page, no duplicate chunks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingest.build import build_queue
from ingest.results import original_key
from ingest.sample_docs import write_text_pdf
from store import open_blob_store, open_item_table
from store.config import Settings
from store.workflows import NewDocument, WorkflowStore

ROOT = Path(__file__).resolve().parents[2]
PAGES = 60
LEASE = 3

pytestmark = pytest.mark.slow


def _worker(data_dir: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOCCHAT_")}
    env.update(PYTHONPATH=str(ROOT), DOCCHAT_QUEUE_LEASE_SECONDS=str(LEASE), DOCCHAT_QUEUE_VISIBILITY_SECONDS="300",
               DOCCHAT_QUEUE_MAX_RECEIVES="3", DOCCHAT_LOG_LEVEL="INFO")
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "chat.cli.main", "worker", "--data-dir", str(data_dir)],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def _until(predicate, within_s: float, what: str) -> float:
    t0 = time.monotonic()
    while not predicate():
        assert time.monotonic() - t0 < within_s, f"timed out waiting for {what}"
        time.sleep(0.05)
    return time.monotonic() - t0


def test_a_killed_worker_process_is_replaced_after_the_short_lease(tmp_path: Path) -> None:
    data = tmp_path / "data"
    settings = Settings.from_env(env={}, data_dir=data)
    data.mkdir()
    store = WorkflowStore(open_item_table(settings, "workflows"))
    blobs = open_blob_store(settings, "documents")
    queue = build_queue(settings)
    pid = store.create_project("alice", "P")["project_id"]
    path = write_text_pdf(tmp_path / "long.pdf", PAGES, lines=30)
    key = original_key(pid, "d", ".pdf")
    blobs.put(key, path.read_bytes())
    c = store.create_workflow(NewDocument(
        owner="alice", project_id=pid, file_name="long.pdf", file_type="application/pdf", file_kind="pdf",
        file_key=key, file_uri=key, size=path.stat().st_size, sha256="e" * 64, page_count=PAGES, language="en",
        priority="low"))
    queue.send({"workflow_id": c.workflow_id, "document_id": c.document_id, "project_id": pid}, priority="low")
    queue.close()

    def view():
        return store.get_workflow("alice", c.workflow_id)

    def parsed() -> int:  # the text layer comes first (rendering runs after the vector fill: issue 18)
        return int(view()["steps"]["format_parser"].get("done") or 0)

    log = tmp_path / "workers.log"
    first = _worker(data, log)
    second = None
    try:
        _until(lambda: view()["status"] == "in_progress" and parsed() >= 2, 120, "the first worker to start")
        second = _worker(data, log)  # idle: the job is invisible and claimed
        _until(lambda: log.read_text().count("worker_started") >= 2, 60, "the second worker to start")
        assert view()["status"] == "in_progress" and view()["attempts"] == 1, "finished before the kill: use more pages"
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        killed_at = time.monotonic()
        _until(lambda: view()["attempts"] == 2, 60, "the second worker to take the document over")
        took = time.monotonic() - killed_at
        assert took < LEASE + 4, f"reclaimed {took:.1f} s after the kill (lease {LEASE} s)"
        _until(lambda: view()["status"] == "completed", 180, "the document to complete")
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
    final = view()
    assert final["status"] == "completed" and final["attempts"] == 2 and final["total_segments"] == PAGES
    segments = store.list_segments(c.workflow_id, limit=100).items
    assert [s["segment_index"] for s in segments] == list(range(1, PAGES + 1))
    import lancedb

    rows = lancedb.connect(str(data / "lance")).open_table("chunks").to_arrow().select(["chunk_id", "document_id"])
    ids = sorted(r["chunk_id"] for r in rows.to_pylist() if r["document_id"] == c.document_id)
    assert ids and ids == [f"{c.document_id}:{i:05d}" for i in range(len(ids))]  # no duplicates, no gaps
    print(f"reclaimed {took:.2f} s after SIGKILL (lease {LEASE} s); {len(ids)} chunks")
