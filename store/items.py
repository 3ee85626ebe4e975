"""The item table: exactly the DynamoDB subset the stores need, as one Protocol.

Adapters (``DynamoItemTable`` in ``store/dynamo.py``, ``SqliteItemTable`` in
``store/sqlite_items.py``) behave identically; one contract suite
(``tests/store/test_items_contract.py``) runs against every one of them.

Items are plain dicts: ``str``/``int``/``float``/``bool``/``None``/``list``/
``dict``/``bytes`` values, keys ``PK`` and ``SK`` always strings. Numbers come
back as ``int`` when integral, else ``float`` (never ``Decimal``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeAlias, runtime_checkable

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
