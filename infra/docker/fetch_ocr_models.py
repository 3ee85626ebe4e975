"""Build-time only: download the PaddleOCR models the worker will use, so nothing downloads at run time.

Builds each language's pipeline exactly the way the worker does (``ingest.steps.ocr.PaddleOcrEngine``, on
CPU: the model files are the same), which downloads its models into ``$PADDLE_PDX_CACHE_HOME``, then runs
it once on a blank page to prove the files load. Exits non-zero (failing the image build) on any error.

Usage: ``python fetch_ocr_models.py korean japan ch en``
"""

from __future__ import annotations

import io
import sys

from PIL import Image

from ingest.steps.ocr import PADDLE_LANGS, PaddleOcrEngine


def main(argv: list[str]) -> int:
    langs = argv or sorted(set(PADDLE_LANGS.values()))
    unknown = sorted(set(langs) - set(PADDLE_LANGS.values()))
    if unknown:
        print(f"fetch_ocr_models: not a PaddleOCR lang the worker uses: {', '.join(unknown)}", file=sys.stderr)
        return 2
    buf = io.BytesIO()
    Image.new("RGB", (320, 96), "white").save(buf, format="PNG")
    engine = PaddleOcrEngine(device="cpu")
    iso = {paddle: iso for iso, paddle in PADDLE_LANGS.items() if iso}
    for lang in langs:
        engine.recognize(buf.getvalue(), language=iso[lang])
        print(f"fetch_ocr_models: {lang} ready", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
