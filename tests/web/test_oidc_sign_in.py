"""The web UI in aws mode with a generic OpenID Connect issuer: /v1/config, the CSP, and the browser flow."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from chat.app.web_routes import client_config, content_security_policy
from store.config import Settings
from tests.web.api_double import ORIGIN, ApiDouble

ISSUER = "https://idp.example.test/realms/docchat"


def test_config_names_the_issuer_and_the_client(tmp_path: Path) -> None:
    settings = Settings(backend="aws", data_dir=tmp_path, oidc_issuer=ISSUER + "/", oidc_audience="docchat-web")
    cfg = client_config(settings)
    assert cfg["mode"] == "aws" and cfg["oidc_issuer"] == ISSUER and cfg["client_id"] == "docchat-web"
    assert cfg["cognito_domain"] is None
    assert "connect-src 'self' https://idp.example.test;" in content_security_policy(settings)
    # local mode never advertises it
    local = Settings(data_dir=tmp_path, oidc_issuer=ISSUER, oidc_audience="docchat-web")
    assert "oidc_issuer" not in client_config(local)
    assert "idp.example.test" not in content_security_policy(local)


def _b64(obj: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


@pytest.mark.browser
def test_oidc_sign_in_uses_the_discovery_endpoints_and_sends_the_id_token(page: Any) -> None:
    id_token = f"{_b64({'alg': 'RS256'})}.{_b64({'preferred_username': 'kim', 'sub': 'u-1'})}.sig"
    api = ApiDouble(token=id_token, config={"mode": "aws", "cognito_domain": None, "client_id": "docchat-web",
                                            "oidc_issuer": ISSUER, "render_dpi": 150, "max_upload_bytes": 1000})
    api.install(page)
    seen: dict[str, Any] = {}
    cors = {"Access-Control-Allow-Origin": ORIGIN}

    def discovery(route: Any, request: Any) -> None:
        route.fulfill(json={"issuer": ISSUER, "authorization_endpoint": f"{ISSUER}/protocol/openid-connect/auth",
                            "token_endpoint": f"{ISSUER}/protocol/openid-connect/token",
                            "end_session_endpoint": f"{ISSUER}/protocol/openid-connect/logout",
                            "jwks_uri": f"{ISSUER}/protocol/openid-connect/certs"}, headers=cors)

    def authorize(route: Any, request: Any) -> None:
        seen["authorize"] = q = parse_qs(urlsplit(request.url).query)
        route.fulfill(status=302, headers={"Location": f"{ORIGIN}/?code=CODE-7&state={q['state'][0]}"})

    def token(route: Any, request: Any) -> None:
        seen["token"] = parse_qs(request.post_data)
        route.fulfill(json={"access_token": "OPAQUE-ACCESS", "id_token": id_token, "refresh_token": "R-1",
                            "expires_in": 300, "token_type": "Bearer"}, headers=cors)

    page.route(f"{ISSUER}/.well-known/openid-configuration", discovery)
    page.route(f"{ISSUER}/protocol/openid-connect/auth*", authorize)
    page.route(f"{ISSUER}/protocol/openid-connect/token", token)
    page.goto(f"{ORIGIN}/")
    page.wait_for_selector("#signin-cognito:not([hidden])")
    page.click("#signin-cognito-button")
    page.wait_for_selector("#app:not([hidden])")
    q, t = seen["authorize"], seen["token"]
    assert q["client_id"] == ["docchat-web"] and q["code_challenge_method"] == ["S256"]
    assert q["redirect_uri"] == [f"{ORIGIN}/"] and "openid" in q["scope"][0].split()
    assert t["grant_type"] == ["authorization_code"] and t["code"] == ["CODE-7"]
    challenge = base64.urlsafe_b64encode(hashlib.sha256(t["code_verifier"][0].encode()).digest()).decode().rstrip("=")
    assert challenge == q["code_challenge"][0]
    assert page.inner_text("#user-name") == "kim"
    calls = [r for r in api.log if r["path"] == "/v1/sessions"]
    assert calls and calls[-1]["headers"]["authorization"] == f"Bearer {id_token}"
