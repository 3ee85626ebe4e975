"""Wiring: build_services on the embedded defaults, aws-mode auth, loopback-only dev tokens."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import httpx
import pytest

from chat.app.factory import create_app
from chat.app.jwt_auth import CognitoVerifier
from chat.app.wiring import build_services
from chat.core.service import ChatService
from chat.models.scripted import ScriptedModel
from store.config import Settings
from store.errors import ConfigError
from tests.chat.chat_harness import ALICE, make_harness


def test_build_services_wires_every_dependency_on_embedded_defaults(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    svc = build_services(settings, model=ScriptedModel(["x"]))
    assert list(svc.dependencies) == ["chat", "uploads", "documents", "dead_letters", "reviews", "ops"]
    chat = svc.dependencies["chat"]
    assert isinstance(chat, ChatService)
    assert chat.retriever is svc.dependencies["documents"].index  # one retriever for ingest and chat
    # chat reads ingest through its port and nothing else: four async calls
    reader = chat.ingest
    public = sorted(n for n in dir(reader) if not n.startswith("_"))
    assert public == ["document_identities", "document_summaries", "get_project", "list_projects", "read_page"]
    assert all(inspect.iscoroutinefunction(getattr(reader, n)) for n in public)
    app = create_app(settings, services=svc)
    paths = {r.path for r in app.routes}
    for p in (
        "/v1/sessions",
        "/v1/sessions/{session_id:str}/messages",
        "/v1/sessions/{session_id:str}/stream",
        "/v1/projects",
        "/v1/projects/{project_id:str}/documents",
        "/v1/workflows/{workflow_id:str}/events",
        "/v1/config",
        "/",
        "/healthz",
    ):
        assert p in paths
    # the configured model is the extractive local one unless a double is passed
    assert build_services(settings).dependencies["chat"].model.model_id


class _CountingRetriever:
    def __init__(self) -> None:
        self.calls: list[str] = []

    async def start(self) -> None:
        self.calls.append("start")

    async def settle(self) -> bool:
        workers = [t for t in asyncio.all_tasks() if t.get_name() == "ingest-workers"]
        self.calls.append("settle after the workers" if workers else "settle before the workers")
        return True

    async def close(self) -> None:
        self.calls.append("close")


async def test_the_retriever_is_started_once_and_closed_once_around_the_workers(tmp_path: Path, monkeypatch) -> None:
    import retrieval.search

    retriever = _CountingRetriever()
    monkeypatch.setattr(retrieval.search, "build_retriever", lambda settings, **_kw: retriever)
    svc = build_services(Settings(data_dir=tmp_path), model=ScriptedModel(["x"]))
    await svc.start()
    try:
        # issue 18: start-up's last wait is the model's load (a restart's), after the workers' warm-up
        assert retriever.calls == ["start", "settle after the workers"]
        workers = [t for t in asyncio.all_tasks() if t.get_name() == "ingest-workers"]
        assert len(workers) == 1 and not workers[0].done()  # local mode: workers in-process
    finally:
        await svc.stop()
    assert retriever.calls == ["start", "settle after the workers", "close"]
    assert workers[0].done()


def test_aws_mode_uses_cognito_and_refuses_without_it(tmp_path: Path) -> None:
    aws = Settings(data_dir=tmp_path, backend="aws", cognito_user_pool_id="us-east-1_X", cognito_client_id="c")
    from chat.app.wiring import Services

    svc = Services(settings=aws, verifier=CognitoVerifier.from_settings(aws))
    create_app(aws, services=svc)
    with pytest.raises(ConfigError, match="Cognito"):
        create_app(aws, services=Services(settings=aws))


def test_local_mode_refuses_non_loopback_listen_address(tmp_path: Path) -> None:
    h = make_harness(tmp_path, ScriptedModel(["x"]))
    with pytest.raises(ConfigError, match="loopback"):
        create_app(h.settings.with_overrides(host="0.0.0.0"), services=None)


async def test_dev_tokens_are_refused_from_a_non_loopback_peer(tmp_path: Path) -> None:
    h = make_harness(tmp_path, ScriptedModel(["x"]))
    app = h.app()
    remote = httpx.ASGITransport(app=app, client=("10.1.2.3", 5000))
    async with httpx.AsyncClient(transport=remote, base_url="http://localhost") as c:
        r = await c.get("/v1/sessions", headers=ALICE)
        assert r.status_code == 401 and "loopback" in r.json()["error"]["message"]
    local = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
    async with httpx.AsyncClient(transport=local, base_url="http://localhost") as c:
        assert (await c.get("/v1/sessions", headers=ALICE)).status_code == 200
