"""The whole template: container settings, and cfn-lint with zero errors."""

from __future__ import annotations

from typing import Any

import pytest
from cfnlint.api import ManualArgs, lint_file
from docchat_infra.config import SETTINGS_FIELDS

from store.config import Settings


def _containers(synth) -> dict[str, dict[str, Any]]:
    out = {}
    for task in synth.resources("AWS::ECS::TaskDefinition").values():
        for container in task["Properties"]["ContainerDefinitions"]:
            out[container["Name"]] = container
    return out


def _literal_env(container: dict[str, Any]) -> dict[str, str]:
    """Environment with CloudFormation intrinsics replaced by a placeholder string."""
    return {
        e["Name"]: e["Value"] if isinstance(e["Value"], str) else "resolved-at-deploy" for e in container["Environment"]
    }


@pytest.mark.parametrize("variant", ["default", "alt"])
def test_container_environment_is_valid_settings(variant: str, synthesized) -> None:
    synth = synthesized[variant]
    containers = _containers(synth)
    assert set(containers) == {"api", "worker"}
    for name, container in containers.items():
        env = _literal_env(container)
        for key in env:
            if key == "AWS_REGION":  # set by the CDK on EC2 task definitions; boto3's own, Settings honours it
                continue
            assert key.startswith("DOCCHAT_") and key[8:].lower() in SETTINGS_FIELDS, key
        settings = Settings.from_env(env)
        assert settings.server.backend == "aws"
        assert settings.server.host == "0.0.0.0"
        assert settings.queue.queue_visibility_seconds == synth.config.queue_visibility_seconds
        assert settings.queue.queue_max_receives == synth.config.settings.queue.queue_max_receives
        assert settings.store.session_ttl_days == synth.config.settings.store.session_ttl_days
        assert settings.chat.bedrock_model_id == synth.config.settings.chat.bedrock_model_id
        assert settings.retrieval.index_backend == "opensearch" and settings.retrieval.embedder == "bedrock"
        assert settings.chat.chat_model == "bedrock"
        assert settings.retrieval.opensearch_service == ("es" if synth.config.search == "domain" else "aoss")
        assert container["PortMappings"][0]["ContainerPort"] == settings.server.port if name == "api" else True


def test_settings_overridden_in_context_reach_the_containers(alt) -> None:
    env = _literal_env(_containers(alt)["api"])
    assert env["DOCCHAT_MAX_PAGES"] == "500"
    assert env["DOCCHAT_SESSION_TTL_DAYS"] == "30"
    assert env["DOCCHAT_BEDROCK_TITLE_MODEL_ID"] == "anthropic.claude-3-haiku-20240307-v1:0"


def test_resource_settings_reference_the_stacks_resources(default) -> None:
    env = {e["Name"]: e["Value"] for e in _containers(default)["api"]["Environment"]}
    ids = default.json["Resources"]
    for key, prefix in {
        "DOCCHAT_WORKFLOW_TABLE": "StorageWorkflowTable",
        "DOCCHAT_SESSIONS_TABLE": "StorageSessionsTable",
        "DOCCHAT_DOCUMENTS_BUCKET": "StorageDocumentsBucket",
        "DOCCHAT_SESSIONS_BUCKET": "StorageSessionsBucket",
        "DOCCHAT_QUEUE_HIGH_URL": "QueuesHighQueue",
        "DOCCHAT_QUEUE_LOW_URL": "QueuesLowQueue",
        "DOCCHAT_COGNITO_USER_POOL_ID": "AuthUserPool",
    }.items():
        ref = env[key]["Ref"]
        assert ref in ids and ref.startswith(prefix), key
    assert env["DOCCHAT_OPENSEARCH_ENDPOINT"] == {
        "Fn::GetAtt": [next(iter(default.resources("AWS::OpenSearchServerless::Collection"))), "CollectionEndpoint"]
    }
    assert default.json["Outputs"]["WorkflowTable"]["Value"] == env["DOCCHAT_WORKFLOW_TABLE"]


#: Regions the template is checked against (it is environment-agnostic; these are where the GPU instance
#: types, OpenSearch Serverless and the default Bedrock profiles all exist).
LINT_REGIONS = ["us-east-1", "us-west-2"]


@pytest.mark.parametrize("variant", ["default", "alt"])
def test_cfn_lint_reports_no_errors(variant: str, synthesized) -> None:
    matches = lint_file(synthesized[variant].template_file, config=ManualArgs(regions=LINT_REGIONS))
    errors = [f"{m.rule.id} {m.message} ({m.path_string})" for m in matches if m.rule.id.startswith("E")]
    assert errors == []
    assert all(not m.rule.id.startswith("E") for m in matches)
