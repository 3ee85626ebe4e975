"""The local OIDC issuer (chat/cli/local_issuer.py) and ``docchat dev-token``: tokens the API verifies through
the generic OIDC settings, over a loopback JWKS; dev tokens only when the configured issuer is the local one."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path

import httpx
import jwt
import pytest

from chat.app.jwt_auth import CognitoVerifier
from chat.cli.local_issuer import AUDIENCE, dev_token, ensure_key, issuer_dir, mint_token
from chat.cli.local_issuer_server import LocalIssuer
from chat.cli.main import main
from store.config import Settings
from store.errors import ConfigError, Unauthorized


@pytest.fixture()
def issuer(tmp_path: Path) -> Iterator[LocalIssuer]:
    running = LocalIssuer(tmp_path).start()
    yield running
    running.stop()


def _aws_settings(issuer: LocalIssuer, **extra: object) -> Settings:
    return Settings(backend="aws", oidc_issuer=issuer.url, oidc_jwks_url=issuer.jwks_url, oidc_audience=AUDIENCE,
                    data_dir=issuer.data_dir, **extra)


def test_the_signing_key_is_made_once_and_kept_private(tmp_path: Path) -> None:
    first, second = ensure_key(tmp_path), ensure_key(tmp_path)
    assert first.kid == second.kid
    key_file = issuer_dir(tmp_path) / "signing-key.pem"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    jwks = json.loads((issuer_dir(tmp_path) / "jwks.json").read_text())
    assert [k["kid"] for k in jwks["keys"]] == [first.kid]
    assert "d" not in jwks["keys"][0]  # the public half only


def test_discovery_and_jwks_are_served_on_loopback(issuer: LocalIssuer) -> None:
    assert issuer.url.startswith("http://127.0.0.1:")
    conf = httpx.get(f"{issuer.url}/.well-known/openid-configuration").json()
    assert conf["issuer"] == issuer.url
    assert conf["jwks_uri"] == issuer.jwks_url
    assert httpx.get(issuer.jwks_url).json()["keys"][0]["kid"] == issuer.key.kid
    assert httpx.get(f"{issuer.url}/nope").status_code == 404


def test_the_api_verifier_accepts_local_tokens_through_the_oidc_settings(issuer: LocalIssuer) -> None:
    settings = _aws_settings(issuer)
    token = dev_token(settings, "alice", issuer.data_dir, groups=("admins",))
    claims = jwt.decode(token, options={"verify_signature": False})
    assert claims["iss"] == issuer.url and claims["aud"] == AUDIENCE and claims["sub"] == "alice"
    assert claims["cognito:groups"] == ["admins"] and claims["exp"] > claims["iat"]
    assert jwt.get_unverified_header(token)["alg"] == "RS256"
    verifier = CognitoVerifier.from_settings(settings)
    assert verifier(token) == "alice"


def test_tokens_from_another_key_or_audience_are_refused(issuer: LocalIssuer, tmp_path: Path) -> None:
    verifier = CognitoVerifier.from_settings(_aws_settings(issuer))
    stranger = ensure_key(tmp_path / "elsewhere")
    with pytest.raises(Unauthorized):
        verifier(mint_token(stranger, "mallory", issuer=issuer.url))
    with pytest.raises(Unauthorized):
        verifier(mint_token(issuer.key, "alice", issuer=issuer.url, audience="another-app"))
    with pytest.raises(Unauthorized, match="expired"):
        verifier(mint_token(issuer.key, "alice", issuer=issuer.url, ttl_seconds=1, now=1_000_000))


def test_dev_token_is_refused_unless_the_configured_issuer_is_the_local_one(issuer: LocalIssuer) -> None:
    with pytest.raises(ConfigError, match="DOCCHAT_OIDC_ISSUER is unset"):
        dev_token(Settings(backend="aws"), "alice", issuer.data_dir)
    cognito = "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Pool"
    with pytest.raises(ConfigError, match="only from the local issuer"):
        dev_token(Settings(backend="aws", oidc_issuer=cognito, oidc_audience="x"), "alice", issuer.data_dir)


def test_dev_token_without_a_local_issuer_says_how_to_start_one(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="up --aws-local"):
        dev_token(Settings(backend="aws", oidc_issuer="http://127.0.0.1:1"), "alice", tmp_path)


def test_dev_token_command(issuer: LocalIssuer, monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DOCCHAT_OIDC_ISSUER", issuer.url)
    monkeypatch.setenv("DOCCHAT_OIDC_AUDIENCE", AUDIENCE)
    assert main(["dev-token", "bob", "--data-dir", str(issuer.data_dir), "--groups", "a,b"]) == 0
    token = capsys.readouterr().out.strip()
    assert jwt.decode(token, options={"verify_signature": False})["cognito:groups"] == ["a", "b"]
    monkeypatch.delenv("DOCCHAT_OIDC_ISSUER")
    assert main(["dev-token", "bob", "--data-dir", str(issuer.data_dir)]) == 2
    assert "local issuer" in capsys.readouterr().err
