"""Issue 16 routes: share a chat read-only with another user, and choose which documents a chat uses.

``POST /v1/sessions/{id}/shares {"user"}`` / ``DELETE …/shares/{user}`` / ``GET …/shares`` are the owner's;
``GET /v1/shared`` lists the chats shared with the caller. A shared viewer reads the chat through the ordinary
``GET /v1/sessions/{id}`` and ``…/messages`` (``"access": "viewer"``); every write, stop and resume stays the
owner's (404 for anyone else). The share link ``/s/<id>`` is the web page (``chat/app/web_routes.py``): it
carries no secret — the page signs the viewer in and the API checks who they are.
``PUT /v1/sessions/{id}/documents {"document_ids": [...] | null}`` sets the chat's document selection.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from litestar import Request, Response, delete, get, post, put
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, QueryParameter

from chat.app.chat_routes import _user
from chat.core.service import ChatService
from ingest.api import page_number, page_response
from ingest.documents import Documents


@dataclass
class ShareWith:
    user: str


@dataclass
class DocumentSelection:
    #: ``null`` = every document of the chat's project(s)
    document_ids: list[str] | None = None


@post("/v1/sessions/{session_id:str}/shares", status_code=201)
async def share_session(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService], session_id: FromPath[str],
    data: JSONBody[ShareWith],
) -> dict[str, Any]:
    share = await chat.share(_user(request), session_id, data.user)
    return {**share, "session_id": session_id, "link": f"/s/{session_id}"}


@get("/v1/sessions/{session_id:str}/shares")
async def list_shares(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService], session_id: FromPath[str]
) -> dict[str, Any]:
    return {"items": await chat.list_shares(_user(request), session_id), "link": f"/s/{session_id}"}


@delete("/v1/sessions/{session_id:str}/shares/{user:str}", status_code=204)
async def unshare_session(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService], session_id: FromPath[str],
    user: FromPath[str],
) -> None:
    await chat.unshare(_user(request), session_id, user)


@get("/v1/shared")
async def shared_with_me(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService],
    limit: Annotated[int, QueryParameter(ge=1, le=100)] = 50,
) -> dict[str, Any]:
    return {"items": await chat.shared_with(_user(request), limit=limit)}


@put("/v1/sessions/{session_id:str}/documents")
async def set_documents(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService], session_id: FromPath[str],
    data: JSONBody[DocumentSelection],
) -> dict[str, Any]:
    return await chat.set_documents(_user(request), session_id, data.document_ids)


ROUTES = [share_session, list_shares, unshare_session, shared_with_me, set_documents]


@get("/v1/shared/{session_id:str}/documents/{document_id:str}/pages/{page_file:str}", media_type="image/png")
async def shared_page_png(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService], documents: NamedDependency[Documents],
    session_id: FromPath[str], document_id: FromPath[str], page_file: FromPath[str],
) -> Response[bytes]:
    """A page of a document the chat cites, for whoever may read the chat (its owner or a user it is shared
    with): the page viewer of a shared chat. Any other document, chat or user: 404."""
    owner = await chat.cited_document_owner(_user(request), session_id, document_id)
    return page_response(await documents.page_image(owner, document_id, page_number(page_file)))


#: needs the ingest side too (``documents``): served where both are wired
PAGE_ROUTES = [shared_page_png]
