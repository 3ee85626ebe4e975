"""Start-up warm-up (issue 18: the first upload after start no slower than the second).

The text path imports its step modules on first use (``ingest.pipeline``/``pipeline_steps`` import them inside
the step functions, so a process that never ingests does not load them), and the index's first write pays the
storage engine's own start (LanceDB, measured on 2 cores: its first merge-insert took ~0.10 s, 0.03 s after a
keyword search). Both used to land on the first upload's path to searchable.
A worker runner imports the modules in a thread when it starts; the retriever warms the index at its start
(``Retriever.start`` → ``LanceIndex.warm``). Nothing here writes anything.
"""

from __future__ import annotations

import importlib
import time

from store.logging import get_logger

log = get_logger(__name__)

#: the modules a text-layer PDF's path to searchable imports on first use, in the order it needs them
TEXT_PATH_MODULES = (
    "ingest.steps.text_layer",
    "ingest.steps.format_parser",
    "ingest.steps.tables",
    "ingest.steps.table_grid",
    "ingest.steps.segment_builder",
    "ingest.pii.step",
    "ingest.steps.segment_analyzer",
    "ingest.steps.chunk",
)


def import_text_path(modules: tuple[str, ...] = TEXT_PATH_MODULES) -> float:
    """Import ``modules`` (a failure is logged and left to the step that needs the module); returns seconds."""
    t0 = time.perf_counter()
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception as exc:  # the step raises it again where it is handled
            log.warning("warm_import_failed", module=name, error=type(exc).__name__)
    seconds = time.perf_counter() - t0
    log.info("text_path_imported", seconds=round(seconds, 3), modules=len(modules))
    return seconds
