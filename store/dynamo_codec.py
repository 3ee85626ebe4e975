"""DynamoDB wire details for ``store/dynamo.py``: value (de)serialisation, expressions, errors, cursors.

Numbers go in as ``Decimal`` and come back as ``int``/``float``; conditions and updates become expressions with
``#n``/``:v`` placeholders (so reserved words such as ``status`` or ``name`` are safe attribute names).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from boto3.dynamodb.types import Binary, TypeDeserializer, TypeSerializer
from botocore.exceptions import BotoCoreError, ClientError

from store.errors import ConfigError, Conflict, InvalidInput, ItemTooLarge, RetryableError, Throttled, UpstreamError
from store.items import And, Condition, Equals, Exists, In, Item, KeyRange, NotExists, Or, Update
from store.logging import get_logger
from store.schema import MAX_ITEM_BYTES

log = get_logger(__name__)

THROTTLE_CODES = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "InternalServerError",
        "ServiceUnavailable",
        "TransactionInProgressException",
    }
)

_ser = TypeSerializer()
_deser = TypeDeserializer()


# --- values ---------------------------------------------------------------------------


def to_ddb(value: Any) -> Any:
    """Python value → something ``TypeSerializer`` accepts (floats as Decimal, tuples as lists)."""
    if isinstance(value, bool) or value is None or isinstance(value, str | bytes | Decimal | Binary):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise InvalidInput("NaN and infinity cannot be stored")
        return Decimal(repr(value))
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    if isinstance(value, Mapping):
        return {str(k): to_ddb(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_ddb(v) for v in value]
    raise InvalidInput(f"cannot store a value of type {type(value).__name__}")


def from_ddb(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, Binary):
        return value.__bytes__()
    if isinstance(value, dict):
        return {k: from_ddb(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_ddb(v) for v in value]
    if isinstance(value, set):
        return {from_ddb(v) for v in value}
    return value


def serialize_item(item: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _ser.serialize(to_ddb(v)) for k, v in item.items()}


def deserialize_item(raw: Mapping[str, Any]) -> Item:
    return {k: from_ddb(_deser.deserialize(v)) for k, v in raw.items()}


# --- expressions ------------------------------------------------------------------------


class Expr:
    """Collects ``ExpressionAttributeNames``/``Values`` placeholders for one request."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.values: dict[str, Any] = {}
        self._by_name: dict[str, str] = {}

    def name(self, attr: str) -> str:
        if attr not in self._by_name:
            ph = f"#n{len(self._by_name)}"
            self._by_name[attr] = ph
            self.names[ph] = attr
        return self._by_name[attr]

    def value(self, v: Any) -> str:
        ph = f":v{len(self.values)}"
        self.values[ph] = _ser.serialize(to_ddb(v))
        return ph

    def condition(self, cond: Condition) -> str:
        if isinstance(cond, Exists):
            return f"attribute_exists({self.name(cond.attr)})"
        if isinstance(cond, NotExists):
            return f"attribute_not_exists({self.name(cond.attr)})"
        if isinstance(cond, Equals):
            return f"{self.name(cond.attr)} = {self.value(cond.value)}"
        if isinstance(cond, In):
            if not 1 <= len(cond.values) <= 100:
                raise InvalidInput("In() takes 1 to 100 values")
            return f"{self.name(cond.attr)} IN ({', '.join(self.value(v) for v in cond.values)})"
        if isinstance(cond, And | Or):
            if not cond.parts:
                raise InvalidInput("And()/Or() need at least one part")
            joiner = " AND " if isinstance(cond, And) else " OR "
            return joiner.join(f"({self.condition(p)})" for p in cond.parts)
        raise InvalidInput(f"unknown condition {cond!r}")

    def update(self, op: Update) -> str:
        sets = [f"{self.name(a)} = {self.value(v)}" for a, v in op.set.items()]
        sets += [
            f"{self.name(a)} = if_not_exists({self.name(a)}, {self.value(v)})" for a, v in op.set_if_missing.items()
        ]
        parts = []
        if sets:
            parts.append("SET " + ", ".join(sets))
        if op.add:
            parts.append("ADD " + ", ".join(f"{self.name(a)} {self.value(v)}" for a, v in op.add.items()))
        if op.remove:
            parts.append("REMOVE " + ", ".join(self.name(a) for a in op.remove))
        return " ".join(parts)

    def apply(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        if self.names:
            kwargs["ExpressionAttributeNames"] = self.names
        if self.values:
            kwargs["ExpressionAttributeValues"] = self.values
        return kwargs


# --- errors ----------------------------------------------------------------------------------


def error_code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def translate_error(exc: ClientError, table: str) -> Exception:
    code = error_code(exc)
    msg = str(exc.response.get("Error", {}).get("Message", ""))
    if code == "ConditionalCheckFailedException":
        return Conflict("condition failed", table=table)
    if code == "ResourceNotFoundException":
        return ConfigError(f"DynamoDB table {table!r} does not exist (or an index is missing): {msg}")
    if code == "ValidationException":
        if "size" in msg.lower() and "item" in msg.lower():
            return ItemTooLarge(f"item exceeds {MAX_ITEM_BYTES} bytes: {msg}")
        return InvalidInput(f"DynamoDB rejected the request: {msg}")
    if code == "IdempotentParameterMismatchException":
        return InvalidInput("ClientRequestToken reused with different parameters")
    if code in THROTTLE_CODES:
        return Throttled(f"DynamoDB throttled the request ({code}); retries exhausted", table=table)
    return UpstreamError(f"DynamoDB error {code}: {msg}", table=table)


# --- cursor -------------------------------------------------------------------------------------


def encode_cursor(key: Mapping[str, Any]) -> str:
    plain = {k: v["S"] for k, v in key.items()}
    raw = json.dumps(plain, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii")


def decode_cursor(cursor: str, attrs: Sequence[str]) -> dict[str, Any]:
    try:
        plain = json.loads(base64.urlsafe_b64decode(cursor.encode("ascii")))
    except (ValueError, UnicodeError) as exc:
        raise InvalidInput("malformed cursor") from exc
    if not isinstance(plain, dict) or sorted(plain) != sorted(attrs):
        raise InvalidInput("malformed cursor")
    if not all(isinstance(v, str) for v in plain.values()):
        raise InvalidInput("malformed cursor")
    return {k: {"S": v} for k, v in plain.items()}


def sk_condition(ex: Expr, attr: str, rng: KeyRange | None) -> str:
    if rng is None:
        return ""
    if rng.begins_with is not None:
        if rng.begins_with == "":
            return ""
        return f" AND begins_with({ex.name(attr)}, {ex.value(rng.begins_with)})"
    if rng.between is not None:
        lo, hi = rng.between
        return f" AND {ex.name(attr)} BETWEEN {ex.value(lo)} AND {ex.value(hi)}"
    if rng.op is not None and rng.value is not None:
        if rng.op not in ("<", "<=", ">", ">="):
            raise InvalidInput(f"unknown sort-key operator {rng.op!r}")
        return f" AND {ex.name(attr)} {rng.op} {ex.value(rng.value)}"
    raise InvalidInput("KeyRange needs begins_with, between, or op and value")


def call_with_retries(call: Callable[[], dict[str, Any]], *, op: str, table: str, max_attempts: int,
                      backoff: Callable[[int], None], keep: frozenset[str] = frozenset()) -> dict[str, Any]:
    """One DynamoDB call: throttling retried (``backoff(attempt)`` sleeps between tries), errors translated into
    ours. A ``ClientError`` whose code is in ``keep`` is re-raised as it is, for the caller to read (a failed
    condition, a cancelled transaction)."""
    for attempt in range(max_attempts):
        try:
            return call()
        except ClientError as exc:
            code = error_code(exc)
            if code in keep:
                raise
            if code in THROTTLE_CODES and attempt + 1 < max_attempts:
                log.info("dynamodb_throttled", op=op, code=code, attempt=attempt + 1)
                backoff(attempt)
                continue
            raise translate_error(exc, table) from exc
        except BotoCoreError as exc:
            raise RetryableError(f"DynamoDB request failed: {exc}", table=table) from exc
    raise Throttled(f"DynamoDB {op} throttled", table=table)  # pragma: no cover - the loop raises
