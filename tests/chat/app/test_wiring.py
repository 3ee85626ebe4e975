"""Wiring: build_services on the embedded defaults, aws-mode auth, loopback-only dev tokens."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from chat.app.factory import create_app
from chat.app.jwt_auth import CognitoVerifier
from chat.core.service import ChatService
from chat.app.wiring import build_services
from chat.models.scripted import ScriptedModel
from store.config import Settings
from store.errors import ConfigError
from tests.chat.chat_harness import ALICE, make_harness


def test_build_services_wires_every_component_on_embedded_defaults(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    svc = build_services(settings, model=ScriptedModel(["x"]))
    assert list(svc.components)[:3] == ["retrieval", "ingest", "chat"]
    chat = svc.components["chat"]
    assert isinstance(chat, ChatService)
    assert chat.retriever is svc.components["retrieval"].retriever  # type: ignore[attr-defined]
    assert chat.ingest is svc.components["ingest"]
    app = create_app(settings, services=svc)
    paths = {r.path for r in app.routes}
    for p in (
        "/v1/sessions",
        "/v1/sessions/{session_id:str}/messages",
        "/v1/sessions/{session_id:str}/stream",
        "/v1/projects",
        "/healthz",
    ):
        assert p in paths
    # the configured model is the extractive local one unless a double is passed
    assert build_services(settings).components["chat"].model.model_id  # type: ignore[attr-defined]


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
    async with httpx.AsyncClient(transport=remote, base_url="http://docchat") as c:
        r = await c.get("/v1/sessions", headers=ALICE)
        assert r.status_code == 401 and "loopback" in r.json()["error"]["message"]
    local = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
    async with httpx.AsyncClient(transport=local, base_url="http://docchat") as c:
        assert (await c.get("/v1/sessions", headers=ALICE)).status_code == 200
