"""JWT verification for aws mode: a Cognito user pool or any OpenID Connect issuer.

``OidcVerifier`` checks a bearer token against the issuer's JWKS, fetched by PyJWT's ``PyJWKClient`` and
cached (keys for ``jwks_cache_seconds``; an unknown ``kid`` triggers a refetch — at most one per
``MIN_REFETCH_S`` — which covers key rotation). Checked: the signature (an asymmetric algorithm, the one the
JWK names), ``iss`` (the configured issuer; a trailing ``/`` does not matter), ``exp``/``iat``/``nbf`` with a
small leeway, and the audience — ``aud`` must contain it, or, for a token without ``aud`` (Cognito access
tokens), ``client_id`` must equal it. A ``token_use`` claim, when present (Cognito: always), must be
``id`` or ``access``. The user id is the ``user_claim`` (default ``sub``); groups come from ``groups_claim``.

Where the keys are: ``jwks_url`` when configured; otherwise the issuer's discovery document
(``<issuer>/.well-known/openid-configuration`` → ``jwks_uri``: Entra ID, Okta, Keycloak, Auth0), falling
back to ``<issuer>/.well-known/jwks.json`` when there is none. Cognito pools use the latter directly.

Failures: an unreachable issuer (discovery or JWKS) is ``AuthUnavailable`` (503, "cannot verify the token
right now"), and for ``RETRY_AFTER_S`` later requests fail fast instead of each waiting for a timeout;
everything wrong with the token itself is ``Unauthorized`` (401), including a local-mode ``dev:`` token.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import jwt

from chat.app.auth import is_loopback, valid_user_id
from store.config import Settings
from store.errors import AuthUnavailable, ConfigError, Unauthorized
from store.logging import get_logger

log = get_logger(__name__)

#: asymmetric algorithms only (never HS*/none); a key is used with the algorithm its JWK names
ALGORITHMS = frozenset({"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"})
RETRY_AFTER_S = 5.0  # after a failed fetch, fail fast this long
MIN_REFETCH_S = 30.0  # unknown kids refetch the JWKS at most this often (PyJWKClient's cooldown)
TIMEOUT_S = 5.0
DISCOVERY_PATH = "/.well-known/openid-configuration"
NOT_CONFIGURED = (
    "aws mode needs an identity provider: DOCCHAT_OIDC_ISSUER and DOCCHAT_OIDC_AUDIENCE (any OpenID Connect "
    "issuer), or the Cognito settings DOCCHAT_COGNITO_USER_POOL_ID and DOCCHAT_COGNITO_CLIENT_ID"
)


def issuer_for(region: str, user_pool_id: str) -> str:
    return f"https://cognito-idp.{region}.amazonaws.com/{user_pool_id}"


def check_url(url: str, variable: str) -> str:
    """``url`` if it is https, or http on a loopback host (a local issuer); else ``ConfigError``."""
    parts = urlsplit(url)
    ok = bool(parts.netloc) and (
        parts.scheme == "https" or (parts.scheme == "http" and is_loopback(parts.hostname or "nohost"))
    )
    if not ok:
        raise ConfigError(f"{variable}={url!r} must be an https:// URL (http:// only on a loopback host)")
    return url


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a verified token names."""

    user: str
    groups: tuple[str, ...]
    claims: dict[str, Any]


class _JwksClient(jwt.PyJWKClient):
    """``PyJWKClient`` (unknown kids refetch at most every ``MIN_REFETCH_S``: its cooldown) that fails fast
    for ``RETRY_AFTER_S`` after a failed fetch instead of making every request wait for the timeout.

    Keys are looked up in the cached (parsed) key set on every call rather than memoised per ``kid``
    (``cache_keys=False``): a key the issuer withdraws stops verifying when the set is next refreshed."""

    def __init__(self, url: str, lifespan: int) -> None:
        super().__init__(url, cache_jwk_set=True, lifespan=lifespan, cache_keys=False, timeout=int(TIMEOUT_S),
                         cooldown_duration=MIN_REFETCH_S)
        self._down_until = 0.0

    def fetch_data(self) -> Any:
        if time.monotonic() < self._down_until:
            raise jwt.PyJWKClientConnectionError("the JWKS could not be fetched a moment ago")
        try:
            return super().fetch_data()
        except jwt.PyJWKClientConnectionError:
            self._down_until = time.monotonic() + RETRY_AFTER_S
            raise


def _get_json(url: str) -> Any:
    headers = {"Accept": "application/json", "User-Agent": "docchat"}
    req = urllib.request.Request(url, headers=headers)  # noqa: S310 - the issuer: https or loopback (check_url)
    with urllib.request.urlopen(req, timeout=TIMEOUT_S) as resp:  # noqa: S310
        return json.load(resp)


class OidcVerifier:
    """Callable ``token -> user id`` (raises ``Unauthorized`` / ``AuthUnavailable``), as ``chat/app/auth.py``
    expects; ``identify(token)`` also gives the groups and the claims."""

    def __init__(
        self,
        *,
        issuer: str,
        audience: str,
        jwks_url: str | None = None,
        discover: bool = True,
        user_claim: str = "sub",
        groups_claim: str = "cognito:groups",
        require_token_use: bool = False,
        jwk_client: jwt.PyJWKClient | None = None,
        leeway_s: float = 30.0,
        jwks_cache_seconds: int = 3600,
    ) -> None:
        if not audience:
            raise ConfigError("an OIDC verifier needs an audience (DOCCHAT_OIDC_AUDIENCE)")
        self.issuer = issuer.rstrip("/")
        self.audience = audience
        self.jwks_url = jwks_url
        self.discover = discover
        self.user_claim = user_claim
        self.groups_claim = groups_claim
        self.require_token_use = require_token_use
        self.leeway_s = leeway_s
        self._cache_s = jwks_cache_seconds
        self._client = jwk_client
        self._lock = threading.Lock()
        self._down_until = 0.0

    @classmethod
    def from_settings(cls, settings: Settings) -> OidcVerifier:
        """The verifier aws mode uses: generic OIDC when ``DOCCHAT_OIDC_ISSUER`` is set, else the Cognito pool."""
        auth = settings.auth
        if auth.oidc_jwks_url:
            check_url(auth.oidc_jwks_url, "DOCCHAT_OIDC_JWKS_URL")
        common: dict[str, Any] = {
            "jwks_url": auth.oidc_jwks_url,
            "user_claim": auth.oidc_user_claim,
            "groups_claim": auth.oidc_groups_claim,
        }
        if auth.oidc_issuer:
            audience = auth.oidc_audience or auth.cognito_client_id
            if not audience:
                raise ConfigError("DOCCHAT_OIDC_ISSUER needs DOCCHAT_OIDC_AUDIENCE: the aud (or client_id) "
                                  "its tokens carry for this service")
            issuer = check_url(auth.oidc_issuer, "DOCCHAT_OIDC_ISSUER")
            return OidcVerifier(issuer=issuer, audience=audience, **common)
        if auth.cognito_user_pool_id and auth.cognito_client_id:
            region = auth.cognito_region or auth.cognito_user_pool_id.split("_", 1)[0] or settings.aws.aws_region
            return OidcVerifier(
                issuer=issuer_for(region, auth.cognito_user_pool_id),
                audience=auth.oidc_audience or auth.cognito_client_id,
                discover=False,
                require_token_use=True,
                **common,
            )
        raise ConfigError(NOT_CONFIGURED)

    # --- the keys ------------------------------------------------------------------------------------
    def jwk_client(self) -> jwt.PyJWKClient:
        if self._client is not None:
            return self._client
        with self._lock:
            if self._client is None:
                url = self.jwks_url or (self._discover_jwks_url() if self.discover else None)
                url = url or f"{self.issuer}/.well-known/jwks.json"
                self._client = _JwksClient(url, self._cache_s)
                log.info("jwks_url_resolved", issuer=self.issuer, jwks_url=url)
            return self._client

    def _discover_jwks_url(self) -> str | None:
        """``jwks_uri`` from the issuer's discovery document; None when it has none (404)."""
        if time.monotonic() < self._down_until:
            raise AuthUnavailable("cannot verify the token right now (the identity provider is unreachable)")
        try:
            doc = _get_json(self.issuer + DISCOVERY_PATH)
        except urllib.error.HTTPError as exc:
            if exc.code in (404, 410):
                return None
            raise self._unavailable(exc) from exc
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise self._unavailable(exc) from exc
        except ValueError as exc:  # not JSON
            raise ConfigError(f"{self.issuer}{DISCOVERY_PATH} is not an OpenID discovery document") from exc
        if not isinstance(doc, dict) or not isinstance(doc.get("jwks_uri"), str):
            raise ConfigError(f"{self.issuer}{DISCOVERY_PATH} names no jwks_uri; set DOCCHAT_OIDC_JWKS_URL")
        if str(doc.get("issuer", "")).rstrip("/") != self.issuer:
            raise ConfigError(f"the discovery document at {self.issuer} names another issuer "
                              f"({doc.get('issuer')!r}); DOCCHAT_OIDC_ISSUER must be the exact issuer")
        return check_url(doc["jwks_uri"], "jwks_uri (discovery)")

    def _unavailable(self, exc: BaseException) -> AuthUnavailable:
        self._down_until = time.monotonic() + RETRY_AFTER_S
        log.warning("oidc_discovery_unavailable", issuer=self.issuer, error_type=type(exc).__name__)
        return AuthUnavailable("cannot verify the token right now (the identity provider is unreachable)")

    # --- verification --------------------------------------------------------------------------------
    def __call__(self, token: str) -> str:
        return self.identify(token).user

    def identify(self, token: str) -> Identity:
        claims = self.verify(token)
        user = claims.get(self.user_claim)
        if not isinstance(user, str) or not valid_user_id(user):
            raise Unauthorized(f"invalid token: the {self.user_claim!r} claim is missing or not a usable user id"
                               )
        return Identity(user=user, groups=_groups(claims.get(self.groups_claim)), claims=claims)

    def verify(self, token: str) -> dict[str, Any]:
        if token.startswith("dev:"):
            raise Unauthorized("dev tokens ('Bearer dev:<user>') are accepted in local mode only; "
                               "aws mode needs a token from the identity provider")
        try:
            key = self.jwk_client().get_signing_key_from_jwt(token)
        except jwt.PyJWKClientConnectionError as exc:
            log.warning("jwks_unavailable", issuer=self.issuer, error_type=type(exc).__name__)
            raise AuthUnavailable("cannot verify the token right now (the identity provider's keys are "
                                  "unreachable)") from exc
        except (jwt.PyJWKClientError, jwt.DecodeError) as exc:
            raise Unauthorized("invalid token: unknown signing key or malformed token") from exc
        alg = getattr(key, "algorithm_name", None)
        if alg not in ALGORITHMS:
            raise Unauthorized("invalid token: the signing key is not for an asymmetric algorithm")
        required = ["exp", "iss", *(("iat", "token_use") if self.require_token_use else ())]
        try:
            claims: dict[str, Any] = jwt.decode(
                token, key.key, algorithms=[alg], leeway=self.leeway_s,
                options={"require": required, "verify_aud": False, "verify_iss": False},
            )
        except jwt.ExpiredSignatureError as exc:
            raise Unauthorized("token expired") from exc
        except jwt.PyJWTError as exc:
            raise Unauthorized("invalid token: " + str(exc)) from exc
        if str(claims.get("iss", "")).rstrip("/") != self.issuer:
            raise Unauthorized("token issued by another identity provider")
        self._check_audience(claims)
        return claims

    def _check_audience(self, claims: dict[str, Any]) -> None:
        use = claims.get("token_use")
        if use is not None and use not in ("id", "access"):
            raise Unauthorized("token_use must be 'id' or 'access'")
        aud = claims.get("aud")
        auds = [aud] if isinstance(aud, str) else [a for a in aud or () if isinstance(a, str)]
        if auds:
            ok = self.audience in auds
        else:  # Cognito access tokens name their app client in client_id and carry no aud
            ok = claims.get("client_id") == self.audience
        if not ok:
            raise Unauthorized("token is for another app client (audience)")


class CognitoVerifier(OidcVerifier):
    """A Cognito user pool: JWKS at ``<issuer>/.well-known/jwks.json``, ``token_use`` required."""

    def __init__(self, *, issuer: str, client_id: str, jwks_url: str | None = None,
                 jwk_client: jwt.PyJWKClient | None = None, leeway_s: float = 30.0,
                 jwks_cache_seconds: int = 3600) -> None:
        super().__init__(issuer=issuer, audience=client_id, jwks_url=jwks_url, discover=False,
                         require_token_use=True, jwk_client=jwk_client, leeway_s=leeway_s,
                         jwks_cache_seconds=jwks_cache_seconds)
        self.client_id = client_id


def _groups(value: Any) -> tuple[str, ...]:
    """A groups claim as a tuple: a JSON list, or one string of space/comma separated names."""
    if isinstance(value, str):
        return tuple(g for g in value.replace(",", " ").split() if g)
    if isinstance(value, list):
        return tuple(str(g) for g in value if isinstance(g, str | int))
    return ()

