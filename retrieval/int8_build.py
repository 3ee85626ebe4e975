"""Child side of ``retrieval.model_build``: build the int8 embedding model file and exit."""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> None:
    from retrieval.e5_q4 import E5Q4File
    from retrieval.onnx_embedder import int8_model

    weights, root = Path(argv[0]), Path(argv[1])
    int8_model(E5Q4File(weights), root)


if __name__ == "__main__":
    main(sys.argv[1:])
