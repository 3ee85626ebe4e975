"""One error hierarchy with a single root.

Adapters translate library errors (botocore, sqlite3, opensearch-py, anthropic)
into these; ``chat/app/factory.py`` maps them to HTTP status codes in one place.
"""

from __future__ import annotations


class DocchatError(Exception):
    """Root of every error this project raises on purpose."""

    code: str = "internal"

    def __init__(self, message: str = "", **context: object) -> None:
        super().__init__(message or self.__class__.__doc__ or self.code)
        self.message = message or (self.__class__.__doc__ or self.code).strip()
        self.context = context


class ConfigError(DocchatError):
    """The configuration is invalid."""

    code = "config_error"


class NotFound(DocchatError):
    """The requested resource does not exist (or is not yours)."""

    code = "not_found"


class Conflict(DocchatError):
    """A conditional write failed: the item changed or already exists."""

    code = "conflict"


class SessionConflict(Conflict):
    """A session write conflicted with another writer."""

    code = "session_conflict"


class TransactionConflict(Conflict):
    """A transactional write was cancelled (a condition failed or a concurrent transaction)."""

    code = "transaction_conflict"


class InvalidInput(DocchatError):
    """The request or the uploaded file is not acceptable."""

    code = "invalid_input"


class PayloadTooLarge(InvalidInput):
    """The payload exceeds a configured limit."""

    code = "payload_too_large"


class UnsupportedMediaType(InvalidInput):
    """The file type is not supported."""

    code = "unsupported_media_type"


class ItemTooLarge(InvalidInput):
    """An item exceeds the 400 KB item-size limit."""

    code = "item_too_large"


class RequestTimeout(InvalidInput):
    """The client did not send its request (headers or body) in time."""

    code = "request_timeout"


class MisdirectedRequest(InvalidInput):
    """The request names a host this server does not serve (local mode: loopback names only)."""

    code = "misdirected_request"


class Unauthorized(DocchatError):
    """Missing or invalid credentials."""

    code = "unauthorized"


class RetryableError(DocchatError):
    """A transient failure (throttling, timeout, transient I/O); the operation may succeed if retried."""

    code = "retryable"


class AuthUnavailable(RetryableError):
    """The identity provider's keys cannot be fetched right now, so no token can be verified."""

    code = "auth_unavailable"


class Throttled(RetryableError):
    """The backend throttled the request and retries were exhausted."""

    code = "throttled"


class PermanentError(DocchatError):
    """A failure that retrying will not fix (a bad file, a broken document)."""

    code = "permanent"


class UpstreamError(DocchatError):
    """A dependency (model, index, embedder) failed."""

    code = "upstream_error"


class InvalidHistory(DocchatError):
    """The conversation history would produce an invalid model request (tool pairs, block rules)."""

    code = "invalid_history"


class Forbidden(DocchatError):
    """Authenticated, but not allowed to do this (e.g. an operator route for a user who is not an admin)."""

    code = "forbidden"


class LimitExceeded(DocchatError):
    """A per-user usage limit is reached (HTTP 429 with ``Retry-After``)."""

    code = "limit_exceeded"

    def __init__(self, message: str, *, limit: str, retry_after: int, **context: object) -> None:
        super().__init__(message, limit=limit, retry_after=retry_after, **context)
        self.limit = limit  # which limit: "questions_per_minute", "concurrent_answers", ...
        self.retry_after = max(1, int(retry_after))  # seconds until trying again can succeed
