"""The chat HTTP API: sessions, asking (SSE), stream replay, stop.

Handlers are thin: they read the user from ``request.user``, call the
``ChatService`` (injected as the ``chat`` dependency) and shape the response.
Errors are raised as ``store.errors`` types; ``chat/app/factory.py`` maps them to HTTP.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import quote

from litestar import Request, delete, get, patch, post, put
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, HeaderParameter, JSONBody, QueryParameter
from litestar.response import Response, Stream

from chat.core.events import parse_event_id
from chat.core.generations import Generation
from chat.core.service import ChatService
from store.errors import InvalidInput

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Connection": "keep-alive"}
MAX_QUESTION_CHARS = 20_000


@dataclass
class CreateSession:
    title: str | None = None
    project_id: str | None = None


@dataclass
class RenameSession:
    title: str


@dataclass
class Ask:
    text: str
    project_id: str | None = None
    turn_id: str | None = None
    replaces_seq: int | None = None  # regenerate / edit-and-resend: the last question's seq


@dataclass
class Feedback:
    rating: str | None = None  # "up" | "down" | null (cleared)
    comment: str | None = None


@dataclass
class Pin:
    pinned: bool


def _user(request: Request[Any, Any, Any]) -> str:
    user = request.user
    if not isinstance(user, str) or not user:
        raise InvalidInput("no user on the request")
    return user


def sse_response(chat: ChatService, gen: Generation, after: int) -> Stream:
    """Relay a generation's events from position ``after``; disconnect = explicit unsubscribe."""

    async def relay() -> AsyncIterator[bytes]:
        chat.registry.subscribe(gen)
        try:
            async for chunk in gen.relay(after, chat.settings.chat.sse_keepalive_seconds):
                yield chunk
        finally:
            chat.registry.unsubscribe(gen)

    return Stream(relay(), media_type="text/event-stream", headers=SSE_HEADERS)


@post("/v1/sessions", status_code=201)
async def create_session(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService], data: JSONBody[CreateSession]
) -> dict[str, Any]:
    return await chat.create_session(_user(request), title=data.title, project_id=data.project_id)


@get("/v1/sessions")
async def list_sessions(
    request: Request[Any, Any, Any],
    chat: NamedDependency[ChatService],
    limit: Annotated[int, QueryParameter(ge=1, le=100)] = 20,
    cursor: FromQuery[str | None] = None,
    q: FromQuery[str | None] = None,
) -> dict[str, Any]:
    if q is not None and q.strip():  # search titles and message text (chat.core.chat_search)
        return await chat.search_sessions(_user(request), q, limit=limit)
    return await chat.list_sessions(_user(request), limit=limit, cursor=cursor)


@get("/v1/sessions/{session_id:str}")
async def get_session(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService], session_id: FromPath[str]
) -> dict[str, Any]:
    return await chat.get_session(_user(request), session_id)


@patch("/v1/sessions/{session_id:str}")
async def rename_session(
    request: Request[Any, Any, Any],
    chat: NamedDependency[ChatService],
    session_id: FromPath[str],
    data: JSONBody[RenameSession],
) -> dict[str, Any]:
    return await chat.rename_session(_user(request), session_id, data.title)


@delete("/v1/sessions/{session_id:str}", status_code=204)
async def delete_session(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService], session_id: FromPath[str]
) -> None:
    await chat.delete_session(_user(request), session_id)


@get("/v1/sessions/{session_id:str}/messages")
async def list_messages(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService], session_id: FromPath[str]
) -> dict[str, Any]:
    return {"items": await chat.display_messages(_user(request), session_id)}


@post("/v1/sessions/{session_id:str}/messages", status_code=200)
async def ask(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService], session_id: FromPath[str], data: JSONBody[Ask]
) -> Stream:
    text = data.text.strip()
    if not text:
        raise InvalidInput("'text' must not be empty")
    if len(text) > MAX_QUESTION_CHARS:
        raise InvalidInput(f"'text' is longer than {MAX_QUESTION_CHARS} characters")
    gen, after = await chat.ask(_user(request), session_id, text=text, project_id=data.project_id, turn_id=data.turn_id,
                                replaces_seq=data.replaces_seq)
    return sse_response(chat, gen, after)


@get("/v1/sessions/{session_id:str}/stream", opt={"query_token": True})  # EventSource-compatible (chat.app.auth)
async def resume_stream(
    request: Request[Any, Any, Any],
    chat: NamedDependency[ChatService],
    session_id: FromPath[str],
    last_event_id: Annotated[str | None, HeaderParameter(name="Last-Event-ID")] = None,
) -> Stream | Response[None]:
    found = await chat.resume(_user(request), session_id, parse_event_id(last_event_id))
    if found is None:
        # 204 tells an EventSource to stop reconnecting: nothing is running or recently finished
        return Response(None, status_code=204)
    gen, after = found
    return sse_response(chat, gen, after)


@post("/v1/sessions/{session_id:str}/stop", status_code=200)
async def stop(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService], session_id: FromPath[str]
) -> dict[str, Any]:
    return await chat.stop_generation(_user(request), session_id)


@put("/v1/sessions/{session_id:str}/messages/{seq:int}/feedback")
async def set_feedback(
    request: Request[Any, Any, Any],
    chat: NamedDependency[ChatService],
    session_id: FromPath[str],
    seq: FromPath[int],
    data: JSONBody[Feedback],
) -> dict[str, Any]:
    return await chat.set_feedback(_user(request), session_id, seq, data.rating, data.comment)


@put("/v1/sessions/{session_id:str}/pin")
async def pin_session(
    request: Request[Any, Any, Any], chat: NamedDependency[ChatService], session_id: FromPath[str], data: JSONBody[Pin]
) -> dict[str, Any]:
    return await chat.pin_session(_user(request), session_id, bool(data.pinned))


@get("/v1/sessions/{session_id:str}/export")
async def export_session(
    request: Request[Any, Any, Any],
    chat: NamedDependency[ChatService],
    session_id: FromPath[str],
    format: FromQuery[str] = "markdown",
) -> Response[str]:
    if format not in ("markdown", "md"):
        raise InvalidInput("format must be 'markdown'")
    name, text = await chat.export_markdown(_user(request), session_id)
    disposition = f"attachment; filename=\"chat.md\"; filename*=UTF-8''{quote(name)}"
    return Response(text, media_type="text/markdown; charset=utf-8", headers={"Content-Disposition": disposition})


ROUTES = [
    create_session,
    list_sessions,
    get_session,
    rename_session,
    delete_session,
    list_messages,
    ask,
    resume_stream,
    stop,
    set_feedback,
    pin_session,
    export_session,
]
