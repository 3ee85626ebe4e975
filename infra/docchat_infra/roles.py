"""The two application roles (API task, ingest worker task) and their least-privilege statements.

Every statement names its resources (table and index ARNs, bucket ARNs, queue ARNs, the search collection,
model ARNs); none uses ``"*"``. What each role may do follows what its process does:

=================  ==========================================  ============================================
resource           API (``docchat serve``)                       worker (``docchat worker``)
=================  ==========================================  ============================================
workflow table     read/write items (uploads, status, deletes)   read/write items (steps, segments)
sessions table     read/write items (chat sessions)              —
documents bucket   read/write/delete objects                     read/write/delete objects
sessions bucket    read/write/delete objects (offloaded turns)   —
ingest queues      send, read attributes                         receive/delete/extend visibility, send
search             read/write documents, ensure the index        read/write documents, ensure the index
Bedrock            chat + title models, embedding model          embedding model
=================  ==========================================  ============================================
"""

from __future__ import annotations

from collections.abc import Iterable

from aws_cdk import Aws
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from store.schema import TableSpec

#: What ``store/dynamo.py`` calls: get/put/update/delete/query, ``TransactWriteItems`` (authorised per item as
#: Put/Update/Delete/ConditionCheck) and ``BatchWriteItem``. No Scan, no table administration.
ITEM_ACTIONS = (
    "dynamodb:GetItem",
    "dynamodb:Query",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:BatchWriteItem",
    "dynamodb:ConditionCheckItem",
)
OBJECT_ACTIONS = ("s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload")
BUCKET_ACTIONS = ("s3:ListBucket",)
SEND_ACTIONS = ("sqs:SendMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl")
CONSUME_ACTIONS = (
    "sqs:ReceiveMessage",
    "sqs:DeleteMessage",
    "sqs:ChangeMessageVisibility",
    "sqs:SendMessage",
    "sqs:GetQueueAttributes",
    "sqs:GetQueueUrl",
)


def _task_role(scope: Construct, construct_id: str, description: str) -> iam.Role:
    principal = iam.ServicePrincipal(
        "ecs-tasks.amazonaws.com",
        conditions={
            "StringEquals": {"aws:SourceAccount": Aws.ACCOUNT_ID},
            "ArnLike": {"aws:SourceArn": f"arn:{Aws.PARTITION}:ecs:{Aws.REGION}:{Aws.ACCOUNT_ID}:*"},
        },
    )
    return iam.Role(scope, construct_id, assumed_by=principal, description=description)


class AppRoles(Construct):
    """Task roles of the two processes; resources grant into them as they are created."""

    def __init__(self, scope: Construct, construct_id: str) -> None:
        super().__init__(scope, construct_id)
        self.api = _task_role(self, "ApiTaskRole", "docchat API tasks (chat, uploads, sessions)")
        self.worker = _task_role(self, "WorkerTaskRole", "docchat ingest workers (parse, OCR, index)")

    @property
    def all(self) -> tuple[iam.Role, iam.Role]:
        return (self.api, self.worker)


def allow_items(role: iam.Role, tables: Iterable[tuple[dynamodb.Table, TableSpec]]) -> None:
    """Item reads and writes on the tables and their named indexes. No Scan, no table administration."""
    resources: list[str] = []
    for table, spec in tables:
        resources.append(table.table_arn)
        resources += [f"{table.table_arn}/index/{idx.name}" for idx in spec.indexes]
    role.add_to_policy(iam.PolicyStatement(actions=list(ITEM_ACTIONS), resources=resources))


def allow_objects(role: iam.Role, buckets: Iterable[s3.Bucket]) -> None:
    buckets = list(buckets)
    role.add_to_policy(iam.PolicyStatement(actions=list(BUCKET_ACTIONS), resources=[b.bucket_arn for b in buckets]))
    role.add_to_policy(
        iam.PolicyStatement(actions=list(OBJECT_ACTIONS), resources=[b.arn_for_objects("*") for b in buckets])
    )


def allow_send(role: iam.Role, queues: Iterable[sqs.Queue]) -> None:
    role.add_to_policy(iam.PolicyStatement(actions=list(SEND_ACTIONS), resources=[q.queue_arn for q in queues]))


def allow_consume(role: iam.Role, queues: Iterable[sqs.Queue]) -> None:
    role.add_to_policy(iam.PolicyStatement(actions=list(CONSUME_ACTIONS), resources=[q.queue_arn for q in queues]))


def allow_statements(role: iam.Role, statements: Iterable[iam.PolicyStatement]) -> None:
    for statement in statements:
        role.add_to_policy(statement)
