"""The load run's command-line arguments (kept apart so ``docchat --help`` imports nothing heavy)."""

from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--uploads-per-s", type=float, default=20.0, help="upload rate (seed 004's peak: 20/s)")
    p.add_argument("--seconds", type=float, default=60.0, help="how long uploads and chats run (default 60)")
    p.add_argument("--chats", type=int, default=100, help="concurrent chats, each asking again at once (100)")
    p.add_argument("--pages", type=int, default=1, help="pages of each uploaded PDF (default 1)")
    p.add_argument("--max-in-flight", type=int, default=200,
                   help="uploads waiting for their response at most; later ones count as skipped (bound)")
    p.add_argument("--drain-seconds", type=float, default=60.0,
                   help="after the run, how long to wait for the uploaded documents to finish processing")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the numbers as JSON too")
    p.add_argument("--work-dir", default=None, help="where the scratch folder goes (default: the temp dir)")
