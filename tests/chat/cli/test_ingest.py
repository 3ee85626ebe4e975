"""``docchat ingest``: creates the project, uploads every file, follows SSE to completed/failed with reasons."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from chat.cli.ingest import ingest_files
from ingest.sample_docs import write_text_pdf
from store.config import Settings
from tests.ingest.test_api import _serve


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings.from_env(env={}, data_dir=tmp_path / "data", queue_visibility_seconds=30, queue_max_receives=3,
                             chunk_tokens=64, chunk_overlap_tokens=8, parse_timeout_seconds=60.0)


async def test_ingest_files_follows_each_document_to_its_end(settings, tmp_path):
    good = write_text_pdf(tmp_path / "good.pdf", 2)
    bad = tmp_path / "notes.txt"
    bad.write_text("not a document at all")
    out = io.StringIO()
    async with _serve(settings) as (client, svc):
        url = str(client.base_url)
        results = await ingest_files(settings, [good, bad], project="Inbox", url=url, user="carol",
                                     console=Console(file=out, width=120))
        by_name = {r.path.name: r for r in results}
        assert by_name["good.pdf"].status == "completed" and by_name["good.pdf"].pages == 2
        assert by_name["notes.txt"].status == "failed" and "unsupported file type" in by_name["notes.txt"].error
        projects = await svc.uploads.list_projects("carol")
        assert [p["name"] for p in projects] == ["Inbox"] and projects[0]["counts"]["completed"] == 1
        again = await ingest_files(settings, [good], project="Inbox", url=url, user="carol",
                                   console=Console(file=out, width=120))
        assert again[0].status == "completed" and again[0].document_id == by_name["good.pdf"].document_id
        assert len(await svc.uploads.list_projects("carol")) == 1
    assert "good.pdf" in out.getvalue()


def _render_bars(names: list[str], step: str, width: int = 120) -> str:
    from rich.progress import Progress

    from chat.cli.ingest import progress_columns

    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=False)
    with Progress(*progress_columns(names, width), console=console, auto_refresh=False) as p:
        for i, n in enumerate(names):
            p.update(p.add_task(n, total=100, step=step), completed=40 * i)
        p.refresh()
    return out.getvalue()


def test_progress_bars_keep_the_names_and_the_bar_at_120_columns() -> None:
    """Names were cut at 10 characters and a long step text pushed the bar out ("…") at 120 columns."""
    names = ["quarterly_financial_statements_2026.pdf", "normal_4pages.pdf", "scan.png"]
    long_step = "processing: failed: the PDF is encrypted and no password was given, and more words to fill the line"
    text = _render_bars(names, long_step)
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 3
    for name, line in zip(names, lines, strict=True):
        assert line.startswith(name), line
        assert len(line) <= 120
    assert "━" * 9 in lines[1] and "━" * 19 in lines[2]  # 40 % and 80 % of a 24-wide bar are drawn
    assert "processing: failed" in lines[0]


async def test_the_bar_shows_the_upload_then_the_processing(settings, tmp_path):
    """The bar moves while the file is sent ("uploading n%") and then follows the processing from 0 %."""
    from rich.progress import Progress

    from chat.cli.ingest import _ingest_one, ensure_project

    good = write_text_pdf(tmp_path / "good.pdf", 2)
    steps: list[tuple[str, float]] = []

    class Recording(Progress):
        def update(self, task_id, **kw):  # type: ignore[no-untyped-def]
            super().update(task_id, **kw)
            t = self._tasks[task_id]
            steps.append((str(t.fields.get("step")), t.completed))

    async with _serve(settings) as (client, _svc):
        client.headers["Authorization"] = "Bearer dev:carol"
        pid = await ensure_project(client, "Inbox", None)
        with Recording(console=Console(file=io.StringIO())) as progress:
            res = await _ingest_one(client, pid, good, progress)
    assert res.status == "completed"
    uploading = [c for s, c in steps if s.startswith("uploading")]
    assert uploading and uploading[-1] == 100.0
    i = next(i for i, (s, _) in enumerate(steps) if s.startswith("processing"))
    assert steps[i][1] == 0.0 and all(s.startswith("uploading") for s, _ in steps[:i])
    assert any(s.startswith("processing: ") and s != "processing: queued" for s, _ in steps) or steps[-1][1] == 100
    assert steps[-1] == ("[green]completed", 100.0)
