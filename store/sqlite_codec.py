"""The embedded item table's pure parts: item JSON codec, condition evaluation, update semantics, cursors.

Kept apart from ``store/sqlite_items.py`` (the I/O) so the DynamoDB semantics it mimics read in one place.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from store.errors import InvalidInput
from store.items import (
    And,
    Condition,
    ConditionCheck,
    Delete,
    Equals,
    Exists,
    In,
    Item,
    KeyRange,
    NotExists,
    Or,
    Put,
    Update,
    WriteOp,
)
from store.schema import PK, SK

_BYTES_TAG = "$bytes"
_MAP_TAG = "$map"


# --- item <-> JSON ----------------------------------------------------------------


def _enc(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return {_BYTES_TAG: base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, float) and value != value:  # NaN
        raise InvalidInput("NaN cannot be stored")
    if isinstance(value, Mapping):
        inner = {str(k): _enc(v) for k, v in value.items()}
        if len(inner) == 1 and next(iter(inner)) in (_BYTES_TAG, _MAP_TAG):
            return {_MAP_TAG: inner}
        return inner
    if isinstance(value, list | tuple):
        return [_enc(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise InvalidInput(f"cannot store a value of type {type(value).__name__}")


def _dec(value: Any) -> Any:
    if isinstance(value, dict):
        if len(value) == 1:
            (tag, inner), = value.items()
            if tag == _BYTES_TAG:
                return base64.b64decode(inner)
            if tag == _MAP_TAG:
                return {k: _dec(v) for k, v in inner.items()}
        return {k: _dec(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_dec(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def dumps_item(item: Mapping[str, Any]) -> str:
    return json.dumps(_enc(item), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def loads_item(doc: str) -> Item:
    out: Item = _dec(json.loads(doc))
    return out


def normalise(item: Mapping[str, Any]) -> Item:
    """The item as it will read back (Decimal → int/float, integral floats → int)."""
    return loads_item(dumps_item(item))


# --- conditions ---------------------------------------------------------------------


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if type(a) is not type(b) and not (isinstance(a, list | tuple) and isinstance(b, list | tuple)):
        return False
    return bool(a == b)


def evaluate(cond: Condition, item: Mapping[str, Any] | None) -> bool:
    """Evaluate a condition against the current item (None = no item), like DynamoDB does."""
    it: Mapping[str, Any] = item or {}
    if isinstance(cond, Exists):
        return cond.attr in it
    if isinstance(cond, NotExists):
        return cond.attr not in it
    if isinstance(cond, Equals):
        return cond.attr in it and _same(it[cond.attr], normalise({"v": cond.value})["v"])
    if isinstance(cond, In):
        if cond.attr not in it:
            return False
        return any(_same(it[cond.attr], normalise({"v": v})["v"]) for v in cond.values)
    if isinstance(cond, And):
        return all(evaluate(p, item) for p in cond.parts)
    if isinstance(cond, Or):
        return any(evaluate(p, item) for p in cond.parts)
    raise InvalidInput(f"unknown condition {cond!r}")


def apply_update(current: Item | None, op: Update) -> Item:
    """The item after ``op`` (DynamoDB UpdateItem semantics, upsert)."""
    new: Item = dict(current) if current else {PK: op.pk, SK: op.sk}
    for attr, val in op.set.items():
        new[attr] = val
    for attr, val in op.set_if_missing.items():
        new.setdefault(attr, val)
    for attr, inc in op.add.items():
        old = new.get(attr, 0)
        if isinstance(old, bool) or not isinstance(old, int | float):
            raise InvalidInput(f"add {attr!r}: existing value is not a number")
        new[attr] = old + inc
    for attr in op.remove:
        new.pop(attr, None)
    return new


# --- cursors --------------------------------------------------------------------------


def encode_cursor(key: Sequence[str]) -> str:
    raw = json.dumps(list(key), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii")


def decode_cursor(cursor: str, parts: int) -> list[str]:
    try:
        key = json.loads(base64.urlsafe_b64decode(cursor.encode("ascii")))
    except (ValueError, UnicodeError) as exc:
        raise InvalidInput("malformed cursor") from exc
    if not isinstance(key, list) or len(key) != parts or not all(isinstance(k, str) for k in key):
        raise InvalidInput("malformed cursor")
    return key


def prefix_upper(prefix: str) -> str | None:
    """The smallest string greater than every string starting with ``prefix`` (code-point order)."""
    chars = list(prefix)
    while chars:
        last = ord(chars.pop())
        if last < 0x10FFFF:
            nxt = last + 1
            if 0xD800 <= nxt <= 0xDFFF:
                nxt = 0xE000
            return "".join(chars) + chr(nxt)
    return None


def sk_clause(col: str, rng: KeyRange | None) -> tuple[list[str], list[Any]]:
    if rng is None:
        return [], []
    if rng.begins_with is not None:
        if rng.begins_with == "":
            return [], []
        upper = prefix_upper(rng.begins_with)
        if upper is None:
            return [f"{col} >= ?"], [rng.begins_with]
        return [f"{col} >= ?", f"{col} < ?"], [rng.begins_with, upper]
    if rng.between is not None:
        lo, hi = rng.between
        return [f"{col} >= ?", f"{col} <= ?"], [lo, hi]
    if rng.op is not None and rng.value is not None:
        if rng.op not in ("<", "<=", ">", ">="):
            raise InvalidInput(f"unknown sort-key operator {rng.op!r}")
        return [f"{col} {rng.op} ?"], [rng.value]
    raise InvalidInput("KeyRange needs begins_with, between, or op and value")


def op_key(op: WriteOp) -> tuple[str, str]:
    if isinstance(op, Put):
        return op.item[PK], op.item[SK]
    return op.pk, op.sk


def op_doc(op: WriteOp) -> dict[str, Any]:
    if isinstance(op, Put):
        return {"item": op.item, "cond": repr(op.condition)}
    if isinstance(op, Update):
        return {
            "k": [op.pk, op.sk],
            "set": dict(op.set),
            "sim": dict(op.set_if_missing),
            "add": dict(op.add),
            "rm": list(op.remove),
            "cond": repr(op.condition),
        }
    if isinstance(op, Delete):
        return {"k": [op.pk, op.sk], "cond": repr(op.condition)}
    assert isinstance(op, ConditionCheck)
    return {"k": [op.pk, op.sk], "cond": repr(op.condition)}
