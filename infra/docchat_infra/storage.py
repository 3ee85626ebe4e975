"""DynamoDB tables and S3 buckets.

The key schema comes from ``store.schema`` (the same ``TableSpec`` the DynamoDB adapter and DynamoDB Local
use), so the deployed tables cannot drift from the code that reads them.
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_s3 as s3
from constructs import Construct

from store.schema import (
    DOCUMENTS_BUCKET,
    PK,
    SESSIONS_BUCKET,
    SESSIONS_TABLE,
    SK,
    WORKFLOW_TABLE,
    BucketSpec,
    TableSpec,
)

from .config import InfraConfig


def build_table(scope: Construct, construct_id: str, spec: TableSpec, config: InfraConfig) -> dynamodb.Table:
    """An on-demand table shaped like ``spec``: PK/SK strings, its GSIs (projection ALL), TTL, PITR."""
    string = dynamodb.AttributeType.STRING
    table = dynamodb.Table(
        scope,
        construct_id,
        partition_key=dynamodb.Attribute(name=PK, type=string),
        sort_key=dynamodb.Attribute(name=SK, type=string),
        billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
        time_to_live_attribute=spec.ttl_attribute,
        stream=dynamodb.StreamViewType.NEW_AND_OLD_IMAGES if spec.stream else None,
        point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
            point_in_time_recovery_enabled=True
        ),
        encryption=dynamodb.TableEncryption.AWS_MANAGED,
        deletion_protection=config.deletion_protection,
        removal_policy=RemovalPolicy.RETAIN if config.deletion_protection else RemovalPolicy.DESTROY,
    )
    for idx in spec.indexes:
        table.add_global_secondary_index(
            index_name=idx.name,
            partition_key=dynamodb.Attribute(name=idx.pk, type=string),
            sort_key=dynamodb.Attribute(name=idx.sk, type=string),
            projection_type=dynamodb.ProjectionType.ALL,
        )
    return table


def _bucket(
    scope: Construct, construct_id: str, config: InfraConfig, *, versioned: bool, rules: list[s3.LifecycleRule]
) -> s3.Bucket:
    return s3.Bucket(
        scope,
        construct_id,
        encryption=s3.BucketEncryption.S3_MANAGED,
        block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
        enforce_ssl=True,
        minimum_tls_version=1.2,
        object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        versioned=versioned,
        lifecycle_rules=rules,
        removal_policy=RemovalPolicy.RETAIN if config.deletion_protection else RemovalPolicy.DESTROY,
        auto_delete_objects=not config.deletion_protection,
    )


def lifecycle_rules(spec: BucketSpec, session_ttl_days: int) -> list[s3.LifecycleRule]:
    """The lifecycle of ``spec`` (``store.schema.lifecycle_rules`` gives ``docchat aws bootstrap`` the same)."""
    rules = [
        s3.LifecycleRule(
            id="abort-incomplete-multipart",
            abort_incomplete_multipart_upload_after=Duration.days(spec.abort_multipart_days),
        )
    ]
    if spec.noncurrent_version_days is not None:
        rules.append(
            s3.LifecycleRule(
                id="expire-noncurrent-versions",
                noncurrent_version_expiration=Duration.days(spec.noncurrent_version_days),
                expired_object_delete_marker=True,
            )
        )
    days = spec.expiration_days(session_ttl_days)
    if days is not None:
        rules.append(s3.LifecycleRule(id="expire-with-session-ttl", expiration=Duration.days(days)))
    return rules


class Storage(Construct):
    """The workflow table (seed 000), the session table (seed 002) and their buckets."""

    def __init__(self, scope: Construct, construct_id: str, *, config: InfraConfig) -> None:
        super().__init__(scope, construct_id)
        self.workflow_table = build_table(self, "WorkflowTable", WORKFLOW_TABLE, config)
        self.sessions_table = build_table(self, "SessionsTable", SESSIONS_TABLE, config)
        ttl_days = config.settings.store.session_ttl_days
        # Originals, page renders and segment JSON. Versioned so an overwrite or delete is recoverable for a
        # while; old versions and stray multipart parts are cleaned up by lifecycle.
        self.documents_bucket = _bucket(
            self,
            "DocumentsBucket",
            config,
            versioned=DOCUMENTS_BUCKET.versioned,
            rules=lifecycle_rules(DOCUMENTS_BUCKET, ttl_days),
        )
        # Turns too large for a DynamoDB item (seed 002 section 5). Each blob is written together with its
        # message item, whose TTL is ``session_ttl_days`` after that write, so expiring the blob the same
        # number of days (+ grace) after *its* creation keeps the two in step.
        self.sessions_bucket = _bucket(
            self,
            "SessionsBucket",
            config,
            versioned=SESSIONS_BUCKET.versioned,
            rules=lifecycle_rules(SESSIONS_BUCKET, ttl_days),
        )
