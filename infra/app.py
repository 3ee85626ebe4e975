#!/usr/bin/env python3
"""docchat's CDK app.

``cdk synth`` / ``cdk deploy`` (run in ``infra/``) call this with ``--cli``: the CDK CLI supplies the
context (``cdk.json`` plus ``-c key=value``) and the output directory. ``make synth`` runs it without the
flag: it then reads ``cdk.json`` itself and writes ``infra/cdk.out/`` — offline, no AWS account needed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from docchat_infra import build_app
from docchat_infra.app_factory import cdk_json_context

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", action="store_true", help="run under the CDK CLI (it passes context and outdir)")
    parser.add_argument("--outdir", default=str(HERE / "cdk.out"))
    parser.add_argument("-c", "--context", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    if args.cli:
        app, _ = build_app()
    else:
        context = cdk_json_context()
        for item in args.context:
            key, sep, value = item.partition("=")
            if not sep:
                parser.error(f"-c expects KEY=VALUE, got {item!r}")
            context[key] = value
        app, _ = build_app(context, outdir=args.outdir)
    assembly = app.synth()
    if not args.cli:
        for stack in assembly.stacks:
            print(f"synthesised {stack.stack_name} -> {Path(assembly.directory) / stack.template_file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
