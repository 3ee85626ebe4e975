"""``DynamoMetricsStore``: the ``MetricsStore`` port (``store/metrics.py``) on DynamoDB.

Items live in the workflow table (``PK=OPS#…``, see ``store/metrics.py``; its TTL attribute ``expire_at``), which
the API and the workers both write. One ``apply`` is one
``UpdateItem``: ``ADD`` for every count, sum and histogram cell, ``SET`` of this writer's own min/max
attributes (``lo.<m>@<writer>``, ``hi.<m>@<writer>``) and of plain values, and
``SET expire_at = if_not_exists(expire_at, :ttl)`` — so concurrent writers never lose an increment and no
conditional write (which would reject the whole update) is needed. A window is one ``Query`` on the
partition with ``SK BETWEEN``; it pages (``LastEvaluatedKey``) but a day of 5-minute buckets is 288 small
items. The boto3 client is passed in; throttling is retried with backoff and botocore errors are translated here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from store.dynamo_codec import (
    call_with_retries,
    deserialize_item,
    serialize_item,
)
from store.logging import get_logger
from store.metrics import MetricUpdate, merge_writers
from store.schema import PK, SK, TTL_ATTRIBUTE

log = get_logger(__name__)


def _n(value: float) -> dict[str, str]:
    if isinstance(value, float):
        text = format(Decimal(repr(value)), "f")  # never an exponent
        return {"N": text.rstrip("0").rstrip(".") if "." in text else text}
    return {"N": str(int(value))}


class DynamoMetricsStore:
    def __init__(self, client: Any, table_name: str, *, max_attempts: int = 6,
                 clock: Callable[[], float] = time.time, sleep: Callable[[float], None] = time.sleep) -> None:
        self.client = client
        self.name = table_name
        self._max_attempts = max_attempts
        self._clock = clock
        self._sleep = sleep

    def close(self) -> None:
        pass

    def _call(self, op: str, **kwargs: Any) -> dict[str, Any]:
        return call_with_retries(lambda: getattr(self.client, op)(TableName=self.name, **kwargs), op=op,
                                 table=self.name, max_attempts=self._max_attempts, backoff=self._backoff)

    def _backoff(self, attempt: int) -> None:
        self._sleep(random.uniform(0, min(2.0, 0.05 * 2**attempt)))

    def apply(self, update: MetricUpdate, *, writer: str) -> None:
        names: dict[str, str] = {}
        values: dict[str, Any] = {}
        adds: list[str] = []
        sets: list[str] = []
        for i, (k, v) in enumerate(update.add.items()):
            names[f"#a{i}"], values[f":a{i}"] = k, _n(v)
            adds.append(f"#a{i} :a{i}")
        extremes = [*((f"{k}@{writer}", v) for k, v in update.low.items()),
                    *((f"{k}@{writer}", v) for k, v in update.high.items())]
        for i, (k, v) in enumerate(extremes):
            names[f"#x{i}"], values[f":x{i}"] = k, _n(v)
            sets.append(f"#x{i} = :x{i}")
        if update.put:
            put = serialize_item(update.put)
            for i, (k, v) in enumerate(put.items()):
                names[f"#p{i}"], values[f":p{i}"] = k, v
                sets.append(f"#p{i} = :p{i}")
        if update.expire_at is not None:
            names["#e"], values[":e"] = TTL_ATTRIBUTE, _n(update.expire_at)
            sets.append("#e = if_not_exists(#e, :e)")
        if not adds and not sets:
            return
        expr = " ".join(p for p in ("ADD " + ", ".join(adds) if adds else "",
                                    "SET " + ", ".join(sets) if sets else "") if p)
        self._call("update_item", Key={PK: {"S": update.pk}, SK: {"S": update.sk}}, UpdateExpression=expr,
                   ExpressionAttributeNames=names, ExpressionAttributeValues=values)

    def get(self, pk: str, sk: str) -> dict[str, Any] | None:
        items, _ = self.query(pk, sk, sk)
        return items[0] if items else None

    def query(self, pk: str, sk_from: str, sk_to: str) -> tuple[list[dict[str, Any]], int]:
        now = int(self._clock())
        out: list[dict[str, Any]] = []
        read = 0
        start: dict[str, Any] | None = None
        while True:
            kwargs: dict[str, Any] = {"ExclusiveStartKey": start} if start else {}
            resp = self._call("query", KeyConditionExpression="#pk = :pk AND #sk BETWEEN :a AND :b",
                              ExpressionAttributeNames={"#pk": PK, "#sk": SK},
                              ExpressionAttributeValues={":pk": {"S": pk}, ":a": {"S": sk_from}, ":b": {"S": sk_to}},
                              **kwargs)
            for raw in resp.get("Items", []):
                read += 1
                item = deserialize_item(raw)
                expire = item.pop(TTL_ATTRIBUTE, None)
                if isinstance(expire, int | float) and expire <= now:  # TTL deletes lazily
                    continue
                item.pop(PK, None)
                out.append({"sk": item.pop(SK), **merge_writers(item)})
            start = resp.get("LastEvaluatedKey")
            if not start:
                return out, read
