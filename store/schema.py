"""Table layouts shared by the stores and the CDK app (``infra/`` imports this).

Both tables follow the same shape: string ``PK``/``SK``, sparse ``GSI1`` and
``GSI2`` (``GSI<n>PK``/``GSI<n>SK``, projection ALL) and a TTL attribute.
"""

from __future__ import annotations

from dataclasses import dataclass

PK = "PK"
SK = "SK"
TTL_ATTRIBUTE = "expire_at"
MAX_ITEM_BYTES = 400 * 1024
MAX_PAGE_BYTES = 1024 * 1024
MAX_TRANSACT_ITEMS = 100
BATCH_WRITE_CHUNK = 25


@dataclass(frozen=True, slots=True)
class IndexSpec:
    name: str
    pk: str
    sk: str


GSI1 = IndexSpec("GSI1", "GSI1PK", "GSI1SK")
GSI2 = IndexSpec("GSI2", "GSI2PK", "GSI2SK")


@dataclass(frozen=True, slots=True)
class TableSpec:
    """What a table looks like: keys, global secondary indexes, TTL, stream."""

    logical_name: str
    indexes: tuple[IndexSpec, ...]
    stream: bool
    ttl_attribute: str = TTL_ATTRIBUTE

    def index(self, name: str) -> IndexSpec:
        for idx in self.indexes:
            if idx.name == name:
                return idx
        raise KeyError(name)


#: Seed 000: projects, documents, workflows, steps, segments (stream NEW_AND_OLD_IMAGES).
WORKFLOW_TABLE = TableSpec("workflows", (GSI1, GSI2), stream=True)
#: Seed 002: chat sessions and their messages (sparse GSI1 = per-user session list).
SESSIONS_TABLE = TableSpec("sessions", (GSI1,), stream=False)


def create_table_kwargs(table_name: str, spec: TableSpec) -> dict[str, object]:
    """``CreateTable`` arguments for ``spec`` (on-demand), used by tests, DynamoDB Local and tooling."""
    attrs = [{"AttributeName": PK, "AttributeType": "S"}, {"AttributeName": SK, "AttributeType": "S"}]
    gsis = []
    for idx in spec.indexes:
        attrs += [
            {"AttributeName": idx.pk, "AttributeType": "S"},
            {"AttributeName": idx.sk, "AttributeType": "S"},
        ]
        gsis.append(
            {
                "IndexName": idx.name,
                "KeySchema": [
                    {"AttributeName": idx.pk, "KeyType": "HASH"},
                    {"AttributeName": idx.sk, "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
        )
    kwargs: dict[str, object] = {
        "TableName": table_name,
        "KeySchema": [{"AttributeName": PK, "KeyType": "HASH"}, {"AttributeName": SK, "KeyType": "RANGE"}],
        "AttributeDefinitions": attrs,
        "BillingMode": "PAY_PER_REQUEST",
    }
    if gsis:
        kwargs["GlobalSecondaryIndexes"] = gsis
    if spec.stream:
        kwargs["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}
    return kwargs
