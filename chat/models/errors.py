"""Upstream model failures → ``store.errors`` (pure apart from a warning log line).

Two sources: an error *frame* inside a stream (an Anthropic ``error`` event or an AWS
event-stream exception; ``error_from_frame``) and an exception raised by the Anthropic
SDK (``translate_anthropic_error``). Throttling and overload become ``Throttled``;
every other failure becomes ``UpstreamError``.
"""

from __future__ import annotations

import anthropic

from store.errors import DocchatError, Throttled, UpstreamError
from store.logging import get_logger

log = get_logger(__name__)

# Error types (first-party names and Bedrock exception names) that mean "back off and retry".
_THROTTLE_TYPES = frozenset(
    {
        "rate_limit_error",
        "overloaded_error",
        "throttlingException",
        "ThrottlingException",
        "serviceUnavailableException",
        "ServiceUnavailableException",
        "modelNotReadyException",
        "ModelNotReadyException",
        "tooManyRequestsException",
    }
)


def error_from_frame(error_type: str, message: str) -> DocchatError:
    """Translate an upstream error (an ``error`` event or an event-stream exception frame)."""
    if error_type in _THROTTLE_TYPES:
        return Throttled(message or "the model is throttling requests", error_type=error_type)
    return UpstreamError(message or "the model failed", error_type=error_type)


def translate_anthropic_error(exc: anthropic.AnthropicError, model: str) -> DocchatError:
    """An Anthropic SDK exception (Bedrock or first-party) as a ``Throttled`` / ``UpstreamError``."""
    if isinstance(exc, anthropic.APIStatusError):
        return _translate_status(exc, model)
    if isinstance(exc, anthropic.APITimeoutError):
        log.warning("bedrock_timeout", model=model)
        return UpstreamError("the model did not answer in time", model=model)
    if isinstance(exc, anthropic.APIConnectionError):
        log.warning("bedrock_unreachable", model=model)
        return UpstreamError("the model endpoint could not be reached", model=model)
    return UpstreamError(f"model request failed: {type(exc).__name__}", model=model)


def _error_type(body: object) -> str:
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict) and err.get("type"):
            return str(err["type"])
        for key in ("__type", "type", "code"):
            if body.get(key):
                return str(body[key]).rsplit("#", 1)[-1]
    return ""


def _error_message(body: object, fallback: str) -> str:
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
        for key in ("message", "Message"):
            if body.get(key):
                return str(body[key])
    return fallback


def _translate_status(exc: anthropic.APIStatusError, model: str) -> Throttled | UpstreamError:
    status = exc.status_code
    etype = _error_type(exc.body)
    message = _error_message(exc.body, "the model request failed")
    log.warning("bedrock_error", model=model, status=status, error_type=etype)
    if status in (429, 503, 529) or isinstance(exc, anthropic.RateLimitError | anthropic.OverloadedError):
        return Throttled(message, model=model, status=status, error_type=etype)
    err = error_from_frame(etype, message)
    if isinstance(err, Throttled):
        return err
    return UpstreamError(message, model=model, status=status, error_type=etype)
