"""``DynamoUsageCounters``: the ``UsageCounters`` port (``store/usage_counters.py``) on DynamoDB.

Items live in the session table (seed 002 key style), one partition per user: ``PK=USER#<id>``,
``SK=LIMIT#<key>`` — e.g. ``LIMIT#questions#202612011330`` (a minute window) or ``LIMIT#projects`` — with the
value in ``n`` and the table's TTL attribute ``expire_at`` on windowed counters and slots. Every check is
one conditional write, so the limit holds across ECS tasks:

* ``add`` = ``ADD n :a SET expire_at = if_not_exists(expire_at, :e)`` if ``attribute_not_exists(n) OR
  n <= :limit - :a``;
* a slot = ``Put`` of ``LIMIT#<key>#slot#<k>`` if ``attribute_not_exists(PK) OR expire_at < :now`` (a lease
  left by a crashed task is taken over once it expires, before DynamoDB's lazy TTL deletes it), and its
  release a ``Delete`` if the lease is still ours.

The boto3 client is passed in; throttling is retried with backoff and botocore errors are translated here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from botocore.exceptions import ClientError

from store.dynamo_codec import call_with_retries
from store.logging import get_logger
from store.schema import PK, SK, TTL_ATTRIBUTE
from store.usage_counters import check_key

log = get_logger(__name__)

_CONDITION_FAILED = "ConditionalCheckFailedException"


def user_pk(user_id: str) -> str:
    return f"USER#{user_id}"


def limit_sk(key: str) -> str:
    return f"LIMIT#{key}"


def slot_sk(key: str, slot: int) -> str:
    return f"LIMIT#{key}#slot#{slot}"


def _num(value: int) -> dict[str, str]:
    return {"N": str(int(value))}


class DynamoUsageCounters:
    """``UsageCounters`` on a DynamoDB table with string ``PK``/``SK`` and TTL on ``expire_at``."""

    def __init__(
        self,
        client: Any,
        table_name: str,
        *,
        max_attempts: int = 6,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.client = client
        self.name = table_name
        self._max_attempts = max_attempts
        self._clock = clock
        self._sleep = sleep

    def close(self) -> None:
        pass

    def _key(self, user_id: str, sk: str) -> dict[str, Any]:
        return {PK: {"S": user_pk(user_id)}, SK: {"S": sk}}

    def _call(self, op: str, **kwargs: Any) -> dict[str, Any] | None:
        """One call (throttling retried with full jitter); None when its condition failed."""
        try:
            return call_with_retries(lambda: getattr(self.client, op)(TableName=self.name, **kwargs), op=op,
                                     table=self.name, max_attempts=self._max_attempts, backoff=self._backoff,
                                     keep=frozenset({_CONDITION_FAILED}))
        except ClientError:  # only the kept code comes through: the condition failed
            return None

    def _backoff(self, attempt: int) -> None:
        self._sleep(random.uniform(0, min(2.0, 0.05 * 2**attempt)))

    # --- counters ------------------------------------------------------------------------------

    def add(self, user_id: str, key: str, amount: int, *, limit: int | None, expire_at: int | None) -> int | None:
        check_key(user_id, key, amount)
        if limit is not None and amount > limit:
            return None
        names = {"#n": "n"}
        values: dict[str, Any] = {":a": _num(amount)}
        update = "ADD #n :a"
        if expire_at is not None:
            names["#e"] = TTL_ATTRIBUTE
            values[":e"] = _num(expire_at)
            update += " SET #e = if_not_exists(#e, :e)"
        kwargs: dict[str, Any] = {}
        if limit is not None:
            values[":m"] = _num(limit - amount)
            kwargs["ConditionExpression"] = "attribute_not_exists(#n) OR #n <= :m"
        resp = self._call(
            "update_item",
            Key=self._key(user_id, limit_sk(key)),
            UpdateExpression=update,
            ExpressionAttributeNames=names,
            ExpressionAttributeValues=values,
            ReturnValues="UPDATED_NEW",
            **kwargs,
        )
        if resp is None:
            return None
        return int(resp["Attributes"]["n"]["N"])

    def subtract(self, user_id: str, key: str, amount: int) -> None:
        check_key(user_id, key, amount)
        if amount == 0:
            return
        done = self._call(
            "update_item",
            Key=self._key(user_id, limit_sk(key)),
            UpdateExpression="ADD #n :neg",
            ConditionExpression="#n >= :a",
            ExpressionAttributeNames={"#n": "n"},
            ExpressionAttributeValues={":neg": _num(-amount), ":a": _num(amount)},
        )
        if done is None:  # less than ``amount`` left (or gone): floor at zero if it exists
            self._call(
                "update_item",
                Key=self._key(user_id, limit_sk(key)),
                UpdateExpression="SET #n = :z",
                ConditionExpression="attribute_exists(#n)",
                ExpressionAttributeNames={"#n": "n"},
                ExpressionAttributeValues={":z": _num(0)},
            )

    def get(self, user_id: str, key: str) -> int:
        check_key(user_id, key)
        resp = self._call("get_item", Key=self._key(user_id, limit_sk(key)), ConsistentRead=True) or {}
        item = resp.get("Item")
        if not item:
            return 0
        exp = item.get(TTL_ATTRIBUTE, {}).get("N")
        if exp is not None and int(exp) < int(self._clock()):
            return 0
        return int(item.get("n", {}).get("N", "0"))

    def set_if(self, user_id: str, key: str, value: int, *, expected: int) -> bool:
        check_key(user_id, key, value)
        cond = "attribute_not_exists(#n) OR #n = :x" if expected == 0 else "#n = :x"
        resp = self._call(
            "update_item",
            Key=self._key(user_id, limit_sk(key)),
            UpdateExpression="SET #n = :v",
            ConditionExpression=cond,
            ExpressionAttributeNames={"#n": "n"},
            ExpressionAttributeValues={":v": _num(value), ":x": _num(expected)},
        )
        return resp is not None

    # --- slots ------------------------------------------------------------------------------------

    def acquire_slot(self, user_id: str, key: str, slots: int, lease: str, *, expire_at: int) -> int | None:
        check_key(user_id, key, slots)
        now = int(self._clock())
        for slot in range(slots):
            item = {**self._key(user_id, slot_sk(key, slot)), "lease": {"S": lease}, TTL_ATTRIBUTE: _num(expire_at)}
            resp = self._call(
                "put_item",
                Item=item,
                ConditionExpression="attribute_not_exists(#pk) OR #e < :now",
                ExpressionAttributeNames={"#pk": PK, "#e": TTL_ATTRIBUTE},
                ExpressionAttributeValues={":now": _num(now)},
            )
            if resp is not None:
                return slot
        return None

    def release_slot(self, user_id: str, key: str, slot: int, lease: str) -> None:
        check_key(user_id, key, slot)
        self._call(
            "delete_item",
            Key=self._key(user_id, slot_sk(key, slot)),
            ConditionExpression="#l = :lease",
            ExpressionAttributeNames={"#l": "lease"},
            ExpressionAttributeValues={":lease": {"S": lease}},
        )
