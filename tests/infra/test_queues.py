"""High/low ingest queues: DLQ redrive, visibility, encryption, TLS-only."""

from __future__ import annotations

from typing import Any

import pytest


def _queues(synth) -> dict[str, dict[str, Any]]:
    return {k: v["Properties"] for k, v in synth.resources("AWS::SQS::Queue").items()}


@pytest.mark.parametrize("variant", ["default", "alt"])
def test_each_queue_redrives_to_its_own_dead_letter_queue(variant: str, synthesized) -> None:
    synth = synthesized[variant]
    queues = _queues(synth)
    assert len(queues) == 4
    for lane in ("High", "Low"):
        main = next(p for k, p in queues.items() if k.startswith(f"Queues{lane}Queue"))
        dlq_id = next(k for k in queues if k.startswith(f"Queues{lane}DeadLetterQueue"))
        redrive = main["RedrivePolicy"]
        assert redrive["deadLetterTargetArn"] == {"Fn::GetAtt": [dlq_id, "Arn"]}
        assert redrive["maxReceiveCount"] == synth.config.settings.queue.queue_max_receives
        assert main["VisibilityTimeout"] == synth.config.queue_visibility_seconds
        assert main["VisibilityTimeout"] >= 2 * synth.config.settings.ingest.parse_timeout_seconds
        assert main["ReceiveMessageWaitTimeSeconds"] == 20


def test_redrive_count_follows_settings(alt) -> None:
    assert alt.config.settings.queue.queue_max_receives == 3
    assert {p["RedrivePolicy"]["maxReceiveCount"] for p in _queues(alt).values() if "RedrivePolicy" in p} == {3}


@pytest.mark.parametrize("variant", ["default", "alt"])
def test_all_queues_are_encrypted_and_tls_only(variant: str, synthesized) -> None:
    synth = synthesized[variant]
    for props in _queues(synth).values():
        assert props["SqsManagedSseEnabled"] is True
    policies = synth.resources("AWS::SQS::QueuePolicy")
    assert len(policies) == 4
    for policy in policies.values():
        statements = policy["Properties"]["PolicyDocument"]["Statement"]
        assert any(
            s["Effect"] == "Deny" and s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}} for s in statements
        )


def test_dead_letters_raise_an_alarm(default) -> None:
    alarms = [
        a["Properties"]
        for a in default.resources("AWS::CloudWatch::Alarm").values()
        if a["Properties"].get("MetricName") == "ApproximateNumberOfMessagesVisible"
    ]
    dimensions = [a["Dimensions"][0]["Value"]["Fn::GetAtt"][0] for a in alarms]
    assert sorted(d.split("DeadLetterQueue")[0] for d in dimensions) == ["QueuesHigh", "QueuesLow"]
    assert all(a["AlarmActions"] for a in alarms)


def test_queues_match_the_shared_definitions_bootstrap_uses(default) -> None:
    """infra/ and ``docchat aws bootstrap`` read the same ``store.schema`` queue specs."""
    from store.schema import DLQ_RETENTION_SECONDS, HIGH_QUEUE, LOW_QUEUE, queue_visibility_seconds

    settings = default.config.settings
    queues = _queues(default)
    mains = [p for k, p in queues.items() if "DeadLetter" not in k]
    dlqs = [p for k, p in queues.items() if "DeadLetter" in k]
    for spec, props in zip((HIGH_QUEUE, LOW_QUEUE), sorted(mains, key=lambda p: str(p)), strict=True):
        assert props["ReceiveMessageWaitTimeSeconds"] == spec.receive_wait_seconds
        assert props["MessageRetentionPeriod"] == spec.retention_seconds
        assert props["VisibilityTimeout"] == queue_visibility_seconds(
            settings.queue.queue_visibility_seconds, settings.ingest.parse_timeout_seconds)
    assert {p["MessageRetentionPeriod"] for p in dlqs} == {DLQ_RETENTION_SECONDS}
