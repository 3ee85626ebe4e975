"""Arguments of ``docchat eval answers`` (kept import-light so ``docchat --help`` stays fast).

The run itself is ``chat.evaluation.run``: the real service in-process on embedded defaults, the set's
documents ingested into two projects over HTTP, every question asked over SSE in its own project and in the
other one, scored and reported against the issue's targets.
"""

from __future__ import annotations

import argparse
from pathlib import Path

DATASETS = ("financebench", "korquad", "sroie", "sec10q", "sec10k")  # sec10q: the reader's development set
SPLITS = ("all", "calibration", "report")  # chat.evaluation.datasets.SPLITS, repeated to keep --help light
SUBSETS = ("all", "verbatim")  # chat.evaluation.datasets.SUBSETS


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dataset", choices=DATASETS, required=True)
    p.add_argument("--split", choices=SPLITS, default=None,
                   help="which questions: korquad 'report' (default) = the odd-index dev articles only, held out "
                        "from the reader's decline calibration; 'calibration' = the even-index ones it was "
                        "calibrated on; 'all' = both. financebench and sroie have no calibration split: 'report' "
                        "is 'all' (their default) and 'calibration' is refused")
    p.add_argument("--limit", type=int, default=None,
                   help="ask the split's first N questions only, and ingest only their documents (default: every "
                        "question; korquad: the split's first 1,000, over all its articles)")
    p.add_argument("--subset", choices=SUBSETS, default="all",
                   help="financebench only: 'verbatim' asks just the questions whose gold number is printed on the "
                        "evidence page (the README's target subset) and ingests only their filings; 'computed' the "
                        "others (a development set)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.add_argument("--data-dir", dest="eval_data_dir", metavar="D", default=None,
                   help="the evaluation service's data dir, kept between runs so documents are ingested once "
                        "(default <DOCCHAT_DATA_DIR>/eval-answers/<dataset>)")
    p.add_argument("--data", type=Path, default=None, help="evaluation data root (default ../shared/evaldata)")
