"""One way to point the CLI at a server (issue 16): --url, DOCCHAT_URL, the URL `docchat up` recorded, the
configured host/port; the default user is the one the browser's sign-in offers; `docchat ask … | head` exits
quietly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chat.app.web_routes import client_config
from chat.cli.api_client import base_url, default_user, write_cli_config
from store.config import Settings

REPO = Path(__file__).resolve().parents[3]


def _settings(tmp_path: Path, **env: str) -> Settings:
    return Settings.from_env(env={"DOCCHAT_CLI_CONFIG_FILE": str(tmp_path / "cfg" / "cli.json"), **env},
                             data_dir=tmp_path / "data")


def test_url_precedence_flag_env_recorded_then_host_port(tmp_path: Path) -> None:
    plain = _settings(tmp_path, DOCCHAT_PORT="8123")
    assert base_url(plain, None) == "http://127.0.0.1:8123"
    # `docchat up` on another port records it; a CLI without --url (and with the default port) finds it
    up = _settings(tmp_path, DOCCHAT_PORT="8765", DOCCHAT_HOST="0.0.0.0")
    assert write_cli_config(up) == tmp_path / "cfg" / "cli.json"
    assert json.loads((tmp_path / "cfg" / "cli.json").read_text())["url"] == "http://127.0.0.1:8765"
    assert base_url(_settings(tmp_path), None) == "http://127.0.0.1:8765"
    env = _settings(tmp_path, DOCCHAT_URL="http://10.0.0.5:9000/")
    assert base_url(env, None) == "http://10.0.0.5:9000"
    assert base_url(env, "http://127.0.0.1:1234") == "http://127.0.0.1:1234"


def test_the_cli_default_user_is_the_one_the_browser_offers(tmp_path: Path) -> None:
    import getpass

    s = _settings(tmp_path)
    assert default_user(s, None) == getpass.getuser() == client_config(s)["default_user"]
    kim = _settings(tmp_path, DOCCHAT_LOCAL_USER="kim")
    assert default_user(kim, None) == "kim" == client_config(kim)["default_user"]
    assert default_user(kim, "alice") == "alice"
    # the user `docchat up` offered the browser is recorded with its URL
    write_cli_config(kim)
    assert default_user(_settings(tmp_path), None) == "kim"
    assert "default_user" not in client_config(Settings.from_env(env={}, backend="aws", data_dir=tmp_path))


def test_docchat_up_records_its_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import chat.app.server
    from chat.cli.main import main

    seen: dict[str, Any] = {}
    monkeypatch.setattr(chat.app.server, "run_up", lambda settings: seen.setdefault("port", settings.server.port) and 0)
    cfg = tmp_path / "cli.json"
    monkeypatch.setenv("DOCCHAT_CLI_CONFIG_FILE", str(cfg))
    assert main(["up", "--port", "8311", "--data-dir", str(tmp_path / "d")]) == 0
    assert seen["port"] == 8311
    assert json.loads(cfg.read_text())["url"] == "http://127.0.0.1:8311"


def test_a_closed_pipe_ends_the_cli_quietly(tmp_path: Path) -> None:
    """`docchat ask … | head`: the reader goes away; no BrokenPipeError traceback, exit status 141."""
    code = (
        "import chat.cli.ask as a, chat.cli.main as m\n"
        "def fake(*args, **kw):\n"
        "    for _ in range(2000):\n"
        "        print('a line of the answer ' * 10, flush=True)\n"
        "    return 0\n"
        "a.run_ask = fake\n"
        "raise SystemExit(m.main(['ask', 'q']))\n"
    )
    proc = subprocess.run(f"{sys.executable} -c \"{code}\" | head -n 2", shell=True, cwd=REPO,
                          capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin",
                               "DOCCHAT_CLI_CONFIG_FILE": str(tmp_path / "cli.json"),
                               "DOCCHAT_DATA_DIR": str(tmp_path / "d")})
    assert proc.stdout.count("\n") == 2
    assert "Traceback" not in proc.stderr and "BrokenPipeError" not in proc.stderr, proc.stderr
    status = subprocess.run(f"{sys.executable} -c \"{code}\" | head -n 2 >/dev/null; echo ${{PIPESTATUS[0]}}",
                            shell=True, executable="/bin/bash", cwd=REPO, capture_output=True, text=True,
                            timeout=60, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin",
                                             "DOCCHAT_CLI_CONFIG_FILE": str(tmp_path / "cli.json"),
                                             "DOCCHAT_DATA_DIR": str(tmp_path / "d")})
    assert status.stdout.strip() == "141"
