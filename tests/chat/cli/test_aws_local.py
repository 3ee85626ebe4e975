"""``docchat up --aws-local`` end to end: DynamoDB Local, moto (S3, SQS), the local OIDC issuer, two
``docchat serve`` processes and a ``docchat worker`` — real processes on loopback, started once per module.

Skips (with the reason) when Java or DynamoDB Local is missing (``make tools`` installs it).
"""

from __future__ import annotations

import io
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from chat.cli.ask import ask
from chat.cli.aws_local import find_dynamodb_local
from chat.cli.local_issuer import dev_token
from store.config import Settings
from store.errors import ConfigError
from tests.ingest.docfactory import text_pdf

REPO = Path(__file__).resolve().parents[3]
START_TIMEOUT_S = 90


@dataclass
class Stack:
    proc: subprocess.Popen[str]
    data_dir: Path
    urls: list[str]
    env: dict[str, str]
    pids: dict[str, int]
    output: list[str]

    def token(self, user: str) -> str:
        return dev_token(Settings.from_env(env=self.env), user, self.data_dir)

    def client(self, index: int, user: str) -> httpx.Client:
        return httpx.Client(base_url=self.urls[index], headers={"Authorization": f"Bearer {self.token(user)}"},
                            timeout=httpx.Timeout(10.0, read=60.0))


def _tools_dir() -> Path:
    return Path(os.environ.get("DOCCHAT_TOOLS_DIR") or REPO / ".tools")


def _two_free_ports() -> int:
    import socket

    for _ in range(50):
        base = random.randint(20_000, 32_000)  # below the ephemeral range: no client socket is handed these
        try:
            for p in (base, base + 1):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
            return base
        except OSError:
            continue
    raise RuntimeError("no two consecutive free ports")


def _read_env(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        key, sep, value = line.partition("=")
        if sep and not line.startswith("#"):
            out[key] = value
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _start(tmp: Path) -> Stack:
    try:
        find_dynamodb_local(_tools_dir())
    except ConfigError as exc:
        pytest.skip(f"aws-local stack skipped: {exc.message}")
    port = _two_free_ports()
    env = dict(os.environ)
    env.update({"PYTHONPATH": str(REPO), "DOCCHAT_TOOLS_DIR": str(_tools_dir()), "PYTHONUNBUFFERED": "1"})
    for key in [k for k in env if k.startswith(("DOCCHAT_", "AWS_ENDPOINT_URL"))]:
        if key != "DOCCHAT_TOOLS_DIR":
            env.pop(key)
    proc = subprocess.Popen(
        [sys.executable, "-m", "chat.cli.main", "up", "--aws-local", "--api-processes", "2", "--port", str(port),
         "--data-dir", str(tmp)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )
    output: list[str] = []
    deadline = time.monotonic() + START_TIMEOUT_S
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError("docchat up --aws-local exited:\n" + "".join(output))
        output.append(line)
        if "Ctrl-C stops everything" in line:
            break
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("docchat up --aws-local did not come up:\n" + "".join(output))
    pids = {m.group(1): int(m.group(2)) for m in re.finditer(r"child='([^']+)' pid=(\d+)", "".join(output))}
    urls = [f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}"]
    return Stack(proc, tmp, urls, _read_env(tmp / "aws-local.env"), pids, output)


def _stop(stack: Stack) -> int:
    if stack.proc.poll() is None:
        os.kill(stack.proc.pid, signal.SIGINT)
    try:
        return stack.proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(stack.proc.pid, signal.SIGKILL)
        for pid in stack.pids.values():
            if _alive(pid):
                os.killpg(pid, signal.SIGKILL)
        raise


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    data_dir = tmp_path_factory.mktemp("aws-local")
    # the embedder's built ONNX graph is a deterministic artefact: share it between test runs (saves ~6 s)
    cache = Path(tempfile.gettempdir()) / "docchat-test-models"
    cache.mkdir(exist_ok=True)
    (data_dir / "models").symlink_to(cache, target_is_directory=True)
    s = _start(data_dir)
    try:
        yield s
    finally:
        _stop(s)


@pytest.fixture(scope="module")
def uploaded(stack: Stack) -> dict[str, str]:
    """A small generated PDF uploaded on API process 0 and analysed by the worker process."""
    pdf = text_pdf([["Acme Corporation annual report 2025.",
                     "The total revenue of Acme was 42 million dollars in 2025.",
                     "Acme employs 310 people in Springfield."]])
    with stack.client(0, "alice") as a, stack.client(1, "alice") as b:
        project = a.post("/v1/projects", json={"name": "demo"}).json()["project_id"]
        r = a.post(f"/v1/projects/{project}/documents", files={"file": ("acme.pdf", pdf, "application/pdf")})
        assert r.status_code == 202, r.text
        body = r.json()
        deadline = time.monotonic() + 60
        while (view := b.get(f"/v1/workflows/{body['workflow_id']}").json())["status"] not in ("completed", "failed"):
            assert time.monotonic() < deadline, view
            time.sleep(0.5)
        assert view["status"] == "completed", view
    return {"project_id": project, "document_id": body["document_id"], "workflow_id": body["workflow_id"]}


def test_the_stack_runs_separate_processes_in_aws_mode(stack: Stack) -> None:
    assert {"dynamodb-local", "moto", "worker", *(f"api-{u.rsplit(':', 1)[1]}" for u in stack.urls)} <= set(
        stack.pids)
    assert all(_alive(pid) for pid in stack.pids.values())
    assert stack.env["DOCCHAT_BACKEND"] == "aws"
    assert stack.env["DOCCHAT_QUEUE_HIGH_URL"].startswith("http://127.0.0.1:")
    for url in stack.urls:
        assert httpx.get(f"{url}/v1/projects", headers={"Authorization": "Bearer dev:alice"}).status_code == 401
        config = httpx.get(f"{url}/v1/config").json()  # the web UI signs in at the local issuer
        assert config["mode"] == "aws" and config["oidc_issuer"] == stack.env["DOCCHAT_OIDC_ISSUER"]


def test_upload_on_one_process_ask_on_the_other_and_other_users_get_404(stack: Stack,
                                                                        uploaded: dict[str, str]) -> None:
    with stack.client(1, "alice") as b:
        docs = b.get(f"/v1/projects/{uploaded['project_id']}/documents").json()["items"]
        assert [d["document_id"] for d in docs] == [uploaded["document_id"]]
        result = ask(b, "What was the total revenue of Acme in 2025?", session_id=None,
                     project_id=uploaded["project_id"], out=io.StringIO(), err=io.StringIO())
        assert result.error is None
        assert b.get(f"/v1/sessions/{result.session_id}/messages").status_code == 200
    with stack.client(1, "bob") as bob, stack.client(0, "bob") as bob_a:
        for client in (bob, bob_a):
            assert client.get(f"/v1/projects/{uploaded['project_id']}").status_code == 404
            assert client.get(f"/v1/workflows/{uploaded['workflow_id']}").status_code == 404
            assert client.get(f"/v1/sessions/{result.session_id}").status_code == 404
            assert client.get("/v1/projects").json()["items"] == []


def test_answer_on_the_other_process_is_cited(stack: Stack, uploaded: dict[str, str]) -> None:
    with stack.client(1, "alice") as b:
        result = ask(b, "What was the total revenue of Acme in 2025?", session_id=None,
                     project_id=uploaded["project_id"], out=io.StringIO(), err=io.StringIO())
    assert result.citations, "no citation"
    assert result.citations[0]["file_name"] == "acme.pdf"
    assert "42 million" in result.citations[0]["quote"]


@pytest.mark.slow
@pytest.mark.browser
def test_the_web_ui_signs_in_at_the_local_issuer(stack: Stack) -> None:
    from tests.web.conftest import CHROMIUM_ARGS, chromium_path

    exe = chromium_path()
    if exe is None:
        pytest.skip("browser test skipped: Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(stack.urls[1] + "/")
            page.click("#signin-cognito-button:enabled", timeout=20_000)
            page.fill("input[name=username]", "dora", timeout=20_000)
            assert page.url.startswith(stack.env["DOCCHAT_OIDC_ISSUER"] + "/oauth2/authorize")
            page.click("button[type=submit]")
            page.wait_for_url(stack.urls[1] + "/**", timeout=20_000)
            page.wait_for_function("document.querySelector('#signin').hidden", timeout=20_000)
            assert page.evaluate("JSON.parse(sessionStorage.getItem('docchat.tokens')).access_token")
        finally:
            browser.close()


def test_ctrl_c_stops_everything_it_started(tmp_path: Path, stack: Stack) -> None:
    """Runs last (module order): SIGINT to the supervisor ends every child — no orphans."""
    assert _stop(stack) == 0
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in stack.pids.values()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert {name: pid for name, pid in stack.pids.items() if _alive(pid)} == {}
