"""DynamoDB tables shaped by store.schema; S3 buckets locked down with lifecycle rules."""

from __future__ import annotations

from typing import Any

import pytest
from aws_cdk.assertions import Match

from store.schema import (
    ABORT_MULTIPART_DAYS,
    OFFLOAD_GRACE_DAYS,
    PK,
    SESSIONS_TABLE,
    SK,
    TTL_ATTRIBUTE,
    WORKFLOW_TABLE,
    TableSpec,
    create_table_kwargs,
)


def _table(synth, logical_prefix: str) -> dict[str, Any]:
    found = [r for k, r in synth.resources("AWS::DynamoDB::Table").items() if k.startswith(logical_prefix)]
    assert len(found) == 1, logical_prefix
    return found[0]


@pytest.mark.parametrize(
    ("prefix", "spec"), [("StorageWorkflowTable", WORKFLOW_TABLE), ("StorageSessionsTable", SESSIONS_TABLE)]
)
def test_table_matches_the_shared_schema(default, prefix: str, spec: TableSpec) -> None:
    props = _table(default, prefix)["Properties"]
    expected = create_table_kwargs("x", spec)  # the same definition DynamoDB Local and the tests create
    assert props["KeySchema"] == expected["KeySchema"]
    assert sorted(props["AttributeDefinitions"], key=lambda a: a["AttributeName"]) == sorted(
        expected["AttributeDefinitions"], key=lambda a: a["AttributeName"]
    )
    assert sorted(props["GlobalSecondaryIndexes"], key=lambda g: g["IndexName"]) == sorted(
        expected["GlobalSecondaryIndexes"], key=lambda g: g["IndexName"]
    )
    assert props["BillingMode"] == "PAY_PER_REQUEST"
    assert props["TimeToLiveSpecification"] == {"AttributeName": TTL_ATTRIBUTE, "Enabled": True}
    assert props["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True
    assert props["SSESpecification"]["SSEEnabled"] is True
    assert props["DeletionProtectionEnabled"] is True


def test_workflow_table_streams_new_and_old_images_and_sessions_table_has_no_stream(default) -> None:
    workflows = _table(default, "StorageWorkflowTable")["Properties"]
    sessions = _table(default, "StorageSessionsTable")["Properties"]
    assert workflows["StreamSpecification"] == {"StreamViewType": "NEW_AND_OLD_IMAGES"}
    assert "StreamSpecification" not in sessions
    assert [g["IndexName"] for g in sessions["GlobalSecondaryIndexes"]] == ["GSI1"]
    assert {k["AttributeName"] for k in workflows["KeySchema"]} == {PK, SK}


def test_tables_are_retained_unless_deletion_protection_is_off(default, alt) -> None:
    for key in ("StorageWorkflowTable", "StorageSessionsTable"):
        assert _table(default, key)["DeletionPolicy"] == "Retain"
        gone = _table(alt, key)
        assert gone["DeletionPolicy"] == "Delete"
        assert gone["Properties"]["DeletionProtectionEnabled"] is False


@pytest.mark.parametrize("variant", ["default", "alt"])
def test_buckets_are_encrypted_private_and_owner_enforced(variant: str, synthesized) -> None:
    synth = synthesized[variant]
    buckets = synth.resources("AWS::S3::Bucket")
    assert len(buckets) == 2
    for bucket in buckets.values():
        props = bucket["Properties"]
        sse = props["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]["ServerSideEncryptionByDefault"]
        assert sse["SSEAlgorithm"] == "AES256"
        assert props["PublicAccessBlockConfiguration"] == {
            "BlockPublicAcls": True,
            "BlockPublicPolicy": True,
            "IgnorePublicAcls": True,
            "RestrictPublicBuckets": True,
        }
        assert props["OwnershipControls"]["Rules"] == [{"ObjectOwnership": "BucketOwnerEnforced"}]


@pytest.mark.parametrize("variant", ["default", "alt"])
def test_buckets_deny_plain_http(variant: str, synthesized) -> None:
    synth = synthesized[variant]
    policies = synth.resources("AWS::S3::BucketPolicy")
    assert len(policies) == 2
    for policy in policies.values():
        statements = policy["Properties"]["PolicyDocument"]["Statement"]
        assert any(
            s["Effect"] == "Deny"
            and s["Principal"] == {"AWS": "*"}
            and s["Condition"].get("Bool") == {"aws:SecureTransport": "false"}
            for s in statements
        )
        assert any(
            s["Effect"] == "Deny" and "s3:TlsVersion" in s["Condition"].get("NumericLessThan", {}) for s in statements
        )


def _rules(synth, prefix: str) -> dict[str, dict[str, Any]]:
    found = [b for k, b in synth.resources("AWS::S3::Bucket").items() if k.startswith(prefix)]
    assert len(found) == 1
    return {r["Id"]: r for r in found[0]["Properties"]["LifecycleConfiguration"]["Rules"]}


@pytest.mark.parametrize("variant", ["default", "alt"])
def test_offloaded_turns_expire_with_the_session_ttl(variant: str, synthesized) -> None:
    synth = synthesized[variant]
    rules = _rules(synth, "StorageSessionsBucket")
    assert rules["expire-with-session-ttl"]["ExpirationInDays"] == (
        synth.config.settings.store.session_ttl_days + OFFLOAD_GRACE_DAYS
    )
    assert rules["expire-with-session-ttl"]["Status"] == "Enabled"
    assert rules["abort-incomplete-multipart"]["AbortIncompleteMultipartUpload"] == {
        "DaysAfterInitiation": ABORT_MULTIPART_DAYS
    }


def test_alt_stack_ttl_came_from_context(alt) -> None:
    assert alt.config.settings.store.session_ttl_days == 30
    assert _rules(alt, "StorageSessionsBucket")["expire-with-session-ttl"]["ExpirationInDays"] == 31


def test_documents_bucket_is_versioned_with_cleanup(default) -> None:
    rules = _rules(default, "StorageDocumentsBucket")
    assert rules["abort-incomplete-multipart"]["AbortIncompleteMultipartUpload"]["DaysAfterInitiation"] == 1
    assert rules["expire-noncurrent-versions"]["NoncurrentVersionExpiration"]["NoncurrentDays"] > 0
    default.template.has_resource_properties(
        "AWS::S3::Bucket",
        {"VersioningConfiguration": {"Status": "Enabled"}, "LifecycleConfiguration": Match.any_value()},
    )


def test_bucket_lifecycles_match_the_shared_definitions_bootstrap_uses(default) -> None:
    """infra/ and ``docchat aws bootstrap`` derive the buckets' rules from the same ``store.schema`` specs."""
    from store.schema import DOCUMENTS_BUCKET, SESSIONS_BUCKET, lifecycle_rules

    ttl = default.config.settings.store.session_ttl_days
    for logical, spec in (("StorageDocumentsBucket", DOCUMENTS_BUCKET), ("StorageSessionsBucket", SESSIONS_BUCKET)):
        assert set(_rules(default, logical)) == {r["ID"] for r in lifecycle_rules(spec, ttl)}
