"""How well the PII detectors work: ``python -m bench.pii [--docs N] [--seed S] [--corpus DIR ...] [--show]``.

1. Precision / recall per type on the labelled synthetic corpus (``bench.pii_corpus``: Korean, Japanese and
   English sentences with planted values, near-misses that fail a check digit or lack a label, and
   10-Q-style filler). A finding counts when type and span are exactly the planted ones.
2. Findings on real filings — a false-positive proxy: the text layer of every page of the 10-Q corpus
   (``../shared/evaldata/docugami_sec10q``; ``--corpus`` adds others, e.g. ``financebench``), read as the
   pipeline reads it (``format_parser``'s lines joined as ``segment_builder`` joins them). Printed per type
   and per 100 pages; ``--show`` lists each finding with its context, the value written as its *shape*
   (``(999) 999-9999``), never the value itself. Findings reviewed by hand (``bench/pii_reviewed.tsv``: type,
   file, page — all real phone numbers and e-mail addresses of the filers) are told apart from the rest,
   the false-positive candidates. Skipped with a message where the corpus is absent.

Targets (issue 14): recall ≥ 0.98 on checksummed types, ≥ 0.95 overall; ≤ 1 false positive per 100 pages of
10-Qs.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from bench.pii_corpus import Sample, corpus
from ingest.pii.detectors import TYPES, detect

EVALDATA = Path(__file__).resolve().parents[2] / "shared" / "evaldata"
#: findings on the real corpora checked by hand (all real contact data of the filer): type, file, page, count
REVIEWED = Path(__file__).with_name("pii_reviewed.tsv")
CHECKSUMMED = ("RRN", "MY_NUMBER", "CARD", "IBAN")


def score(samples: Sequence[Sample]) -> dict[str, dict[str, float]]:
    """Per type: tp, fp, fn, precision, recall (exact type and span), plus an ``ALL`` row."""
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    for s in samples:
        gold = set(s.spans)
        got = {(f.type, f.start, f.end) for f in detect(s.text)}
        for t, _a, _b in got & gold:
            tp[t] += 1
        for t, _a, _b in got - gold:
            fp[t] += 1
        for t, _a, _b in gold - got:
            fn[t] += 1
    rows: dict[str, dict[str, float]] = {}
    for t in (*TYPES, "ALL"):
        a, b, c = (sum(x.values()) for x in (tp, fp, fn)) if t == "ALL" else (tp[t], fp[t], fn[t])
        rows[t] = {"tp": a, "fp": b, "fn": c, "precision": a / (a + b) if a + b else 1.0,
                   "recall": a / (a + c) if a + c else 1.0}
    return rows


def shape(value: str) -> str:
    return re.sub(r"[A-Za-z]", "A", re.sub(r"\d", "9", value))


def page_texts(pdf: Path) -> list[str]:
    """Each page's text as the pipeline's segment has it (text-layer lines joined by newlines)."""
    import pypdfium2

    from ingest.steps.format_parser import iter_text_layer

    doc = pypdfium2.PdfDocument(str(pdf))
    n = len(doc)
    doc.close()
    return ["\n".join(ln.text for ln in pt.lines) or pt.text for pt in iter_text_layer(pdf, "pdf", range(1, n + 1))]


def reviewed() -> Counter[tuple[str, str, int]]:
    out: Counter[tuple[str, str, int]] = Counter()
    if REVIEWED.is_file():
        for line in REVIEWED.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                t, name, page, n = line.split("\t")
                out[(t, name, int(page))] = int(n)
    return out


def scan(folder: Path, *, show: bool) -> tuple[int, Counter[str], float, int]:
    """Pages read, findings per type, the seconds spent in ``detect`` alone, and the findings nobody has
    reviewed as real (the false-positive candidates)."""
    pages = 0
    per_type: Counter[str] = Counter()
    detect_s = 0.0
    known = reviewed()
    unreviewed = 0
    for pdf in sorted(folder.rglob("*.pdf")):
        try:
            texts = page_texts(pdf)
        except Exception as exc:  # an unreadable filing is reported, not fatal
            print(f"  skipped {pdf.name}: {type(exc).__name__}")
            continue
        for number, text in enumerate(texts, start=1):
            pages += 1
            t0 = time.perf_counter()
            found = detect(text)
            detect_s += time.perf_counter() - t0
            for f in found:
                per_type[f.type] += 1
                key = (f.type, pdf.name, number)
                if known[key] > 0:
                    known[key] -= 1
                else:
                    unreviewed += 1
                if show:
                    before = text[max(0, f.start - 40):f.start].replace("\n", " ")
                    after = text[f.end:f.end + 30].replace("\n", " ")
                    print(f"  {f.type:9} {pdf.name} p{number}: …{before}⟨{shape(text[f.start:f.end])}⟩{after}…")
    return pages, per_type, detect_s, unreviewed


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.pii", description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=400, help="synthetic samples (default 400)")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--corpus", action="append", default=None,
                    help="evaldata folders to scan (default: docugami_sec10q)")
    ap.add_argument("--show", action="store_true", help="list every finding on the real corpus (value as its shape)")
    args = ap.parse_args(argv)

    samples = corpus(args.seed, args.docs)
    t0 = time.perf_counter()
    rows = score(samples)
    secs = time.perf_counter() - t0
    chars = sum(len(s.text) for s in samples)
    print(f"synthetic corpus: {len(samples)} samples, {sum(len(s.spans) for s in samples)} planted values, "
          f"{chars:,} chars, detected in {secs:.2f} s")
    print(f"{'type':10} {'tp':>5} {'fp':>4} {'fn':>4} {'precision':>9} {'recall':>7}")
    for t, r in rows.items():
        print(f"{t:10} {int(r['tp']):5d} {int(r['fp']):4d} {int(r['fn']):4d} {r['precision']:9.3f} {r['recall']:7.3f}")
    check_tp = sum(rows[t]["tp"] for t in CHECKSUMMED)
    check_fn = sum(rows[t]["fn"] for t in CHECKSUMMED)
    check_recall = check_tp / (check_tp + check_fn) if check_tp + check_fn else 1.0
    print(f"recall on checksummed types {check_recall:.3f} (target ≥ 0.98); overall {rows['ALL']['recall']:.3f} "
          f"(target ≥ 0.95); precision overall {rows['ALL']['precision']:.3f}")

    for name in args.corpus or ["docugami_sec10q"]:
        folder = EVALDATA / name
        if not folder.is_dir():
            print(f"\n{name}: skipped ({folder} is absent)")
            continue
        print(f"\nreal corpus {name}:")
        t0 = time.perf_counter()
        pages, per_type, detect_s, unreviewed = scan(folder, show=args.show)
        total = sum(per_type.values())
        rate = 100 * total / pages if pages else 0.0
        per_page_ms = 1000 * detect_s / max(pages, 1)
        print(f"{name}: {pages} pages in {time.perf_counter() - t0:.0f} s (detection {per_page_ms:.1f} ms/page), "
              f"{total} findings ({rate:.2f} per 100 pages): "
              + (", ".join(f"{t} {n}" for t, n in per_type.most_common()) or "none"))
        fp_rate = 100 * unreviewed / pages if pages else 0.0
        print(f"  {total - unreviewed} reviewed by hand as real contact data ({REVIEWED.name}); {unreviewed} not "
              f"reviewed = false-positive candidates: {fp_rate:.2f} per 100 pages (target ≤ 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
