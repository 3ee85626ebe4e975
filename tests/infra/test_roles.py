"""Least privilege of the two application roles (API task, worker task)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from docchat_infra.bedrock import PROFILE_REGIONS


def _text(value: Any) -> str:
    """A resource as text: literals as-is, ``Fn::Join`` flattened, other intrinsics as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and "Fn::Join" in value:
        sep, parts = value["Fn::Join"]
        return sep.join(_text(p) for p in parts)
    return json.dumps(value, sort_keys=True)


def _role_id(synth, fragment: str) -> str:
    (role,) = [k for k in synth.resources("AWS::IAM::Role") if k.startswith("Roles") and fragment in k]
    return role


def _statements(synth, role_id: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for policy in synth.resources("AWS::IAM::Policy").values():
        props = policy["Properties"]
        if {"Ref": role_id} in props["Roles"]:
            out += props["PolicyDocument"]["Statement"]
    assert out, f"no policy attached to {role_id}"
    return out


def _actions(statement: dict[str, Any]) -> list[str]:
    actions = statement["Action"]
    return [actions] if isinstance(actions, str) else list(actions)


def _resources(statement: dict[str, Any]) -> list[str]:
    res = statement["Resource"]
    return [_text(r) for r in (res if isinstance(res, list) else [res])]


@pytest.mark.parametrize("variant", ["default", "alt"])
@pytest.mark.parametrize("role", ["ApiTaskRole", "WorkerTaskRole"])
def test_no_wildcard_resources_in_bedrock_or_dynamodb_statements(variant: str, role: str, synthesized) -> None:
    synth = synthesized[variant]
    statements = _statements(synth, _role_id(synth, role))
    checked = 0
    for statement in statements:
        assert statement["Effect"] == "Allow"
        services = {a.split(":")[0] for a in _actions(statement)}
        if services & {"bedrock", "dynamodb"}:
            checked += 1
            assert services <= {"bedrock", "dynamodb"}
            for resource in _resources(statement):
                assert "*" not in resource, f"{role}: wildcard resource {resource}"
    assert checked >= 2
    for statement in statements:
        assert "*" not in _actions(statement) and not any(a.endswith(":*") for a in _actions(statement))
        assert _resources(statement) != ["*"]


def test_bedrock_models_are_exactly_the_configured_ones(default) -> None:
    s = default.config.settings
    api = _statements(default, _role_id(default, "ApiTaskRole"))
    bedrock = [st for st in api if any(a.startswith("bedrock:") for a in _actions(st))]
    resources = {r for st in bedrock for r in _resources(st)}
    expected = {f"arn:aws:bedrock:${{AWS::Region}}::foundation-model/{s.retrieval.embedding_model_id}"}
    for model in (s.chat.bedrock_model_id, s.chat.bedrock_title_model_id):
        geo, base = model.split(".", 1)
        expected.add(f"arn:aws:bedrock:${{AWS::Region}}:${{AWS::AccountId}}:inference-profile/{model}")
        expected |= {f"arn:aws:bedrock:{r}::foundation-model/{base}" for r in PROFILE_REGIONS[geo]}
    rendered = {
        r.replace('{"Ref": "AWS::Region"}', "${AWS::Region}").replace('{"Ref": "AWS::AccountId"}', "${AWS::AccountId}")
        for r in resources
    }
    assert rendered == expected
    for st in bedrock:
        assert set(_actions(st)) == {"bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream"}
        if any("foundation-model/anthropic" in r for r in _resources(st)):
            assert "bedrock:InferenceProfileArn" in st["Condition"]["StringEquals"]


def test_worker_invokes_only_the_embedding_model(default) -> None:
    worker = _statements(default, _role_id(default, "WorkerTaskRole"))
    resources = [r for st in worker if any(a.startswith("bedrock:") for a in _actions(st)) for r in _resources(st)]
    assert len(resources) == 1 and resources[0].endswith(
        f"foundation-model/{default.config.settings.retrieval.embedding_model_id}"
    )


def test_worker_cannot_touch_chat_sessions_and_api_cannot_consume_jobs(default) -> None:
    sessions_ids = [
        k for k in default.json["Resources"] if k.startswith(("StorageSessionsTable", "StorageSessionsBucket"))
    ]
    worker = json.dumps(_statements(default, _role_id(default, "WorkerTaskRole")))
    assert sessions_ids and not any(k in worker for k in sessions_ids)
    api_statements = _statements(default, _role_id(default, "ApiTaskRole"))
    api_actions = {a for st in api_statements for a in _actions(st)}
    work = {k for k in default.resources("AWS::SQS::Queue") if "DeadLetter" not in k}
    for st in api_statements:  # it may consume the dead-letter queues (/v1/ops/dlq), never the work queues
        if {"sqs:ReceiveMessage", "sqs:DeleteMessage"} & set(_actions(st)):
            assert not any(q in json.dumps(st["Resource"]) for q in work)
    assert "dynamodb:Scan" not in api_actions
    assert {"dynamodb:Query", "dynamodb:PutItem", "sqs:SendMessage", "s3:GetObject"} <= api_actions


def test_dynamodb_access_names_the_tables_and_their_indexes(default) -> None:
    api = _statements(default, _role_id(default, "ApiTaskRole"))
    (items,) = [st for st in api if any(a.startswith("dynamodb:") for a in _actions(st))]
    text = _resources(items)
    assert sum("/index/" in r for r in text) == 3  # workflows GSI1+GSI2, sessions GSI1
    assert all(r.endswith(("/index/GSI1", "/index/GSI2")) or "/index/" not in r for r in text)


@pytest.mark.parametrize("role", ["ApiTaskRole", "WorkerTaskRole"])
def test_task_roles_trust_only_ecs_tasks_of_this_account(role: str, default) -> None:
    props = default.json["Resources"][_role_id(default, role)]["Properties"]
    (statement,) = props["AssumeRolePolicyDocument"]["Statement"]
    assert statement["Principal"] == {"Service": "ecs-tasks.amazonaws.com"}
    assert statement["Condition"]["StringEquals"] == {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}


# --- the grants cover what the adapters actually call ---------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]

#: boto3 operations that IAM authorises under another action (or per item, for transactions).
S3_ACTIONS = {
    "put_object": ["s3:PutObject"],
    "upload_fileobj": ["s3:PutObject", "s3:AbortMultipartUpload"],
    "get_object": ["s3:GetObject"],
    "head_object": ["s3:GetObject"],
    "generate_presigned_url": ["s3:GetObject"],
    "delete_object": ["s3:DeleteObject"],
    "delete_objects": ["s3:DeleteObject"],
    "list_objects_v2": ["s3:ListBucket"],
}
DYNAMODB_PER_ITEM = {"transact_write_items": ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"]}


def _pascal(op: str) -> str:
    return "".join(part.capitalize() for part in op.split("_"))


def _called(path: str, pattern: str) -> set[str]:
    return set(re.findall(pattern, (ROOT / path).read_text(encoding="utf-8")))


def _granted(synth, role: str, service: str) -> set[str]:
    return {a for st in _statements(synth, _role_id(synth, role)) for a in _actions(st) if a.startswith(service)}


@pytest.mark.parametrize("role", ["ApiTaskRole", "WorkerTaskRole"])
def test_item_table_adapter_calls_are_all_granted(role: str, default) -> None:
    ops = _called("store/dynamo.py", r'_call\(\s*"([a-z_]+)"')
    assert {"query", "put_item"} <= ops
    needed = {a for op in ops for a in DYNAMODB_PER_ITEM.get(op, [f"dynamodb:{_pascal(op)}"])}
    assert needed <= _granted(default, role, "dynamodb:")


@pytest.mark.parametrize("role", ["ApiTaskRole", "WorkerTaskRole"])
def test_blob_store_adapter_calls_are_all_granted(role: str, default) -> None:
    ops = _called("store/blobs.py", r"client\.([a-z_]+)\(") | _called(
        "store/blobs.py", r'get_paginator\("([a-z_0-9]+)"'
    )
    ops.discard("get_paginator")
    assert ops <= set(S3_ACTIONS), f"new S3 operation(s) in store/blobs.py: {sorted(ops - set(S3_ACTIONS))}"
    needed = {a for op in ops for a in S3_ACTIONS[op]}
    assert needed <= _granted(default, role, "s3:")


def test_job_queue_adapter_calls_are_granted_to_the_worker(default) -> None:
    ops = _called("ingest/queue_sqs.py", r'_call\(\s*"([a-z_]+)"')
    assert {"receive_message", "delete_message", "change_message_visibility"} <= ops
    assert {f"sqs:{_pascal(op)}" for op in ops} <= _granted(default, "WorkerTaskRole", "sqs:")
    api = _granted(default, "ApiTaskRole", "sqs:")
    assert {"sqs:SendMessage", "sqs:GetQueueAttributes"} <= api  # enqueue; the adapter reads the redrive policy


def test_the_api_may_read_and_drop_dead_letters_but_not_take_jobs(default) -> None:
    """/v1/ops/dlq (issue 13 item 5): the API role consumes the two DLQs only; the work queues stay send-only."""
    role = _role_id(default, "ApiTaskRole")
    dlqs = {k for k in default.resources("AWS::SQS::Queue") if "DeadLetter" in k}
    work = {k for k in default.resources("AWS::SQS::Queue") if "DeadLetter" not in k}
    receivers: set[str] = set()
    for st in _statements(default, role):
        if "sqs:ReceiveMessage" in _actions(st):
            res = st["Resource"] if isinstance(st["Resource"], list) else [st["Resource"]]
            receivers |= {r["Fn::GetAtt"][0] for r in res if isinstance(r, dict) and "Fn::GetAtt" in r}
    assert receivers == dlqs and not receivers & work
    assert {"sqs:DeleteMessage", "sqs:ChangeMessageVisibility"} <= _granted(default, "ApiTaskRole", "sqs:")
