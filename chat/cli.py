"""The ``docchat`` command line: ``up``, ``serve``, ``worker``, ``ingest``, ``ask``, ``eval``.

Each subcommand imports its implementation lazily so ``docchat --help`` is fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from store.config import Settings
from store.errors import DocchatError
from store.logging import configure_logging


def _settings(args: argparse.Namespace) -> Settings:
    overrides: dict[str, Any] = {}
    if getattr(args, "data_dir", None):
        overrides["data_dir"] = Path(args.data_dir).expanduser()
    if getattr(args, "host", None):
        overrides["host"] = args.host
    if getattr(args, "port", None):
        overrides["port"] = args.port
    return Settings.from_env(**overrides)


def _cmd_up(args: argparse.Namespace) -> int:
    from chat.server import run_up

    return run_up(_settings(args))


def _cmd_serve(args: argparse.Namespace) -> int:
    from chat.server import run_serve

    return run_serve(_settings(args))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docchat", description="Chat with your documents.")
    sub = parser.add_subparsers(dest="command", required=True)

    up = sub.add_parser("up", help="run the service on embedded defaults (workers in-process)")
    up.add_argument("--host", default=None)
    up.add_argument("--port", type=int, default=None)
    up.add_argument("--data-dir", default=None)
    up.set_defaults(func=_cmd_up)

    serve = sub.add_parser("serve", help="run the API for production (uvicorn)")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    serve.set_defaults(func=_cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
        configure_logging(settings.log_level, json=settings.log_json)
        code: int = args.func(args)
        return code
    except DocchatError as exc:
        print(f"docchat: {exc.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
