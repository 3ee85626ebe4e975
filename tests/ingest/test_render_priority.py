"""Issue 18: once ``format_parser`` finds no page that needs OCR, the rendering children (pages for the viewer only)
drop to a lower priority, so the vector fill runs at the embedder's own speed ahead of them on busy cores;
a document whose pages are needed (OCR) keeps rendering at its normal priority."""

from __future__ import annotations

import os
import threading

from ingest import pipeline_steps
from ingest.pipeline import RENDER_NICE, Pipeline
from tests.ingest.test_worker import _submit, _worker


def _blocking_render(release: threading.Event):
    def fault(step: str, n: int) -> None:
        if step == "segment_prep" and n == 1:
            release.wait(60)  # the child stays alive (blocked on its pipe) until segments are being built
        if step == "segment_builder:item":
            release.set()

    return fault


async def test_rendering_drops_to_idle_priority_when_no_page_needs_ocr(
        settings, store, blobs, queue, indexer, clock, tmp_path, monkeypatch):
    seen: list[tuple[int, int, int]] = []  # pid, nice asked for, the child's nice after it
    real = pipeline_steps._renice

    def renice(pid: int, nice: int) -> None:
        real(pid, nice)
        seen.append((pid, nice, os.getpriority(os.PRIO_PROCESS, pid)))

    monkeypatch.setattr(pipeline_steps, "_renice", renice)
    _submit(store, blobs, queue, tmp_path)
    release = threading.Event()
    worker = _worker(settings, store, blobs, queue, indexer, clock, fault=_blocking_render(release))
    assert await worker.run_once() == "completed"
    assert seen and all(nice == pipeline_steps.RENDER_IDLE_NICE == after > RENDER_NICE for _, nice, after in seen)
    assert all(pid != os.getpid() for pid, _, _ in seen)


async def test_rendering_keeps_its_priority_when_the_pages_are_needed(
        settings, store, blobs, queue, indexer, clock, tmp_path, monkeypatch):
    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(pipeline_steps, "_renice", lambda pid, nice: calls.append((pid, nice)))
    monkeypatch.setattr(Pipeline, "_needs_pages", lambda self, job: True)  # as for OCR pages
    _submit(store, blobs, queue, tmp_path)
    worker = _worker(settings, store, blobs, queue, indexer, clock)
    assert await worker.run_once() == "completed"
    assert calls == []


def test_renice_never_raises_on_a_gone_child() -> None:
    pipeline_steps._renice(2**22 + 12345, pipeline_steps.RENDER_IDLE_NICE)  # no such process: no error
