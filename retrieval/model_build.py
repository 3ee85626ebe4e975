"""The int8 model file built in a child process that keyword indexing can pause (issue 18).

On a fresh data directory the embedder's int8 file takes seconds of CPU to build (``quantize_dynamic``). Built
in a thread, it competed with the first upload's text path however niced it was. Built in a child process
(``python -m``-style, ``retrieval.int8_build``), it can be stopped outright: ``Retriever.pause_background`` (called
by ``ingest.keyword_first`` when a document starts its way to keyword-searchable) sends ``SIGSTOP``,
``resume_background`` (no document on that way any more) ``SIGCONT``. The first upload after start-up then runs
its keyword path alone and the build finishes behind it, before the vector fill needs the model.

The child is in a process group of its own: if this process dies while the child is stopped, the group is
orphaned and the kernel sends it ``SIGHUP`` + ``SIGCONT`` (it ends; nothing stays stopped). Where there are no
signals (not POSIX) the build just runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from store.errors import ConfigError

_CHILD = ("import json, sys; sys.path[:0] = json.loads(sys.argv[1]); "
          "from retrieval.int8_build import main; main(sys.argv[2:])")


def build_command(weights: Path, root: Path) -> list[str]:
    """The child's command line: this interpreter, this import path, the weights file and the cache directory."""
    return [sys.executable, "-c", _CHILD, json.dumps(sys.path), str(weights), str(root)]


class BuildChild:
    """Runs one build command at a time (``run``, blocking) and pauses/continues it on request (any thread)."""

    def __init__(self, nice: int = 0) -> None:
        self.nice = nice
        self.cpu_s = 0.0  # CPU seconds of the finished builds (benchmarks)
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._paused = False
        self._released = False

    def run(self, argv: list[str]) -> None:
        with tempfile.TemporaryFile() as err:
            with self._lock:
                proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                        process_group=0)
                self._proc = proc
                if self.nice > 0:
                    with contextlib.suppress(AttributeError, OSError):
                        os.setpriority(os.PRIO_PROCESS, proc.pid, os.getpriority(os.PRIO_PROCESS, proc.pid)
                                       + self.nice)
                if self._paused and not self._released:
                    self._signal(signal.SIGSTOP)
            try:
                _pid, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = os.waitstatus_to_exitcode(status)
                self.cpu_s += usage.ru_utime + usage.ru_stime
            finally:
                with self._lock:
                    self._proc = None
            if proc.returncode != 0:
                err.seek(0)
                tail = err.read()[-400:].decode("utf-8", "replace").strip().splitlines()
                raise ConfigError("building the int8 embedding model failed"
                                  + (f": {tail[-1]}" if tail else f" (exit code {proc.returncode})"))

    def pause(self) -> None:
        with self._lock:
            self._paused = True
            if not self._released:
                self._signal(getattr(signal, "SIGSTOP", None))

    def resume(self) -> None:
        with self._lock:
            self._paused = False
            self._signal(getattr(signal, "SIGCONT", None))

    def release(self) -> None:
        """Continue the build and never pause it again (shutting down: nothing may wait on a stopped child)."""
        with self._lock:
            self._released = True
            self._signal(getattr(signal, "SIGCONT", None))

    @property
    def running(self) -> bool:
        return self._proc is not None

    def _signal(self, sig: signal.Signals | None) -> None:
        proc = self._proc
        if sig is not None and proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(proc.pid, sig)
