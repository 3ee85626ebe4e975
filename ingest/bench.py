"""``python -m ingest.bench``: ingest speed in one run (issue 18); the code is ``bench/ingest_speed.py``."""

from __future__ import annotations

import importlib
import sys


def main(argv: list[str] | None = None) -> int:
    # bench/ is not a layer of the service: imported by name so ingest/ keeps no edge to chat/ (the reader)
    return int(importlib.import_module("bench.ingest_speed").main(argv))


if __name__ == "__main__":
    sys.exit(main())
