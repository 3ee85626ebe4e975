"""DynamoItemTable specifics: error translation, throttling backoff, unprocessed items, request shapes."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError

from store.dynamo import DynamoItemTable, serialize_item
from store.errors import ConfigError, Conflict, InvalidInput, RetryableError, Throttled, TransactionConflict
from store.items import Equals, In, NotExists, Put, Update
from store.schema import WORKFLOW_TABLE


def err(code: str, message: str = "", **extra: Any) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": message}, **extra}, "Op")


class ScriptedClient:
    """Answers each call from a script of responses or exceptions, recording the requests."""

    def __init__(self, script: dict[str, list[Any]]) -> None:
        self.script = script
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __getattr__(self, op: str) -> Callable[..., Any]:
        def call(**kwargs: Any) -> Any:
            self.calls.append((op, kwargs))
            outcome = self.script[op].pop(0)
            if isinstance(outcome, Exception):
                raise outcome
            return outcome

        return call


def table(script: dict[str, list[Any]], sleeps: list[float] | None = None) -> tuple[DynamoItemTable, ScriptedClient]:
    client = ScriptedClient(script)
    slept = sleeps if sleeps is not None else []
    return DynamoItemTable(client, "tbl", WORKFLOW_TABLE, max_attempts=4, sleep=slept.append), client


@pytest.mark.parametrize(
    "code", ["ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded"]
)
def test_throttling_retried_with_backoff_then_succeeds(code: str) -> None:
    sleeps: list[float] = []
    t, client = table({"get_item": [err(code), err(code), {"Item": serialize_item({"PK": "P", "SK": "S"})}]}, sleeps)
    assert t.get("P", "S") == {"PK": "P", "SK": "S"}
    assert len(client.calls) == 3 and len(sleeps) == 2
    assert 0 <= sleeps[0] <= 0.05 and 0 <= sleeps[1] <= 0.1  # full jitter under an exponential cap


def test_throttling_exhausted_raises_throttled() -> None:
    t, client = table({"put_item": [err("ThrottlingException")] * 4})
    with pytest.raises(Throttled):
        t.put({"PK": "P", "SK": "S"})
    assert len(client.calls) == 4


def test_error_translation() -> None:
    t, _ = table({
        "put_item": [err("ConditionalCheckFailedException"), err("ValidationException", "bad thing"),
                     err("ResourceNotFoundException", "no table"), EndpointConnectionError(endpoint_url="http://x")],
    })
    with pytest.raises(Conflict):
        t.put({"PK": "P", "SK": "S"}, condition=NotExists())
    with pytest.raises(InvalidInput):
        t.put({"PK": "P", "SK": "S"})
    with pytest.raises(ConfigError):
        t.put({"PK": "P", "SK": "S"})
    with pytest.raises(RetryableError):
        t.put({"PK": "P", "SK": "S"})


def test_condition_expression_uses_placeholders_and_decimals() -> None:
    t, client = table({"update_item": [{"Attributes": serialize_item({"PK": "P", "SK": "S", "n": Decimal("2")})}]})
    new = t.update("P", "S", set={"status": "x", "f": 0.1}, add={"n": 1}, remove=["name"],
                   condition=In("status", ("a", "b")))
    assert new == {"PK": "P", "SK": "S", "n": 2} and type(new["n"]) is int
    _, kw = client.calls[0]
    assert kw["ReturnValues"] == "ALL_NEW"
    assert set(kw["ExpressionAttributeNames"].values()) == {"status", "f", "n", "name"}
    assert "status" not in kw["UpdateExpression"] and "#" in kw["ConditionExpression"]
    assert {"N": "0.1"} in kw["ExpressionAttributeValues"].values()


def test_transaction_cancellation_reasons_and_token() -> None:
    cancelled = err("TransactionCanceledException", "Transaction cancelled",
                    CancellationReasons=[{"Code": "None"}, {"Code": "ConditionalCheckFailed"}])
    t, client = table({"transact_write_items": [cancelled]})
    with pytest.raises(TransactionConflict) as info:
        t.transact_write([Put({"PK": "A", "SK": "1"}), Update("A", "2", add={"n": 1}, condition=Equals("n", 0))],
                         client_request_token="tok")
    assert info.value.context["reasons"] == ["None", "ConditionalCheckFailed"]
    _, kw = client.calls[0]
    assert kw["ClientRequestToken"] == "tok" and len(kw["TransactItems"]) == 2


def test_transaction_conflict_between_transactions_is_retried() -> None:
    busy = err("TransactionCanceledException", "", CancellationReasons=[{"Code": "TransactionConflict"}])
    t, client = table({"transact_write_items": [busy, {}]})
    t.transact_write([Put({"PK": "A", "SK": "1"})])
    assert len(client.calls) == 2


def test_batch_write_retries_unprocessed_items() -> None:
    puts = [{"PK": "B", "SK": f"{i:02d}"} for i in range(30)]
    leftover = {"tbl": [{"PutRequest": {"Item": serialize_item(puts[3])}}]}
    sleeps: list[float] = []
    t, client = table({"batch_write_item": [{"UnprocessedItems": leftover}, {"UnprocessedItems": {}}, {}]}, sleeps)
    t.batch_write(puts=puts)
    sizes = [len(kw["RequestItems"]["tbl"]) for _, kw in client.calls]
    assert sizes == [25, 1, 5] and len(sleeps) == 1


def test_batch_write_gives_up_with_throttled() -> None:
    leftover = {"tbl": [{"DeleteRequest": {"Key": {"PK": {"S": "B"}, "SK": {"S": "1"}}}}]}
    t, _ = table({"batch_write_item": [{"UnprocessedItems": leftover}] * 4})
    with pytest.raises(Throttled):
        t.batch_write(deletes=[("B", "1")])


def test_index_query_is_never_consistent_and_cursor_round_trips() -> None:
    lek = {"PK": {"S": "S#1"}, "SK": {"S": "META"}, "GSI1PK": {"S": "USER#a"}, "GSI1SK": {"S": "2026"}}
    t, client = table({"query": [{"Items": [], "LastEvaluatedKey": lek}, {"Items": []}]})
    page = t.query("USER#a", index="GSI1", consistent=True, limit=2)
    assert page.cursor is not None
    t.query("USER#a", index="GSI1", cursor=page.cursor)
    first, second = client.calls[0][1], client.calls[1][1]
    assert "ConsistentRead" not in first and first["IndexName"] == "GSI1" and first["Limit"] == 2
    assert second["ExclusiveStartKey"] == lek


def test_ensure_table_creates_once_with_ttl(moto_aws: None) -> None:
    import boto3

    from store.dynamo import ensure_table

    client = boto3.client("dynamodb", region_name="us-east-1")
    assert ensure_table(client, "docchat-sessions", WORKFLOW_TABLE) is True
    assert ensure_table(client, "docchat-sessions", WORKFLOW_TABLE) is False
    ttl = client.describe_time_to_live(TableName="docchat-sessions")["TimeToLiveDescription"]
    assert ttl["AttributeName"] == "expire_at" and ttl["TimeToLiveStatus"] in ("ENABLED", "ENABLING")
    desc = client.describe_table(TableName="docchat-sessions")["Table"]
    gsis = {g["IndexName"] for g in desc["GlobalSecondaryIndexes"]}
    assert gsis == {"GSI1", "GSI2"}
