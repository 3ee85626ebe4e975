"""``docchat ask "…" [--project NAME] [--session ID]``: ask the running service, stream the answer.

The answer streams to stdout as it is generated; tool activity (searching,
reading a page) shows on stderr as progress; citations are listed at the end.
If the connection drops mid-answer the command resumes from the last event it
saw (``GET /v1/sessions/{id}/stream`` with ``Last-Event-ID``). Ctrl-C stops
the answer (the server keeps the partial answer). The session id is printed so
the conversation can be continued with ``--session``.
"""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

import httpx

from chat.cli.api_client import base_url, check_response, default_user
from chat.core.events import SSEParser
from store.config import Settings
from store.errors import DocchatError, InvalidInput, NotFound

RESUME_ATTEMPTS = 3


@dataclass
class AskResult:
    session_id: str
    text: str = ""
    citations: list[dict[str, Any]] = field(default_factory=list)
    stop_reason: str | None = None
    error: dict[str, Any] | None = None
    usage: dict[str, int] = field(default_factory=dict)


def resolve_project(client: httpx.Client, name: str) -> str:
    """A project name (or id) → project id, from the user's projects."""
    body = check_response(client.get("/v1/projects"))
    items = body.get("items", body) if isinstance(body, dict) else body
    for p in items:
        if name in (p.get("name"), p.get("project_id")):
            return str(p["project_id"])
    known = ", ".join(sorted(str(p.get("name")) for p in items)) or "none yet"
    raise NotFound(f"no project named {name!r} (your projects: {known}); create one with 'docchat ingest'")


def _render(event: str, data: dict[str, Any], result: AskResult, out: TextIO, err: TextIO) -> None:
    if event == "text":
        result.text += data["delta"]
        out.write(data["delta"])
        out.flush()
    elif event == "tool":
        status = data.get("status")
        args = data.get("input") or {}
        what = f"searching: {args.get('query')}" if data.get("name") == "search_documents" else (
            f"reading page {args.get('page')} of {args.get('document_id')}"
        )
        if status == "running":
            err.write(f"… {what}\n")
        elif status == "error":
            err.write(f"  ! {what}: {data.get('error')}\n")
        err.flush()
    elif event == "citation":
        result.citations.append(data)
    elif event == "usage":
        for k, v in data.items():
            result.usage[k] = result.usage.get(k, 0) + int(v)
    elif event == "error":
        result.error = data
    elif event == "done":
        result.stop_reason = data.get("stop_reason")


def _consume(response: httpx.Response, parser: SSEParser, result: AskResult, out: TextIO, err: TextIO) -> bool:
    """Read events until ``done``; False when the stream ended early."""
    for chunk in response.iter_raw():
        for m in parser.feed(chunk):
            _render(m.event, json.loads(m.data), result, out, err)
            if m.event == "done":
                return True
    return False


def ask(
    client: httpx.Client,
    text: str,
    *,
    session_id: str | None,
    project_id: str | None,
    out: TextIO = sys.stdout,
    err: TextIO = sys.stderr,
) -> AskResult:
    if session_id is None:
        session_id = str(check_response(client.post("/v1/sessions", json={"project_id": project_id}))["session_id"])
    result = AskResult(session_id=session_id)
    parser = SSEParser()
    body: dict[str, Any] = {"text": text}
    if project_id:
        body["project_id"] = project_id
    try:
        with client.stream("POST", f"/v1/sessions/{session_id}/messages", json=body) as r:
            if r.status_code >= 400:
                r.read()
                check_response(r)
            finished = _consume(r, parser, result, out, err)
    except httpx.TransportError:
        finished = False
    attempts = 0
    while not finished and attempts < RESUME_ATTEMPTS:
        attempts += 1
        err.write("… connection lost, resuming\n")
        headers = {"Last-Event-ID": parser.last_id} if parser.last_id else {}
        try:
            with client.stream("GET", f"/v1/sessions/{session_id}/stream", headers=headers) as r:
                if r.status_code == 204:
                    break
                finished = _consume(r, parser, result, out, err)
        except httpx.TransportError:
            continue
    out.write("\n")
    return result


def print_sources(result: AskResult, out: TextIO) -> None:
    if not result.citations:
        return
    out.write("\nSources:\n")
    for c in result.citations:
        quote = (c.get("quote") or "").replace("\n", " ")
        out.write(f"  [{c.get('ref')}] {c.get('file_name')}, page {c.get('page')}: \u201c{quote}\u201d\n")


def run_ask(
    settings: Settings,
    text: str,
    *,
    project: str | None = None,
    session: str | None = None,
    url: str | None = None,
    token: str | None = None,
    user: str | None = None,
) -> int:
    if not text.strip():
        raise InvalidInput("the question is empty")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # request lines would mix into the answer
    if token is None:
        if settings.server.backend != "local":
            raise InvalidInput("aws mode needs --token (a Cognito ID or access token)")
        token = "dev:" + default_user(settings, user)
    timeout = httpx.Timeout(10.0, read=max(60.0, settings.chat.sse_keepalive_seconds * 4))
    headers = {"Authorization": f"Bearer {token}"}
    try:
        with httpx.Client(base_url=base_url(settings, url), headers=headers, timeout=timeout) as client:
            project_id = resolve_project(client, project) if project else None
            try:
                result = ask(client, text, session_id=session, project_id=project_id)
            except KeyboardInterrupt:
                if session:
                    client.post(f"/v1/sessions/{session}/stop")
                print("\n(stopped)", file=sys.stderr)
                return 130
    except httpx.ConnectError as exc:
        raise DocchatError(f"cannot reach the service at {base_url(settings, url)}; is 'docchat up' running?") from exc
    print_sources(result, sys.stdout)
    if result.error:
        print(f"error: {result.error.get('message')} ({result.error.get('code')})", file=sys.stderr)
    print(f"(session {result.session_id}; continue with --session {result.session_id})", file=sys.stderr)
    return 1 if result.error else 0
