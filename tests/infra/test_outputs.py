"""Stack outputs <-> DOCCHAT_* settings: names, the dotenv tool, and the synthesised outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docchat_infra.outputs import (
    EXTRA_OUTPUTS,
    env_var,
    main,
    output_key,
    setting_for_output,
    settings_env_from_outputs,
)

from store.config import Settings, setting_fields
from store.errors import ConfigError

#: What a deployed service cannot run without: these must come out of the stack.
REQUIRED = {
    "workflow_table",
    "sessions_table",
    "documents_bucket",
    "sessions_bucket",
    "queue_high_url",
    "queue_low_url",
    "opensearch_endpoint",
    "opensearch_service",
    "cognito_user_pool_id",
    "cognito_client_id",
    "cognito_domain",
    "aws_region",
    "backend",
}


@pytest.mark.parametrize("name", [f.name for f in setting_fields()])
def test_every_settings_field_round_trips_through_an_output_key(name: str) -> None:
    key = output_key(name)
    assert key.isalnum()
    assert setting_for_output(key) == name
    assert env_var(name) == "DOCCHAT_" + name.upper()


def test_unknown_names_are_rejected() -> None:
    with pytest.raises(KeyError):
        output_key("not_a_setting")
    assert setting_for_output("ServiceUrl") is None


def test_outputs_file_becomes_a_dotenv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outputs = {
        "Docchat": {
            "WorkflowTable": "Docchat-StorageWorkflowTable-1",
            "QueueHighUrl": "https://sqs.us-east-1.amazonaws.com/111122223333/high",
            "Backend": "aws",
            "SessionTtlDays": "30",
            "ServiceUrl": "http://lb.example",
        }
    }
    path = tmp_path / "cdk-outputs.json"
    path.write_text(json.dumps(outputs), encoding="utf-8")
    assert main([str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "DOCCHAT_BACKEND=aws",
        "DOCCHAT_QUEUE_HIGH_URL=https://sqs.us-east-1.amazonaws.com/111122223333/high",
        "DOCCHAT_SESSION_TTL_DAYS=30",
        "DOCCHAT_WORKFLOW_TABLE=Docchat-StorageWorkflowTable-1",
    ]
    settings = Settings.from_env(dict(line.split("=", 1) for line in lines))
    assert settings.server.backend == "aws"
    assert settings.store.session_ttl_days == 30


def test_a_value_that_does_not_parse_fails_early() -> None:
    with pytest.raises(ConfigError):
        settings_env_from_outputs({"SessionTtlDays": "soon"})


def test_several_stacks_need_a_choice(tmp_path: Path) -> None:
    path = tmp_path / "o.json"
    path.write_text(json.dumps({"A": {"Backend": "aws"}, "B": {"Backend": "aws"}}), encoding="utf-8")
    with pytest.raises(SystemExit, match="--stack"):
        main([str(path)])
    assert main([str(path), "--stack", "B"]) == 0


@pytest.mark.parametrize("variant", ["default", "alt"])
def test_synthesised_outputs_are_settings_fields_or_documented_extras(variant: str, synthesized) -> None:
    outputs = synthesized[variant].json["Outputs"]
    for key, output in outputs.items():
        name = setting_for_output(key)
        if name is None:
            assert key in EXTRA_OUTPUTS, f"output {key} is neither a Settings field nor a documented extra"
        else:
            assert output["Description"] == env_var(name)
    published = {setting_for_output(k) for k in outputs} - {None}
    assert published >= REQUIRED
    assert EXTRA_OUTPUTS <= set(outputs)


def test_literal_outputs_parse_as_settings(default) -> None:
    outputs = default.json["Outputs"]
    literal = {k: o["Value"] for k, o in outputs.items() if isinstance(o["Value"], str) and setting_for_output(k)}
    env = settings_env_from_outputs(literal)
    settings = Settings.from_env(env)
    assert settings.server.backend == "aws"
    assert settings.retrieval.index_backend == "opensearch"
    assert settings.retrieval.embedder == "bedrock"
    assert settings.chat.chat_model == "bedrock"
    assert settings.retrieval.opensearch_service == "aoss"


@pytest.mark.parametrize("variant", ["default", "alt"])
def test_outputs_reproduce_the_api_containers_settings(variant: str, synthesized) -> None:
    synth = synthesized[variant]
    from_outputs = {
        env_var(name): o["Value"] for k, o in synth.json["Outputs"].items() if (name := setting_for_output(k))
    }
    (api,) = [
        c
        for t in synth.resources("AWS::ECS::TaskDefinition").values()
        for c in t["Properties"]["ContainerDefinitions"]
        if c["Name"] == "api"
    ]
    container_only = {"DOCCHAT_HOST", "DOCCHAT_PORT", "DOCCHAT_LOG_JSON"}
    in_container = {e["Name"]: e["Value"] for e in api["Environment"] if e["Name"] not in container_only}
    assert from_outputs == in_container
