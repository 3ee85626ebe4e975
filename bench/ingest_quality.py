"""Quality and speed evaluations behind ``python -m bench.ingest_eval fidelity|cer|speed`` (see there)."""

from __future__ import annotations

import re
import resource
import statistics
import time
import unicodedata
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from store.config import Settings

# --- metrics (pure) -----------------------------------------------------------------------------------


def edit_distance(a: Sequence[object], b: Sequence[object]) -> int:
    """Levenshtein distance between two sequences (characters or words), row-vectorised with numpy."""
    if not a:
        return len(b)
    if not b:
        return len(a)
    vocab: dict[object, int] = {}
    av = np.array([vocab.setdefault(x, len(vocab)) for x in a], dtype=np.int64)
    bv = np.array([vocab.setdefault(x, len(vocab)) for x in b], dtype=np.int64)
    idx = np.arange(len(bv) + 1, dtype=np.int64)
    prev = idx.copy()
    for i, token in enumerate(av, start=1):
        cur = np.empty_like(prev)
        cur[0] = i
        cur[1:] = np.minimum(prev[1:] + 1, prev[:-1] + (bv != token))
        cur = np.minimum.accumulate(cur - idx) + idx  # insertions: cur[j] = min(cur[j], cur[j-1] + 1)
        prev = cur
    return int(prev[-1])


_MD_NOISE = re.compile(r"<!--.*?-->|^\s{0,3}#{1,6}\s+|^\s*[-*+]\s+|\*\*|__|`|^\s*\|?[-:| ]{3,}\|?\s*$", re.M)


def normalise(text: str) -> str:
    """Text for comparison: NFKC, markdown syntax and table pipes removed, hyphenated breaks joined, lower case."""
    text = unicodedata.normalize("NFKC", text)
    text = _MD_NOISE.sub(" ", text)
    text = text.replace("|", " ")
    text = re.sub(r"(\w)-\n(\w)", r"\1\2", text)
    return " ".join(text.lower().split())


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def word_f1(predicted: str, truth: str) -> tuple[float, float, float]:
    """(precision, recall, F1) of the bag of words."""
    p, t = Counter(words(predicted)), Counter(words(truth))
    overlap = sum((p & t).values())
    if not p or not t:
        return (0.0, 0.0, 0.0) if (p or t) else (1.0, 1.0, 1.0)
    precision, recall = overlap / sum(p.values()), overlap / sum(t.values())
    f1 = 0.0 if overlap == 0 else 2 * precision * recall / (precision + recall)
    return precision, recall, f1


def word_similarity(predicted: str, truth: str) -> float:
    """1 − word-level edit distance / max length: order-aware (reading order matters)."""
    p, t = words(predicted), words(truth)
    if not p and not t:
        return 1.0
    return 1.0 - edit_distance(p, t) / max(len(p), len(t))


# --- fidelity -----------------------------------------------------------------------------------------


def fidelity_command(data: Path, settings: Settings, *, verbose: bool = False) -> int:
    from ingest.inspect import inspect_document
    from ingest.steps.format_parser import extract_text_layer

    src, gt_dir = data / "docling" / "pdf" / "sources", data / "docling" / "pdf" / "groundtruth"
    if not src.is_dir() or not gt_dir.is_dir():
        print(f"docling ground truth not found under {data / 'docling'}; skipping")
        return 0
    rows = []
    for pdf in sorted(src.glob("*.pdf")):
        truth_file = gt_dir / (pdf.stem + ".md")
        if not truth_file.is_file():
            continue
        started = time.perf_counter()
        info = inspect_document(pdf, "pdf", settings)
        pages = extract_text_layer(pdf, "pdf", range(1, info.page_count + 1), settings=settings)
        seconds = time.perf_counter() - started
        predicted = normalise("\n".join(p.text for p in pages))
        truth = normalise(truth_file.read_text(encoding="utf-8"))
        precision, recall, f1 = word_f1(predicted, truth)
        ocr_pages = sum(p.needs_ocr for p in pages)
        rows.append((pdf.name, info.page_count, ocr_pages, precision, recall, f1, word_similarity(predicted, truth),
                     seconds))
        if verbose:
            print(f"--- {pdf.name}\n  got:   {predicted[:300]}\n  truth: {truth[:300]}")
    print(f"{'file':<36} {'pages':>5} {'ocr':>3} {'prec':>6} {'recall':>6} {'F1':>6} {'editsim':>7} {'s':>5}")
    for name, n, ocr, p, r, f, sim, s in rows:
        print(f"{name:<36} {n:>5} {ocr:>3} {p:>6.3f} {r:>6.3f} {f:>6.3f} {sim:>7.3f} {s:>5.2f}")
    if rows:
        print(f"{'mean':<36} {'':>5} {'':>3} {statistics.mean(r[3] for r in rows):>6.3f} "
              f"{statistics.mean(r[4] for r in rows):>6.3f} {statistics.mean(r[5] for r in rows):>6.3f} "
              f"{statistics.mean(r[6] for r in rows):>7.3f}")
    print("\nword F1: bag of words vs docling's reviewed markdown (markdown syntax stripped, NFKC, lower case);"
          "\neditsim: 1 - word edit distance / length, so reading order counts; ocr: pages flagged needs_ocr")
    return 0


# --- OCR CER ------------------------------------------------------------------------------------------


def cer_command(data: Path, settings: Settings, *, limit: int = 5) -> int:
    from ingest.steps.ocr import select_engine

    root = data / "sroie"
    if not (root / "box").is_dir():
        print(f"SROIE not found under {root}; skipping")
        return 0
    engine = select_engine("en", settings)
    boxes = sorted((root / "box").glob("*.csv"))
    if limit > 0:
        boxes = boxes[:limit]
    total_edits = total_chars = total_edits_ci = 0
    seconds: list[float] = []
    print(f"{'receipt':<10} {'lines':>5} {'CER':>6} {'CER ci':>6} {'s':>5}")
    for csv_path in boxes:
        image = root / "img" / (csv_path.stem + ".jpg")
        if not image.is_file():
            continue
        truth_lines = _sroie_lines(csv_path)
        result = engine.recognize(image.read_bytes(), language="en")
        seconds.append(result.seconds)
        edits = edits_ci = chars = 0
        for box, text in truth_lines:
            predicted = _text_in_box(result.lines, box)
            edits += edit_distance(list(" ".join(predicted.split())), list(" ".join(text.split())))
            edits_ci += edit_distance(list(" ".join(predicted.lower().split())), list(" ".join(text.lower().split())))
            chars += len(" ".join(text.split()))
        total_edits, total_edits_ci, total_chars = total_edits + edits, total_edits_ci + edits_ci, total_chars + chars
        print(f"{csv_path.stem:<10} {len(truth_lines):>5} {edits / max(chars, 1):>6.3f} "
              f"{edits_ci / max(chars, 1):>6.3f} {result.seconds:>5.1f}")
    if seconds:
        cer, cer_ci = total_edits / max(total_chars, 1), total_edits_ci / max(total_chars, 1)
        print(f"{'all':<10} {'':>5} {cer:>6.3f} {cer_ci:>6.3f}"
              f" {statistics.mean(seconds):>5.1f} (mean s/receipt, engine {engine.name})")
    print("\nCER: character edits / ground-truth characters, over every labelled line (OCR lines overlapping the "
          "line's box,\nleft to right); 'ci' ignores case. Detection misses count as deletions.")
    return 0


def _sroie_lines(path: Path) -> list[tuple[tuple[float, float, float, float], str]]:
    out = []
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = raw.split(",", 8)
        if len(parts) < 9:
            continue
        try:
            xs = [float(v) for v in parts[0:8:2]]
            ys = [float(v) for v in parts[1:8:2]]
        except ValueError:
            continue
        out.append(((min(xs), min(ys), max(xs), max(ys)), parts[8]))
    return out


def _text_in_box(lines: Sequence[object], box: tuple[float, float, float, float]) -> str:
    x0, y0, x1, y1 = box
    picked = []
    for line in lines:
        lx0, ly0, lx1, ly1 = line.bbox  # type: ignore[attr-defined]
        v_overlap = min(y1, ly1) - max(y0, ly0)
        h_overlap = min(x1, lx1) - max(x0, lx0)
        if v_overlap > 0.5 * min(y1 - y0, ly1 - ly0) and h_overlap > 0:
            picked.append((lx0, str(line.text)))  # type: ignore[attr-defined]
    return " ".join(text for _, text in sorted(picked))


# --- speed --------------------------------------------------------------------------------------------


def _cpu() -> float:
    """CPU seconds used by this process and its finished children (robust to a busy machine, unlike wall time)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def speed_command(data: Path, settings: Settings, *, pdf: Path | None = None, ocr_pages: int = 3) -> int:
    from ingest.inspect import inspect_document
    from ingest.steps.format_parser import extract_text_layer
    from ingest.steps.ocr import ocr_available, select_engine
    from ingest.steps.segment_prep import render_pages

    pdfs = [pdf] if pdf else sorted((data / "docugami_sec10q").rglob("*.pdf"))
    rows: list[tuple[str, str]] = []
    if pdfs:
        pages = 0
        started, cpu = time.perf_counter(), _cpu()
        counts = []
        for path in pdfs:
            info = inspect_document(path, "pdf", settings)
            counts.append((path, info.page_count))
            extract_text_layer(path, "pdf", range(1, info.page_count + 1), settings=settings)
            pages += info.page_count
        took, cpu = time.perf_counter() - started, _cpu() - cpu
        rows.append(("text layer (inspect + extract, sandboxed)", f"{pages / took:.1f} pages/s wall, "
                     f"{pages / cpu:.1f} pages/CPU-s ({pages} pages, {len(pdfs)} PDFs, {took:.1f} s)"))
        path, n = max(counts, key=lambda c: c[1])
        n = min(n, 60)
        started, cpu = time.perf_counter(), _cpu()
        size = sum(len(p.png) for p in render_pages(path, "pdf", range(1, n + 1), settings.ingest.render_dpi,
                                                      settings=settings))
        took, cpu = time.perf_counter() - started, _cpu() - cpu
        dpi = settings.ingest.render_dpi
        rows.append((f"render {dpi} dpi PNG", f"{n / took:.1f} pages/s wall, {n / cpu:.1f} pages/CPU-s "
                     f"({n} pages of {path.name}, {size / n / 1024:.0f} KiB/page)"))
    scans = sorted((data / "docling" / "ocr" / "sources").glob("ocr_test*.pdf"))[:ocr_pages]
    if scans:
        engine = select_engine("en", settings)
        times, cpus = [], []
        for path in scans:
            (page,) = render_pages(path, "pdf", [1], settings.ingest.render_dpi, settings=settings)
            cpu = _cpu()
            times.append(engine.recognize(page.png, language="en").seconds)
            cpus.append(_cpu() - cpu)
        dpi = settings.ingest.render_dpi
        rows.append((f"OCR {engine.name} ({dpi} dpi scan)", f"{statistics.mean(times):.2f} s/page wall "
                     f"(min {min(times):.2f}), {statistics.mean(cpus):.2f} CPU-s/page, mean of {len(times)}"))
    korean = data / "docling" / "pdf" / "sources" / "normal_4pages.pdf"
    ok, why = ocr_available("ko", settings=settings)
    if korean.is_file() and ok:
        engine = select_engine("ko", settings)
        times, cpus = [], []
        for p in render_pages(korean, "pdf", [1, 2], settings.ingest.render_dpi, settings=settings):
            cpu = _cpu()
            times.append(engine.recognize(p.png, language="ko").seconds)
            cpus.append(_cpu() - cpu)
        rows.append((f"OCR {engine.name} Korean ({settings.ingest.render_dpi} dpi)",
                     f"{statistics.mean(times):.2f} s/page wall, {statistics.mean(cpus):.2f} CPU-s/page"))
    elif not ok:
        rows.append(("OCR Korean", f"unavailable: {why}"))
    width = max(len(r[0]) for r in rows) if rows else 10
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    print("\n(wall numbers depend on what else runs on the machine; CPU-s are this process plus its sandbox "
          "children and Tesseract)")
    return 0


def memory_command(settings: Settings, *, pages: int) -> int:
    """Render and read every page of a synthetic ``pages``-page PDF; print peak memory of parent and children.

    Run it in a fresh process (it is its own command) so the peaks belong to this document alone; compare
    two sizes to see that memory is flat in the page count.
    """
    import tempfile

    from ingest.steps.format_parser import iter_text_layer
    from ingest.steps.segment_prep import render_pages

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.pdf"
        write_synthetic_pdf(path, pages)
        size_mb = path.stat().st_size / 1e6
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started, cpu = time.perf_counter(), _cpu()
        png_bytes = 0
        for page in render_pages(path, "pdf", range(1, pages + 1), settings.ingest.render_dpi, settings=settings):
            png_bytes += len(page.png)  # a pipeline would store it and drop it, as here
        render_s, render_cpu = time.perf_counter() - started, _cpu() - cpu
        started, cpu = time.perf_counter(), _cpu()
        text_pages = sum(1 for _ in iter_text_layer(path, "pdf", range(1, pages + 1), settings=settings))
        text_s, text_cpu = time.perf_counter() - started, _cpu() - cpu
        parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"synthetic PDF: {pages} pages, {size_mb:.1f} MB, {png_bytes / 1e6:.0f} MB of page PNGs at "
          f"{settings.ingest.render_dpi} dpi")
    print(f"render:     {pages / render_s:.1f} pages/s wall, {pages / render_cpu:.1f} pages/CPU-s")
    print(f"text layer: {text_pages / text_s:.1f} pages/s wall, {text_pages / text_cpu:.1f} pages/CPU-s")
    print(f"peak RSS:   parent {parent / 1024:.0f} MiB (before: {before / 1024:.0f} MiB), "
          f"largest sandbox child {child / 1024:.0f} MiB")
    return 0


def write_synthetic_pdf(path: Path, pages: int) -> None:
    """A text PDF of ``pages`` pages (40 lines each), streamed to disk."""
    font_id = 3 + 2 * pages
    with path.open("wb") as out:
        offsets: list[int] = []

        def obj(body: bytes) -> None:
            offsets.append(out.tell())
            out.write(f"{len(offsets)} 0 obj\n".encode() + body + b"\nendobj\n")

        out.write(b"%PDF-1.4\n")
        obj(b"<< /Type /Catalog /Pages 2 0 R >>")
        kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(pages))
        obj(f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode())
        for i in range(pages):
            obj(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 {font_id} 0 R >> "
                f">> /Contents {4 + 2 * i} 0 R >>".encode())
            ops = ["BT /F1 10 Tf"] + [
                f"1 0 0 1 72 {740 - 16 * j} Tm (Page {i + 1} line {j + 1}: the quick brown fox jumps over the "
                f"lazy dog, figures {i * 40 + j}.) Tj" for j in range(40)
            ] + ["ET"]
            stream = "\n".join(ops).encode()
            obj(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        obj(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        xref = out.tell()
        out.write(f"xref\n0 {len(offsets) + 1}\n0000000000 65535 f \n".encode())
        for off in offsets:
            out.write(f"{off:010d} 00000 n \n".encode())
        out.write(f"trailer\n<< /Size {len(offsets) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
