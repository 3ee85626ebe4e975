"""``workflow_events``: the one reader of a workflow's SSE stream (``docchat ingest`` and ``docchat eval answers``),
against an ``httpx.MockTransport`` that serves, drops and refuses streams."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator, Callable
from contextlib import aclosing
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console
from rich.progress import Progress

from chat.cli.api_client import workflow_events
from chat.cli.ingest import FileResult, _follow
from chat.evaluation.service import EvalClient, Upload
from store.errors import NotFound


def _sse(event: str, view: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(view)}\n\n".encode()


class _Stream(httpx.AsyncByteStream):
    """Sends ``chunks``, then ends — or, with ``drop``, fails like a connection reset."""

    def __init__(self, chunks: list[bytes], *, drop: bool = False) -> None:
        self.chunks, self.drop = chunks, drop

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk
        if self.drop:
            raise httpx.ReadError("connection reset by peer")


class _Server:
    """Answers the n-th GET of ``/v1/workflows/wf1/events`` with ``script[n]`` (a response factory)."""

    def __init__(self, script: list[Callable[[], httpx.Response]]) -> None:
        self.script, self.calls = script, 0

    def __call__(self, request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/v1/workflows/wf1/events"
        assert self.calls < len(self.script), "the client connected once too often"
        response = self.script[self.calls]()
        self.calls += 1
        return response

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self), base_url="http://svc")


def _events(chunks: list[bytes], *, drop: bool = False) -> Callable[[], httpx.Response]:
    return lambda: httpx.Response(200, headers={"content-type": "text/event-stream"},
                                  stream=_Stream(chunks, drop=drop))


RUNNING = {"status": "in_progress", "progress": 0.4, "page_count": 3,
           "steps": {"parse": {"status": "in_progress", "label": "reading", "done": 1, "total": 3}}}
DONE = {"status": "completed", "progress": 1.0, "page_count": 3, "error": None}
FAILED = {"status": "failed", "progress": 0.5, "error": "unsupported file type"}


async def _collect(client: httpx.AsyncClient, **kw: Any) -> list[tuple[str, dict[str, Any]]]:
    return [e async for e in workflow_events(client, "wf1", retry_delay_s=0.0, **kw)]


async def test_a_dropped_stream_is_reopened_and_the_events_go_on_to_the_terminal_one() -> None:
    server = _Server([
        _events([_sse("progress", {"status": "queued", "progress": 0.0}), b"event: progress\ndata: "], drop=True),
        _events([_sse("progress", RUNNING), b": keep-alive\n\n", _sse("completed", DONE),
                 _sse("progress", {"status": "never read"})]),
    ])
    async with server.client() as client:
        got = await _collect(client)
    assert got == [("progress", {"status": "queued", "progress": 0.0}), ("progress", RUNNING), ("completed", DONE)]
    assert server.calls == 2  # one reconnect, and nothing after the terminal event


async def test_a_stream_that_ends_without_a_terminal_event_is_reopened_and_attempts_are_bounded() -> None:
    server = _Server([_events([_sse("progress", RUNNING)]), _events([], drop=True), _events([_sse("failed", FAILED)])])
    async with server.client() as client:
        assert await _collect(client) == [("progress", RUNNING), ("failed", FAILED)]
    lost = _Server([_events([_sse("progress", RUNNING)], drop=True)] * 3)
    async with lost.client() as client:
        assert await _collect(client, attempts=3) == [("progress", RUNNING)] * 3  # then it gives up: no terminal
    assert lost.calls == 3


async def test_an_error_status_raises_the_translated_error() -> None:
    server = _Server([lambda: httpx.Response(404, json={"error": {"code": "not_found", "message": "no wf1"}})])
    async with server.client() as client:
        with pytest.raises(NotFound, match="no wf1"):
            await _collect(client)


async def test_breaking_out_early_under_aclosing_closes_the_stream() -> None:
    stream = _Stream([_sse("progress", RUNNING), _sse("progress", RUNNING), _sse("completed", DONE)])
    closed: list[bool] = []

    async def aclose() -> None:
        closed.append(True)

    stream.aclose = aclose  # type: ignore[method-assign]
    server = _Server([lambda: httpx.Response(200, stream=stream)])
    async with server.client() as client:
        async with aclosing(workflow_events(client, "wf1")) as events:
            async for event, _view in events:
                assert event == "progress"
                break
            assert closed == []  # the generator still holds the response …
        assert closed == [True]  # … until aclosing ends it: the response is closed before the client is


async def test_both_callers_keep_their_behaviour_over_a_dropped_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    import chat.cli.api_client as api_client

    monkeypatch.setattr(api_client, "RETRY_DELAY_S", 0.0)  # the callers' 1 s back-off, without the wait
    script = [_events([_sse("progress", RUNNING)], drop=True), _events([_sse("failed", FAILED)])]
    # docchat ingest: status, pages, the bar's step and the failure reason
    server = _Server(list(script))
    res = FileResult(path=Path("notes.txt"), workflow_id="wf1")
    out = io.StringIO()
    async with server.client() as client:
        with Progress(console=Console(file=out, width=120)) as progress:
            task = progress.add_task("notes.txt", total=100, step="uploading")
            await _follow(client, res, progress, task)
            assert progress.tasks[0].fields["step"] == "[red]failed: unsupported file type"
    assert (res.status, res.error, res.pages) == ("failed", "unsupported file type", 3)
    # docchat eval answers: the upload's status, pages and error
    server = _Server(list(script))
    evc = EvalClient("http://svc")
    await evc.http.aclose()
    evc.http = server.client()
    async with evc:
        upload = await evc.wait(Upload("d1", "wf1", "queued", False))
    assert (upload.status, upload.error, upload.pages) == ("failed", "unsupported file type", 3)
    assert server.calls == 2
    # and a stream lost for good is a failed document, for both
    gone = _Server([_events([], drop=True)] * 20)
    async with gone.client() as client:
        res = FileResult(path=res.path, workflow_id="wf1")
        with Progress(console=Console(file=out, width=120)) as progress:
            await _follow(client, res, progress, progress.add_task("x", total=100, step=""))
    assert (res.status, res.error) == ("failed", "lost the progress stream")
