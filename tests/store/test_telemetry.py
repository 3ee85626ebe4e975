"""No phone-home: ONNX Runtime's telemetry is switched off before it loads (store/config.py).

ONNX Runtime >= 1.29 ships Linux telemetry, on by default: it writes a device id and an event database under
``~/.cache/Microsoft/DeveloperTools/.onnxruntime`` when a session is created and resolves its collector's host
(mobile.events.data.microsoft.com) a few seconds later. ``ORT_DISABLE_TELEMETRY`` turns all of it off.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from store.config import TELEMETRY_OPT_OUTS, disable_library_telemetry

ROOT = Path(__file__).resolve().parents[2]

#: builds and runs a one-node ONNX graph, the way the embedder and OCR do (an InferenceSession)
_ORT_SESSION = """
import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper
graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(
    None, {"x": np.ones(1, np.float32)})
"""


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in TELEMETRY_OPT_OUTS and k not in ("CI",)}
    env.pop("ORT_RUNNING_UNIT_TESTS", None)  # ORT's own test switch would hide what we check
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), TMPDIR=str(home), PYTHONPATH=str(ROOT))
    env.update(extra)
    return env


def _run(code: str, env: dict[str, str], cwd: Path) -> str:
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_the_opt_out_is_set_by_default_and_an_explicit_value_is_kept() -> None:
    env: dict[str, str] = {}
    disable_library_telemetry(env)
    assert env == {"ORT_DISABLE_TELEMETRY": "1"}
    env = {"ORT_DISABLE_TELEMETRY": "0"}
    disable_library_telemetry(env)
    assert env == {"ORT_DISABLE_TELEMETRY": "0"}


def test_the_cli_entry_point_sets_the_switch_before_onnxruntime_loads(tmp_path: Path) -> None:
    code = (
        "import os, sys\nimport chat.cli.main\n"
        "print(os.environ.get('ORT_DISABLE_TELEMETRY'), 'onnxruntime' in sys.modules)"
    )
    assert _run(code, _env(tmp_path), tmp_path).split() == ["1", "False"]


def test_onnxruntime_keeps_no_telemetry_state_in_a_docchat_process(tmp_path: Path) -> None:
    """Behaviour, not just the variable: with the switch ORT never creates its telemetry store."""
    telemetry_dir = tmp_path / ".cache" / "Microsoft" / "DeveloperTools"
    _run("import chat.cli.main\n" + _ORT_SESSION, _env(tmp_path), tmp_path)
    assert not telemetry_dir.exists(), sorted(p.name for p in telemetry_dir.rglob("*"))


def test_without_the_switch_onnxruntime_does_keep_telemetry_state(tmp_path: Path) -> None:
    """The control for the test above: the store appears when ORT is loaded on its own."""
    _run(_ORT_SESSION, _env(tmp_path), tmp_path)
    assert (tmp_path / ".cache" / "Microsoft" / "DeveloperTools" / ".onnxruntime").is_dir()


#: an API process's start-up (app + services, local mode) and a search through the ONNX embedder; every
#: Python-level socket connect is recorded, and the process lives long enough for ORT's uploader to try
_APP_AND_SEARCH = """
import asyncio, json, socket, sys, time
attempts = []
_connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex
def connect(self, address):
    if isinstance(address, tuple):
        attempts.append(repr(address))
    return _connect(self, address)
def connect_ex(self, address):
    if isinstance(address, tuple):
        attempts.append(repr(address))
    return _connect_ex(self, address)
socket.socket.connect, socket.socket.connect_ex = connect, connect_ex

from pathlib import Path
from store.config import Settings
from chat.app.factory import create_app
from chat.app.wiring import build_services
from retrieval.types import Chunk, SearchFilter

async def main():
    settings = Settings(data_dir=Path(sys.argv[1]), local_embedder_weights="q4")
    services = build_services(settings)
    create_app(settings, services=services)
    await services.start()
    retriever = services.dependencies["chat"].retriever
    chunk = Chunk(chunk_id="d1:00000", project_id="p1", document_id="d1", file_name="d1.pdf",
                  text="Net revenue grew 12 percent in the third quarter.", page_start=1, page_end=1,
                  chunk_index=0, language="en")
    await retriever.index_chunks([chunk])
    hits = await retriever.search("how much did revenue grow", SearchFilter(project_id="p1"))
    assert hits and hits[0].chunk_id == "d1:00000", hits
    await asyncio.sleep(float(sys.argv[2]))
    await services.stop()

asyncio.run(main())
print(json.dumps(attempts))
"""

_CONNECT = re.compile(r"connect\(\d+, \{sa_family=(AF_INET6?), (?:sin6?_port=htons\((\d+)\), )?"
                      r"(?:sin_addr=inet_addr\(\"([^\"]+)\"\)|.*?inet_pton\(AF_INET6, \"([^\"]+)\")")


def _non_loopback(trace: str) -> list[str]:
    bad = []
    for m in _CONNECT.finditer(trace):
        addr = m.group(3) or m.group(4) or ""
        if not (addr.startswith("127.") or addr in ("::1", "::ffff:127.0.0.1")):
            bad.append(f"{m.group(1)} {addr}:{m.group(2)}")
    return bad


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace to see native (C++) connects")
def test_app_start_up_and_a_search_connect_to_nothing_but_loopback(tmp_path: Path) -> None:
    """Native code bypasses Python's socket module, so the whole process tree runs under strace; 15 s is
    past the ~9 s at which ORT's uploader resolves its collector when telemetry is on."""
    data = tmp_path / "data"
    trace = tmp_path / "connect.trace"
    out = subprocess.run(
        ["strace", "-f", "-qq", "-e", "trace=connect", "-o", str(trace),
         sys.executable, "-c", _APP_AND_SEARCH, str(data), "15"],
        env=_env(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    python_level = json.loads(out.stdout.strip().splitlines()[-1])
    assert [a for a in python_level if "127.0.0.1" not in a and "::1" not in a] == []
    assert _non_loopback(trace.read_text()) == []
