"""Cognito JWT verification (aws mode).

Tokens are verified against the user pool's JWKS, fetched by PyJWT's
``PyJWKClient`` and cached (keys for ``jwks_cache_seconds``; an unknown ``kid``
triggers one refetch, which covers key rotation). Checked: signature (RS256),
``iss`` (the pool), ``exp``/``iat``/``nbf`` (with a small leeway), ``token_use``
(``id`` or ``access``), and the audience — ``aud`` for ID tokens, ``client_id``
for access tokens (Cognito access tokens carry no ``aud``). The user id is ``sub``.
"""

from __future__ import annotations

from typing import Any

import jwt

from store.config import Settings
from store.errors import ConfigError, Unauthorized
from store.logging import get_logger

log = get_logger(__name__)

ALGORITHMS = ["RS256"]


def issuer_for(region: str, user_pool_id: str) -> str:
    return f"https://cognito-idp.{region}.amazonaws.com/{user_pool_id}"


class CognitoVerifier:
    """Callable ``token -> user id`` (raises ``Unauthorized``), as ``chat/app/auth.py`` expects."""

    def __init__(
        self,
        *,
        issuer: str,
        client_id: str,
        jwks_url: str | None = None,
        jwk_client: jwt.PyJWKClient | None = None,
        leeway_s: float = 30.0,
        jwks_cache_seconds: int = 3600,
        user_claim: str = "sub",
    ) -> None:
        self.issuer = issuer.rstrip("/")
        self.user_claim = user_claim
        self.client_id = client_id
        self.leeway_s = leeway_s
        url = jwks_url or f"{self.issuer}/.well-known/jwks.json"
        self.jwk_client = jwk_client or jwt.PyJWKClient(
            url, cache_jwk_set=True, lifespan=jwks_cache_seconds, cache_keys=True, timeout=5
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> CognitoVerifier:
        auth = settings.auth
        if auth.oidc_issuer and auth.oidc_audience:  # a generic OIDC issuer (the local one of `up --aws-local`)
            return cls(issuer=auth.oidc_issuer, client_id=auth.oidc_audience, jwks_url=auth.oidc_jwks_url,
                       user_claim=auth.oidc_user_claim)
        if not auth.cognito_user_pool_id or not auth.cognito_client_id:
            raise ConfigError(
                "aws mode needs Cognito settings (DOCCHAT_COGNITO_USER_POOL_ID, DOCCHAT_COGNITO_CLIENT_ID)"
            )
        region = auth.cognito_region or auth.cognito_user_pool_id.split("_", 1)[0] or settings.aws.aws_region
        return cls(issuer=issuer_for(region, auth.cognito_user_pool_id), client_id=auth.cognito_client_id)

    def __call__(self, token: str) -> str:
        claims = self.verify(token)
        user = claims.get(self.user_claim)
        if not isinstance(user, str) or not user:
            raise Unauthorized(f"token has no {self.user_claim!r} claim")
        return user

    def verify(self, token: str) -> dict[str, Any]:
        try:
            key = self.jwk_client.get_signing_key_from_jwt(token)
        except jwt.PyJWKClientConnectionError as exc:
            log.warning("jwks_unavailable", error_type=type(exc).__name__)
            raise Unauthorized("cannot verify the token right now (JWKS unavailable)") from exc
        except (jwt.PyJWKClientError, jwt.DecodeError) as exc:
            raise Unauthorized("invalid token: unknown signing key or malformed token") from exc
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                key.key,
                algorithms=ALGORITHMS,
                issuer=self.issuer,
                leeway=self.leeway_s,
                options={"require": ["exp", "iat", "iss", "sub", "token_use"], "verify_aud": False},
            )
        except jwt.ExpiredSignatureError as exc:
            raise Unauthorized("token expired") from exc
        except jwt.InvalidIssuerError as exc:
            raise Unauthorized("token issued by another identity provider") from exc
        except jwt.PyJWTError as exc:
            raise Unauthorized("invalid token: " + str(exc)) from exc
        use = claims.get("token_use")
        if use == "id":
            aud = claims.get("aud")
            auds = aud if isinstance(aud, list) else [aud]
            if self.client_id not in auds:
                raise Unauthorized("token is for another app client")
        elif use == "access":
            if claims.get("client_id") != self.client_id:
                raise Unauthorized("token is for another app client")
        else:
            raise Unauthorized("token_use must be 'id' or 'access'")
        return claims
