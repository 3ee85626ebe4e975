"""``docchat ingest FILE… --project NAME``: the upload client.

Uploads each file to the running service over HTTP (creating the project if it is missing) and shows one
progress bar per file, fed by the workflow's SSE events, until every document is completed or failed (with
the reason).
"""

from __future__ import annotations

import asyncio
import getpass
import logging
from collections.abc import Sequence
from contextlib import aclosing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Column

from chat.cli.api_client import TERMINAL_EVENTS, base_url, check_response, workflow_events
from store.config import Settings
from store.errors import DocchatError, InvalidInput, UpstreamError


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


async def _follow(client: httpx.AsyncClient, res: FileResult, progress: Progress, task: TaskID) -> None:
    """Read the workflow's SSE stream until a terminal event (``workflow_events`` reconnects if it drops)."""
    async with aclosing(workflow_events(client, str(res.workflow_id), http_timeout=None)) as events:
        async for event, view in events:
            res.status = str(view.get("status"))
            res.pages = view.get("page_count") or res.pages
            progress.update(task, completed=float(view.get("progress") or 0) * 100, step=_step_label(view))
            if event in TERMINAL_EVENTS:
                res.error = view.get("error")
                done = "[green]completed" if event == "completed" else f"[red]failed: {res.error}"
                progress.update(task, completed=100 if event == "completed" else None, step=done)
                return
    res.status, res.error = "failed", "lost the progress stream"


async def _ingest_one(client: httpx.AsyncClient, project_id: str, path: Path, progress: Progress) -> FileResult:
    res = FileResult(path)
    task = progress.add_task(path.name, total=100, step="uploading")
    try:
        with path.open("rb") as fh:  # httpx streams the multipart body from the file
            r = await client.post(f"/v1/projects/{project_id}/documents", files={"file": (path.name, fh)},
                                  timeout=httpx.Timeout(30.0, write=None, read=600.0))
        body = check_response(r)
    except (DocchatError, OSError) as exc:
        res.status, res.error = "failed", getattr(exc, "message", None) or str(exc)
        progress.update(task, step=f"[red]rejected: {res.error}")
        return res
    res.document_id, res.workflow_id, res.pages = body["document_id"], body["workflow_id"], body.get("page_count")
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
        token = "dev:" + (user or getpass.getuser())
    console = console or Console(stderr=True)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base_url(settings, url), headers=headers, timeout=30.0) as client:
        try:
            project_id = await ensure_project(client, project, language)
        except httpx.TransportError as exc:
            raise UpstreamError(f"cannot reach the service at {base_url(settings, url)}; "
                                "is 'docchat up' running?") from exc
        columns = (
            TextColumn("{task.description}", style="bold",
                       table_column=Column(min_width=8, max_width=28, no_wrap=True, overflow="ellipsis")),
            BarColumn(bar_width=24), TextColumn("{task.percentage:>3.0f}%"), TimeElapsedColumn(),
            TextColumn("{task.fields[step]}", table_column=Column(ratio=1, no_wrap=True, overflow="ellipsis")),
        )
        with Progress(*columns, console=console) as progress:
            return list(await asyncio.gather(*(_ingest_one(client, project_id, Path(f), progress) for f in files)))


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
