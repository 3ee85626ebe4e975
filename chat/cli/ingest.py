"""``docchat ingest FILE… --project NAME``: the upload client.

Uploads each file to the running service over HTTP (creating the project if it is missing) and shows one
progress bar per file, fed by the workflow's SSE events, until every document is completed or failed (with
the reason).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, cast

import httpx
from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Column

from chat.cli.api_client import TERMINAL_EVENTS, base_url, check_response, default_user, workflow_events
from store.config import Settings
from store.errors import DocchatError, InvalidInput, UpstreamError

BAR_WIDTH = 24
NAME_MAX = 60  # the widest the name column gets
STEP_MIN = 30  # what the step text keeps at least ("processing: Index chunks 16/28")


async def ensure_project(client: httpx.AsyncClient, name: str, language: str | None) -> str:
    """The id of the user's project named (or with id) ``name``; created if missing."""
    body = check_response(await client.get("/v1/projects"))
    for p in body.get("items", []):
        if name in (p.get("name"), p.get("project_id")):
            return str(p["project_id"])
    payload: dict[str, str] = {"name": name}
    if language:
        payload["language"] = language
    return str(check_response(await client.post("/v1/projects", json=payload))["project_id"])


@dataclass
class FileResult:
    path: Path
    status: str = "pending"
    error: str | None = None
    document_id: str | None = None
    workflow_id: str | None = None
    pages: int | None = None


def _step_label(view: dict[str, Any]) -> str:
    for name, step in (view.get("steps") or {}).items():
        if step.get("status") == "in_progress":
            label = str(step.get("label") or name)
            if step.get("total"):
                return f"{label} {step.get('done') or 0}/{step['total']}"
            return label
    return str(view.get("status", ""))


class _ReadProgress:
    """A binary file whose reads move an upload's progress bar (httpx streams the multipart body by reads)."""

    def __init__(self, fh: BinaryIO, size: int, on_read: Callable[[int, int], None]) -> None:
        self._fh, self._size, self._done, self._on_read = fh, size, 0, on_read

    def read(self, n: int = -1) -> bytes:
        data = self._fh.read(n)
        self._done += len(data)
        self._on_read(self._done, self._size)
        return data

    def __getattr__(self, name: str) -> Any:  # fileno, seek, tell: httpx measures the length with them
        return getattr(self._fh, name)


async def _follow(client: httpx.AsyncClient, res: FileResult, progress: Progress, task: TaskID) -> None:
    """Read the workflow's SSE stream until a terminal event (``workflow_events`` reconnects if it drops).

    The bar that showed the upload now shows the processing: the workflow's progress and its current step."""
    async with aclosing(workflow_events(client, str(res.workflow_id), http_timeout=None)) as events:
        async for event, view in events:
            res.status = str(view.get("status"))
            res.pages = view.get("page_count") or res.pages
            step = _step_label(view)
            progress.update(task, completed=float(view.get("progress") or 0) * 100,
                            step=f"processing: {step}" if event not in TERMINAL_EVENTS else step)
            if event in TERMINAL_EVENTS:
                res.error = view.get("error")
                done = "[green]completed" if event == "completed" else f"[red]failed: {res.error}"
                progress.update(task, completed=100 if event == "completed" else None, step=done)
                return
    res.status, res.error = "failed", "lost the progress stream"


async def _ingest_one(client: httpx.AsyncClient, project_id: str, path: Path, progress: Progress) -> FileResult:
    res = FileResult(path)
    task = progress.add_task(path.name, total=100, step="uploading")

    def sent(done: int, size: int) -> None:
        progress.update(task, completed=100 * done / size if size else 0,
                        step=f"uploading {done * 100 // size if size else 0}%")

    try:
        with path.open("rb") as fh:  # httpx streams the multipart body from the file
            body_file = cast(BinaryIO, _ReadProgress(fh, os.fstat(fh.fileno()).st_size, sent))
            r = await client.post(f"/v1/projects/{project_id}/documents", files={"file": (path.name, body_file)},
                                  timeout=httpx.Timeout(30.0, write=None, read=600.0))
        body = check_response(r)
    except (DocchatError, OSError) as exc:
        res.status, res.error = "failed", getattr(exc, "message", None) or str(exc)
        progress.update(task, step=f"[red]rejected: {res.error}")
        return res
    res.document_id, res.workflow_id, res.pages = body["document_id"], body["workflow_id"], body.get("page_count")
    # uploaded: the same bar now follows the processing, from 0 %
    progress.update(task, completed=0, step="processing: queued")
    if r.status_code == 200:
        progress.update(task, step="already uploaded; following it")
    await _follow(client, res, progress, task)
    return res


async def ingest_files(
    settings: Settings, files: Sequence[Path], *, project: str, url: str | None = None, token: str | None = None,
    user: str | None = None, language: str | None = None, console: Console | None = None,
) -> list[FileResult]:
    if token is None:
        if settings.server.backend == "aws":
            raise InvalidInput("aws mode needs --token (a Cognito ID or access token)")
        token = "dev:" + default_user(settings, user)
    console = console or Console(stderr=True)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base_url(settings, url), headers=headers, timeout=30.0) as client:
        try:
            project_id = await ensure_project(client, project, language)
        except httpx.TransportError as exc:
            raise UpstreamError(f"cannot reach the service at {base_url(settings, url)}; "
                                "is 'docchat up' running?") from exc
        with Progress(*progress_columns([Path(f).name for f in files], console.width), console=console) as progress:
            return list(await asyncio.gather(*(_ingest_one(client, project_id, Path(f), progress) for f in files)))


def progress_columns(names: Sequence[str], width: int) -> tuple[ProgressColumn, ...]:
    """Name | bar | % | elapsed | step. The name column is as wide as the longest name, up to what the terminal
    leaves after the fixed columns and room for the step (names were cut at 10 characters at 120 columns)."""
    fixed = BAR_WIDTH + 5 + 8 + 4 * 1  # bar, "100%", "0:00:12", the gaps
    room = max(10, min(NAME_MAX, width - fixed - STEP_MIN))
    name_width = max(8, min(room, max((len(n) for n in names), default=8)))
    return (
        TextColumn("{task.description}", style="bold",
                   table_column=Column(width=name_width, no_wrap=True, overflow="ellipsis")),
        BarColumn(bar_width=BAR_WIDTH, table_column=Column(width=BAR_WIDTH, no_wrap=True)),
        TextColumn("{task.percentage:>3.0f}%", table_column=Column(width=4, no_wrap=True)),
        TimeElapsedColumn(table_column=Column(width=7, no_wrap=True)),
        TextColumn("{task.fields[step]}", table_column=Column(
            width=max(STEP_MIN, width - fixed - name_width - 1), no_wrap=True, overflow="ellipsis")),
    )


def run_ingest(settings: Settings, files: Sequence[str], *, project: str, url: str | None = None,
               token: str | None = None, user: str | None = None, language: str | None = None) -> int:
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request would drown the bars
    missing = [str(f) for f in files if not Path(f).is_file()]
    if missing:
        raise InvalidInput(f"not a file: {', '.join(missing)}")
    results = asyncio.run(ingest_files(settings, [Path(f) for f in files], project=project, url=url, token=token,
                                       user=user, language=language))
    console = Console()
    for res in results:
        if res.status == "completed":
            pages = f"{res.pages} page{'' if res.pages == 1 else 's'}" if res.pages else "? pages"
            console.print(f"[green]✓[/] {res.path.name}: {pages}, document {res.document_id}")
        else:
            console.print(f"[red]✗[/] {res.path.name}: {res.error or res.status}")
    return 0 if all(r.status == "completed" for r in results) else 1
