"""Test doubles and app wiring for the chat-server tests.

The model is ``chat.models.scripted.ScriptedModel`` (or the real ``LocalModel``); the session store is the real
``SessionStore`` on SQLite + files; the retriever and the ingest service are small in-memory doubles with
the interfaces chat uses (``Retriever.search``, ``DocumentReader.get_project/list_projects/read_page``), so
these tests isolate the chat server from indexing and OCR.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from chat.app.factory import create_app
from chat.app.wiring import Services
from chat.core.events import SSEParser
from chat.core.service import ChatService
from retrieval.types import BBox, Hit, SearchFilter
from store.blobs import FileBlobStore
from store.config import Settings
from store.errors import NotFound
from store.schema import SESSIONS_TABLE
from store.sessions import SessionStore
from store.sqlite_items import SqliteItemTable

ALICE = {"Authorization": "Bearer dev:alice"}
BOB = {"Authorization": "Bearer dev:bob"}


@dataclass(frozen=True)
class Page:
    document_id: str
    file_name: str
    page: int
    text: str
    page_count: int


@dataclass
class Doc:
    document_id: str
    project_id: str
    owner: str
    file_name: str
    pages: list[str]


@dataclass
class FakeIngest:
    """The slice of ingest that chat uses (``chat.core.ports.DocumentReader``), with ownership rules
    (not yours → NotFound)."""

    projects: dict[str, str] = field(default_factory=dict)  # project_id -> owner
    docs: dict[str, Doc] = field(default_factory=dict)
    summaries: dict[str, dict[str, Any]] = field(default_factory=dict)  # document_id -> stored summary

    async def get_project(self, user_id: str, project_id: str) -> dict[str, Any]:
        if self.projects.get(project_id) != user_id:
            raise NotFound("project not found")
        return {"project_id": project_id, "name": project_id}

    async def list_projects(self, user_id: str) -> list[dict[str, Any]]:
        return [{"project_id": p} for p, owner in sorted(self.projects.items()) if owner == user_id]

    async def document_summaries(self, user_id: str, project_ids: Any) -> list[dict[str, Any]]:
        for pid in project_ids:
            await self.get_project(user_id, pid)
        return [{"document_id": d.document_id, "project_id": d.project_id, "file_name": d.file_name,
                 "page_count": len(d.pages), "status": "completed", "summary": self.summaries.get(d.document_id)}
                for d in self.docs.values() if d.project_id in project_ids]

    async def read_page(self, user_id: str, document_id: str, page: int) -> Page:
        doc = self.docs.get(document_id)
        if doc is None or doc.owner != user_id or not 1 <= page <= len(doc.pages):
            raise NotFound("page not found")
        return Page(document_id, doc.file_name, page, doc.pages[page - 1], len(doc.pages))


@dataclass
class FakeRetriever:
    """Keyword-overlap search over the FakeIngest's pages; records every filter it was given."""

    ingest: FakeIngest
    calls: list[tuple[str, SearchFilter]] = field(default_factory=list)

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    async def search(self, query: str, flt: SearchFilter, *, k: int = 8, mode: str = "hybrid") -> list[Hit]:
        self.calls.append((query, flt))
        words = {w.lower() for w in re.findall(r"\w+", query) if len(w) > 2}
        hits = []
        for doc in self.ingest.docs.values():
            if doc.project_id not in flt.projects:
                continue
            if flt.document_ids is not None and doc.document_id not in flt.document_ids:
                continue  # as the index adapters filter (retrieval/lance_index.py, opensearch_bodies.py)
            for i, text in enumerate(doc.pages, start=1):
                score = len(words & {w.lower() for w in re.findall(r"\w+", text)})
                if score:
                    hits.append(
                        Hit(
                            chunk_id=f"{doc.document_id}:{i - 1:05d}",
                            document_id=doc.document_id,
                            file_name=doc.file_name,
                            page_start=i,
                            page_end=i,
                            text=text,
                            score=float(score),
                            project_id=doc.project_id,
                            bbox=BBox(i, 72.0, 100.0, 500.0, 140.0),
                        )
                    )
        return sorted(hits, key=lambda h: -h.score)[:k]


def settings_for(tmp_path: Path, **overrides: Any) -> Settings:
    base: dict[str, Any] = {"data_dir": tmp_path, "disconnect_grace_seconds": 0.0}
    base.update(overrides)
    return Settings(**base)


def session_store(settings: Settings) -> SessionStore:
    return SessionStore(
        SqliteItemTable(settings.server.data_dir / "sessions.db", SESSIONS_TABLE),
        FileBlobStore(settings.server.data_dir / "blobs" / "sessions"),
    )


def sample_ingest() -> FakeIngest:
    ingest = FakeIngest(projects={"p1": "alice", "p2": "alice", "pb": "bob"})
    ingest.docs["d1"] = Doc(
        "d1",
        "p1",
        "alice",
        "report.pdf",
        ["Annual report. Revenue grew 12% in 2024 to 4.2 million euros.", "Staff count rose to 40 people."],
    )
    ingest.docs["d2"] = Doc("d2", "p2", "alice", "memo.pdf", ["The office moves to Lyon in March."])
    ingest.docs["db"] = Doc("db", "pb", "bob", "secret.pdf", ["Bob's revenue secret is 99 million."])
    return ingest


@dataclass
class Harness:
    settings: Settings
    chat: ChatService
    ingest: FakeIngest
    retriever: FakeRetriever
    sessions: SessionStore
    model: Any

    def app(self) -> Any:
        services = Services(settings=self.settings, dependencies={"chat": self.chat}, on_start=[self.chat.start],
                            on_stop=[self.chat.stop])
        return create_app(self.settings, services=services)


def make_harness(tmp_path: Path, model: Any, **overrides: Any) -> Harness:
    settings = settings_for(tmp_path, **overrides)
    ingest = sample_ingest()
    retriever = FakeRetriever(ingest)
    sessions = session_store(settings)
    chat = ChatService(settings=settings, sessions=sessions, model=model, retriever=retriever, ingest=ingest)
    return Harness(settings, chat, ingest, retriever, sessions, model)


def parse_sse(body: bytes) -> list[tuple[str, dict[str, Any], str | None]]:
    return [(m.event, json.loads(m.data), m.id) for m in SSEParser().feed(body)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@asynccontextmanager
async def serve(app: Any) -> AsyncIterator[str]:
    """Run ``app`` under uvicorn on a free loopback port (for real disconnects); yields the base URL."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started:
            break
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


class EventReader:
    """Reads SSE events from a streaming httpx response, a few at a time (events past a stop are kept)."""

    def __init__(self, response: httpx.Response) -> None:
        self._chunks = response.aiter_raw()
        self.parser = SSEParser()
        self._pending: list[tuple[str, dict[str, Any], str | None]] = []
        self.last_id: str | None = None

    async def until(self, stop_at: str) -> list[tuple[str, dict[str, Any], str | None]]:
        out: list[tuple[str, dict[str, Any], str | None]] = []
        while True:
            while self._pending:
                event = self._pending.pop(0)
                out.append(event)
                self.last_id = event[2] or self.last_id
                if event[0] == stop_at:
                    return out
            try:
                chunk = await self._chunks.__anext__()
            except StopAsyncIteration:
                return out
            self._pending += [(m.event, json.loads(m.data), m.id) for m in self.parser.feed(chunk)]


async def read_events_until(response: httpx.Response, stop_at: str) -> list[tuple[str, dict[str, Any], str | None]]:
    return await EventReader(response).until(stop_at)
