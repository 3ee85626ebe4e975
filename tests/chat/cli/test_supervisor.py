"""chat/cli/supervisor.py: every child (and its own children) is stopped; a killed supervisor leaves none."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from chat.cli.supervisor import Supervisor

#: a child that ignores SIGTERM's default only after spawning a grandchild, then sleeps
PARENT = textwrap.dedent("""
    import subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    print(child.pid, flush=True)
    time.sleep(120)
""")
STUBBORN = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('ready', flush=True); " \
           "time.sleep(120)"


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _wait_for(path: Path, text: str, timeout: float = 20) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        content = path.read_text() if path.exists() else ""
        if text in content:
            return content
        time.sleep(0.05)
    raise AssertionError(f"{path} never showed {text!r}")


def _wait_gone(pids: list[int], timeout: float = 10) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


def test_stop_ends_children_grandchildren_and_stubborn_ones(tmp_path: Path) -> None:
    sup = Supervisor(tmp_path / "logs")
    parent = sup.spawn("parent", [sys.executable, "-c", PARENT], env=dict(os.environ), tier=1)
    stubborn = sup.spawn("stubborn", [sys.executable, "-c", STUBBORN], env=dict(os.environ))
    grandchild = int(_wait_for(parent.log_path, "\n").split()[0])
    _wait_for(stubborn.log_path, "ready")
    assert sup.first_dead() is None
    started = time.monotonic()
    sup.stop(grace_seconds=1.0)
    assert time.monotonic() - started < 8
    assert _wait_gone([parent.pid, stubborn.pid, grandchild]) == []


def test_a_dead_child_is_reported(tmp_path: Path) -> None:
    with Supervisor(tmp_path / "logs") as sup:
        child = sup.spawn("quitter", [sys.executable, "-c", "print('bye')"], env=dict(os.environ))
        child.process.wait(timeout=20)
        assert sup.first_dead() is child
        assert "bye" in child.log_tail()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux-only")
def test_children_die_with_a_killed_supervisor(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import os, sys, time
        from pathlib import Path
        from chat.cli.supervisor import Supervisor
        sup = Supervisor(Path({str(tmp_path)!r}) / "logs")
        child = sup.spawn("sleeper", [sys.executable, "-c", "import time; time.sleep(120)"], env=dict(os.environ))
        print(child.pid, flush=True)
        time.sleep(120)
    """)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[3]))
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    while not line.strip().isdigit():  # the supervisor's own log line comes first
        line = proc.stdout.readline()
    child_pid = int(line)
    assert _alive(child_pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert _wait_gone([child_pid]) == []
