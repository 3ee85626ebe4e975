"""Review, audit and export routes (issue 15); ``chat/app/factory.py`` registers them when ``reviews`` is wired."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

from litestar import Controller, Request, get, post, put
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import Stream

from ingest.export import export_json, export_markdown
from ingest.results import fields_key, segment_key
from ingest.review import Reviews
from store.errors import InvalidInput, NotFound


def _user(request: Request[Any, Any, Any]) -> str:
    return str(request.user)


class ReviewController(Controller):
    path = "/v1"
    tags = ["review"]  # noqa: RUF012 - Litestar reads it as a class attribute

    @get("/projects/{project_id:str}/review")
    async def list_items(self, request: Request[Any, Any, Any], reviews: NamedDependency[Reviews],
                         project_id: FromPath[str], status: FromQuery[str] = "open",
                         cursor: FromQuery[str | None] = None) -> dict[str, Any]:
        return await reviews.list_items(_user(request), request.auth, project_id, status, cursor)

    @post("/projects/{project_id:str}/review/{item_id:str}/claim")
    async def claim(self, request: Request[Any, Any, Any], reviews: NamedDependency[Reviews],
                    project_id: FromPath[str], item_id: FromPath[str]) -> dict[str, Any]:
        return await reviews.claim(_user(request), request.auth, project_id, item_id)

    @post("/projects/{project_id:str}/review/{item_id:str}/decision")
    async def decide(self, request: Request[Any, Any, Any], reviews: NamedDependency[Reviews],
                     project_id: FromPath[str], item_id: FromPath[str],
                     data: JSONBody[dict[str, Any]]) -> dict[str, Any]:
        decision, value = data.get("decision"), data.get("value")
        if not isinstance(decision, str) or (value is not None and not isinstance(value, str)):
            raise InvalidInput('body must be {"decision": "accept"|"correct"|"unreadable", "value"?: str}')
        return await reviews.decide(_user(request), request.auth, project_id, item_id, decision, value)

    @put("/projects/{project_id:str}/reviewers")
    async def share(self, request: Request[Any, Any, Any], reviews: NamedDependency[Reviews],
                    project_id: FromPath[str], data: JSONBody[dict[str, Any]]) -> dict[str, Any]:
        users = data.get("users")
        if not isinstance(users, list) or not all(isinstance(u, str) for u in users):
            raise InvalidInput('body must be {"users": [str]}')
        return await reviews.share(_user(request), project_id, users)

    @get("/projects/{project_id:str}/reviewers")
    async def reviewers(self, request: Request[Any, Any, Any], reviews: NamedDependency[Reviews],
                        project_id: FromPath[str]) -> dict[str, Any]:
        return await reviews.reviewers_of(_user(request), project_id)

    @get("/review/projects")
    async def shared(self, request: Request[Any, Any, Any], reviews: NamedDependency[Reviews]) -> dict[str, Any]:
        """Projects shared with the caller for review (empty unless they have the reviewer role)."""
        return await reviews.shared_projects(_user(request), request.auth)

    @get("/projects/{project_id:str}/audit")
    async def audit(self, request: Request[Any, Any, Any], reviews: NamedDependency[Reviews],
                    project_id: FromPath[str], cursor: FromQuery[str | None] = None) -> dict[str, Any]:
        return await reviews.audit_log(_user(request), request.auth, project_id, cursor)

    @get("/documents/{document_id:str}/export")
    async def export(self, request: Request[Any, Any, Any], reviews: NamedDependency[Reviews],
                     document_id: FromPath[str], format: FromQuery[str] = "markdown") -> Stream:
        if format not in ("markdown", "json"):
            raise InvalidInput("format must be markdown or json")
        wf = await asyncio.to_thread(reviews.store.document_workflow, _user(request), document_id)
        wid, data = wf.workflow_id, wf.data
        pages, name = int(data.get("page_count") or 0), str(data.get("file_name") or "document")
        try:
            fields = json.loads(await asyncio.to_thread(reviews.blobs.get, fields_key(wid)))
        except NotFound:
            fields = None

        def load(page: int) -> dict[str, Any] | None:
            try:
                return dict(json.loads(reviews.blobs.get(segment_key(wid, page))))
            except NotFound:
                return None

        body: Iterator[bytes] = (export_markdown(name, fields, pages, load) if format == "markdown"
                                 else export_json(document_id, name, fields, pages, load))
        ext, media = ("md", "text/markdown; charset=utf-8") if format == "markdown" else ("json", "application/json")
        stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in name.rsplit(".", 1)[0])[:80] or "document"
        return Stream(body, media_type=media,
                      headers={"content-disposition": f'attachment; filename="{stem}.{ext}"'})
