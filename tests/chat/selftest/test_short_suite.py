"""``docchat selftest faults --short`` against real processes on loopback (issue 13): every scenario runs,
attempts something and finds no failure. DynamoDB Local (DOCCHAT_TOOLS_DIR) is needed for the appends row;
without it that row is skipped, and so is the assertion on it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from chat.cli.main import main
from chat.selftest.faults import SHORT, run_faults
from chat.selftest.procs import quiet_logs
from chat.selftest.report import SCENARIOS
from store.config import Settings


def test_the_short_fault_suite_passes(tmp_path: Path) -> None:
    tools = Path(os.environ.get("DOCCHAT_TOOLS_DIR") or Path(__file__).resolve().parents[3] / ".tools")
    settings = Settings(data_dir=tmp_path / "unused", tools_dir=tools)
    quiet_logs()
    results = run_faults(settings, sizes=SHORT, work_dir=tmp_path)
    assert len(results) == len(SCENARIOS)
    for r in results:
        assert r.ok, f"{r.scenario}: {r.examples}"
        if r.skipped is None:
            assert r.attempts > 0, r.scenario
    ran = [r.scenario for r in results if r.skipped is None]
    assert len(ran) >= len(SCENARIOS) - 1, f"skipped: {[(r.scenario, r.skipped) for r in results if r.skipped]}"
    assert not list(tmp_path.glob("docchat-selftest-*")), "the scratch folder is left behind"


def test_the_command_prints_a_table_and_fails_on_an_unknown_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["selftest", "faults", "--only", "nonsense"])
    assert "invalid choice" in capsys.readouterr().err
