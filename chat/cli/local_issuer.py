"""A local OIDC issuer for aws mode on one machine (``docchat up --aws-local``, ``docchat dev-token``).

Keys live under ``<data_dir>/oidc/``: an RSA signing key (``signing-key.pem``, mode 0600, made once), its
public half as a JWKS document (``jwks.json``) and ``issuer.json`` (the issuer URL of the running stack and
the audience). A tiny loopback HTTP server (``chat/cli/local_issuer_server.py``) publishes
``/.well-known/openid-configuration`` and ``/.well-known/jwks.json``, so the API processes verify these
tokens exactly as they verify any OIDC provider's — through ``DOCCHAT_OIDC_ISSUER`` /
``DOCCHAT_OIDC_JWKS_URL`` / ``DOCCHAT_OIDC_AUDIENCE`` — and nothing about them is special-cased in the server.

Tokens are RS256 ID tokens shaped like Cognito's: ``iss``, ``aud``, ``sub`` (the user), ``iat``/``exp``,
``token_use: id`` and the groups claim (``DOCCHAT_OIDC_GROUPS_CLAIM``, ``cognito:groups`` by default);
access tokens (browser sign-in, ``chat/cli/local_signin.py``) add ``client_id`` and ``token_use: access``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from store.config import Settings
from store.errors import ConfigError

AUDIENCE = "docchat-local"
KEY_FILE = "signing-key.pem"
JWKS_FILE = "jwks.json"
ISSUER_FILE = "issuer.json"


def issuer_dir(data_dir: Path) -> Path:
    return data_dir / "oidc"


def _b64(n: int) -> str:
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class SigningKey:
    private: rsa.RSAPrivateKey
    kid: str

    def jwk(self) -> dict[str, str]:
        pub = self.private.public_key().public_numbers()
        return {"kty": "RSA", "use": "sig", "alg": "RS256", "kid": self.kid, "n": _b64(pub.n), "e": _b64(pub.e)}


def _thumbprint(pub: rsa.RSAPublicKey) -> str:
    """RFC 7638 JWK thumbprint: a key id that is the same every time the key is loaded."""
    nums = pub.public_numbers()
    canonical = json.dumps({"e": _b64(nums.e), "kty": "RSA", "n": _b64(nums.n)}, separators=(",", ":"))
    return base64.urlsafe_b64encode(hashlib.sha256(canonical.encode()).digest()).rstrip(b"=").decode()[:16]


def ensure_key(data_dir: Path) -> SigningKey:
    """The issuer's signing key, made on first use (2048-bit RSA), and its JWKS document next to it."""
    folder = issuer_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / KEY_FILE
    if not path.exists():
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(pem)
        tmp.chmod(0o600)
        tmp.replace(path)
    loaded = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(loaded, rsa.RSAPrivateKey):
        raise ConfigError(f"{path} is not an RSA private key; delete it to make a new one")
    signing = SigningKey(loaded, _thumbprint(loaded.public_key()))
    (folder / JWKS_FILE).write_text(json.dumps(jwks_document(signing)), encoding="utf-8")
    return signing


def jwks_document(key: SigningKey) -> dict[str, Any]:
    return {"keys": [key.jwk()]}


def discovery_document(issuer: str) -> dict[str, Any]:
    return {
        "issuer": issuer,
        "jwks_uri": f"{issuer}/.well-known/jwks.json",
        "id_token_signing_alg_values_supported": ["RS256"],
        "subject_types_supported": ["public"],
        "authorization_endpoint": f"{issuer}/oauth2/authorize",
        "token_endpoint": f"{issuer}/oauth2/token",
        "end_session_endpoint": f"{issuer}/logout",
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "claims_supported": ["sub", "iss", "aud", "exp", "iat", "cognito:groups"],
    }


def mint_token(key: SigningKey, user: str, *, issuer: str, audience: str = AUDIENCE, groups: Sequence[str] = (),
               groups_claim: str = "cognito:groups", ttl_seconds: int = 12 * 3600,
               now: float | None = None, kind: Literal["id", "access"] = "id") -> str:
    """An RS256 ID (or access) token for ``user`` signed by ``key`` (Cognito-shaped claims)."""
    if not user or len(user) > 128 or any(c in user for c in "#/\\\n\r\t"):
        raise ConfigError("invalid user name for a dev token")
    issued = int(time.time() if now is None else now)
    claims: dict[str, Any] = {
        "iss": issuer,
        "aud": audience,
        "sub": user,
        "iat": issued,
        "exp": issued + ttl_seconds,
        "token_use": kind,
        "cognito:username": user,
        groups_claim: list(groups),
    }
    if kind == "access":
        claims["client_id"] = audience  # Cognito access tokens name their app client here
    return jwt.encode(claims, key.private, algorithm="RS256", headers={"kid": key.kid})


# --- the recorded issuer and the dev-token rule -------------------------------------------------------
def write_issuer_record(data_dir: Path, issuer: str, audience: str = AUDIENCE) -> None:
    path = issuer_dir(data_dir) / ISSUER_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"issuer": issuer, "audience": audience}), encoding="utf-8")


def read_issuer_record(data_dir: Path) -> dict[str, str] | None:
    path = issuer_dir(data_dir) / ISSUER_FILE
    if not path.is_file():
        return None
    record: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return record


def dev_token(settings: Settings, user: str, data_dir: Path, *, groups: Sequence[str] = (),
              ttl_seconds: int = 12 * 3600) -> str:
    """A token for ``user`` from the local issuer of ``data_dir`` — refused unless that is the configured issuer.

    The configured issuer is ``DOCCHAT_OIDC_ISSUER``: a dev token is only minted for a service that will trust
    the local issuer anyway, never for one pointed at a real identity provider.
    """
    record = read_issuer_record(data_dir)
    if record is None:
        raise ConfigError(f"no local issuer under {issuer_dir(data_dir)}; start one with "
                          f"`docchat up --aws-local --data-dir {data_dir}`")
    configured = (settings.auth.oidc_issuer or "").rstrip("/")
    local = record["issuer"].rstrip("/")
    if configured != local:
        shown = configured or "unset"
        raise ConfigError(f"dev tokens come only from the local issuer: DOCCHAT_OIDC_ISSUER is {shown}, the local "
                          f"issuer of {data_dir} is {local} (load {data_dir}/aws-local.env first)")
    audience = settings.auth.oidc_audience or record.get("audience", AUDIENCE)
    return mint_token(ensure_key(data_dir), user, issuer=local, audience=audience, groups=groups,
                      groups_claim=settings.auth.oidc_groups_claim, ttl_seconds=ttl_seconds)
