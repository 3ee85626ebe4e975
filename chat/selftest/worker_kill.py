"""kill -9 of ``docchat worker`` at every step boundary of one PDF: a worker is killed as soon as the workflow
shows a step completed that no worker was killed after yet (polled every 20 ms); the next worker reclaims the
document once the short lease runs out. The document must complete exactly once — every page one segment,
every chunk once. (The last boundary, indexing → completed, is one write apart: the kill usually comes late.)"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from pathlib import Path
from typing import Any

from chat.cli.supervisor import Child
from chat.selftest.client import write_report
from chat.selftest.procs import Processes, wait_for
from chat.selftest.report import Result
from ingest.build import build_queue
from ingest.results import original_key
from store import open_blob_store, open_item_table
from store.config import Settings
from store.errors import RetryableError
from store.workflows import NewDocument, WorkflowStore

LEASE_S = 3  # the smallest lease the settings allow: a killed worker's document is reclaimed after it


def _events(log: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return out
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
    return out


def _chunk_ids(data: Path, document_id: str) -> list[str]:
    import lancedb

    db = lancedb.connect(str(data / "lance"))
    table = db.open_table("chunks").to_arrow().select(["chunk_id", "document_id"])
    return sorted(str(r["chunk_id"]) for r in table.to_pylist() if r["document_id"] == document_id)


def run(settings: Settings, work: Path, *, pages: int = 40, max_kills: int | None = None,
        budget_s: float = 900.0) -> Result:
    result = Result(f"worker kill -9 at step boundaries ({pages}-page PDF)")
    t0 = time.monotonic()
    data = work / "data"
    data.mkdir(parents=True, exist_ok=True)
    values: dict[str, Any] = {"queue_lease_seconds": LEASE_S, "queue_visibility_seconds": 300,
                              "queue_max_receives": 40, "log_json": True}
    local = Settings(data_dir=data, **values)
    store = WorkflowStore(open_item_table(local, "workflows"))
    blobs = open_blob_store(local, "documents")
    pdf = write_report(work / "long.pdf", pages)
    project_id = store.create_project("selftest", "worker kill")["project_id"]
    key = original_key(project_id, "selftest-doc", ".pdf")
    body = pdf.read_bytes()
    blobs.put(key, body)
    created = store.create_workflow(NewDocument(
        owner="selftest", project_id=project_id, file_name=pdf.name, file_type="application/pdf", file_kind="pdf",
        file_key=key, file_uri=key, size=len(body), sha256=hashlib.sha256(body).hexdigest(), page_count=pages,
        language="en", priority="low"))
    queue = build_queue(local)
    queue.send({"workflow_id": created.workflow_id, "document_id": created.document_id, "project_id": project_id},
               priority="low")
    queue.close()

    def view() -> dict[str, Any]:
        return store.get_workflow("selftest", created.workflow_id)

    killed_after: list[str] = []
    logs: list[Path] = []
    with Processes(work) as procs:
        last: Child | None = None
        while time.monotonic() - t0 < budget_s:
            worker = procs.worker(f"worker-{len(logs)}", data, **values)
            logs.append(worker.log_path)
            may_kill = max_kills is None or len(killed_after) < max_kills
            found: list[str] = []

            def boundary(worker: Child = worker, may_kill: bool = may_kill, found: list[str] = found) -> bool:
                current = view()
                if current["status"] in ("completed", "failed"):
                    return True
                if may_kill and int(current.get("attempts") or 0) == len(killed_after) + 1:  # this worker's claim
                    for name, step in (current.get("steps") or {}).items():
                        if step.get("status") == "completed" and name not in killed_after:
                            found.append(str(name))
                            return True
                return False

            wait_for(boundary, what="a step boundary or the end of the document", within_s=max(
                10.0, budget_s - (time.monotonic() - t0)), child=worker, poll_s=0.02)
            if not found:
                last = worker
                break
            procs.kill9(worker)
            killed_after.append(found[0])
            result.attempts += 1
        if last is None:
            raise RetryableError(f"the document did not complete within {budget_s:.0f} s")
        final = view()
        with contextlib.suppress(RetryableError):  # its completion is logged just after the status is written
            wait_for(lambda: any(e.get("event") == "job_completed" for e in _events(last.log_path)),
                     what="the completion to be logged", within_s=10, child=last)
        procs.kill9(last)  # done: nothing of it is needed any more (a SIGTERM waits for its idle poll)
        procs.close()
    completions = sum(1 for log in logs for e in _events(log)
                      if e.get("event") == "job_completed" and e.get("workflow_id") == created.workflow_id)
    if final["status"] != "completed":
        result.fail(f"the document ended {final['status']}: {final.get('error')}")
    if completions != 1:
        result.fail(f"the document was completed {completions} times")
    segments = [int(s["segment_index"]) for s in store.list_segments(created.workflow_id, limit=1000).items]
    if segments != list(range(1, pages + 1)):
        result.fail(f"segments {segments[:5]}… ({len(segments)}) are not pages 1..{pages} once each")
    ids = _chunk_ids(data, created.document_id)
    expected = [f"{created.document_id}:{i:05d}" for i in range(len(ids))]
    if not ids or ids != expected:
        dup = len(ids) - len(set(ids))
        result.fail(f"chunks: {len(ids)} rows, {dup} duplicates, not {created.document_id}:00000… in order")
    result.notes.update(kills=len(killed_after), killed_after="/".join(killed_after), attempts=final["attempts"],
                        completions=completions, segments=len(segments), chunks=len(ids))
    result.seconds = time.monotonic() - t0
    return result
