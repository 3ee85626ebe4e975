"""Deployment options from CDK context (pure Python, no synthesis)."""

from __future__ import annotations

import pytest
from docchat_infra.config import InfraConfig, config_from_mapping

from store.config import Settings
from store.errors import ConfigError


def test_defaults_are_an_aws_deployment_of_the_default_settings() -> None:
    config = config_from_mapping({})
    assert config == InfraConfig(settings=Settings(backend="aws", data_dir=config.settings.server.data_dir))
    assert config.settings.server.backend == "aws"
    assert config.search == "serverless"
    assert config.deletion_protection is True


def test_cli_strings_are_coerced_like_cdk_json_values() -> None:
    from_cli = config_from_mapping(
        {"deletion_protection": "false", "worker_max_tasks": "7", "worker_instance_types": "g5.2xlarge,g6.2xlarge"}
    )
    from_json = config_from_mapping(
        {"deletion_protection": False, "worker_max_tasks": 7, "worker_instance_types": ["g5.2xlarge", "g6.2xlarge"]}
    )
    assert from_cli == from_json
    assert from_cli.worker_instance_types == ("g5.2xlarge", "g6.2xlarge")
    assert from_cli.deletion_protection is False


def test_settings_fields_in_context_become_the_services_settings() -> None:
    config = config_from_mapping({"session_ttl_days": "30", "queue_max_receives": 3, "log_json": True})
    assert config.settings.store.session_ttl_days == 30
    assert config.settings.queue.queue_max_receives == 3


def test_stack_owned_settings_cannot_be_overridden_by_context() -> None:
    config = config_from_mapping({"workflow_table": "someone-elses-table", "backend": "local"})
    assert config.settings.store.workflow_table == Settings().store.workflow_table
    assert config.settings.server.backend == "aws"


def test_invalid_setting_in_context_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="DOCCHAT_SESSION_TTL_DAYS"):
        config_from_mapping({"session_ttl_days": "ninety"})
    with pytest.raises(ConfigError, match="deletion_protection"):
        config_from_mapping({"deletion_protection": "maybe"})


@pytest.mark.parametrize(
    ("context", "message"),
    [
        ({"nat_gateways": 0}, "nat_gateways"),
        ({"max_azs": 1}, "max_azs"),
        ({"api_min_tasks": 5, "api_max_tasks": 2}, "api_min_tasks"),
        ({"worker_max_tasks": 0}, "worker_max_tasks"),
        ({"alb_idle_timeout_seconds": 5000}, "4000"),
        ({"alb_idle_timeout_seconds": 30}, "sse_keepalive"),
        ({"search": "elastic"}, "search"),
        ({"domain_name": "chat.example.com"}, "certificate_arn"),
        ({"search_name": "Docchat_Prod"}, "search_name"),
        ({"worker_instance_types": ""}, "worker_instance_types"),
    ],
)
def test_bad_options_fail_at_synthesis_with_a_reason(context: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config_from_mapping(context)


def test_queue_visibility_covers_the_longest_step_and_never_undercuts_settings() -> None:
    config = config_from_mapping({"parse_timeout_seconds": "600", "queue_visibility_seconds": "300"})
    assert config.queue_visibility_seconds == 1200  # two sandboxed parses' worth
    config = config_from_mapping({"parse_timeout_seconds": "60", "queue_visibility_seconds": "900"})
    assert config.queue_visibility_seconds == 900
    default = config_from_mapping({})
    assert default.queue_visibility_seconds >= 2 * default.settings.ingest.parse_timeout_seconds
