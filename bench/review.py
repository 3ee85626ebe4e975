"""Field extraction and review routing on SROIE receipts (issue 15).

    python -m bench.review                      # report on the odd-numbered receipts (the held-out half)
    python -m bench.review --split even         # the calibration half (what STRENGTH / thresholds were tuned on)
    python -m bench.review --split all -v       # everything, with each receipt's fields

Each receipt is OCR'd (RapidOCR, cached under --cache), built into a segment like the pipeline does, and its
fields extracted and checked with the default rules (ingest/fields). Per field (company, date, total): accuracy
(normalised value equal to the gold key: ISO date, decimal amount, company upper-cased without punctuation);
routing: of the wrong (or missing) fields the share sent to review (target >= 95%), of the right ones the share
accepted automatically (target >= 70%). SROIE's ``address`` is not a field we extract. The OCR cache keeps
each line's per-character scores (``chars``: the field confidence reads a value's own characters), so it is
``bench-review-v2``; an older cache without them would fall back to the line scores.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path

from bench.ingest_eval import DEFAULT_DATA
from ingest.fields.extract import document_fields
from ingest.fields.parse import dates
from ingest.fields.rules import FieldRules, check
from ingest.results import rebuild
from ingest.steps.ocr import OcrLine, OcrResult
from ingest.steps.segment_builder import build_segment
from store.config import Settings

FIELDS = ("company", "date", "total")
TODAY = date(2019, 6, 1)  # the receipts are from 2017-2018; "plausible" is judged as of the competition


def _norm_company(text: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", text.upper())


def _gold(name: str, raw: str) -> str:
    if name == "date":
        found = dates(raw)
        return found[0].value.isoformat() if found else raw
    if name == "total":
        try:
            return str(Decimal(re.sub(r"[^\d.]", "", raw)))
        except InvalidOperation:
            return raw
    return _norm_company(raw)


def _ocr(image: Path, cache: Path, engine: object) -> OcrResult:
    cached = cache / (image.stem + ".json")
    if cached.is_file():
        return rebuild(OcrResult, json.loads(cached.read_text()), {"lines": OcrLine})  # type: ignore[no-any-return]
    result: OcrResult = engine.recognize(image.read_bytes(), language="en")  # type: ignore[attr-defined]
    cache.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(dataclasses.asdict(result)))
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.review")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--split", choices=("odd", "even", "all"), default="odd")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "docchat" / "bench-review-v2",
                    help="OCR cache (per-character scores since the value's own characters are read)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    root = args.data / "sroie"
    if not (root / "key").is_dir():
        print(f"SROIE not found under {root}; skipping")
        return 0
    engine = None
    rules = FieldRules()
    keys = sorted((root / "key").glob("*.json"))
    picked = [k for i, k in enumerate(keys) if args.split == "all" or (i % 2 == 0) == (args.split == "even")]
    right = {n: 0 for n in FIELDS}
    wrong_total = wrong_routed = right_total = right_auto = 0
    for key in picked:
        gold = json.loads(key.read_text())
        image = root / "img" / (key.stem + ".jpg")
        if not (args.cache / (key.stem + ".json")).is_file() and engine is None:
            from ingest.steps.ocr import select_engine

            engine = select_engine("en", Settings())
        ocr = _ocr(image, args.cache, engine)
        w, h = ocr.width_px or 1000, ocr.height_px or 1000
        seg = build_segment(1, None, ocr, width_pt=w, height_pt=h, width_px=w, height_px=h)
        found = {f.name: f for f in document_fields([seg])}
        flags = check(list(found.values()), rules, today=TODAY)
        flagged = {f.field for f in flags}
        line = []
        for name in FIELDS:
            want = _gold(name, gold[name])
            f = found.get(name)
            got = (_norm_company(f.normalized) if name == "company" else f.normalized) if f else None
            ok = got == want
            routed = name in flagged or (f is None)
            right[name] += ok
            if ok:
                right_total += 1
                right_auto += not routed
            else:
                wrong_total += 1
                wrong_routed += routed
            line.append(f"{name}={'ok' if ok else 'WRONG'}{'/review' if routed else '/auto'}"
                        f"({f.confidence:.3f})" if f else f"{name}=missing/review")
            if args.verbose and not ok:
                print(f"    {key.stem} {name}: got {got!r} want {want!r}")
        if args.verbose:
            print(key.stem, " ".join(line), "|", "; ".join(f"{x.field}:{x.reason}" for x in flags))
    n = len(picked)
    print(f"SROIE {args.split} split: {n} receipts (rules: amount confidence >= {rules.amount_min_confidence}, "
          f"other fields >= {rules.min_confidence}, required {','.join(rules.required)})")
    for name in FIELDS:
        print(f"  accuracy {name:<8} {right[name]}/{n} = {right[name] / max(n, 1):.1%}")
    all_fields = n * len(FIELDS)
    print(f"  accuracy all      {right_total}/{all_fields} = {right_total / max(all_fields, 1):.1%}")
    sent = wrong_routed / wrong_total if wrong_total else 1.0
    auto = right_auto / right_total if right_total else 0.0
    print(f"  wrong fields sent to review:    {wrong_routed}/{wrong_total} = {sent:.1%}  (target >= 95%) "
          f"{'PASS' if sent >= 0.95 else 'FAIL'}")
    print(f"  right fields accepted auto:     {right_auto}/{right_total} = {auto:.1%}  (target >= 70%) "
          f"{'PASS' if auto >= 0.70 else 'FAIL'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
