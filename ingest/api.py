"""The ingest HTTP API (issue 4). Errors are raised as ``DocchatError``s; ``chat/app/factory.py`` maps them to status.

Each handler depends on the one piece it uses (``chat/app/factory.py`` registers the controller and provides
the dependencies by name): ``uploads`` — projects and uploads; ``documents`` — documents, workflows,
segments, pages, reprocess and deletes. (One controller: routes of both share paths, and Litestar gives
each controller its own OPTIONS handler per path.) ``OpsController`` — the operators' dead-letter queues
(``dead_letters``), admins only.

Every handler reads the caller from ``request.user``; another user's project, document or workflow is 404.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from litestar import Controller, Request, Response, delete, get, patch, post
from litestar.di import NamedDependency
from litestar.openapi.spec import OpenAPIFormat, OpenAPIMediaType, OpenAPIType, Operation, RequestBody, Schema
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import ServerSentEvent
from litestar.response.sse import ServerSentEventMessage

from ingest.dlq import DeadLetters
from ingest.documents import Documents, PageImage
from ingest.upload import receive_upload
from ingest.uploads import Uploads
from store.errors import InvalidInput, NotFound


def _user(request: Request[Any, Any, Any]) -> str:
    return str(request.user)


@dataclass
class UploadOperation(Operation):
    """The upload's OpenAPI operation: the handler streams the body itself (no ``data`` parameter), so its
    multipart ``file`` part is declared here — clients and schema fuzzers (``docchat selftest``) see it."""

    def __post_init__(self) -> None:
        file_part = Schema(type=OpenAPIType.STRING, format=OpenAPIFormat.BINARY)
        form = Schema(type=OpenAPIType.OBJECT, properties={"file": file_part}, required=["file"])
        self.request_body = RequestBody(content={"multipart/form-data": OpenAPIMediaType(schema=form)},
                                        required=True, description="the document: one multipart part named file")


class IngestController(Controller):
    path = "/v1"
    tags = ["ingest"]  # noqa: RUF012 - Litestar reads it as a class attribute

    @post("/projects", status_code=201)
    async def create_project(self, request: Request[Any, Any, Any], uploads: NamedDependency[Uploads],
                             data: JSONBody[dict[str, Any]]) -> dict[str, Any]:
        name = data.get("name")
        language = data.get("language") or "en"
        if not isinstance(name, str) or not isinstance(language, str):
            raise InvalidInput("body must be {\"name\": str, \"language\"?: str}")
        project = await uploads.create_project(_user(request), name, language)
        if data.get("pii_mode") is not None:
            project = await uploads.set_pii_mode(_user(request), project["project_id"], data.get("pii_mode"))
        return project

    @patch("/projects/{project_id:str}")
    async def update_project(self, request: Request[Any, Any, Any], uploads: NamedDependency[Uploads],
                             project_id: FromPath[str], data: JSONBody[dict[str, Any]]) -> dict[str, Any]:
        """``{"pii_mode": "mask" | "off" | null}`` — the project's own personal-data mode (null: the default)."""
        if set(data) - {"pii_mode"} or "pii_mode" not in data:
            raise InvalidInput('body must be {"pii_mode": "mask" | "off" | null}')
        return await uploads.set_pii_mode(_user(request), project_id, data["pii_mode"])

    @get("/projects")
    async def list_projects(self, request: Request[Any, Any, Any],
                            uploads: NamedDependency[Uploads]) -> dict[str, Any]:
        return {"items": await uploads.list_projects(_user(request))}

    @get("/projects/{project_id:str}")
    async def get_project(self, request: Request[Any, Any, Any], uploads: NamedDependency[Uploads],
                          project_id: FromPath[str]) -> dict[str, Any]:
        return await uploads.get_project(_user(request), project_id)

    # the body is streamed to a temp file under its own limit (DOCCHAT_MAX_UPLOAD_BYTES), not the JSON limit
    @post("/projects/{project_id:str}/documents", status_code=202, request_max_body_size=None,
          opt={"streamed_body": True}, operation_class=UploadOperation)
    async def upload(self, request: Request[Any, Any, Any], uploads: NamedDependency[Uploads],
                     project_id: FromPath[str]) -> Response[dict[str, Any]]:
        user = _user(request)
        await uploads.get_project(user, project_id)  # 404 before reading a byte of someone else's upload
        await uploads.admit_upload(user)  # 429 (uploads per day) before reading the body
        length = request.headers.get("content-length")
        received = await receive_upload(
            request.stream(), request.headers.get("content-type", ""),
            max_bytes=uploads.settings.ingest.max_upload_bytes,
            content_length=int(length) if length and length.isdigit() else None,
            tmp_dir=uploads.settings.server.data_dir / "tmp" if uploads.settings.server.backend == "local" else None,
        )
        result = await uploads.accept_upload(user, project_id, received)
        body: dict[str, Any] = {"document_id": result.document_id, "workflow_id": result.workflow_id,
                                "status": result.status, "duplicate": not result.created}
        if result.page_count is not None:
            body["page_count"] = result.page_count
        return Response(body, status_code=202 if result.created else 200)

    @get("/projects/{project_id:str}/documents")
    async def list_documents(self, request: Request[Any, Any, Any], documents: NamedDependency[Documents],
                             project_id: FromPath[str],
                             cursor: FromQuery[str | None] = None, limit: FromQuery[int] = 100) -> dict[str, Any]:
        return await documents.list_documents(_user(request), project_id, cursor=cursor,
                                              limit=max(1, min(limit, 500)))

    @delete("/projects/{project_id:str}", status_code=204)
    async def delete_project(self, request: Request[Any, Any, Any], documents: NamedDependency[Documents],
                             uploads: NamedDependency[Uploads], project_id: FromPath[str]) -> None:
        await documents.delete_project(_user(request), project_id)
        await uploads.project_deleted(_user(request))  # its place under the projects limit is free again

    @delete("/projects/{project_id:str}/documents/{document_id:str}", status_code=204)
    async def delete_document(self, request: Request[Any, Any, Any], documents: NamedDependency[Documents],
                              project_id: FromPath[str], document_id: FromPath[str]) -> None:
        await documents.delete_document(_user(request), project_id, document_id)

    @get("/workflows/{workflow_id:str}")
    async def workflow(self, request: Request[Any, Any, Any], documents: NamedDependency[Documents],
                       workflow_id: FromPath[str]) -> dict[str, Any]:
        return await documents.workflow_status(_user(request), workflow_id)

    @get("/workflows/{workflow_id:str}/events", opt={"query_token": True})  # EventSource-compatible
    async def workflow_events(self, request: Request[Any, Any, Any], documents: NamedDependency[Documents],
                              workflow_id: FromPath[str]) -> ServerSentEvent:
        user = _user(request)
        await documents.workflow_status(user, workflow_id)  # 404 now rather than inside the stream

        async def events() -> AsyncIterator[ServerSentEventMessage]:
            n = 0
            async for event, data in documents.workflow_events(user, workflow_id,
                                                               keepalive_s=documents.settings.chat.sse_keepalive_seconds):
                if not event:
                    yield ServerSentEventMessage(comment="keep-alive")
                    continue
                n += 1
                yield ServerSentEventMessage(data=data, event=event, id=n)

        return ServerSentEvent(events(), headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @get("/workflows/{workflow_id:str}/segments")
    async def segments(self, request: Request[Any, Any, Any], documents: NamedDependency[Documents],
                       workflow_id: FromPath[str],
                       cursor: FromQuery[str | None] = None, limit: FromQuery[int] = 20) -> dict[str, Any]:
        return await documents.segments(_user(request), workflow_id, cursor=cursor, limit=limit)

    @post("/workflows/{workflow_id:str}/reprocess", status_code=202)
    async def reprocess(self, request: Request[Any, Any, Any], documents: NamedDependency[Documents],
                        workflow_id: FromPath[str]) -> dict[str, Any]:
        return await documents.reprocess(_user(request), workflow_id)

    @get("/documents/{document_id:str}")
    async def document(self, request: Request[Any, Any, Any], documents: NamedDependency[Documents],
                       document_id: FromPath[str]) -> dict[str, Any]:
        """The document, its newest workflow's status and its summary (title, outline, text; kind)."""
        return await documents.document(_user(request), document_id)

    @get("/documents/{document_id:str}/pages/{page_file:str}", media_type="image/png")
    async def page_png(self, request: Request[Any, Any, Any], documents: NamedDependency[Documents],
                       document_id: FromPath[str], page_file: FromPath[str]) -> Response[bytes]:
        image = await documents.page_image(_user(request), document_id, page_number(page_file))
        return page_response(image)


def page_number(page_file: str) -> int:
    """``3.png`` → 3; anything else is 404 (pages are addressed as ``…/pages/{n}.png``)."""
    stem = page_file.removesuffix(".png")
    if not page_file.endswith(".png") or not stem.isdigit():
        raise NotFound("pages are addressed as /v1/documents/{document_id}/pages/{n}.png")
    return int(stem)


def page_response(image: PageImage) -> Response[bytes]:
    """A page PNG with what the viewer needs to map citation boxes (PDF points) onto it."""
    headers = {"Cache-Control": "private, max-age=3600"}
    if image.width_pt and image.height_pt:
        headers["X-Page-Width-Pt"] = f"{image.width_pt:g}"
        headers["X-Page-Height-Pt"] = f"{image.height_pt:g}"
    if image.dpi:
        headers["X-Render-DPI"] = f"{image.dpi:g}"
    return Response(image.png, media_type="image/png", headers=headers)


def _token(request: Request[Any, Any, Any]) -> object:
    return request.auth  # the verified identity (aws mode: with its groups) or the raw token


class OpsController(Controller):
    """Operators: the ingest dead-letter queues (``ingest/dlq.py``). Admins only (403 otherwise)."""

    path = "/v1/ops"
    tags = ["ops"]  # noqa: RUF012 - Litestar reads it as a class attribute

    @get("/dlq")
    async def dead_letter_list(self, request: Request[Any, Any, Any],
                               dead_letters: NamedDependency[DeadLetters]) -> dict[str, Any]:
        """Dead-lettered documents: document, project, owner, lane, reason, attempts, when it failed."""
        dead_letters.admins.require(_user(request), _token(request))
        return {"items": await asyncio.to_thread(dead_letters.list)}

    @post("/dlq/redrive", status_code=200)
    async def dead_letter_redrive(self, request: Request[Any, Any, Any], dead_letters: NamedDependency[DeadLetters],
                                  data: JSONBody[dict[str, Any]]) -> dict[str, Any]:
        """``{"all": true}`` or ``{"document_ids": [...]}``: reset each workflow and send its job again."""
        dead_letters.admins.require(_user(request), _token(request))
        everything = data.get("all") is True
        ids = data.get("document_ids")
        valid_ids = isinstance(ids, list) and 0 < len(ids) <= 1000 and all(isinstance(i, str) and i for i in ids)
        if everything == valid_ids or (everything and ids is not None):
            raise InvalidInput('body must be {"all": true} or {"document_ids": ["<document id>", ...]} (1-1000 ids)')
        return await asyncio.to_thread(dead_letters.redrive, None if everything else list(ids or []))
