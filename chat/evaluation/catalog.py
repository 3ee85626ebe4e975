"""Every evaluation set by name: the public report sets (``datasets``) and the statement questions the reader
is developed on (``sec10q``, not a report set) — one ``load`` over both, so neither module imports the other."""

from __future__ import annotations

from pathlib import Path

from chat.evaluation import datasets
from chat.evaluation.datasets import EvalDataset, Split, Subset


def load(name: str, root: Path | None = None, *, limit: int | None = None, split: Split = "all",
         subset: Subset = "all") -> EvalDataset:
    """``datasets.load`` for the report sets; ``sec10q`` (all split only) for the development questions."""
    if name == "sec10q":
        from chat.evaluation.sec10q import load_sec10q

        datasets._no_calibration_split(name, split)
        return load_sec10q(root, limit=limit, split=split)
    if name == "sec10k":
        from chat.evaluation.sec10k import load_sec10k

        datasets._no_calibration_split(name, split)
        return load_sec10k(root, limit=limit, split=split)
    return datasets.load(name, root, limit=limit, split=split, subset=subset)
