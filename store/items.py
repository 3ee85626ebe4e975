"""The item table: exactly the DynamoDB subset the stores need, as one Protocol.

Adapters (``DynamoItemTable`` in ``store/dynamo.py``, ``SqliteItemTable`` in
``store/sqlite_items.py``) behave identically; one contract suite
(``tests/store/test_items_contract.py``) runs against every one of them.

Items are plain dicts: ``str``/``int``/``float``/``bool``/``None``/``list``/
``dict``/``bytes`` values, keys ``PK`` and ``SK`` always strings. Numbers come
back as ``int`` when integral, else ``float`` (never ``Decimal``).

Limits are DynamoDB's on every adapter: 400 KB per item (``item_size``), 1 MB per
query page, 100 operations per transaction, 25 per batch request. Items whose
``expire_at`` (epoch seconds) lies in the past are left out of every read. One
known difference: DynamoDB deletes expired items lazily and until then a
condition still sees them; the SQLite table treats them as absent at once.
Open one table per file/table name per process and share it: adapters are
thread-safe (the SQLite one keeps a connection per thread and a purge thread).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeAlias, runtime_checkable

from store.errors import InvalidInput

Item: TypeAlias = dict[str, Any]


# --- conditions (top-level attributes only) ----------------------------------


@dataclass(frozen=True, slots=True)
class Exists:
    attr: str


@dataclass(frozen=True, slots=True)
class NotExists:
    attr: str = "PK"


@dataclass(frozen=True, slots=True)
class Equals:
    attr: str
    value: Any


@dataclass(frozen=True, slots=True)
class In:
    attr: str
    values: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class And:
    parts: tuple[Condition, ...]


@dataclass(frozen=True, slots=True)
class Or:
    parts: tuple[Condition, ...]


Condition: TypeAlias = Exists | NotExists | Equals | In | And | Or


# --- transactional operations -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Put:
    item: Item
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class Update:
    pk: str
    sk: str
    set: Mapping[str, Any] = field(default_factory=dict)
    set_if_missing: Mapping[str, Any] = field(default_factory=dict)
    add: Mapping[str, int | float] = field(default_factory=dict)
    remove: Sequence[str] = ()
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class Delete:
    pk: str
    sk: str
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class ConditionCheck:
    pk: str
    sk: str
    condition: Condition


WriteOp: TypeAlias = Put | Update | Delete | ConditionCheck


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a query: at most ``limit`` items and never more than 1 MB of them."""

    items: list[Item]
    cursor: str | None  # opaque; pass back to continue, None when exhausted


@dataclass(frozen=True, slots=True)
class KeyRange:
    """Sort-key condition: ``begins_with`` or an inclusive ``between``, or a single comparison."""

    begins_with: str | None = None
    between: tuple[str, str] | None = None
    op: Literal["<", "<=", ">", ">="] | None = None
    value: str | None = None


@runtime_checkable
class ItemTable(Protocol):
    """A DynamoDB-shaped table with PK/SK, sparse GSI1/GSI2 and a TTL attribute (``expire_at``)."""

    name: str

    def get(self, pk: str, sk: str, *, consistent: bool = True) -> Item | None:
        """The item, or None (also None when its TTL has passed)."""

    def put(self, item: Item, *, condition: Condition | None = None) -> None:
        """Create or replace; raises ``Conflict`` when ``condition`` fails, ``ItemTooLarge`` over 400 KB."""

    def update(
        self,
        pk: str,
        sk: str,
        *,
        set: Mapping[str, Any] | None = None,
        set_if_missing: Mapping[str, Any] | None = None,
        add: Mapping[str, int | float] | None = None,
        remove: Sequence[str] | None = None,
        condition: Condition | None = None,
    ) -> Item:
        """Upsert attributes atomically (``add`` = atomic counter from 0); returns the whole new item."""

    def delete(self, pk: str, sk: str, *, condition: Condition | None = None) -> None:
        """Remove the item (no error if absent unless ``condition`` says otherwise)."""

    def query(
        self,
        pk: str,
        *,
        sk: KeyRange | None = None,
        index: str | None = None,
        forward: bool = True,
        limit: int | None = None,
        cursor: str | None = None,
        consistent: bool = False,
    ) -> Page:
        """Items with partition key ``pk`` (on ``index``'s keys if given), sorted by sort key."""

    def transact_write(self, ops: Sequence[WriteOp], *, client_request_token: str | None = None) -> None:
        """All or nothing, up to 100 operations; raises ``TransactionConflict`` naming the failed ops."""

    def batch_write(
        self, puts: Sequence[Item] = (), deletes: Sequence[tuple[str, str]] = ()
    ) -> None:
        """Unconditional puts and deletes in chunks of 25, unprocessed items retried."""


def query_all(
    table: ItemTable,
    pk: str,
    *,
    sk: KeyRange | None = None,
    index: str | None = None,
    forward: bool = True,
    consistent: bool = False,
) -> list[Item]:
    """Follow every page of a query (never stop at the 1 MB page boundary)."""
    out: list[Item] = []
    cursor: str | None = None
    while True:
        page = table.query(pk, sk=sk, index=index, forward=forward, cursor=cursor, consistent=consistent)
        out.extend(page.items)
        if page.cursor is None:
            return out
        cursor = page.cursor


# --- helpers shared by the adapters --------------------------------------------


def number_size(value: int | float) -> int:
    """DynamoDB's size of a number: 1 byte per two significant digits, plus 1."""
    text = repr(value) if isinstance(value, float) else str(value)
    digits = text.lstrip("-").split("e")[0].split("E")[0].replace(".", "").strip("0") or "0"
    return (len(digits) + 1) // 2 + 1


def value_size(value: Any) -> int:
    """Bytes a value occupies in a DynamoDB item (the documented approximation)."""
    if value is None or isinstance(value, bool):
        return 1
    if isinstance(value, str):
        return len(value.encode("utf-8"))
    if isinstance(value, bytes | bytearray):
        return len(value)
    if isinstance(value, int | float):
        return number_size(value)
    if isinstance(value, Mapping):
        return 3 + sum(len(str(k).encode("utf-8")) + 1 + value_size(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return 3 + sum(1 + value_size(v) for v in value)
    # Decimal and other number-likes
    return number_size(float(value))


def item_size(item: Mapping[str, Any]) -> int:
    """An item's size as DynamoDB counts it: attribute names plus values (UTF-8)."""
    return sum(len(k.encode("utf-8")) + value_size(v) for k, v in item.items())


def is_expired(item: Mapping[str, Any], now: float, ttl_attribute: str = "expire_at") -> bool:
    """True when the item's TTL attribute (epoch seconds) lies in the past."""
    exp = item.get(ttl_attribute)
    if exp is None or isinstance(exp, bool) or not isinstance(exp, int | float):
        return False
    return exp < now


def validate_update(
    to_set: Mapping[str, Any] | None,
    set_if_missing: Mapping[str, Any] | None,
    add: Mapping[str, int | float] | None,
    remove: Sequence[str] | None,
    key_attrs: Sequence[str] = ("PK", "SK"),
) -> None:
    """Reject what DynamoDB rejects: key attributes changed, one attribute in two clauses, non-numeric ``add``."""
    seen: set[str] = set()
    for clause in (to_set or {}, set_if_missing or {}, add or {}, remove or ()):
        for attr in clause:
            if attr in key_attrs:
                raise InvalidInput(f"cannot update key attribute {attr!r}")
            if attr in seen:
                raise InvalidInput(f"attribute {attr!r} appears in two update clauses")
            seen.add(attr)
    for attr, inc in (add or {}).items():
        if isinstance(inc, bool) or not isinstance(inc, int | float):
            raise InvalidInput(f"add {attr!r}: increment must be a number")
    if not seen:
        raise InvalidInput("update without any attribute to change")
