"""Generic OpenID Connect auth against an identity provider served on a loopback port (no network).

The provider serves a discovery document and its JWKS at a path of its own (``/keys``, as Okta or Entra ID
do), so the verifier has to find the keys through discovery; tests switch discovery off, stop the server, or
rotate keys to check the other paths.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from chat.app.factory import create_app
from chat.app.jwt_auth import OidcVerifier, check_url
from chat.app.wiring import Services
from chat.models.scripted import ScriptedModel
from store.config import Settings
from store.errors import AuthUnavailable, ConfigError, Unauthorized
from tests.chat.chat_harness import make_harness

AUD = "docchat-api"


def _jwk(key: rsa.RSAPrivateKey, kid: str) -> dict[str, Any]:
    jwk: dict[str, Any] = json.loads(RSAAlgorithm.to_jwk(key.public_key()))
    jwk.update({"kid": kid, "alg": "RS256", "use": "sig"})
    return jwk


class Provider:
    """A loopback OIDC issuer: discovery + JWKS, with a request log."""

    def __init__(self, keys: list[tuple[str, rsa.RSAPrivateKey]]) -> None:
        self.keys = keys
        self.discovery = True
        self.hits: list[str] = []
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                provider.hits.append(self.path)
                if self.path.endswith("/.well-known/openid-configuration") and provider.discovery:
                    body = {"issuer": provider.issuer, "jwks_uri": provider.base + "/tenant/keys",
                            "authorization_endpoint": provider.base + "/tenant/authorize"}
                elif self.path in ("/tenant/keys", "/tenant/.well-known/jwks.json"):
                    body = {"keys": [_jwk(k, kid) for kid, k in provider.keys]}
                else:
                    self.send_error(404)
                    return
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.issuer = self.base + "/tenant"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def token(self, kid: str = "k1", key: rsa.RSAPrivateKey | None = None, **claims: Any) -> str:
        now = int(time.time())
        body: dict[str, Any] = {"iss": self.issuer, "aud": AUD, "sub": "user-1", "iat": now, "exp": now + 600}
        body.update(claims)
        body = {k: v for k, v in body.items() if v is not None}
        signer = key if key is not None else dict(self.keys)[kid]
        return jwt.encode(body, signer, algorithm="RS256", headers={"kid": kid})

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def rsa_keys() -> list[rsa.RSAPrivateKey]:
    return [rsa.generate_private_key(public_exponent=65537, key_size=2048) for _ in range(2)]


@pytest.fixture()
def idp(rsa_keys: list[rsa.RSAPrivateKey]) -> Iterator[Provider]:
    p = Provider([("k1", rsa_keys[0])])
    yield p
    p.stop()


def settings(idp: Provider, tmp_path: Path | None = None, **extra: Any) -> Settings:
    values: dict[str, Any] = {"backend": "aws", "oidc_issuer": idp.issuer, "oidc_audience": AUD, **extra}
    if tmp_path is not None:
        values.update(data_dir=tmp_path, disconnect_grace_seconds=0.0)
    return Settings(**values)


# --- finding the keys ---------------------------------------------------------------------------------------
def test_keys_are_found_through_discovery_and_cached(idp: Provider) -> None:
    v = OidcVerifier.from_settings(settings(idp))
    for i in range(3):
        assert v(idp.token(sub=f"user-{i}")) == f"user-{i}"
    assert idp.hits == ["/tenant/.well-known/openid-configuration", "/tenant/keys"]


def test_without_discovery_the_keys_are_at_the_well_known_jwks_path(idp: Provider) -> None:
    idp.discovery = False
    assert OidcVerifier.from_settings(settings(idp))(idp.token()) == "user-1"
    assert idp.hits[-1] == "/tenant/.well-known/jwks.json"


def test_a_configured_jwks_url_skips_discovery(idp: Provider) -> None:
    v = OidcVerifier.from_settings(settings(idp, oidc_jwks_url=idp.base + "/tenant/keys"))
    assert v(idp.token()) == "user-1"
    assert idp.hits == ["/tenant/keys"]


def test_a_discovery_document_for_another_issuer_is_a_config_error(idp: Provider) -> None:
    v = OidcVerifier(issuer=idp.base + "/other", audience=AUD)
    idp.discovery = True
    with pytest.raises(ConfigError, match="names another issuer"):
        v(idp.token())


def test_rotated_keys_are_picked_up_and_unknown_kids_do_not_hammer_the_issuer(
    idp: Provider, rsa_keys: list[rsa.RSAPrivateKey], monkeypatch: pytest.MonkeyPatch
) -> None:
    v = OidcVerifier.from_settings(settings(idp))
    assert v(idp.token()) == "user-1"
    for i in range(20):
        with pytest.raises(Unauthorized, match="unknown signing key"):
            v(idp.token(kid=f"nope-{i}", key=rsa_keys[1]))
    assert idp.hits.count("/tenant/keys") == 1  # refetches are rate-limited (MIN_REFETCH_S)
    monkeypatch.setattr(v.jwk_client(), "cooldown_duration", 0.0)  # as if MIN_REFETCH_S had passed
    idp.keys.append(("k2", rsa_keys[1]))
    assert v(idp.token(kid="k2", sub="rotated")) == "rotated"


def test_a_withdrawn_key_stops_verifying_once_the_key_set_is_refreshed(
    idp: Provider, rsa_keys: list[rsa.RSAPrivateKey]
) -> None:
    v = OidcVerifier(issuer=idp.issuer, audience=AUD, jwks_cache_seconds=1)
    token = idp.token()
    assert v(token) == "user-1"
    idp.keys[:] = [("k2", rsa_keys[1])]  # the issuer rotated k1 out
    time.sleep(1.1)
    with pytest.raises(Unauthorized, match="unknown signing key"):
        v(token)


# --- the claims ---------------------------------------------------------------------------------------------
def test_user_and_groups_claims_are_configurable(idp: Provider) -> None:
    v = OidcVerifier.from_settings(settings(idp, oidc_user_claim="oid", oidc_groups_claim="groups"))
    who = v.identify(idp.token(oid="0f1e-entra-oid", groups=["analysts", "admins"]))
    assert (who.user, who.groups) == ("0f1e-entra-oid", ("analysts", "admins"))
    assert v.identify(idp.token(oid="u2", groups="a b,c")).groups == ("a", "b", "c")
    with pytest.raises(Unauthorized, match="'oid' claim"):
        v(idp.token())  # no oid claim
    with pytest.raises(Unauthorized, match="'oid' claim"):
        v(idp.token(oid="a#b"))  # '#' would break key composition
    assert OidcVerifier.from_settings(settings(idp)).identify(idp.token(**{"cognito:groups": ["g"]})).groups == ("g",)


@pytest.mark.parametrize(
    ("claims", "ok"),
    [
        ({"aud": AUD}, True),
        ({"aud": ["other", AUD]}, True),
        ({"aud": "other"}, False),
        ({"aud": None, "client_id": AUD, "token_use": "access"}, True),  # a Cognito access token
        ({"aud": None, "client_id": "other"}, False),
        ({"aud": None}, False),
        ({"token_use": "refresh"}, False),
        ({"exp": int(time.time()) - 3600}, False),
        ({"iss": "http://127.0.0.1:1/evil"}, False),
    ],
)
def test_audience_issuer_and_expiry(idp: Provider, claims: dict[str, Any], ok: bool) -> None:
    v = OidcVerifier.from_settings(settings(idp))
    if ok:
        assert v(idp.token(**claims)) == "user-1"
    else:
        with pytest.raises(Unauthorized):
            v(idp.token(**claims))


def test_a_trailing_slash_on_the_issuer_does_not_matter(idp: Provider) -> None:
    """Auth0's issuer ends in '/'; the configured value may or may not."""
    v = OidcVerifier.from_settings(settings(idp, oidc_jwks_url=idp.base + "/tenant/keys"))
    assert v(idp.token(iss=idp.issuer + "/")) == "user-1"


def test_symmetric_and_unsigned_tokens_are_refused(idp: Provider) -> None:
    v = OidcVerifier.from_settings(settings(idp))
    now = int(time.time())
    claims = {"iss": idp.issuer, "aud": AUD, "sub": "mallory", "iat": now, "exp": now + 600}
    public_pem = RSAAlgorithm.to_jwk(idp.keys[0][1].public_key())
    hs = jwt.api_jws.PyJWS()
    forged = hs.encode(json.dumps(claims).encode(), public_pem.encode()[:32], algorithm="HS256",
                       headers={"kid": "k1"})
    with pytest.raises(Unauthorized):
        v(forged)
    unsigned = jwt.encode(claims, None, algorithm="none", headers={"kid": "k1"})
    with pytest.raises(Unauthorized):
        v(unsigned)


def test_a_dev_token_is_named_as_local_mode_only(idp: Provider) -> None:
    with pytest.raises(Unauthorized, match="local mode only"):
        OidcVerifier.from_settings(settings(idp))("dev:alice")
    assert idp.hits == []  # refused before any key lookup


# --- an unreachable provider ---------------------------------------------------------------------------------
def test_an_unreachable_provider_is_unavailable_not_unauthorized(
    rsa_keys: list[rsa.RSAPrivateKey], monkeypatch: pytest.MonkeyPatch
) -> None:
    idp = Provider([("k1", rsa_keys[0])])
    token = idp.token()
    idp.stop()  # nothing listens on the port any more
    v = OidcVerifier.from_settings(settings(idp))
    with pytest.raises(AuthUnavailable, match="cannot verify the token right now"):
        v(token)
    started = time.monotonic()
    with pytest.raises(AuthUnavailable):
        v(token)  # fails fast for RETRY_AFTER_S instead of waiting for a timeout again
    assert time.monotonic() - started < 0.5
    jwks_only = OidcVerifier.from_settings(settings(idp, oidc_jwks_url=idp.base + "/tenant/keys"))
    with pytest.raises(AuthUnavailable, match="cannot verify the token right now"):
        jwks_only(token)


# --- settings and start-up -----------------------------------------------------------------------------------
def test_settings_are_checked_at_start_up(idp: Provider) -> None:
    with pytest.raises(ConfigError, match="DOCCHAT_OIDC_ISSUER"):
        OidcVerifier.from_settings(Settings(backend="aws"))
    with pytest.raises(ConfigError, match="DOCCHAT_OIDC_AUDIENCE"):
        OidcVerifier.from_settings(Settings(backend="aws", oidc_issuer=idp.issuer))
    with pytest.raises(ConfigError, match="https"):
        OidcVerifier.from_settings(settings(idp, oidc_issuer="http://idp.example.com/realms/x"))
    with pytest.raises(ConfigError, match="DOCCHAT_OIDC_JWKS_URL"):
        OidcVerifier.from_settings(settings(idp, oidc_jwks_url="ftp://idp.example.com/keys"))
    assert check_url("https://login.example.com/t/v2.0", "X") and check_url("http://localhost:9000/", "X")
    # the Cognito client id doubles as the audience of a generic issuer (e.g. a local stand-in for the pool)
    v = OidcVerifier.from_settings(Settings(backend="aws", oidc_issuer=idp.issuer, cognito_client_id="c1"))
    assert v.audience == "c1"
    # Cognito alone still derives issuer and JWKS, and requires token_use
    v = OidcVerifier.from_settings(Settings(backend="aws", cognito_user_pool_id="eu-west-1_Abc", cognito_client_id="c"))
    assert (v.issuer, v.discover, v.require_token_use) == (
        "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Abc", False, True)


def test_build_services_refuses_bad_oidc_settings(tmp_path: Path) -> None:
    from chat.app.wiring import build_services

    with pytest.raises(ConfigError, match="DOCCHAT_OIDC_AUDIENCE"):
        build_services(Settings(data_dir=tmp_path, backend="aws", oidc_issuer="https://idp.example.com"),
                       model=ScriptedModel(["x"]))
    with pytest.raises(ConfigError, match=r"DOCCHAT_OIDC_ISSUER.*DOCCHAT_COGNITO_USER_POOL_ID"):
        build_services(Settings(data_dir=tmp_path, backend="aws"), model=ScriptedModel(["x"]))


# --- through the app -----------------------------------------------------------------------------------------
async def test_the_app_answers_200_401_and_503(idp: Provider, tmp_path: Path) -> None:
    s = settings(idp, tmp_path)
    h = make_harness(tmp_path, ScriptedModel(["x"]), backend="aws", oidc_issuer=idp.issuer, oidc_audience=AUD)
    app = create_app(s, services=Services(settings=s, dependencies={"chat": h.chat},
                                          verifier=OidcVerifier.from_settings(s)))
    transport = httpx.ASGITransport(app=app, client=("10.0.0.7", 5000))  # aws mode: any peer
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as c:
        ok = await c.get("/v1/sessions", headers={"Authorization": f"Bearer {idp.token(sub='alice')}"})
        assert ok.status_code == 200, ok.text
        dev = await c.get("/v1/sessions", headers={"Authorization": "Bearer dev:alice"})
        assert dev.status_code == 401 and "local mode only" in dev.json()["error"]["message"]
        bad = await c.get("/v1/sessions", headers={"Authorization": f"Bearer {idp.token(aud='other')}"})
        assert bad.status_code == 401
    idp.stop()
    down_app = create_app(s, services=Services(settings=s, dependencies={"chat": h.chat},
                                               verifier=OidcVerifier.from_settings(s)))
    transport = httpx.ASGITransport(app=down_app, client=("10.0.0.7", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as c:
        r = await c.get("/v1/sessions", headers={"Authorization": f"Bearer {idp.token()}"})
    assert r.status_code == 503
    assert r.json()["error"] == {"code": "auth_unavailable", "message": r.json()["error"]["message"]}
    assert "cannot verify the token right now" in r.json()["error"]["message"]
