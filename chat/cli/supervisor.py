"""A small process supervisor: start children, watch them, stop every one of them (no orphans).

Each child runs in a session (process group) of its own, so the terminal's Ctrl-C reaches only the
supervisor, which then stops the children in reverse start order: SIGTERM to the child's whole group
(its own children too: uvicorn workers, parse sandboxes), a grace period, then SIGKILL. On Linux each
child also gets ``PR_SET_PDEATHSIG`` = SIGTERM, so even a supervisor killed with SIGKILL leaves no
server behind. Output goes to one log file per child.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from store.logging import get_logger

log = get_logger(__name__)

_PR_SET_PDEATHSIG = 1


def _death_signal() -> Callable[[], None] | None:
    """A ``preexec_fn`` asking the kernel to SIGTERM the child when its parent dies (Linux only)."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    prctl = libc.prctl

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)

    return preexec


@dataclass
class Child:
    name: str
    process: subprocess.Popen[bytes]
    log_path: Path
    log_file: IO[bytes]
    tier: int = 0  # stopped highest tier first: services (1) before what they depend on (0)

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-chars:]
        except OSError:
            return ""


class Supervisor:
    """Children started with :meth:`spawn`; :meth:`stop` ends them all (also used as a context manager)."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.children: list[Child] = []
        self._preexec = _death_signal()

    def spawn(self, name: str, argv: Sequence[str], *, env: Mapping[str, str], cwd: Path | None = None,
              tier: int = 0) -> Child:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log_path = self.log_dir / f"{name}.log"
        log_file = log_path.open("ab")
        process = subprocess.Popen(
            list(argv),
            env=dict(env),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=self._preexec,  # only a prctl call in the child
        )
        child = Child(name, process, log_path, log_file, tier)
        self.children.append(child)
        log.info("child_started", child=name, pid=process.pid)
        return child

    def first_dead(self) -> Child | None:
        """A child that has exited (the stack is broken without it), else None."""
        return next((c for c in self.children if not c.alive()), None)

    def stop(self, grace_seconds: float = 10.0) -> None:
        """Stop every child, highest tier first (a tier's children together): SIGTERM to each child's process
        group, up to ``grace_seconds`` to exit, then SIGKILL for what is left of the group."""
        for tier in sorted({c.tier for c in self.children}, reverse=True):
            self._stop_tier([c for c in reversed(self.children) if c.tier == tier], grace_seconds)
        self.children.clear()

    def _stop_tier(self, children: list[Child], grace_seconds: float) -> None:
        for child in children:
            if child.alive():
                _signal_group(child.pid, signal.SIGTERM)
        deadline = time.monotonic() + grace_seconds
        for child in children:
            try:
                child.process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.warning("child_killed", child=child.name, pid=child.pid)
            _signal_group(child.pid, signal.SIGKILL)  # the group's stragglers too, even if the leader exited
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.process.wait(timeout=5)
            child.log_file.close()

    def __enter__(self) -> Supervisor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _signal_group(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)
