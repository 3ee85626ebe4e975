"""schemathesis over the running server's ``/schema/openapi.json`` (every operation, uploads included):
no request may get a server error (5xx). Runs the schemathesis command line with an NDJSON report and counts
the requests and their statuses from it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from chat.selftest.procs import Processes
from chat.selftest.report import Result


def _interactions(ndjson: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for line in ndjson.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        recorder = (event.get("ScenarioFinished") or {}).get("recorder") or {}
        out += [i for i in (recorder.get("interactions") or {}).values() if isinstance(i, dict)]
    return out


def run(procs: Processes, port: int, work: Path, *, max_examples: int = 20, max_time_s: float = 60.0,
        seed: int = 0, workers: int = 2, phases: str = "examples,coverage,fuzzing,stateful") -> Result:
    result = Result("schemathesis over /schema/openapi.json")
    t0 = time.monotonic()
    try:
        import schemathesis  # noqa: F401 - only to say it is missing
    except ImportError:
        result.skipped = "schemathesis is not installed (pip install -e '.[dev]')"
        return result
    reports = work / "schemathesis"
    reports.mkdir(parents=True, exist_ok=True)
    ndjson = reports / "run.ndjson"
    argv = [sys.executable, "-m", "schemathesis.cli", "run", f"http://127.0.0.1:{port}/schema/openapi.json",
            "--checks", "not_a_server_error", "--max-examples", str(max_examples), "--max-time", str(int(max_time_s)),
            "--header", "Authorization: Bearer dev:fuzz", "--seed", str(seed), "--workers", str(workers),
            "--report", "ndjson", "--report-ndjson-path", str(ndjson), "--request-timeout", "30",
            "--phases", phases, "--no-color"]
    child = procs.spawn("schemathesis", argv, cwd=work)
    try:
        code = child.process.wait(timeout=max_time_s + 120)
    except subprocess.TimeoutExpired:
        procs.kill9(child)
        code = -9
    statuses: Counter[int] = Counter()
    if ndjson.exists():
        for i in _interactions(ndjson):
            status = int((i.get("response") or {}).get("status_code") or 0)
            statuses[status] += 1
            if status >= 500:
                request = i.get("request") or {}
                result.fail(f"{status} for {request.get('method')} {str(request.get('uri'))[:160]}")
    result.attempts = sum(statuses.values())
    if code not in (0, 1) or not result.attempts:
        result.fail(f"schemathesis exited {code} after {result.attempts} requests: {child.log_tail(800)}")
    elif code == 1 and not result.failures:
        result.fail(f"schemathesis reported a failure: {child.log_tail(1500)}")
    result.notes.update({f"http_{k // 100}xx": v for k, v in sorted(Counter(s // 100 * 100 for s in
                                                                              statuses.elements()).items())})
    if result.failures:
        result.notes["log"] = str(child.log_path)
    result.seconds = time.monotonic() - t0
    return result
