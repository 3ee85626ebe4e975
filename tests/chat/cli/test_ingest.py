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
