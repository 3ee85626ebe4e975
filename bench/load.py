"""Seed 004's peak load on the embedded backend (``docchat selftest load``): python -m bench.load --help"""

from __future__ import annotations

import argparse

from chat.selftest.load import run_load_cli
from chat.selftest.load_args import add_arguments
from chat.selftest.procs import quiet_logs
from store.config import Settings


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__)
    add_arguments(parser)
    quiet_logs()
    return run_load_cli(parser.parse_args(), Settings.from_env())


if __name__ == "__main__":
    raise SystemExit(main())
