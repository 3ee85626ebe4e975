"""Sandbox children started before they are needed (issue 18: no interpreter start on the path to searchable).

A sandboxed call (``ingest.sandbox``) runs in a fresh ``python -m ingest.sandbox`` interpreter; starting one and
importing the parsers (pypdfium2, the text-layer and rendering modules) costs ~0.15 s of CPU, and more wall time on
a busy machine, per call — the upload's inspection, then the text layer, then the rendering. A *spare* is such a
child started ahead: it imports ``SPARE_MODULES`` and waits on its request pipe. A call takes a spare when one is
idle (else it starts a child as before) and a new spare is started when a call ends, so the next call finds one.

The sandbox stays what it was: one fresh interpreter per call (a spare serves exactly one request, then exits; no
fork of this threaded process), the memory limit (``RLIMIT_AS``), core dumps off and the nice increment are applied
by the child when the request arrives, before it unpickles the request or touches the file; the per-item timeout
and the JSON-only results are the same code. Only trusted imports run before the limits. A spare whose parent dies
reads end-of-file on its request pipe and exits. ``DOCCHAT_SANDBOX_SPARES`` (0 = none: every call starts a child)
sets how many are kept; ``prestart`` (the worker runner's start) starts them, ``configure`` (the upload parse pool)
only sets the number, so they are started after the first call.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection

#: a call's end starts its replacement this much later (``Spares.refill_later``)
REFILL_DELAY_S = 0.5
#: imported by a spare while it waits (the modules whose functions the pipeline and the upload check run sandboxed)
SPARE_MODULES = ("ingest.inspect", "ingest.steps.text_layer", "ingest.steps.segment_prep")


@dataclass
class Spare:
    """A started child waiting for its one request; ``sender``/``receiver``: the protocol pipes."""

    proc: subprocess.Popen[bytes]
    sender: Connection
    receiver: Connection

    def discard(self) -> None:
        for conn in (self.sender, self.receiver):
            with contextlib.suppress(OSError):
                conn.close()
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            self.proc.wait(5)


def spawn(modules: tuple[str, ...] = SPARE_MODULES) -> Spare:
    """Start a spare child (raises ``OSError`` when no process can be started)."""
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ingest.sandbox", str(to_child_r), str(from_child_w), "spare", ",".join(modules)],
            pass_fds=(to_child_r, from_child_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        for fd in (to_child_r, to_child_w, from_child_r, from_child_w):
            os.close(fd)
        raise
    os.close(to_child_r)
    os.close(from_child_w)
    sender = Connection(to_child_w, readable=False)
    spare = Spare(proc, sender, Connection(from_child_r, writable=False))
    try:
        sender.send_bytes(json.dumps(sys.path).encode("utf-8"))  # its imports need this process's path
    except OSError:
        spare.discard()
        raise
    return spare


class Spares:
    """The idle spares of this process (one pool per process: a forked copy starts empty)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: list[Spare] = []
        self._starting = 0
        self._pid = os.getpid()
        self.target = 0
        self._held = 0  # text paths running (``hold``): refills wait while one spare is still idle
        self._timer: threading.Timer | None = None
        self.started = 0  # spares started (tests, benchmarks)
        self.taken = 0  # calls that found one

    def configure(self, count: int) -> None:
        """Keep ``count`` spares from the next call's end on (0: none; idle ones beyond it are stopped)."""
        with self._lock:
            self.target = max(0, int(count))
            extra, self._idle = self._idle[self.target:], self._idle[:self.target]
        for spare in extra:
            spare.discard()

    def _forked(self) -> bool:
        if self._pid == os.getpid():
            return False
        self._pid, self._idle, self._starting, self._timer = os.getpid(), [], 0, None  # not our children
        return True

    def take(self) -> Spare | None:
        """An idle spare that is still alive, or None (the caller starts a child itself)."""
        dead: list[Spare] = []
        found = None
        with self._lock:
            if not self._forked():
                while self._idle:
                    spare = self._idle.pop(0)  # the oldest: the most likely to have its imports done
                    if spare.proc.poll() is None:
                        found = spare
                        self.taken += 1
                        break
                    dead.append(spare)
        for spare in dead:
            spare.discard()
        return found

    def hold(self) -> None:
        """A document is on its way to keyword-searchable (``ingest.keyword_first`` listeners): a spare's start-up
        (~0.15 s of CPU) waits for ``release``. The path's own calls (the upload check, the text layer) have their
        children by then; a spare started beside them served only a later call (the rendering, after the vector
        fill), so its start-up was CPU on the path to searchable that the path did not use (issue 18)."""
        with self._lock:
            self._held += 1

    def release(self) -> None:
        with self._lock:
            self._held = max(0, self._held - 1)
            held = self._held
        if not held and self.target:
            threading.Thread(target=self.refill, name="sandbox-spares", daemon=True).start()

    def refill_later(self, delay_s: float = REFILL_DELAY_S) -> None:
        """``refill`` in ``delay_s`` (one timer at a time): the call that ended is often followed at once by the
        next step of the same document (the upload check, then its text layer) and the spare's start-up is not
        to run beside it; by then ``hold`` may be on and the refill waits for the text path's end."""
        with self._lock:
            if self._timer is not None or not self.target:
                return
            self._timer = threading.Timer(delay_s, self._timed_refill)
            self._timer.daemon = True
            self._timer.start()

    def _timed_refill(self) -> None:
        with self._lock:
            self._timer = None
        self.refill()

    def refill(self, *, start_up: bool = False) -> None:
        """Start spares up to ``target`` (in the calling thread: a ``Popen``, ~ms; the child starts beside it);
        while ``hold`` is on, none (``release`` refills) — except at start-up (``prestart``): the first upload's
        check and text layer are to find theirs started."""
        while True:
            with self._lock:
                self._forked()
                have = len(self._idle) + self._starting
                if have >= self.target or (self._held and not start_up):
                    return
                self._starting += 1
            spare = None
            try:
                spare = spawn()
            except OSError:
                return  # no process can start now: calls start their own (and report why)
            finally:
                with self._lock:
                    self._starting -= 1
                    if spare is not None:
                        self.started += 1
                        self._idle.append(spare)

    def wait_imported(self, timeout_s: float) -> bool:
        """Wait (at most ``timeout_s``) until ``target`` spares are idle and each has done its imports (its
        "imported" frame is waiting, or it died: a call then starts its own child); True if they all have."""
        deadline = time.monotonic() + timeout_s
        while True:
            with self._lock:
                idle, starting = list(self._idle), self._starting
            if len(idle) >= self.target and not starting:
                break
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        for spare in idle:
            with contextlib.suppress(OSError):
                if not spare.receiver.poll(max(0.0, deadline - time.monotonic())):
                    return False
        return True

    def close(self) -> None:
        """Stop every idle spare (at exit; tests)."""
        with self._lock:
            idle, self._idle = self._idle, []
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
        for spare in idle:
            spare.discard()


SPARES = Spares()
atexit.register(SPARES.close)


def configure(count: int) -> None:
    SPARES.configure(count)


def prestart(count: int) -> None:
    """Keep ``count`` spares and start them now, in a thread (the caller does not wait for any)."""
    SPARES.configure(count)
    if count > 0:
        threading.Thread(target=lambda: SPARES.refill(start_up=True), name="sandbox-spares", daemon=True).start()


def wait_imported(timeout_s: float) -> bool:
    return SPARES.wait_imported(timeout_s)
