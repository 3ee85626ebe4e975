"""``docchat selftest faults|load``: the fault suite and the load run (``chat/selftest``), as commands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from chat.selftest.procs import quiet_logs
from chat.selftest.report import Result, table
from store.config import Settings


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from chat.selftest.report import SCENARIOS

    st = sub.add_parser("selftest", help="fault and load runs against real processes on loopback")
    st_sub = st.add_subparsers(dest="selftest_command", required=True)
    faults = st_sub.add_parser("faults", help="kill -9 server/worker, lost DynamoDB responses, client "
                                              "disconnects, schemathesis: a table of attempts and failures")
    faults.add_argument("--short", action="store_true", help="a reduced version that runs in seconds (make test)")
    faults.add_argument("--only", action="append", choices=SCENARIOS, default=None,
                        help="run only this scenario (repeatable)")
    faults.add_argument("--seed", type=int, default=0)
    faults.add_argument("--answers", type=int, default=None, help="answers cut by a server kill (default 100)")
    faults.add_argument("--appends", type=int, default=None, help="appends with injected faults (default 1000)")
    faults.add_argument("--disconnects", type=int, default=None, help="client disconnects (default 200)")
    faults.add_argument("--pages", type=int, default=None, help="pages of the worker-kill PDF (default 40)")
    faults.add_argument("--work-dir", default=None, help="where the scratch folder goes (default: the temp dir)")
    faults.add_argument("--keep", action="store_true", help="keep the scratch folder (logs, data)")
    faults.add_argument("--parallel", action="store_true",
                        help="run the API, worker and appends groups at once (overlaps start-ups on a machine "
                             "with idle cores)")
    faults.set_defaults(func=run_faults_command)

    from chat.selftest.load_args import add_arguments

    load = st_sub.add_parser("load", help="seed 004's peak on the embedded backend: uploads/s and concurrent "
                                          "chats for a while; latency percentiles and errors")
    add_arguments(load)
    load.set_defaults(func=run_load_command)


def run_faults_command(args: argparse.Namespace, settings: Settings) -> int:
    from dataclasses import replace

    from chat.selftest.faults import FULL, SCENARIOS, SHORT, run_faults

    quiet_logs()  # the table is the output; the children log to their files
    sizes = SHORT if args.short else FULL
    changes = {k: v for k, v in (("answers", args.answers), ("appends", args.appends),
                                 ("disconnects", args.disconnects), ("pdf_pages", args.pages)) if v is not None}
    if "answers" in changes:
        changes["concurrency"] = min(sizes.concurrency, changes["answers"])
    sizes = replace(sizes, **changes)

    def progress(r: Result) -> None:
        verdict = "skipped" if r.skipped else ("ok" if r.ok else f"{r.failures} FAILED")
        print(f"  {r.scenario}: {r.attempts} attempts, {verdict} ({r.seconds:.1f} s)", file=sys.stderr, flush=True)

    results = run_faults(settings, sizes=sizes, only=tuple(args.only or SCENARIOS), seed=args.seed,
                         work_dir=Path(args.work_dir) if args.work_dir else None, keep=args.keep,
                         parallel=args.parallel, report=progress)
    print(table(results))
    return 0 if all(r.ok for r in results) else 1


def run_load_command(args: argparse.Namespace, settings: Settings) -> int:
    from chat.selftest.load import run_load_cli

    quiet_logs()
    return run_load_cli(args, settings)
