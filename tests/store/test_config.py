"""store/config.py: sections, one read of the environment, and every bad value refused with the variable's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from store.config import FIELDS, SECTIONS, ChatSettings, Settings, setting_fields
from store.errors import ConfigError


def test_sections_hold_their_fields_and_flat_names_are_unique() -> None:
    s = Settings(data_dir=Path("/tmp/x"), chat_model="bedrock", index_backend="opensearch", max_pages=10)
    assert s.server.data_dir == Path("/tmp/x")
    assert s.chat.chat_model == "bedrock"
    assert s.retrieval.index_backend == "opensearch"
    assert s.ingest.max_pages == 10
    names = [f.name for f in setting_fields()]
    assert len(names) == len(set(names)) == len(FIELDS)
    assert {f.section for f in setting_fields()} == set(SECTIONS)
    assert all(f.env_var == "DOCCHAT_" + f.name.upper() for f in setting_fields())


def test_from_env_reads_docchat_and_aws_variables() -> None:
    s = Settings.from_env(env={"DOCCHAT_CHAT_MODEL": "bedrock", "DOCCHAT_MAX_TOOL_ROUNDS": "6",
                               "AWS_REGION": "eu-west-1", "DOCCHAT_RENDER_GRAYSCALE": "yes",
                               "DOCCHAT_LOG_LEVEL": "debug", "DOCCHAT_PORT": ""})
    assert (s.chat.chat_model, s.chat.max_tool_rounds, s.aws.aws_region) == ("bedrock", 6, "eu-west-1")
    assert s.ingest.render_grayscale is True
    assert s.server.log_level == "DEBUG"
    assert s.server.port == 8000  # empty = default


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({"DOCCHAT_CHAT_MODEL": "bedrok"}, ["DOCCHAT_CHAT_MODEL", "'bedrock'", "'local'"]),
        ({"DOCCHAT_INDEX_BACKEND": "opensarch"}, ["DOCCHAT_INDEX_BACKEND", "'lance'", "'opensearch'"]),
        ({"DOCCHAT_BACKEND": "gcp"}, ["DOCCHAT_BACKEND", "'aws'"]),
        ({"DOCCHAT_LOG_LEVEL": "loud"}, ["DOCCHAT_LOG_LEVEL", "'INFO'"]),
        ({"DOCCHAT_EMBEDDING_DIMENSION": "768"}, ["DOCCHAT_EMBEDDING_DIMENSION", "1024"]),
        ({"DOCCHAT_HIGH_PRIORITY_SHARE": "1.5"}, ["DOCCHAT_HIGH_PRIORITY_SHARE", "< 1.0"]),
        ({"DOCCHAT_PORT": "70000"}, ["DOCCHAT_PORT", "<= 65535"]),
        ({"DOCCHAT_WORKER_CONCURRENCY": "0"}, ["DOCCHAT_WORKER_CONCURRENCY", ">= 1"]),
        ({"DOCCHAT_HYBRID_KEYWORD_WEIGHT": "-0.1"}, ["DOCCHAT_HYBRID_KEYWORD_WEIGHT", ">= 0.0"]),
        ({"DOCCHAT_INLINE_MAX_BYTES": "500000"}, ["DOCCHAT_INLINE_MAX_BYTES", "<= 389120"]),
        ({"DOCCHAT_MAX_PAGES": "many"}, ["DOCCHAT_MAX_PAGES", "integer"]),
        ({"DOCCHAT_LOG_JSON": "maybe"}, ["DOCCHAT_LOG_JSON", "boolean"]),
        ({"DOCCHAT_CHUNK_TOKENS": "64", "DOCCHAT_CHUNK_OVERLAP_TOKENS": "64"}, ["DOCCHAT_CHUNK_OVERLAP_TOKENS"]),
        ({"DOCCHAT_CONTEXT_WINDOW_TOKENS": "10000"}, ["DOCCHAT_COMPACTION_THRESHOLD_TOKENS"]),
    ],
)
def test_bad_values_fail_with_the_variable_and_what_is_allowed(env: dict[str, str], names: list[str]) -> None:
    with pytest.raises(ConfigError) as err:
        Settings.from_env(env=env)
    for name in names:
        assert name in err.value.message


def test_every_literal_field_is_checked() -> None:
    for f in setting_fields():
        choices = getattr(f.type, "__args__", None)
        if f.default is None or not isinstance(f.default, str) or not choices or "Literal" not in str(f.type):
            continue
        with pytest.raises(ConfigError, match=f.env_var):
            Settings(**{f.name: "no-such-choice"})


def test_overrides_are_validated_and_unknown_names_refused() -> None:
    s = Settings()
    assert s.with_overrides(max_tool_rounds=2).chat.max_tool_rounds == 2
    assert s.chat.max_tool_rounds == 4  # the original is unchanged
    with pytest.raises(ConfigError, match="DOCCHAT_MAX_TOOL_ROUNDS"):
        s.with_overrides(max_tool_rounds=0)
    with pytest.raises(ConfigError, match="unknown setting"):
        s.with_overrides(max_tool_round=2)
    with pytest.raises(ConfigError, match="unknown setting"):
        Settings(chat_modle="local")


def test_settings_are_immutable_and_compare_by_value() -> None:
    s = Settings()
    with pytest.raises(AttributeError):
        s.chat = ChatSettings()  # type: ignore[misc]
    assert s == Settings() and hash(s) == hash(Settings())
    assert s != s.with_overrides(port=9000)
    assert s.flat()["port"] == 8000 and s.get("chat_model") == "local"
    with pytest.raises(KeyError):
        s.get("nope")


def test_per_service_endpoints_win_over_the_general_one() -> None:
    from store.clients import aws_client

    env = {
        "AWS_ENDPOINT_URL": "http://127.0.0.1:4566",
        "AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:8001",  # boto3's own per-service variable
        "DOCCHAT_AWS_ENDPOINT_URL_SQS": "http://127.0.0.1:5000",
        "AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x",
    }
    s = Settings.from_env(env=env)
    assert s.aws.endpoint_for("dynamodb") == "http://127.0.0.1:8001"
    assert s.aws.endpoint_for("sqs") == "http://127.0.0.1:5000"
    assert s.aws.endpoint_for("s3") == "http://127.0.0.1:4566"
    assert aws_client(s, "dynamodb").meta.endpoint_url == "http://127.0.0.1:8001"
    assert aws_client(s, "sqs").meta.endpoint_url == "http://127.0.0.1:5000"
    assert aws_client(s, "s3").meta.endpoint_url == "http://127.0.0.1:4566"
    both = Settings.from_env(env={"AWS_ENDPOINT_URL_S3": "http://a:1", "DOCCHAT_AWS_ENDPOINT_URL_S3": "http://b:2"})
    assert both.aws.endpoint_for("s3") == "http://b:2"


def test_env_for_renders_settings_for_a_child_process() -> None:
    from store.config import env_for

    s = Settings(backend="aws", log_json=True, queue_max_receives=3)
    env = env_for(s.flat())
    assert env["DOCCHAT_BACKEND"] == "aws" and env["DOCCHAT_LOG_JSON"] == "true"
    assert "DOCCHAT_OIDC_ISSUER" not in env  # None is left out
    assert Settings.from_env(env=env) == s
