"""Cognito JWT verification against a JWKS served on a loopback port (no network)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from chat.app.jwt_auth import CognitoVerifier, issuer_for
from store.config import Settings
from store.errors import ConfigError, Unauthorized

ISS = issuer_for("us-east-1", "us-east-1_TestPool")
CLIENT = "client-123"


@pytest.fixture(scope="module")
def keys() -> tuple[rsa.RSAPrivateKey, rsa.RSAPrivateKey]:
    return (
        rsa.generate_private_key(public_exponent=65537, key_size=2048),
        rsa.generate_private_key(public_exponent=65537, key_size=2048),
    )


class JWKS:
    def __init__(self, body: bytes) -> None:
        self.body = body
        self.fetches = 0


@pytest.fixture()
def jwks(keys: tuple[rsa.RSAPrivateKey, rsa.RSAPrivateKey]) -> Iterator[tuple[JWKS, str]]:
    jwk = json.loads(RSAAlgorithm.to_jwk(keys[0].public_key()))
    jwk.update({"kid": "k1", "alg": "RS256", "use": "sig"})
    state = JWKS(json.dumps({"keys": [jwk]}).encode())

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.fetches += 1
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(state.body)))
            self.end_headers()
            self.wfile.write(state.body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state, f"http://127.0.0.1:{server.server_address[1]}/.well-known/jwks.json"
    server.shutdown()
    server.server_close()


@pytest.fixture()
def verifier(jwks: tuple[JWKS, str]) -> CognitoVerifier:
    return CognitoVerifier(issuer=ISS, client_id=CLIENT, jwks_url=jwks[1])


def token(key: rsa.RSAPrivateKey, kid: str = "k1", **claims: object) -> str:
    now = int(time.time())
    body: dict[str, object] = {
        "sub": "user-1",
        "iss": ISS,
        "aud": CLIENT,
        "token_use": "id",
        "iat": now,
        "exp": now + 600,
    }
    body.update(claims)
    body = {k: v for k, v in body.items() if v is not None}
    return jwt.encode(body, key, algorithm="RS256", headers={"kid": kid})


def test_valid_id_token_gives_sub(verifier: CognitoVerifier, keys: tuple[rsa.RSAPrivateKey, ...]) -> None:
    assert verifier(token(keys[0])) == "user-1"


def test_access_token_checks_client_id(verifier: CognitoVerifier, keys: tuple[rsa.RSAPrivateKey, ...]) -> None:
    assert verifier(token(keys[0], token_use="access", aud=None, client_id=CLIENT)) == "user-1"
    with pytest.raises(Unauthorized, match="another app client"):
        verifier(token(keys[0], token_use="access", aud=None, client_id="other"))


@pytest.mark.parametrize(
    ("claims", "reason"),
    [
        ({"exp": int(time.time()) - 3600}, "expired"),
        ({"iss": issuer_for("us-east-1", "us-east-1_Other")}, "another identity provider"),
        ({"aud": "someone-else"}, "another app client"),
        ({"token_use": "refresh"}, "token_use"),
        ({"sub": None}, "invalid token"),
    ],
)
def test_rejections(
    verifier: CognitoVerifier, keys: tuple[rsa.RSAPrivateKey, ...], claims: dict[str, object], reason: str
) -> None:
    with pytest.raises(Unauthorized, match=reason):
        verifier(token(keys[0], **claims))


def test_wrong_signature_and_unknown_kid(verifier: CognitoVerifier, keys: tuple[rsa.RSAPrivateKey, ...]) -> None:
    with pytest.raises(Unauthorized):
        verifier(token(keys[1]))  # right kid, wrong key
    with pytest.raises(Unauthorized, match="unknown signing key"):
        verifier(token(keys[0], kid="nope"))
    with pytest.raises(Unauthorized):
        verifier("not-a-jwt")


def test_jwks_is_cached(verifier: CognitoVerifier, keys: tuple[rsa.RSAPrivateKey, ...], jwks: tuple[JWKS, str]) -> None:
    for i in range(5):
        assert verifier(token(keys[0], sub=f"user-{i}")) == f"user-{i}"
    assert jwks[0].fetches == 1


def test_from_settings_needs_pool_and_client() -> None:
    with pytest.raises(ConfigError):
        CognitoVerifier.from_settings(Settings(backend="aws"))
    v = CognitoVerifier.from_settings(
        Settings(backend="aws", cognito_user_pool_id="eu-west-1_Abc", cognito_client_id="c")
    )
    assert v.issuer == "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Abc"
