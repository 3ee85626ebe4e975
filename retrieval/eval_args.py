"""Arguments of ``docchat eval retrieval`` (kept import-light so ``docchat --help`` stays fast)."""

from __future__ import annotations

import argparse
from pathlib import Path

from retrieval.types import SearchMode

MODES: tuple[SearchMode, ...] = ("keyword", "vector", "hybrid")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dataset", choices=("korquad", "financebench"), required=True)
    p.add_argument("--limit", type=int, default=None, help="evaluate the first N questions only")
    p.add_argument("--max-articles", type=int, default=None, help="KorQuAD: only the first M articles (corpus too)")
    p.add_argument("--mode", choices=(*MODES, "all"), default="all")
    p.add_argument(
        "--scope",
        choices=("document", "project"),
        default=None,
        help="search within the question's document, or the whole corpus "
        "(default: document for financebench, project for korquad)",
    )
    p.add_argument("--data", type=Path, default=None, help="evaluation data root (default ../shared/evaldata)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the embedding cache")
    p.add_argument("--fusion", choices=("min_max", "z_score", "rrf"), default=None, help="hybrid fusion rule")
    p.add_argument("--keyword-weight", type=float, default=None, help="weight of BM25 in the hybrid combination")
    p.add_argument(
        "--units",
        choices=("pages", "chunks"),
        default="pages",
        help="index whole pages (paragraphs), or cut them into chunks the way ingest does — what chat searches",
    )
    p.add_argument(
        "--expansion",
        default=None,
        help="query-expansion lexicons, comma-separated, or 'none' (default: DOCCHAT_QUERY_EXPANSION, 'finance')",
    )
    p.add_argument(
        "--vector-chars",
        type=int,
        default=None,
        help="embed only the first N characters of each unit (keyword search still sees all of it); default: "
        "1900 for financebench (about the model's 512-token window of a page), everything for korquad; 0 = all",
    )
