"""Issue 18: the one-time int8 model build runs in a child process that keyword indexing stops (SIGSTOP) while a
document is on its way to searchable and continues (SIGCONT) after; a failed build says why."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

from ingest.keyword_first import KeywordFirst
from retrieval.model_build import BuildChild
from store.errors import ConfigError


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def _wait_for(cond, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline
        time.sleep(0.01)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_the_build_child_is_stopped_while_a_text_path_runs_and_continued_after(tmp_path: Path) -> None:
    done = tmp_path / "done"
    go = tmp_path / "go"
    # a stand-in for the build: busy until told to finish, then writes its file
    script = (f"import pathlib, time\nwhile not pathlib.Path({str(go)!r}).exists(): sum(range(1000))\n"
              f"pathlib.Path({str(done)!r}).write_text('ok')\n")
    child = BuildChild(nice=5)
    gate = KeywordFirst()
    gate.listen(child.pause, child.resume)
    runner = threading.Thread(target=child.run, args=([sys.executable, "-c", script],))
    runner.start()
    _wait_for(lambda: child._proc is not None)
    pid = child._proc.pid
    gate.take()  # a document starts its text path
    _wait_for(lambda: _state(pid) == "T")
    go.write_text("")
    time.sleep(0.3)
    assert _state(pid) == "T" and not done.exists()  # stopped: it cannot even see it may finish
    gate.give()  # searchable: the build goes on
    runner.join(20)
    assert done.read_text() == "ok" and not child.running and child.cpu_s > 0


def test_a_pause_asked_before_the_child_starts_applies_to_it(tmp_path: Path) -> None:
    child = BuildChild()
    child.pause()
    runner = threading.Thread(target=child.run, args=([sys.executable, "-c", "pass"],))
    runner.start()
    _wait_for(lambda: child._proc is not None)
    _wait_for(lambda: _state(child._proc.pid) == "T")
    child.release()  # shutting down: continued, never paused again
    child.pause()
    runner.join(20)
    assert not runner.is_alive()


def test_a_failed_build_says_why() -> None:
    with pytest.raises(ConfigError, match="boom"):
        BuildChild().run([sys.executable, "-c", "raise SystemExit('boom')"])
