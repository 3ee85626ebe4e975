"""Table layouts shared by the stores and the CDK app (``infra/`` imports this).

Both tables follow the same shape: string ``PK``/``SK``, sparse ``GSI1`` and
``GSI2`` (``GSI<n>PK``/``GSI<n>SK``, projection ALL) and a TTL attribute.
"""

from __future__ import annotations

import math
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
#: Issue 15: the review queue by project and status (``GSI2PK=REVIEWQ#{pid}#{status}``) — an overloaded, sparse
#: use of GSI2 (only ``REVIEW#`` items carry that key), so CDK, bootstrap and SQLite need no new index.
REVIEW_INDEX = GSI2


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


# --- queues and buckets (seed 004 / 000 / 002): read by infra/ (CDK) and by store/bootstrap.py -------------

#: Long polling: a receive waits up to 20 s for a message, so idle workers cost almost no requests.
RECEIVE_WAIT_SECONDS = 20
QUEUE_RETENTION_SECONDS = 4 * 24 * 3600
DLQ_RETENTION_SECONDS = 14 * 24 * 3600


@dataclass(frozen=True, slots=True)
class QueueSpec:
    """One ingest lane and its dead-letter queue (the redrive count comes from the settings)."""

    lane: str  # "high" | "low" (ingest/queue_port.py's priorities)
    default_name: str  # the queue name when DOCCHAT_QUEUE_<LANE>_URL does not name one
    receive_wait_seconds: int = RECEIVE_WAIT_SECONDS
    retention_seconds: int = QUEUE_RETENTION_SECONDS
    dlq_retention_seconds: int = DLQ_RETENTION_SECONDS

    def dlq_name(self, name: str) -> str:
        return f"{name}-dlq"


HIGH_QUEUE = QueueSpec("high", "docchat-ingest-high")
LOW_QUEUE = QueueSpec("low", "docchat-ingest-low")
QUEUES: tuple[QueueSpec, ...] = (HIGH_QUEUE, LOW_QUEUE)

#: Offloaded turns outlive their DynamoDB item by this margin: an item is deleted by TTL (which can lag a
#: little), and its blob must never vanish while the item can still be read.
OFFLOAD_GRACE_DAYS = 1
ABORT_MULTIPART_DAYS = 1
NONCURRENT_VERSION_DAYS = 30


@dataclass(frozen=True, slots=True)
class BucketSpec:
    """A bucket's shape: versioning and lifecycle (all buckets: SSE-S3, public access blocked, TLS only)."""

    logical_name: str  # "documents" | "sessions" (the store factories' names)
    versioned: bool
    #: expire current objects this many days after the session TTL (+ grace); None = never
    expire_with_session_ttl: bool = False
    abort_multipart_days: int = ABORT_MULTIPART_DAYS
    noncurrent_version_days: int | None = None

    def expiration_days(self, session_ttl_days: int) -> int | None:
        return session_ttl_days + OFFLOAD_GRACE_DAYS if self.expire_with_session_ttl else None


#: Originals, page renders and segment JSON: versioned, old versions cleaned up by lifecycle.
DOCUMENTS_BUCKET = BucketSpec("documents", versioned=True, noncurrent_version_days=NONCURRENT_VERSION_DAYS)
#: Turns too large for a DynamoDB item (seed 002 section 5), expiring with the session TTL.
SESSIONS_BUCKET = BucketSpec("sessions", versioned=False, expire_with_session_ttl=True)


def queue_visibility_seconds(visibility_setting: int, parse_timeout_seconds: float) -> int:
    """Visibility timeout sized to the longest step.

    The worker (``ingest/worker.py``) renews a running job's visibility every third of this timeout from
    its event loop while the step runs in a thread or a sandboxed child; the longest single blocking step
    is a sandboxed parse (``parse_timeout_seconds`` wall clock). Twice that is the floor, so a slow step
    plus a missed heartbeat never hands the job to a second worker. ``DOCCHAT_QUEUE_VISIBILITY_SECONDS``
    (the same value the worker is given) can only raise it.
    """
    return max(visibility_setting, math.ceil(parse_timeout_seconds * 2))


def lifecycle_rules(spec: BucketSpec, session_ttl_days: int) -> list[dict[str, object]]:
    """S3 ``PutBucketLifecycleConfiguration`` rules for ``spec`` (the CDK stack declares the same rules)."""
    rules: list[dict[str, object]] = [
        {
            "ID": "abort-incomplete-multipart",
            "Status": "Enabled",
            "Filter": {"Prefix": ""},
            "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": spec.abort_multipart_days},
        }
    ]
    if spec.noncurrent_version_days is not None:
        rules.append(
            {
                "ID": "expire-noncurrent-versions",
                "Status": "Enabled",
                "Filter": {"Prefix": ""},
                "NoncurrentVersionExpiration": {"NoncurrentDays": spec.noncurrent_version_days},
                "Expiration": {"ExpiredObjectDeleteMarker": True},
            }
        )
    days = spec.expiration_days(session_ttl_days)
    if days is not None:
        rules.append({"ID": "expire-with-session-ttl", "Status": "Enabled", "Filter": {"Prefix": ""},
                      "Expiration": {"Days": days}})
    return rules
