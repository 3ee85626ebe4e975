"""``docchat aws bootstrap``: create the AWS resources the service needs, idempotently.

The two DynamoDB tables (with their GSIs and TTL), the two S3 buckets (versioning, lifecycle, encryption,
public access blocked) and the two SQS lanes with their dead-letter queues and redrive policies — shaped by
``store.schema``, the same definitions the CDK stack (``infra/``) reads, so a stand-in stack (DynamoDB Local,
moto server) or a developer account matches what is deployed. Running it again changes nothing that is
already right: existing tables and buckets are kept, queue attributes are re-applied.

The clients are passed in (``store/clients.py`` builds them, per-service endpoints included); every
botocore error is translated into ``store/errors.py``'s hierarchy here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from botocore.exceptions import BotoCoreError, ClientError

from store.config import Settings
from store.dynamo import ensure_table
from store.dynamo_codec import error_code
from store.errors import ConfigError, DocchatError, RetryableError, UpstreamError
from store.logging import get_logger
from store.schema import (
    DOCUMENTS_BUCKET,
    QUEUES,
    SESSIONS_BUCKET,
    SESSIONS_TABLE,
    WORKFLOW_TABLE,
    BucketSpec,
    QueueSpec,
    TableSpec,
    lifecycle_rules,
    queue_visibility_seconds,
)

log = get_logger(__name__)


@dataclass
class BootstrapReport:
    """What ``bootstrap`` found or made: ``created`` lists the resources that did not exist before."""

    tables: list[str] = field(default_factory=list)
    buckets: list[str] = field(default_factory=list)
    queue_urls: dict[str, str] = field(default_factory=dict)  # lane -> URL
    dlq_urls: dict[str, str] = field(default_factory=dict)  # lane -> URL
    created: list[str] = field(default_factory=list)

    def settings_env(self) -> dict[str, str]:
        """The variables that point the service at the queues (tables and buckets keep their settings)."""
        return {f"DOCCHAT_QUEUE_{lane.upper()}_URL": url for lane, url in self.queue_urls.items()}


def _translate(service: str, resource: str, exc: ClientError | BotoCoreError) -> DocchatError:
    """A botocore error as one of ours: bad credentials → ConfigError, unreachable → RetryableError."""
    if isinstance(exc, BotoCoreError):
        return RetryableError(f"cannot reach {service} for {resource}: {type(exc).__name__}: {exc}")
    code = error_code(exc)
    msg = str(exc.response.get("Error", {}).get("Message", ""))
    if code in ("AccessDenied", "AccessDeniedException", "UnrecognizedClientException", "InvalidClientTokenId"):
        return ConfigError(f"{service} refused {resource}: {code} (check the AWS credentials)")
    return UpstreamError(f"{service} error {code} for {resource}: {msg}", code=code)


def _call(service: str, resource: str, fn: Callable[..., Any], **kwargs: Any) -> Any:
    try:
        return fn(**kwargs)
    except (ClientError, BotoCoreError) as exc:
        raise _translate(service, resource, exc) from exc


# --- tables ------------------------------------------------------------------------------------------------
def ensure_tables(client: Any, settings: Settings, report: BootstrapReport) -> None:
    for name, spec in ((settings.store.workflow_table, WORKFLOW_TABLE), (settings.store.sessions_table,
                                                                         SESSIONS_TABLE)):
        try:
            created = ensure_table(client, name, spec)
        except BotoCoreError as exc:
            raise _translate("DynamoDB", f"table {name}", exc) from exc
        _check_table(client, name, spec)
        report.tables.append(name)
        if created:
            report.created.append(f"table {name}")


def _check_table(client: Any, name: str, spec: TableSpec) -> None:
    """An existing table must have ``spec``'s GSIs: a table made by hand without them fails loudly here."""
    table = _call("DynamoDB", f"table {name}", client.describe_table, TableName=name)["Table"]
    have = {ix["IndexName"] for ix in table.get("GlobalSecondaryIndexes", [])}
    missing = sorted({ix.name for ix in spec.indexes} - have)
    if missing:
        raise ConfigError(f"DynamoDB table {name} exists without the index(es) {', '.join(missing)}; "
                          "delete it (or point DOCCHAT_*_TABLE at another name) and bootstrap again")


# --- buckets -----------------------------------------------------------------------------------------------
def ensure_buckets(client: Any, settings: Settings, report: BootstrapReport) -> None:
    for name, spec in ((settings.store.documents_bucket, DOCUMENTS_BUCKET),
                       (settings.store.sessions_bucket, SESSIONS_BUCKET)):
        if _ensure_bucket(client, name, settings.aws.aws_region):
            report.created.append(f"bucket {name}")
        _shape_bucket(client, name, spec, settings.store.session_ttl_days)
        report.buckets.append(name)


def _ensure_bucket(client: Any, name: str, region: str) -> bool:
    # HEAD first: in us-east-1, CreateBucket on a bucket you already own succeeds silently
    try:
        client.head_bucket(Bucket=name)
        return False
    except ClientError as exc:
        if error_code(exc) in ("403", "AccessDenied"):
            raise ConfigError(f"S3 bucket {name} exists but is not yours (HTTP 403); set DOCCHAT_*_BUCKET") from exc
        if error_code(exc) not in ("404", "NoSuchBucket", "NotFound"):
            raise _translate("S3", f"bucket {name}", exc) from exc
    except BotoCoreError as exc:
        raise _translate("S3", f"bucket {name}", exc) from exc
    kwargs: dict[str, Any] = {"Bucket": name}
    if region != "us-east-1":  # S3's one quirk: us-east-1 takes no location constraint
        kwargs["CreateBucketConfiguration"] = {"LocationConstraint": region}
    try:
        client.create_bucket(**kwargs)
    except ClientError as exc:
        code = error_code(exc)
        if code == "BucketAlreadyOwnedByYou":
            return False
        if code == "BucketAlreadyExists":
            raise ConfigError(f"S3 bucket name {name} is taken by another account; set DOCCHAT_*_BUCKET") from exc
        raise _translate("S3", f"bucket {name}", exc) from exc
    except BotoCoreError as exc:
        raise _translate("S3", f"bucket {name}", exc) from exc
    return True


def _shape_bucket(client: Any, name: str, spec: BucketSpec, session_ttl_days: int) -> None:
    """Versioning, default encryption, no public access and the lifecycle rules (each a plain PUT: idempotent)."""
    res = f"bucket {name}"
    if spec.versioned:
        _call("S3", res, client.put_bucket_versioning, Bucket=name,
              VersioningConfiguration={"Status": "Enabled"})
    _call("S3", res, client.put_bucket_encryption, Bucket=name, ServerSideEncryptionConfiguration={
        "Rules": [{"ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}}]})
    _call("S3", res, client.put_public_access_block, Bucket=name, PublicAccessBlockConfiguration={
        "BlockPublicAcls": True, "IgnorePublicAcls": True, "BlockPublicPolicy": True, "RestrictPublicBuckets": True})
    _call("S3", res, client.put_bucket_lifecycle_configuration, Bucket=name,
          LifecycleConfiguration={"Rules": lifecycle_rules(spec, session_ttl_days)})


# --- queues ------------------------------------------------------------------------------------------------
def queue_name(spec: QueueSpec, configured_url: str | None) -> str:
    """The lane's queue name: the last path segment of ``DOCCHAT_QUEUE_<LANE>_URL`` if set, else the default."""
    if configured_url:
        name = urlparse(configured_url).path.rstrip("/").rsplit("/", 1)[-1]
        if name:
            return name
    return spec.default_name


def ensure_queues(client: Any, settings: Settings, report: BootstrapReport) -> None:
    q = settings.queue
    visibility = queue_visibility_seconds(q.queue_visibility_seconds, settings.ingest.parse_timeout_seconds)
    configured = {"high": q.queue_high_url, "low": q.queue_low_url}
    for spec in QUEUES:
        name = queue_name(spec, configured[spec.lane])
        dlq_url, dlq_created = _ensure_queue(client, spec.dlq_name(name), {
            "MessageRetentionPeriod": str(spec.dlq_retention_seconds), "SqsManagedSseEnabled": "true"})
        dlq_arn = _call("SQS", f"queue {spec.dlq_name(name)}", client.get_queue_attributes, QueueUrl=dlq_url,
                        AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        url, created = _ensure_queue(client, name, {
            "VisibilityTimeout": str(visibility),
            "ReceiveMessageWaitTimeSeconds": str(spec.receive_wait_seconds),
            "MessageRetentionPeriod": str(spec.retention_seconds),
            "SqsManagedSseEnabled": "true",
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": q.queue_max_receives}),
        })
        report.queue_urls[spec.lane] = url
        report.dlq_urls[spec.lane] = dlq_url
        report.created += [f"queue {n}" for n, c in ((spec.dlq_name(name), dlq_created), (name, created)) if c]


def _ensure_queue(client: Any, name: str, attributes: dict[str, str]) -> tuple[str, bool]:
    """Create ``name`` or, when it exists, bring its attributes to ``attributes``. Returns (URL, created)."""
    try:
        url = str(client.get_queue_url(QueueName=name)["QueueUrl"])
    except ClientError as exc:
        if error_code(exc) not in ("AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist"):
            raise _translate("SQS", f"queue {name}", exc) from exc
    except BotoCoreError as exc:
        raise _translate("SQS", f"queue {name}", exc) from exc
    else:
        _call("SQS", f"queue {name}", client.set_queue_attributes, QueueUrl=url, Attributes=attributes)
        return url, False
    resp = _call("SQS", f"queue {name}", client.create_queue, QueueName=name, Attributes=attributes)
    return str(resp["QueueUrl"]), True


# --- all of it ---------------------------------------------------------------------------------------------
def bootstrap(settings: Settings, *, dynamodb: Any, s3: Any, sqs: Any) -> BootstrapReport:
    """Tables, buckets and queues for ``settings`` (idempotent). Returns what exists now and what was made."""
    report = BootstrapReport()
    ensure_tables(dynamodb, settings, report)
    ensure_buckets(s3, settings, report)
    ensure_queues(sqs, settings, report)
    log.info("aws_bootstrapped", tables=len(report.tables), buckets=len(report.buckets),
             queues=len(report.queue_urls) + len(report.dlq_urls), created=len(report.created))
    return report


def bootstrap_from_settings(settings: Settings, *, credentials: Mapping[str, str] | None = None) -> BootstrapReport:
    """``bootstrap`` with clients built from ``settings`` (per-service endpoints honoured)."""
    from store.clients import aws_client

    clients = {s: aws_client(settings, s, credentials=credentials) for s in ("dynamodb", "s3", "sqs")}
    return bootstrap(settings, dynamodb=clients["dynamodb"], s3=clients["s3"], sqs=clients["sqs"])
