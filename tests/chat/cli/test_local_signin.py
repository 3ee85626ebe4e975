"""Browser sign-in at the local issuer (chat/cli/local_signin.py): authorization code + PKCE on the paths the
web UI uses with Cognito; the tokens it issues pass the API's verifier; redirects stay on loopback."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from chat.app.jwt_auth import CognitoVerifier
from chat.app.web_routes import client_config, content_security_policy
from chat.cli.local_issuer import AUDIENCE
from chat.cli.local_issuer_server import LocalIssuer
from store.config import Settings

PAGE = "http://127.0.0.1:8000/"
VERIFIER = "v" * 43
CHALLENGE = base64.urlsafe_b64encode(hashlib.sha256(VERIFIER.encode()).digest()).rstrip(b"=").decode()


@pytest.fixture()
def issuer(tmp_path: Path) -> Iterator[LocalIssuer]:
    running = LocalIssuer(tmp_path).start()
    yield running
    running.stop()


def _authorize(issuer: LocalIssuer, **override: str) -> httpx.Response:
    form = {"client_id": AUDIENCE, "redirect_uri": PAGE, "state": "s1", "code_challenge": CHALLENGE,
            "code_challenge_method": "S256", "username": "carol", **override}
    return httpx.post(f"{issuer.url}/oauth2/authorize", data=form)


def _code(issuer: LocalIssuer) -> str:
    r = _authorize(issuer)
    assert r.status_code == 302
    location = urlsplit(r.headers["location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == PAGE
    query = parse_qs(location.query)
    assert query["state"] == ["s1"]
    return query["code"][0]


def _token(issuer: LocalIssuer, **form: str) -> httpx.Response:
    return httpx.post(f"{issuer.url}/oauth2/token", data={"client_id": AUDIENCE, **form},
                      headers={"Origin": "http://127.0.0.1:8000"})


def test_code_flow_with_pkce_gives_tokens_the_api_accepts(issuer: LocalIssuer) -> None:
    form = httpx.get(f"{issuer.url}/oauth2/authorize", params={
        "response_type": "code", "client_id": AUDIENCE, "redirect_uri": PAGE, "state": "s1",
        "code_challenge": CHALLENGE, "code_challenge_method": "S256", "scope": "openid"})
    assert form.status_code == 200 and 'name="username"' in form.text and CHALLENGE in form.text
    code = _code(issuer)
    r = _token(issuer, grant_type="authorization_code", code=code, code_verifier=VERIFIER, redirect_uri=PAGE)
    assert r.status_code == 200, r.text
    assert r.headers["access-control-allow-origin"] == "http://127.0.0.1:8000"
    body = r.json()
    settings = Settings(backend="aws", oidc_issuer=issuer.url, oidc_audience=AUDIENCE, oidc_jwks_url=issuer.jwks_url)
    verifier = CognitoVerifier.from_settings(settings)
    assert verifier(body["access_token"]) == "carol" and verifier(body["id_token"]) == "carol"
    again = _token(issuer, grant_type="authorization_code", code=code, code_verifier=VERIFIER, redirect_uri=PAGE)
    assert again.status_code == 400  # a code is good once
    refreshed = _token(issuer, grant_type="refresh_token", refresh_token=body["refresh_token"])
    assert refreshed.status_code == 200 and verifier(refreshed.json()["access_token"]) == "carol"


def test_a_wrong_verifier_or_a_foreign_redirect_is_refused(issuer: LocalIssuer) -> None:
    code = _code(issuer)
    r = _token(issuer, grant_type="authorization_code", code=code, code_verifier="w" * 43, redirect_uri=PAGE)
    assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
    assert _authorize(issuer, redirect_uri="https://evil.example/").status_code == 400
    assert _authorize(issuer, client_id="someone-else").status_code == 400
    assert _authorize(issuer, code_challenge="").status_code == 400
    assert _authorize(issuer, username="a/b").status_code == 400
    assert httpx.get(f"{issuer.url}/logout", params={"logout_uri": "https://evil.example/"}).status_code == 400
    assert httpx.get(f"{issuer.url}/logout", params={"logout_uri": PAGE}).headers["location"] == PAGE


def test_discovery_names_the_sign_in_endpoints(issuer: LocalIssuer) -> None:
    conf = httpx.get(f"{issuer.url}/.well-known/openid-configuration").json()
    assert conf["authorization_endpoint"] == f"{issuer.url}/oauth2/authorize"
    assert conf["token_endpoint"] == f"{issuer.url}/oauth2/token"
    assert conf["code_challenge_methods_supported"] == ["S256"]


def test_the_web_ui_is_pointed_at_a_loopback_issuer_over_http(tmp_path: Path) -> None:
    settings = Settings(backend="aws", data_dir=tmp_path, cognito_domain="http://127.0.0.1:4567",
                        cognito_client_id=AUDIENCE)
    assert client_config(settings)["cognito_domain"] == "http://127.0.0.1:4567"
    assert "connect-src 'self' http://127.0.0.1:4567" in content_security_policy(settings)
    remote = Settings(backend="aws", data_dir=tmp_path, cognito_domain="http://auth.example.com")
    assert client_config(remote)["cognito_domain"] == "https://auth.example.com"  # never plain http off-host
