"""Issue 13 item 1 with real processes: kill -9 the server inside a tool round (or before any answer),
start it again on the same store, and the session answers every later question."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from store.block_repair import assert_request_history, repair_history
from tests.chat.chat_harness import ALICE, free_port, parse_sse, session_store, settings_for

ROOT = Path(__file__).resolve().parents[3]


def start(data: Path, port: int, *, tool_s: float, first_s: float) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.chat.crash_server", str(data), str(port), str(tool_s), str(first_s)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=0.5).status_code < 500:
                return proc
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start")


def kill_after(base: str, sid: str, event: str, settle_s: float = 0.0) -> None:
    """Ask, read the stream until ``event`` (and ``settle_s`` more), then the caller kills the server."""
    with httpx.Client(base_url=base, headers=ALICE, timeout=10) as c, \
            c.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": "What about revenue?"}) as r:
        buf = b""
        for chunk in r.iter_raw():
            buf += chunk
            if f"event: {event}".encode() in buf:
                time.sleep(settle_s)
                return


def ask(base: str, sid: str, text: str) -> list[tuple[str, dict[str, Any], str | None]]:
    r = httpx.post(f"{base}/v1/sessions/{sid}/messages", json={"text": text}, headers=ALICE, timeout=10)
    assert r.status_code == 200, r.text
    return parse_sse(r.content)


@pytest.mark.slow  # three server processes
def test_kill_9_inside_a_tool_round_and_before_any_answer_then_every_later_question_answers(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(tmp_path, port, tool_s=5.0, first_s=0.0)
    try:
        sid = httpx.post(f"{base}/v1/sessions", json={}, headers=ALICE, timeout=5).json()["session_id"]
        kill_after(base, sid, "tool", 1.0)  # the tool_use turn is stored, its search still running
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc = start(tmp_path, port, tool_s=0.0, first_s=3.0)
        kill_after(base, sid, "start", 1.0)  # the question is stored, no reply yet
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc = start(tmp_path, port, tool_s=0.0, first_s=0.0)
        for i in range(2):
            events = ask(base, sid, f"later question {i}")
            # before the repair: error invalid_history "tool_use without tool_result"
            assert events[-1][0] == "done" and events[-1][1]["stop_reason"] == "end_turn", events
        items = httpx.get(f"{base}/v1/sessions/{sid}/messages", headers=ALICE, timeout=5).json()["items"]
        assert [i["role"] for i in items] == ["user", "assistant"] * 4
        assert [i.get("repaired", False) for i in items if i["role"] == "assistant"] == [True, True, False, False]
    finally:
        proc.kill()
        proc.wait(10)
    # the stored turns are left as the crashes left them; the repaired history is a valid request
    stored = session_store(settings_for(tmp_path)).load_messages(sid)
    assert [m["role"] for m in stored[:3]] == ["user", "assistant", "user"] and len(stored) == 3 + 2 * 4
    assert_request_history(repair_history(stored).messages)
