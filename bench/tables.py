"""Cell-level fidelity of table extraction on real PDFs: ``python -m bench.tables [--limit N] [--method M]``.

Cases: the docling PDFs whose ground truth (``groundtruth/*.json``, docling's reviewed output) has tables —
every page of each file is extracted, so tables found where there are none cost precision — and three
pages of Apple's 2023 Q1 10-Q (``docugami_sec10q``) whose tables are written out below (net sales by
product, by segment and by category; multi-row period headers). Both live in ``../shared/evaldata`` and
are never copied here; without them the command says so and exits 0.

Metric, per table: the predicted table with the most words in common on the same page is aligned to the
ground truth — rows by dynamic programming on word overlap, then columns by the number of aligned rows
whose cells agree — and a cell counts when its text (whitespace removed) equals the aligned ground-truth
cell's. Cell F1 is over non-empty cells (predicted cells of unmatched tables count against precision);
row exact-match is the share of ground-truth rows whose aligned row has exactly the same non-empty cells.
Header rows are rows like any other (``Table.grid()``: header levels, then body rows); ``headers`` scores
the flattened per-column headers on the 10-Q cases (ours only: the others have no header model).

Measured (2 shared cores; ``--method all``; cell F1 mean over files, row exact-match, seconds a page):

    method      all pages              --gate (pages where ingest looks: likely_table)
    grid        0.477  0.402  0.027    0.266  0.221  0.020   (10-Q: 1.000 / 1.000, headers 1.000)
    pdfplumber  0.045  0.041  0.137    0.039  0.025  0.172
    camelot     0.217  0.213  0.044    0.102  0.098  0.154
    img2table   0.296  0.090  0.605    0.290  0.090  0.610

With ``--gate`` the docling text tables without numbers are never looked at (``likely_table`` wants
number-ending rows), which is what ingest does today; see ``ingest/steps/table_grid.py`` for the choice.
pdfplumber and camelot are not dependencies: ``pip install pdfplumber camelot-py`` to compare.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ingest.steps.table_model import Table

EVALDATA = Path(__file__).resolve().parents[2] / "shared" / "evaldata"
Grid = list[list[str]]

_TME = "Three Months Ended"
#: Apple Inc. 2023 Q1 Form 10-Q (docugami_sec10q): header levels then rows, read off the rendered pages
SEC_CASES: dict[int, Grid] = {
    10: [["", _TME, _TME], ["", "December 31, 2022", "December 25, 2021"],
         ["iPhone", "$65,775", "$71,628"], ["Mac", "7,735", "10,852"], ["iPad", "9,396", "7,248"],
         ["Wearables, Home and Accessories", "13,482", "14,701"], ["Services", "20,766", "19,516"],
         ["Total net sales", "$117,154", "$123,945"]],
    19: [["", _TME, _TME, ""], ["", "December 31, 2022", "December 25, 2021", "Change"],
         ["Net sales by reportable segment:", "", "", ""], ["Americas", "$49,278", "$51,496", "(4)%"],
         ["Europe", "27,681", "29,749", "(7)%"], ["Greater China", "23,905", "25,783", "(7)%"],
         ["Japan", "6,755", "7,107", "(5)%"], ["Rest of Asia Pacific", "9,535", "9,810", "(3)%"],
         ["Total net sales", "$117,154", "$123,945", "(5)%"]],
    20: [["", _TME, _TME, ""], ["", "December 31, 2022", "December 25, 2021", "Change"],
         ["Net sales by category:", "", "", ""], ["iPhone", "$65,775", "$71,628", "(8)%"],
         ["Mac", "7,735", "10,852", "(29)%"], ["iPad", "9,396", "7,248", "30 %"],
         ["Wearables, Home and Accessories", "13,482", "14,701", "(8)%"], ["Services", "20,766", "19,516", "6 %"],
         ["Total net sales", "$117,154", "$123,945", "(5)%"]],
}
SEC_FILE = "docugami_sec10q/docs/2023 Q1 AAPL.pdf"


@dataclass(slots=True)
class Case:
    name: str
    path: Path
    pages: list[int]
    truth: dict[int, list[Grid]]  # page → tables


@dataclass(slots=True)
class Score:
    matched: int = 0
    predicted: int = 0
    truth: int = 0
    rows_exact: int = 0
    rows: int = 0
    header_hits: int = 0
    headers: int = 0
    seconds: float = 0.0
    pages: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def f1(self) -> float:
        p = self.matched / self.predicted if self.predicted else 0.0
        r = self.matched / self.truth if self.truth else 0.0
        return 2 * p * r / (p + r) if p + r else 0.0


# --- metric (pure) ------------------------------------------------------------------------------------


def norm(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split()).replace("–", "-").replace("—", "-")


def _tokens(row: Sequence[str]) -> set[str]:
    return {t for cell in row for t in unicodedata.normalize("NFKC", cell).lower().split()}


def _align(n: int, m: int, score: Callable[[int, int], float]) -> list[tuple[int, int]]:
    """Monotone alignment of ``range(n)`` with ``range(m)`` maximising the summed positive ``score``."""
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = max(best[i + 1][j], best[i][j + 1], best[i + 1][j + 1] + max(0.0, score(i, j)))
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        s = score(i, j)
        if s > 0 and best[i][j] == best[i + 1][j + 1] + s:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def compare(truth: Grid, pred: Grid) -> tuple[int, int, int, int]:
    """``(matched cells, truth rows, exactly matched rows, predicted non-empty cells)`` of one table pair."""
    t_tok = [_tokens(r) for r in truth]
    p_tok = [_tokens(r) for r in pred]

    def row_score(i: int, j: int) -> float:
        union = t_tok[i] | p_tok[j]
        return len(t_tok[i] & p_tok[j]) / len(union) if union else 0.0

    rows = _align(len(truth), len(pred), row_score)
    t_cols = max((len(r) for r in truth), default=0)
    p_cols = max((len(r) for r in pred), default=0)

    def cell(grid: Grid, r: int, c: int) -> str:
        return norm(grid[r][c]) if c < len(grid[r]) else ""

    def col_score(c: int, d: int) -> float:
        return float(sum(1 for i, j in rows if cell(truth, i, c) and cell(truth, i, c) == cell(pred, j, d)))

    cols = _align(t_cols, p_cols, col_score)
    matched = sum(1 for i, j in rows for c, d in cols if cell(truth, i, c) and cell(truth, i, c) == cell(pred, j, d))
    exact = sum(1 for i, j in rows if [x for x in map(norm, truth[i]) if x] == [x for x in map(norm, pred[j]) if x])
    predicted = sum(1 for r in pred for x in r if norm(x))
    return matched, len(truth), exact, predicted


def score_page(truth: Sequence[Grid], pred: Sequence[Grid], into: Score) -> None:
    """Add one page's tables to ``into`` (each truth table paired with its best-overlapping prediction)."""
    left = list(range(len(pred)))
    into.predicted += sum(1 for g in pred for r in g for x in r if norm(x))
    for grid in truth:
        into.truth += sum(1 for r in grid for x in r if norm(x))
        into.rows += len(grid)
        words = _tokens([c for r in grid for c in r])
        best = max(left, key=lambda k: len(words & _tokens([c for r in pred[k] for c in r])), default=None)
        if best is None or not words & _tokens([c for r in pred[best] for c in r]):
            continue
        left.remove(best)
        matched, _rows, exact, _pred = compare(grid, pred[best])
        into.matched += matched
        into.rows_exact += exact


def flattened(grid: Grid, levels: int) -> list[str]:
    """Per-column headers of a grid whose first ``levels`` rows are header levels (as ``Table.headers``)."""
    cols = max((len(r) for r in grid), default=0)
    out = []
    for c in range(cols):
        parts: list[str] = []
        for row in grid[:levels]:
            if c < len(row) and row[c] and (not parts or parts[-1] != row[c]):
                parts.append(row[c])
        out.append(" / ".join(parts))
    return out


# --- cases and methods --------------------------------------------------------------------------------


def cases(root: Path = EVALDATA) -> list[Case]:
    out: list[Case] = []
    gt_dir = root / "docling" / "pdf" / "groundtruth"
    for gt in sorted(gt_dir.glob("*.json")):
        doc = json.loads(gt.read_text())
        truth: dict[int, list[Grid]] = {}
        for t in doc.get("tables") or []:
            page = int(t["prov"][0]["page_no"]) if t.get("prov") else 1
            truth.setdefault(page, []).append([[str(c.get("text") or "") for c in row] for row in t["data"]["grid"]])
        pdf = root / "docling" / "pdf" / "sources" / (gt.stem + ".pdf")
        if truth and pdf.exists():
            pages = list(range(1, int(max(p.get("page_no", 1) for p in doc.get("pages", {}).values()) + 1))) \
                if isinstance(doc.get("pages"), dict) and doc["pages"] else sorted(truth)
            out.append(Case(gt.stem, pdf, pages, truth))
    sec = root / SEC_FILE
    if sec.exists():
        out.append(Case("AAPL 2023 Q1 10-Q", sec, sorted(SEC_CASES), {p: [g] for p, g in SEC_CASES.items()}))
    return out


def method_grid(path: Path, pages: list[int]) -> dict[int, list[Grid]]:
    import pypdfium2 as pdfium

    from ingest.inspect import iter_pdf_pages
    from ingest.steps.table_grid import Word, find_tables
    from ingest.steps.tables import page_words

    out: dict[int, list[Grid]] = {}
    for number, page in iter_pdf_pages(str(path), pages):
        left, _b, _r, top = page.get_cropbox()
        tp = page.get_textpage()
        words = [Word(*w) for w in page_words(pdfium.raw, tp.raw, left, top)]
        tp.close()
        out[number] = [t.grid() for t in find_tables(words, number)]
    return out


def method_pdfplumber(path: Path, pages: list[int]) -> dict[int, list[Grid]]:
    import pdfplumber

    settings = {"vertical_strategy": "text", "horizontal_strategy": "text"}
    with pdfplumber.open(str(path)) as pdf:
        return {p: [[[c or "" for c in row] for row in t] for t in pdf.pages[p - 1].extract_tables(settings)]
                for p in pages}


def method_camelot(path: Path, pages: list[int]) -> dict[int, list[Grid]]:
    import camelot

    out: dict[int, list[Grid]] = {p: [] for p in pages}
    for t in camelot.read_pdf(str(path), pages=",".join(map(str, pages)), flavor="stream"):
        out.setdefault(int(t.page), []).append([[str(c) for c in row] for row in t.df.values.tolist()])
    return out


def method_img2table(path: Path, pages: list[int]) -> dict[int, list[Grid]]:
    from img2table.document import PDF

    doc = PDF(src=str(path), pages=[p - 1 for p in pages], pdf_text_extraction=True, detect_rotation=False)
    found = doc.extract_tables(ocr=None, implicit_rows=False, implicit_columns=False, borderless_tables=True)
    return {i + 1: [[[" ".join(str(c.value or "").split()) for c in row] for row in t.content.values()]
                    for t in tables] for i, tables in found.items()}


METHODS: dict[str, Callable[[Path, list[int]], dict[int, list[Grid]]]] = {
    "grid": method_grid, "pdfplumber": method_pdfplumber, "camelot": method_camelot, "img2table": method_img2table,
}


def gated(case: Case) -> list[int]:
    """The pages of ``case`` where the pipeline looks for tables (``likely_table`` on the text layer)."""
    from ingest.steps.format_parser import extract_text_layer
    from ingest.steps.tables import likely_table

    return [pt.page for pt in extract_text_layer(case.path, "pdf", case.pages) if likely_table(pt)]


def run(method: str, selected: Sequence[Case], out: Callable[[str], None] = print, *,
        gate: bool = False) -> dict[str, Score]:
    """Score ``method`` on each case; with ``gate`` only on the pages the pipeline would look at (the
    other pages predict nothing)."""
    scores: dict[str, Score] = {}
    for case in selected:
        pages = gated(case) if gate else case.pages
        score = Score(pages=len(case.pages))
        t0 = time.perf_counter()
        try:
            pred = METHODS[method](case.path, pages) if pages else {}
        except ImportError as exc:
            out(f"{method}: not installed ({exc.name}); pip install it to compare")
            return {}
        except Exception as exc:  # a method that crashes on a file scores nothing on it
            out(f"  {method:<10} {case.name:<28} failed: {type(exc).__name__}: {str(exc)[:80]}")
            pred = {}
        score.seconds = time.perf_counter() - t0
        if gate:
            score.pages = max(1, len(pages))
        for page in case.pages:
            score_page(case.truth.get(page, []), pred.get(page, []), score)
        if method == "grid" and case.name.startswith("AAPL"):
            _score_headers(case, score)
        scores[case.name] = score
        out(f"  {method:<10} {case.name:<28} cell F1 {score.f1:.3f}  row exact {_ratio(score.rows_exact, score.rows)}"
            f"  {score.seconds / max(1, score.pages):.3f} s/page")
    return scores


def _score_headers(case: Case, score: Score) -> None:
    for page, (grid,) in ((p, g) for p, g in case.truth.items()):
        want = flattened(grid, 2)
        tables = _grid_tables(case.path, page)
        got: list[str] = next((t.headers() for t in tables if t.columns == len(want)), [])
        score.headers += len(want)
        score.header_hits += sum(1 for a, b in zip(want, got, strict=False) if norm(a) == norm(b))


def _grid_tables(path: Path, page: int) -> list[Table]:
    import pypdfium2 as pdfium

    from ingest.inspect import iter_pdf_pages
    from ingest.steps.table_grid import Word, find_tables
    from ingest.steps.tables import page_words

    for number, pg in iter_pdf_pages(str(path), [page]):
        left, _b, _r, top = pg.get_cropbox()
        tp = pg.get_textpage()
        words = [Word(*w) for w in page_words(pdfium.raw, tp.raw, left, top)]
        tp.close()
        return find_tables(words, number)
    return []


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "n/a"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.tables", description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=0, help="only the first N cases")
    ap.add_argument("--method", default="grid", choices=[*METHODS, "all"])
    ap.add_argument("--gate", action="store_true",
                    help="only the pages where the pipeline looks for tables (likely_table), as ingest does")
    args = ap.parse_args(argv)
    if not (EVALDATA / "docling").is_dir():
        print(f"evaldata absent ({EVALDATA}): nothing to measure")
        return 0
    selected = cases()[: args.limit or None]
    for method in (list(METHODS) if args.method == "all" else [args.method]):
        scores = run(method, selected, gate=args.gate)
        if not scores:
            continue
        total = Score()
        for s in scores.values():
            for name in ("matched", "predicted", "truth", "rows_exact", "rows", "header_hits", "headers", "pages"):
                setattr(total, name, getattr(total, name) + getattr(s, name))
            total.seconds += s.seconds
        mean_f1 = statistics.mean(s.f1 for s in scores.values())
        line = (f"{method:<10} mean cell F1 {mean_f1:.3f} (micro {total.f1:.3f})  row exact "
                f"{_ratio(total.rows_exact, total.rows)}  {total.seconds / max(1, total.pages):.3f} s/page")
        if total.headers:
            line += f"  headers {_ratio(total.header_hits, total.headers)}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
