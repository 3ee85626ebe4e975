"""``DynamoItemTable``: the ``ItemTable`` port over a boto3 DynamoDB client that is passed in.

Conditions become ``ConditionExpression``s with ``#n``/``:v`` placeholders;
numbers go in as ``Decimal`` and come back as ``int``/``float``; botocore errors
are translated here (``ConditionalCheckFailedException`` → ``Conflict``,
``TransactionCanceledException`` → ``TransactionConflict`` with the per-operation
reasons, throttling → retried with exponential backoff and full jitter, then
``Throttled``). Like the embedded table, pages are capped at 1 MB and expired
items (TTL in the past, not yet deleted by DynamoDB) are left out of reads.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from botocore.exceptions import ClientError

from store.dynamo_codec import (
    Expr,
    call_with_retries,
    decode_cursor,
    deserialize_item,
    encode_cursor,
    error_code,
    serialize_item,
    sk_condition,
    translate_error,
)
from store.errors import DocchatError, InvalidInput, ItemTooLarge, Throttled, TransactionConflict
from store.items import (
    Condition,
    ConditionCheck,
    Delete,
    Item,
    KeyRange,
    Page,
    Put,
    Update,
    WriteOp,
    is_expired,
    item_size,
    validate_update,
)
from store.logging import get_logger
from store.schema import BATCH_WRITE_CHUNK, MAX_ITEM_BYTES, MAX_PAGE_BYTES, MAX_TRANSACT_ITEMS, PK, SK, TableSpec

__all__ = ["DynamoItemTable", "deserialize_item", "ensure_table", "serialize_item"]

log = get_logger(__name__)

_TRANSIENT_REASONS = frozenset({"None", "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded"})


# --- the table ---------------------------------------------------------------------------------------


class DynamoItemTable:
    """``ItemTable`` on DynamoDB (or moto / DynamoDB Local) through a boto3 client that is passed in."""

    def __init__(
        self,
        client: Any,
        table_name: str,
        spec: TableSpec,
        *,
        max_attempts: int = 8,
        base_delay_s: float = 0.05,
        max_delay_s: float = 2.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.name = table_name
        self.spec = spec
        self.max_attempts = max_attempts
        self.base_delay_s = base_delay_s
        self.max_delay_s = max_delay_s
        self._sleep = sleep
        self._clock = clock

    # --- plumbing ---------------------------------------------------------------------

    def _backoff(self, attempt: int) -> None:
        self._sleep(random.uniform(0, min(self.max_delay_s, self.base_delay_s * 2**attempt)))

    def _call(self, op: str, **kwargs: Any) -> dict[str, Any]:
        """One API call, throttling retried with exponential backoff + full jitter, errors translated."""
        try:
            return call_with_retries(lambda: getattr(self.client, op)(**kwargs), op=op, table=self.name,
                                     max_attempts=self.max_attempts, backoff=self._backoff,
                                     keep=frozenset({"TransactionCanceledException"}))
        except ClientError as exc:  # a cancelled transaction: its reasons say which condition failed
            raise self._cancelled(exc) from exc

    def _cancelled(self, exc: ClientError) -> DocchatError:
        details: list[Mapping[str, Any]] = [dict(r) for r in exc.response.get("CancellationReasons", [])]
        reasons = [str(r.get("Code", "None")) for r in details]
        if not reasons:  # some emulators only put the codes into the message
            msg = str(exc.response.get("Error", {}).get("Message", ""))
            if "[" in msg and "]" in msg:
                reasons = [r.strip() for r in msg[msg.rindex("[") + 1 : msg.rindex("]")].split(",")]
        if any("size" in str(r.get("Message", "")).lower() for r in details):
            return ItemTooLarge(f"an item in the transaction exceeds {MAX_ITEM_BYTES} bytes")
        return TransactionConflict(f"transaction cancelled: {reasons}", reasons=reasons)

    def _key(self, pk: str, sk: str) -> dict[str, Any]:
        return {PK: {"S": pk}, SK: {"S": sk}}

    def _check_item(self, item: Mapping[str, Any]) -> None:
        for key in (PK, SK):
            if not isinstance(item.get(key), str) or not item[key]:
                raise InvalidInput(f"item needs a non-empty string {key}")
        for idx in self.spec.indexes:
            for attr in (idx.pk, idx.sk):
                if attr in item and (not isinstance(item[attr], str) or not item[attr]):
                    raise InvalidInput(f"index key {attr} must be a non-empty string")
        size = item_size(item)
        if size > MAX_ITEM_BYTES:
            raise ItemTooLarge(
                f"item {item[PK]}/{item[SK]} is {size} bytes; the limit is {MAX_ITEM_BYTES}", size=size
            )

    def _alive(self, item: Item | None) -> Item | None:
        if item is None or is_expired(item, self._clock(), self.spec.ttl_attribute):
            return None
        return item

    # --- ItemTable ------------------------------------------------------------------------

    def get(self, pk: str, sk: str, *, consistent: bool = True) -> Item | None:
        resp = self._call("get_item", TableName=self.name, Key=self._key(pk, sk), ConsistentRead=consistent)
        raw = resp.get("Item")
        return self._alive(deserialize_item(raw)) if raw else None

    def _put_kwargs(self, item: Mapping[str, Any], condition: Condition | None) -> dict[str, Any]:
        self._check_item(item)
        kwargs: dict[str, Any] = {"TableName": self.name, "Item": serialize_item(item)}
        if condition is not None:
            ex = Expr()
            kwargs["ConditionExpression"] = ex.condition(condition)
            ex.apply(kwargs)
        return kwargs

    def put(self, item: Item, *, condition: Condition | None = None) -> None:
        self._call("put_item", **self._put_kwargs(item, condition))

    def _update_kwargs(self, op: Update) -> dict[str, Any]:
        validate_update(op.set, op.set_if_missing, op.add, op.remove)
        ex = Expr()
        kwargs: dict[str, Any] = {
            "TableName": self.name,
            "Key": self._key(op.pk, op.sk),
            "UpdateExpression": ex.update(op),
        }
        if op.condition is not None:
            kwargs["ConditionExpression"] = ex.condition(op.condition)
        return ex.apply(kwargs)

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
        op = Update(pk, sk, set or {}, set_if_missing or {}, add or {}, tuple(remove or ()), condition)
        resp = self._call("update_item", ReturnValues="ALL_NEW", **self._update_kwargs(op))
        return deserialize_item(resp.get("Attributes", {}))

    def _delete_kwargs(self, pk: str, sk: str, condition: Condition | None) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"TableName": self.name, "Key": self._key(pk, sk)}
        if condition is not None:
            ex = Expr()
            kwargs["ConditionExpression"] = ex.condition(condition)
            ex.apply(kwargs)
        return kwargs

    def delete(self, pk: str, sk: str, *, condition: Condition | None = None) -> None:
        self._call("delete_item", **self._delete_kwargs(pk, sk, condition))

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
        if limit is not None and limit < 1:
            raise InvalidInput("limit must be at least 1")
        if index is None:
            pk_attr, sk_attr, key_attrs = PK, SK, [PK, SK]
        else:
            try:
                spec = self.spec.index(index)
            except KeyError as exc:
                raise InvalidInput(f"table {self.name!r} has no index {index!r}") from exc
            pk_attr, sk_attr, key_attrs = spec.pk, spec.sk, [PK, SK, spec.pk, spec.sk]
        ex = Expr()
        cond = f"{ex.name(pk_attr)} = {ex.value(pk)}"
        cond += sk_condition(ex, sk_attr, sk)
        kwargs: dict[str, Any] = {"TableName": self.name, "KeyConditionExpression": cond, "ScanIndexForward": forward}
        if index is not None:
            kwargs["IndexName"] = index
        elif consistent:
            kwargs["ConsistentRead"] = True
        if limit is not None:
            kwargs["Limit"] = limit
        if cursor is not None:
            kwargs["ExclusiveStartKey"] = decode_cursor(cursor, key_attrs)
        resp = self._call("query", **ex.apply(kwargs))
        items: list[Item] = []
        total = 0
        last_key: dict[str, Any] | None = resp.get("LastEvaluatedKey")
        now = self._clock()
        for raw in resp.get("Items", []):
            item = deserialize_item(raw)
            size = item_size(item)
            if items and total + size > MAX_PAGE_BYTES:  # emulators do not always cap pages at 1 MB
                last_key = {a: {"S": items[-1][a]} for a in key_attrs}
                break
            total += size
            if not is_expired(item, now, self.spec.ttl_attribute):
                items.append(item)
        return Page(items=items, cursor=encode_cursor(last_key) if last_key else None)

    def transact_write(self, ops: Sequence[WriteOp], *, client_request_token: str | None = None) -> None:
        if not ops or len(ops) > MAX_TRANSACT_ITEMS:
            raise InvalidInput(f"a transaction holds 1 to {MAX_TRANSACT_ITEMS} operations, not {len(ops)}")
        keys = [(op.item[PK], op.item[SK]) if isinstance(op, Put) else (op.pk, op.sk) for op in ops]
        if len(set(keys)) != len(keys):
            raise InvalidInput("a transaction cannot touch the same item twice")
        items = [self._transact_item(op) for op in ops]
        kwargs: dict[str, Any] = {"TransactItems": items}
        if client_request_token is not None:
            kwargs["ClientRequestToken"] = client_request_token
        for attempt in range(self.max_attempts):
            try:
                self._call("transact_write_items", **kwargs)
                return
            except TransactionConflict as exc:
                reasons = exc.context.get("reasons") or []
                transient = isinstance(reasons, list) and all(r in _TRANSIENT_REASONS for r in reasons)
                if transient and attempt + 1 < self.max_attempts:
                    self._backoff(attempt)
                    continue
                raise

    def _transact_item(self, op: WriteOp) -> dict[str, Any]:
        if isinstance(op, Put):
            return {"Put": self._put_kwargs(op.item, op.condition)}
        if isinstance(op, Update):
            return {"Update": self._update_kwargs(op)}
        if isinstance(op, Delete):
            return {"Delete": self._delete_kwargs(op.pk, op.sk, op.condition)}
        assert isinstance(op, ConditionCheck)
        return {"ConditionCheck": self._delete_kwargs(op.pk, op.sk, op.condition)}

    def batch_write(self, puts: Sequence[Item] = (), deletes: Sequence[tuple[str, str]] = ()) -> None:
        keys = [(p[PK], p[SK]) for p in puts] + list(deletes)
        if len(set(keys)) != len(keys):
            raise InvalidInput("a batch write cannot touch the same item twice")
        for item in puts:
            self._check_item(item)
        requests: list[dict[str, Any]] = [{"PutRequest": {"Item": serialize_item(p)}} for p in puts]
        requests += [{"DeleteRequest": {"Key": self._key(pk, sk)}} for pk, sk in deletes]
        for i in range(0, len(requests), BATCH_WRITE_CHUNK):
            pending = requests[i : i + BATCH_WRITE_CHUNK]
            for attempt in range(self.max_attempts):
                resp = self._call("batch_write_item", RequestItems={self.name: pending})
                pending = resp.get("UnprocessedItems", {}).get(self.name, [])
                if not pending:
                    break
                log.info("dynamodb_unprocessed", table=self.name, count=len(pending), attempt=attempt + 1)
                self._backoff(attempt)
            else:
                raise Throttled(f"batch write left {len(pending)} items unprocessed", table=self.name)


def ensure_table(client: Any, table_name: str, spec: TableSpec) -> bool:
    """Create the table (on-demand, ``spec``'s GSIs) with TTL on ``spec.ttl_attribute`` unless it exists.

    For DynamoDB Local and moto in development; production tables come from ``infra/``. Returns True if created.
    """
    from store.schema import create_table_kwargs

    try:
        client.create_table(**create_table_kwargs(table_name, spec))
    except ClientError as exc:
        if error_code(exc) == "ResourceInUseException":
            return False
        raise translate_error(exc, table_name) from exc
    client.get_waiter("table_exists").wait(TableName=table_name, WaiterConfig={"Delay": 1, "MaxAttempts": 60})
    try:
        client.update_time_to_live(
            TableName=table_name, TimeToLiveSpecification={"Enabled": True, "AttributeName": spec.ttl_attribute}
        )
    except ClientError as exc:  # some emulators lack TTL; reads filter expired items anyway
        log.warning("ttl_not_enabled", table=table_name, code=error_code(exc))
    log.info("table_created", table=table_name)
    return True
