"""The embedded document summary on real documents: time per page, outline size, title, the opening of the
summary — and how many outline entries are section headings the document really has.

    python -m bench.summaries [PDF …]     # default: every 10-Q of ../shared/evaldata/docugami_sec10q

The text layer is read as the pipeline reads it (``format_parser``); segments are built without tables
(``segment_builder``), then ``page_digest`` + ``extractive_summary`` — what ``document_summarizer`` runs on
embedded defaults. "Items" counts the 10-Q items ("Item 1.", "Item 1A." …) found in the outline outside the
table of contents, against the items the 10-Q form has in its text.
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from pathlib import Path

from ingest.steps.format_parser import iter_text_layer
from ingest.steps.segment_builder import build_segment
from ingest.steps.summarize import extractive_summary, page_digest
from store.config import Settings

EVALDATA = Path(__file__).resolve().parents[2] / "shared" / "evaldata"
_ITEM = re.compile(r"^Item\s+(\d+[AB]?)\.", re.I)


def summarise(path: Path, settings: Settings) -> tuple[dict, float, float, int]:
    import pypdfium2 as pdfium

    pages = len(pdfium.PdfDocument(str(path)))
    t0 = time.perf_counter()
    segs = [build_segment(pt.page, pt, None, width_pt=612, height_pt=792, width_px=1, height_px=1)
            for pt in iter_text_layer(path, "pdf", list(range(1, pages + 1)), settings=settings)]
    t1 = time.perf_counter()
    rec = extractive_summary([page_digest(s) for s in segs], file_name=path.name, page_count=pages)
    return rec, t1 - t0, time.perf_counter() - t1, pages


def main(argv: list[str]) -> None:
    settings = Settings.from_env(env={})
    paths = [Path(a) for a in argv] or sorted((EVALDATA / "docugami_sec10q" / "docs").glob("*.pdf"))
    per_page: list[float] = []
    found = expected = 0
    print(f"{'document':<24} {'pages':>5} {'parse s':>8} {'summary ms':>10} {'ms/page':>8} {'outline':>7} "
          f"{'items':>6}  title")
    for path in paths:
        rec, parse_s, summary_s, pages = summarise(path, settings)
        per_page.append(1000 * summary_s / max(1, pages))
        items = {m.group(1).upper() for h in rec["outline"] if (m := _ITEM.match(h["text"]))}
        text = " ".join(pt.text for pt in iter_text_layer(path, "pdf", list(range(1, pages + 1)), settings=settings))
        has = {m.upper() for m in re.findall(r"\bItem\s+(\d+[AB]?)\.", text, re.I)}
        found += len(items & has)
        expected += len(has)
        print(f"{path.name[:24]:<24} {pages:>5} {parse_s:>8.2f} {1000 * summary_s:>10.1f} {per_page[-1]:>8.2f} "
              f"{len(rec['outline']):>7} {len(items & has):>2}/{len(has):<3}  {rec['title'][:40]}")
    print(f"\nsummary step: median {statistics.median(per_page):.2f} ms/page (text layer parsing not counted); "
          f"10-Q items in the outline: {found}/{expected} ({found / max(1, expected):.0%})")
    if paths:
        rec, *_ = summarise(paths[0], settings)
        print(f"\n{paths[0].name}: {rec['title']}\n{rec['text'][:800]}")


if __name__ == "__main__":
    main(sys.argv[1:])
