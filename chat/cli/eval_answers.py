"""Arguments of ``docchat eval answers`` (kept import-light so ``docchat --help`` stays fast).

The run itself is ``chat.evaluation.run``: the real service in-process on embedded defaults, the set's
documents ingested into two projects over HTTP, every question asked over SSE in its own project and in the
other one, scored and reported against the issue's targets.
"""

from __future__ import annotations

import argparse
from pathlib import Path

DATASETS = ("financebench", "korquad", "sroie")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dataset", choices=DATASETS, required=True)
    p.add_argument("--limit", type=int, default=None,
                   help="ask the first N questions only, and ingest only their documents (default: every question; "
                        "korquad: the first 1,000 over all dev articles)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.add_argument("--data-dir", dest="eval_data_dir", metavar="D", default=None,
                   help="the evaluation service's data dir, kept between runs so documents are ingested once "
                        "(default <DOCCHAT_DATA_DIR>/eval-answers/<dataset>)")
    p.add_argument("--data", type=Path, default=None, help="evaluation data root (default ../shared/evaldata)")
