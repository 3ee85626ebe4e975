"""``docchat aws bootstrap`` (store/bootstrap.py): tables, buckets, queues + DLQs, from store.schema; idempotent."""

from __future__ import annotations

import json
import uuid
from typing import Any

import boto3
import pytest

from store.bootstrap import bootstrap, queue_name
from store.config import Settings
from store.errors import ConfigError, RetryableError
from store.schema import HIGH_QUEUE, SESSIONS_TABLE, WORKFLOW_TABLE, create_table_kwargs
from tests.conftest import FAKE_CREDS


def _settings(**overrides: Any) -> Settings:
    suffix = uuid.uuid4().hex[:8]
    base: dict[str, Any] = {
        "backend": "aws",
        "workflow_table": f"wf-{suffix}",
        "sessions_table": f"ss-{suffix}",
        "documents_bucket": f"docs-{suffix}",
        "sessions_bucket": f"sess-{suffix}",
        "queue_max_receives": 3,
        "queue_visibility_seconds": 600,
    }
    base.update(overrides)
    return Settings(**base)


def _moto_clients() -> dict[str, Any]:
    return {s: boto3.client(s, region_name="us-east-1") for s in ("dynamodb", "s3", "sqs")}


def _check_everything(settings: Settings, clients: dict[str, Any], report: Any) -> None:
    ddb, s3, sqs = clients["dynamodb"], clients["s3"], clients["sqs"]
    for name, spec in ((settings.store.workflow_table, WORKFLOW_TABLE), (settings.store.sessions_table,
                                                                         SESSIONS_TABLE)):
        table = ddb.describe_table(TableName=name)["Table"]
        assert {ix["IndexName"] for ix in table.get("GlobalSecondaryIndexes", [])} == {i.name for i in spec.indexes}
        assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
        ttl = ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"]
        assert ttl.get("AttributeName") == spec.ttl_attribute
    assert s3.get_bucket_versioning(Bucket=settings.store.documents_bucket)["Status"] == "Enabled"
    assert "Status" not in s3.get_bucket_versioning(Bucket=settings.store.sessions_bucket)
    rules = s3.get_bucket_lifecycle_configuration(Bucket=settings.store.sessions_bucket)["Rules"]
    expire = next(r for r in rules if r["ID"] == "expire-with-session-ttl")
    assert expire["Expiration"]["Days"] == settings.store.session_ttl_days + 1
    block = s3.get_public_access_block(Bucket=settings.store.documents_bucket)["PublicAccessBlockConfiguration"]
    assert all(block.values())
    assert set(report.queue_urls) == {"high", "low"}
    for lane, url in report.queue_urls.items():
        attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
        dlq_arn = sqs.get_queue_attributes(QueueUrl=report.dlq_urls[lane], AttributeNames=["QueueArn"])[
            "Attributes"]["QueueArn"]
        assert json.loads(attrs["RedrivePolicy"]) == {"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 3}
        assert attrs["VisibilityTimeout"] == "600"
        assert attrs["ReceiveMessageWaitTimeSeconds"] == "20"


def test_bootstrap_creates_everything_and_a_second_run_changes_nothing(moto_aws: None) -> None:
    settings = _settings()
    clients = _moto_clients()
    first = bootstrap(settings, **clients)
    assert len(first.created) == 2 + 2 + 4  # tables, buckets, two queues and their DLQs
    _check_everything(settings, clients, first)
    second = bootstrap(settings, **clients)
    assert second.created == []
    assert second.queue_urls == first.queue_urls and second.dlq_urls == first.dlq_urls
    _check_everything(settings, clients, second)
    env = first.settings_env()
    assert env["DOCCHAT_QUEUE_HIGH_URL"].endswith("/docchat-ingest-high")
    assert env["DOCCHAT_QUEUE_LOW_URL"].endswith("/docchat-ingest-low")


def test_bootstrap_reapplies_changed_queue_settings(moto_aws: None) -> None:
    clients = _moto_clients()
    settings = _settings()
    bootstrap(settings, **clients)
    changed = settings.with_overrides(queue_max_receives=7, queue_visibility_seconds=900)
    report = bootstrap(changed, **clients)
    attrs = clients["sqs"].get_queue_attributes(QueueUrl=report.queue_urls["low"], AttributeNames=["All"])[
        "Attributes"]
    assert json.loads(attrs["RedrivePolicy"])["maxReceiveCount"] == 7
    assert attrs["VisibilityTimeout"] == "900"


def test_queue_names_follow_configured_urls() -> None:
    assert queue_name(HIGH_QUEUE, None) == "docchat-ingest-high"
    assert queue_name(HIGH_QUEUE, "http://127.0.0.1:5000/000000000000/mine-high") == "mine-high"


def test_existing_table_without_its_indexes_is_refused(moto_aws: None) -> None:
    clients = _moto_clients()
    settings = _settings()
    kwargs = create_table_kwargs(settings.store.workflow_table, WORKFLOW_TABLE)
    kwargs.pop("GlobalSecondaryIndexes")
    kwargs["AttributeDefinitions"] = kwargs["AttributeDefinitions"][:2]  # type: ignore[index]
    clients["dynamodb"].create_table(**kwargs)
    with pytest.raises(ConfigError, match="without the index"):
        bootstrap(settings, **clients)


def test_unreachable_endpoint_is_a_retryable_error(aws_env: None) -> None:
    from botocore.config import Config

    cfg = Config(retries={"max_attempts": 1}, connect_timeout=0.5)
    clients = {s: boto3.client(s, endpoint_url="http://127.0.0.1:9", config=cfg, **FAKE_CREDS)
               for s in ("dynamodb", "s3", "sqs")}
    with pytest.raises(RetryableError, match="cannot reach DynamoDB"):
        bootstrap(_settings(), **clients)


def test_bootstrap_twice_on_dynamodb_local(dynamodb_local: str, moto_aws: None) -> None:
    """The tables on the real DynamoDB Local (buckets and queues on moto): twice, no error."""
    settings = _settings()
    clients = _moto_clients()
    clients["dynamodb"] = boto3.client("dynamodb", endpoint_url=dynamodb_local, **FAKE_CREDS)
    try:
        bootstrap(settings, **clients)
        again = bootstrap(settings, **clients)
        assert again.created == []
        _check_everything(settings, clients, again)
    finally:
        for name in (settings.store.workflow_table, settings.store.sessions_table):
            clients["dynamodb"].delete_table(TableName=name)


def test_the_bootstrap_command_prints_the_queue_variables(moto_aws: None, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from chat.cli.main import main

    monkeypatch.setenv("DOCCHAT_BACKEND", "aws")
    assert main(["aws", "bootstrap", "--print-env"]) == 0
    lines = capsys.readouterr().out.split()
    assert sorted(line.split("=", 1)[0] for line in lines) == ["DOCCHAT_QUEUE_HIGH_URL", "DOCCHAT_QUEUE_LOW_URL"]
    assert main(["aws", "bootstrap"]) == 0
    assert "created: nothing" in capsys.readouterr().out
