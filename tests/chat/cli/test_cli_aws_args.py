"""The command line of aws mode on one machine: ``serve --data-dir``, ``up --aws-local``, ``aws bootstrap``,
``dev-token``."""

from __future__ import annotations

from pathlib import Path

from chat.cli.main import _settings, build_parser


def test_serve_takes_a_data_dir(tmp_path: Path) -> None:
    args = build_parser().parse_args(["serve", "--port", "8123", "--data-dir", str(tmp_path)])
    settings = _settings(args)
    assert settings.server.data_dir == tmp_path and settings.server.port == 8123


def test_up_aws_local_arguments(tmp_path: Path) -> None:
    args = build_parser().parse_args(["up", "--aws-local", "--api-processes", "3", "--port", "9000",
                                      "--data-dir", str(tmp_path)])
    assert args.aws_local and args.api_processes == 3 and args.port == 9000
    assert build_parser().parse_args(["up"]).aws_local is False


def test_bootstrap_and_dev_token_parse() -> None:
    assert build_parser().parse_args(["aws", "bootstrap"]).print_env is False
    tok = build_parser().parse_args(["dev-token", "alice", "--groups", "x"])
    assert tok.user == "alice" and tok.groups == "x"


def test_up_aws_local_without_dynamodb_local_says_how_to_get_it(tmp_path: Path) -> None:
    import pytest

    from chat.cli.aws_local import run_aws_local
    from store.config import Settings
    from store.errors import ConfigError

    settings = Settings(data_dir=tmp_path, tools_dir=tmp_path / "no-tools")
    with pytest.raises(ConfigError, match=r"make tools|Java"):
        run_aws_local(settings, api_processes=1, port=18999)
    with pytest.raises(ConfigError, match="at least 1"):
        run_aws_local(settings, api_processes=0)
