"""Real processes for the scenarios: ``docchat up`` servers and ``docchat worker`` processes on loopback,
started from this checkout with only the settings a scenario gives them, and killed with SIGKILL."""

from __future__ import annotations

import contextlib
import http.client
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from chat.cli.aws_local import free_port
from chat.cli.supervisor import Child, Supervisor
from store.config import child_environment, env_for
from store.errors import RetryableError
from store.logging import configure_logging

ROOT = Path(__file__).resolve().parents[2]

#: every per-user limit off (0 = unlimited): the scenarios ask and upload far faster than a person
NO_LIMITS: dict[str, Any] = {
    "limit_questions_per_minute": 0, "limit_concurrent_answers": 0, "limit_uploads_per_day": 0,
    "limit_pages_per_day": 0, "limit_projects": 0, "limit_sessions_per_day": 0,
}


def quiet_logs() -> None:
    """Warnings only from this process (the results are the output; each child logs to its own file)."""
    configure_logging("WARNING", json=False)
    logging.getLogger("httpx").setLevel(logging.WARNING)


def wait_for(ready: Callable[[], bool], *, what: str, within_s: float, child: Child | None = None,
             poll_s: float = 0.05) -> float:
    """Poll ``ready`` until it holds (seconds it took); RetryableError when ``child`` exits or time runs out."""
    t0 = time.monotonic()
    while not ready():
        if child is not None and not child.alive():
            raise RetryableError(f"{what}: {child.name} exited (code {child.process.returncode}):\n"
                                 f"{child.log_tail(1500)}")
        if time.monotonic() - t0 > within_s:
            raise RetryableError(f"timed out after {within_s:.0f} s waiting for {what}")
        time.sleep(poll_s)
    return time.monotonic() - t0


def healthy(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2.0)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


class Processes:
    """The children of one scenario run (a :class:`Supervisor`: every child stopped at the end, no orphans)."""

    def __init__(self, work: Path, *, start_timeout_s: float = 120.0) -> None:
        self.work = work
        self.sup = Supervisor(work / "logs")
        self.start_timeout_s = start_timeout_s

    def env(self, values: Mapping[str, Any]) -> dict[str, str]:
        """The child's environment: no DOCCHAT_* of ours, this checkout first on the path, then ``values``."""
        settings = {"log_level": "WARNING", **NO_LIMITS, **values}
        return child_environment({**env_for(settings), "PYTHONPATH": str(ROOT)}, drop_prefixes=("DOCCHAT_",))

    def server(self, name: str, data_dir: Path, *, port: int | None = None, **values: Any) -> tuple[Child, int]:
        """``docchat up`` (embedded backend, in-process workers) on loopback; returns once /healthz answers."""
        port = port or free_port()
        argv = [sys.executable, "-m", "chat.cli.main", "up", "--data-dir", str(data_dir), "--port", str(port)]
        child = self.sup.spawn(name, argv, env=self.env(values), cwd=ROOT)
        wait_for(lambda: healthy(port), what=f"{name} to answer /healthz", within_s=self.start_timeout_s,
                 child=child, poll_s=0.1)
        return child, port

    def worker(self, name: str, data_dir: Path, **values: Any) -> Child:
        """``docchat worker`` on the embedded queue of ``data_dir`` (logs at INFO: the step boundaries)."""
        argv = [sys.executable, "-m", "chat.cli.main", "worker", "--data-dir", str(data_dir)]
        return self.sup.spawn(name, argv, env=self.env({"log_level": "INFO", **values}), cwd=ROOT)

    def spawn(self, name: str, argv: list[str], *, cwd: Path | None = None) -> Child:
        return self.sup.spawn(name, argv, env=self.env({}), cwd=cwd or ROOT)

    def kill9(self, child: Child) -> None:
        """SIGKILL to the child's whole process group, then reap it (it leaves the supervisor)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.process.wait(timeout=10)
        child.log_file.close()
        with contextlib.suppress(ValueError):
            self.sup.children.remove(child)

    def close(self) -> None:
        self.sup.stop(grace_seconds=5.0)

    def __enter__(self) -> Processes:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
