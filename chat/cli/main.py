"""The ``docchat`` command line: ``up``, ``serve``, ``worker``, ``ingest``, ``ask``, ``eval``, ``dlq``,
``aws bootstrap``, ``dev-token``.

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


def _cmd_up(args: argparse.Namespace, settings: Settings) -> int:
    if getattr(args, "aws_local", False):
        from chat.cli.aws_local import run_aws_local

        return run_aws_local(settings, api_processes=args.api_processes, port=args.port)
    from chat.app.server import run_up
    from chat.cli.api_client import default_user, listen_url, write_cli_config

    if write_cli_config(settings) is not None:  # `docchat ingest/ask` without --url find this server
        print(f"docchat ingest/ask will use {listen_url(settings)} as user {default_user(settings, None, config={})}"
              f" (recorded in {settings.server.cli_config_file})", flush=True)
    return run_up(settings)


def _cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from chat.app.server import run_serve

    return run_serve(settings)


def _cmd_ask(args: argparse.Namespace, settings: Settings) -> int:
    from chat.cli.ask import run_ask

    return run_ask(
        settings,
        args.question,
        project=args.project,
        session=args.session,
        url=args.url,
        token=args.token,
        user=args.user,
    )


def _cmd_eval_retrieval(args: argparse.Namespace, settings: Settings) -> int:
    from ingest.steps.chunk import chunk_segments
    from retrieval.eval import run as run_retrieval_eval


    def chunker(segments: list[dict[str, Any]], project_id: str, document_id: str, file_name: str) -> list[Any]:
        return chunk_segments(segments, project_id=project_id, document_id=document_id, file_name=file_name,
                              workflow_id=None, max_tokens=settings.ingest.chunk_tokens,
                              overlap_tokens=settings.ingest.chunk_overlap_tokens, language="en")

    return run_retrieval_eval(args, settings, chunker=chunker)


def _cmd_eval_answers(args: argparse.Namespace, settings: Settings) -> int:
    from chat.evaluation.run import run_cli

    return run_cli(settings, args)


def _cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    from chat.cli.ingest import run_ingest

    return run_ingest(settings, args.files, project=args.project, url=args.url, token=args.token,
                      user=args.user, language=args.language)


def _cmd_worker(args: argparse.Namespace, settings: Settings) -> int:
    from ingest.cli import run_worker

    return run_worker(settings, concurrency=args.concurrency, lanes=args.lanes)


def _cmd_dlq(args: argparse.Namespace, settings: Settings) -> int:
    from ingest.cli import run_dlq

    return run_dlq(settings, args.dlq_command, list(getattr(args, "document_ids", None) or []),
                   all_documents=bool(getattr(args, "all", False)), as_json=args.json)


def _cmd_aws_bootstrap(args: argparse.Namespace, settings: Settings) -> int:
    from store.bootstrap import bootstrap_from_settings

    report = bootstrap_from_settings(settings)
    if args.print_env:  # machine-readable: the variables that point the service at the queues
        for key, value in report.settings_env().items():
            print(f"{key}={value}")
        return 0
    made = ", ".join(report.created) or "nothing (everything existed)"
    print(f"tables: {', '.join(report.tables)}\nbuckets: {', '.join(report.buckets)}\ncreated: {made}")
    print("point the service at the queues with:")
    for key, value in report.settings_env().items():
        print(f"  export {key}={value}")
    return 0


def _cmd_dev_token(args: argparse.Namespace, settings: Settings) -> int:
    from chat.cli.local_issuer import dev_token

    groups = tuple(g for g in (args.groups or "").split(",") if g)
    print(dev_token(settings, args.user, settings.server.data_dir, groups=groups, ttl_seconds=args.ttl))
    return 0


URL_HELP = ("service URL (default: DOCCHAT_URL, else the URL the last `docchat up` recorded, "
            "else http://<DOCCHAT_HOST>:<DOCCHAT_PORT>)")
USER_HELP = ("local mode: the user name in the dev token (default: DOCCHAT_LOCAL_USER, else the user `docchat up` "
             "recorded, else the OS user — the name the browser's sign-in offers)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docchat", description="Chat with your documents.")
    sub = parser.add_subparsers(dest="command", required=True)

    up = sub.add_parser("up", help="run the service on embedded defaults (workers in-process)")
    up.add_argument("--host", default=None)
    up.add_argument("--port", type=int, default=None)
    up.add_argument("--data-dir", default=None)
    up.add_argument("--aws-local", action="store_true",
                    help="aws mode on this machine: DynamoDB Local, moto (S3, SQS), a local OIDC issuer, "
                         "N `docchat serve` processes and one `docchat worker`")
    up.add_argument("--api-processes", type=int, default=2, help="with --aws-local: API processes on P, P+1, …")
    up.set_defaults(func=_cmd_up)

    serve = sub.add_parser("serve", help="run the API for production (uvicorn)")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    serve.add_argument("--data-dir", default=None)
    serve.set_defaults(func=_cmd_serve)

    aws = sub.add_parser("aws", help="AWS resources")
    aws_sub = aws.add_subparsers(dest="aws_command", required=True)
    boot = aws_sub.add_parser("bootstrap", help="create the tables, buckets, queues and DLQs (idempotent; the "
                                                "CDK stack's definitions) at the configured endpoints")
    boot.add_argument("--print-env", action="store_true", help="print only DOCCHAT_QUEUE_*_URL=… lines")
    boot.set_defaults(func=_cmd_aws_bootstrap)

    tok = sub.add_parser("dev-token", help="print a token from the local OIDC issuer (of `up --aws-local`)")
    tok.add_argument("user")
    tok.add_argument("--data-dir", default=None)
    tok.add_argument("--groups", default=None, help="comma-separated groups for the groups claim")
    tok.add_argument("--ttl", type=int, default=12 * 3600, help="lifetime in seconds (default 12 h)")
    tok.set_defaults(func=_cmd_dev_token)

    ask = sub.add_parser("ask", help="ask a question about your documents (streams the answer with citations)")
    ask.add_argument("question")
    ask.add_argument("--project", default=None, help="search only this project (name or id)")
    ask.add_argument("--session", default=None, help="continue this session (id printed by an earlier ask)")
    ask.add_argument("--url", default=None, help=URL_HELP)
    ask.add_argument("--token", default=None, help="bearer token (aws mode); local mode uses dev:<user>")
    ask.add_argument("--user", default=None, help=USER_HELP)
    ask.set_defaults(func=_cmd_ask)

    ing = sub.add_parser("ingest", help="upload files to a project and follow their analysis (progress bars)")
    ing.add_argument("files", nargs="+", metavar="FILE")
    ing.add_argument("--project", required=True, help="project name (or id); created if missing")
    ing.add_argument("--language", default=None, help="language of a new project (en, ko, …)")
    ing.add_argument("--url", default=None, help=URL_HELP)
    ing.add_argument("--token", default=None, help="bearer token (aws mode); local mode uses dev:<user>")
    ing.add_argument("--user", default=None, help=USER_HELP)
    ing.set_defaults(func=_cmd_ingest)

    wk = sub.add_parser("worker", help="run ingest workers against the configured queue (SQS or SQLite)")
    wk.add_argument("--concurrency", type=int, default=None, help="workers (default DOCCHAT_WORKER_CONCURRENCY)")
    wk.add_argument("--lanes", choices=("both", "high", "low"), default="both",
                    help="queues to take from: both (70/30), or only high/low (dedicated pools)")
    wk.add_argument("--data-dir", default=None)
    wk.set_defaults(func=_cmd_worker)

    dlq = sub.add_parser("dlq", help="dead-lettered documents: list them, redrive them (SQS or SQLite)")
    dlq_sub = dlq.add_subparsers(dest="dlq_command", required=True)
    dlq_list = dlq_sub.add_parser("list", help="document, project, reason, attempts and when, oldest first")
    dlq_redrive = dlq_sub.add_parser("redrive", help="reset the workflows and send their jobs again")
    dlq_redrive.add_argument("document_ids", nargs="*", metavar="DOCUMENT_ID")
    dlq_redrive.add_argument("--all", action="store_true", help="every dead-lettered document")
    for p in (dlq_list, dlq_redrive):
        p.add_argument("--json", action="store_true", help="print JSON")
        p.add_argument("--data-dir", default=None)
    dlq.set_defaults(func=_cmd_dlq)

    ev = sub.add_parser("eval", help="measure quality on the evaluation data")
    ev_sub = ev.add_subparsers(dest="eval_command", required=True)
    ev_ret = ev_sub.add_parser("retrieval", help="recall@k / MRR of keyword, vector and hybrid search")
    from retrieval.eval_args import add_arguments as add_retrieval_eval_arguments

    add_retrieval_eval_arguments(ev_ret)
    ev_ret.add_argument("--data-dir", default=None, help="where the eval index and embedding cache live")
    ev_ret.set_defaults(func=_cmd_eval_retrieval)
    ev_ans = ev_sub.add_parser("answers", help="answers end to end: correct, cited, declined, time (real service)")
    from chat.cli.eval_answers import add_arguments as add_answers_eval_arguments

    add_answers_eval_arguments(ev_ans)
    ev_ans.set_defaults(func=_cmd_eval_answers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = _settings(args)  # the one read of the environment, with the command line's overrides
        configure_logging(settings.server.log_level, json=settings.server.log_json)
        code: int = args.func(args, settings)
        return code
    except DocchatError as exc:
        print(f"docchat: {exc.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`docchat ask … | head`): no traceback; further writes go nowhere
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what the shell reports for a command that died of a broken pipe


if __name__ == "__main__":
    raise SystemExit(main())
