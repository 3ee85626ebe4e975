from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest

from bench.ingest_eval import (
    MALFORMED_SETS,
    Outcome,
    check_file,
    main,
    malformed_files,
    print_malformed,
    run_malformed,
)
from store.config import Settings
from tests.ingest.docfactory import EVALDATA, encrypted_pdf, png_header_only, text_pdf

HAVE_MALFORMED = all((EVALDATA / name).is_dir() for name in MALFORMED_SETS)
FEW = 4  # files per corpus in the fast run (the first ones, sorted: the same files every time)


def test_check_file_verdicts(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, parse_timeout_seconds=20)
    cases = {
        "ok.pdf": (text_pdf([["fine"]]), "accepted"),
        "locked.pdf": (encrypted_pdf(), "rejected"),
        "bomb.png": (png_header_only(30_000, 30_000), "rejected"),
        "empty.pdf": (b"", "rejected"),
        "notes.txt": (b"just text", "rejected"),
    }
    for name, (data, expected) in cases.items():
        (tmp_path / name).write_bytes(data)
        outcome = check_file(tmp_path / name, settings)
        assert outcome.status == expected, (name, outcome)
        assert (outcome.reason == "") == (expected == "accepted")


def test_commands_skip_cleanly_without_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data", str(tmp_path / "nowhere"), "malformed"]) == 0
    assert "not found" in capsys.readouterr().out


def _assert_clean_verdicts(results: dict[str, list[Outcome]]) -> list[Outcome]:
    """Every file accepted, or rejected/failed with a reason — never an unexpected exception or a hang."""
    out = io.StringIO()
    print_malformed(results, out)
    print(out.getvalue())  # the summary table (pytest -s shows it)
    everything = [o for outcomes in results.values() for o in outcomes]
    assert [o for o in everything if o.status == "error"] == []
    assert all(o.reason for o in everything if o.status != "accepted")
    assert all(o.seconds < 60 for o in everything)
    by_name = {Path(o.path).name: o for o in everything}
    assert by_name["aes-128.pdf"].status == "rejected" and "encrypted" in by_name["aes-128.pdf"].reason
    counts = Counter(o.status for o in everything)
    assert counts["accepted"] > 0 and counts["rejected"] > 0
    assert "no crash or hang escaped: yes" in out.getvalue()
    return everything


@pytest.mark.skipif(not HAVE_MALFORMED, reason="evaldata absent: ../shared/evaldata (qpdf_malformed, ...)")
def test_a_few_malformed_files_of_each_corpus_get_a_clean_verdict(tmp_path: Path) -> None:
    """The fast stand-in for the corpus-wide test below: the first files of each corpus, plus aes-128.pdf."""
    settings = Settings(data_dir=tmp_path, parse_timeout_seconds=10.0)
    results = {
        name: [check_file(p, settings) for p in [*files[:FEW], *(f for f in files[FEW:] if f.name == "aes-128.pdf")]]
        for name, files in malformed_files(EVALDATA).items()
    }
    assert set(results) == set(MALFORMED_SETS) and all(len(v) >= FEW for v in results.values())
    _assert_clean_verdicts(results)


@pytest.mark.slow  # ~20-100 s on 2 cores: deselected by `make test`; run it with `make test PYTEST_ARGS="-m slow"`
@pytest.mark.skipif(not HAVE_MALFORMED, reason="evaldata absent: ../shared/evaldata (qpdf_malformed, ...)")
def test_every_malformed_file_gets_a_clean_verdict(tmp_path: Path) -> None:
    """Every file in qpdf_malformed, pdfminer_samples and pillow_bad_images: accepted, or rejected/failed with a
    reason — never an unexpected exception, a crash of this process, or a hang (10 s parse timeout)."""
    settings = Settings(data_dir=tmp_path, parse_timeout_seconds=10.0)
    everything = _assert_clean_verdicts(run_malformed(EVALDATA, settings, jobs=2))
    assert len(everything) >= 250
