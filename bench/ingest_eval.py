"""Benchmarks and evaluations of the ingest steps, printed as tables.

    python -m bench.ingest_eval malformed   # every file in qpdf_malformed, pdfminer_samples, pillow_bad_images
    python -m bench.ingest_eval fidelity    # text-layer extraction vs docling ground truth
    python -m bench.ingest_eval cer         # OCR character error rate on SROIE receipt lines
    python -m bench.ingest_eval speed       # pages/s of text extraction and rendering, s/page of OCR
    python -m bench.ingest_eval memory --pages 1000   # peak memory for a 1,000-page PDF (flat in pages)

Evaluation data lives outside the repo at ``../shared/evaldata`` (``--data`` to override); a command whose
data is absent says so and exits 0.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ingest.filetypes import SNIFF_BYTES, describe_unknown, sniff
from store.config import Settings
from store.errors import DocchatError, InvalidInput

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "evaldata"
MALFORMED_SETS = ("qpdf_malformed", "pdfminer_samples", "pillow_bad_images")
_SKIP_NAMES = {"LICENSE", "LICENSE.txt", "SOURCE.md", "README", "README.md"}


# --- malformed files ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    path: str
    status: str  # accepted | rejected (at upload) | failed (a pipeline step) | error (a bug: unexpected exception)
    stage: str  # type | inspect | render | text | done
    reason: str
    seconds: float
    pages: int = 0


def check_file(path: Path, settings: Settings, *, sample_pages: int = 3) -> Outcome:
    """What docchat does with ``path``: upload checks (type, inspect) then the sandboxed page steps."""
    from ingest.inspect import inspect_document
    from ingest.steps.format_parser import extract_text_layer
    from ingest.steps.segment_prep import render_pages

    started = time.monotonic()

    def done(status: str, stage: str, reason: str, pages: int = 0) -> Outcome:
        return Outcome(str(path), status, stage, reason, round(time.monotonic() - started, 3), pages)

    try:
        with path.open("rb") as fh:
            head = fh.read(SNIFF_BYTES)
        kind = sniff(head)
        if kind is None:
            return done("rejected", "type", describe_unknown(head))
        try:
            info = inspect_document(path, kind, settings)
        except InvalidInput as exc:
            return done("rejected", "inspect", exc.message)
        pages = list(range(1, min(info.page_count, sample_pages) + 1))
        stage = "render"
        try:
            for _ in render_pages(path, kind, pages, settings.ingest.render_dpi, settings=settings):
                pass
            stage = "text"
            extract_text_layer(path, kind, pages, settings=settings)
        except DocchatError as exc:
            return done("failed", stage, exc.message, info.page_count)
        return done("accepted", "done", "", info.page_count)
    except DocchatError as exc:  # any other classified error is still a clean failure
        return done("failed", "other", f"{type(exc).__name__}: {exc.message}")
    except Exception as exc:  # a bug: an unclassified exception escaped
        return done("error", "other", f"{type(exc).__name__}: {exc}")


def malformed_files(data: Path) -> dict[str, list[Path]]:
    sets: dict[str, list[Path]] = {}
    for name in MALFORMED_SETS:
        root = data / name
        if root.is_dir():
            sets[name] = sorted(p for p in root.rglob("*") if p.is_file() and p.name not in _SKIP_NAMES)
    return sets


def run_malformed(data: Path, settings: Settings, *, jobs: int = 2) -> dict[str, list[Outcome]]:
    results: dict[str, list[Outcome]] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for name, files in malformed_files(data).items():
            results[name] = list(pool.map(lambda p: check_file(p, settings), files))
    return results


def _category(outcome: Outcome) -> str:
    r = outcome.reason
    for needle, label in (
        ("took longer", "timeout (hang stopped)"),
        ("crashed", "parser crashed (contained)"),
        ("was killed", "parser killed (memory)"),
        ("memory limit", "memory limit"),
        ("encrypted", "encrypted"),
        ("decompression bomb", "decompression bomb / too large"),
        ("pixel limit", "decompression bomb / too large"),
        ("too large to decode", "decompression bomb / too large"),
        ("empty", "empty file"),
        ("unsupported file type", "not a PDF/PNG/JPEG/TIFF/WebP"),
        ("no pages", "no pages"),
        ("truncated", "corrupt or truncated"),
        ("corrupt", "corrupt or truncated"),
    ):
        if needle in r:
            return label
    return "other: " + r[:60]


def print_malformed(results: dict[str, list[Outcome]], out: object = sys.stdout) -> None:
    w = out.write  # type: ignore[attr-defined]
    w(f"{'set':<20} {'files':>5} {'accepted':>8} {'rejected':>8} {'failed':>6} {'errors':>6} {'max s':>6}\n")
    for name, outcomes in results.items():
        c = Counter(o.status for o in outcomes)
        slowest = max((o.seconds for o in outcomes), default=0.0)
        w(f"{name:<20} {len(outcomes):>5} {c['accepted']:>8} {c['rejected']:>8} {c['failed']:>6} {c['error']:>6} "
          f"{slowest:>6.1f}\n")
    everything = [o for outcomes in results.values() for o in outcomes]
    w(f"{'total':<20} {len(everything):>5} {sum(o.status == 'accepted' for o in everything):>8} "
      f"{sum(o.status == 'rejected' for o in everything):>8} {sum(o.status == 'failed' for o in everything):>6} "
      f"{sum(o.status == 'error' for o in everything):>6}\n\n")
    reasons = Counter(_category(o) for o in everything if o.status in ("rejected", "failed"))
    w("rejected/failed by reason:\n")
    for reason, n in reasons.most_common():
        w(f"  {n:>4}  {reason}\n")
    errors = [o for o in everything if o.status == "error"]
    if errors:
        w("\nUNEXPECTED ERRORS (bugs):\n")
        for o in errors:
            w(f"  {o.path}: {o.reason}\n")
    w(f"\nno crash or hang escaped: {'yes' if not errors else 'NO'}; every file got a verdict in "
      f"{max((o.seconds for o in everything), default=0):.1f} s or less\n")


# --- CLI ----------------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ingest_eval", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="evaldata folder (default ../shared/evaldata)")
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("malformed", help="robustness summary over the malformed-file sets")
    m.add_argument("--jobs", type=int, default=2)
    m.add_argument("--timeout", type=float, default=30.0, help="parse timeout per file/page (s)")
    m.add_argument("-v", "--verbose", action="store_true", help="one line per file")
    f = sub.add_parser("fidelity", help="text-layer extraction vs docling ground truth")
    f.add_argument("-v", "--verbose", action="store_true")
    c = sub.add_parser("cer", help="OCR character error rate on SROIE receipts")
    c.add_argument("--limit", type=int, default=5, help="receipts to OCR (each takes seconds)")
    s = sub.add_parser("speed", help="pages/s of text extraction and rendering; s/page of OCR")
    s.add_argument("--pdf", type=Path, default=None, help="a text PDF (default: the docugami 10-Qs)")
    s.add_argument("--ocr-pages", type=int, default=3)
    mem = sub.add_parser("memory", help="peak memory rendering a synthetic N-page PDF (run in a fresh process)")
    mem.add_argument("--pages", type=int, default=1000)
    args = parser.parse_args(argv)
    data: Path = args.data
    if args.command == "memory":  # synthetic document: needs no evaluation data
        from bench.ingest_quality import memory_command

        return memory_command(Settings.from_env(), pages=args.pages)
    if not data.is_dir():
        print(f"evaluation data not found at {data} (expected ../shared/evaldata next to the repo); skipping")
        return 0
    settings = Settings.from_env()
    if args.command == "malformed":
        settings = settings.with_overrides(parse_timeout_seconds=args.timeout)
        started = time.monotonic()
        results = run_malformed(data, settings, jobs=args.jobs)
        if args.verbose:
            for outcomes in results.values():
                for o in outcomes:
                    print(f"{o.status:<8} {o.stage:<7} {o.seconds:>5.1f}s {Path(o.path).relative_to(data)}  {o.reason}")
            print()
        print_malformed(results)
        print(f"wall time {time.monotonic() - started:.1f} s with {args.jobs} parallel jobs")
        return 1 if any(o.status == "error" for v in results.values() for o in v) else 0
    from bench.ingest_quality import cer_command, fidelity_command, speed_command

    if args.command == "fidelity":
        return fidelity_command(data, settings, verbose=args.verbose)
    if args.command == "cer":
        return cer_command(data, settings, limit=args.limit)
    return speed_command(data, settings, pdf=args.pdf, ocr_pages=args.ocr_pages)


if __name__ == "__main__":
    raise SystemExit(main())
