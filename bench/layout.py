"""Layout analysis quality (the embedded ``segment_analyzer``) against ground truth — prints numbers, asserts
nothing.

    python -m bench.layout                 # docling PDFs + OmniDocBench demo pages
    python -m bench.layout docling --show  # per-document lines, and the missed / extra headings

**docling** (``../shared/evaldata/docling/pdf``: PDFs with docling's reviewed JSON): each PDF goes through
the real text-layer path (``format_parser`` → ``segment_builder`` → styles → ``page_layout``; no table
detection). Headings: ground-truth ``title`` / ``section_header`` items vs our ``title`` / ``heading``
blocks, matched by normalised text (equal, or a similarity ≥ 0.8) — precision, recall, F1, micro over all
documents. Furniture: ``page_header`` / ``page_footer`` items vs our ``header`` / ``footer`` blocks.
Reading order: each ground-truth body text item (in the ground truth's order) is mapped to the block whose
box holds most of it; Kendall's tau between the ground-truth order and ours, per page (pages with ≥ 3
mapped items), averaged. The baseline is the text layer's own line order (PDFium's), mapped the same way.

**omnidocbench** (``../shared/evaldata/omnidocbench_demo``: page images with annotated blocks, spans and
reading order): the annotated text spans stand in for OCR lines (oracle OCR: the text and line boxes a
perfect OCR engine would return, sorted top-down then left-right as an engine emits them, so no order leaks
in), through ``page_layout`` with the OCR statistics. Headings: ``title`` blocks; furniture: ``header``,
``footer``, ``page_number``; order: Kendall's tau of the annotated ``order`` vs ours; baseline: the
top-down line order.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from pathlib import Path
from typing import Any

from ingest.analysis.layout import page_layout
from ingest.analysis.styles import doc_styles

EVAL = Path(__file__).resolve().parents[2] / "shared" / "evaldata"
_WS = re.compile(r"\s+")


def norm(text: str) -> str:
    return _WS.sub(" ", re.sub(r"[#*_`]", "", text)).strip().lower()


def kendall_tau(seq: list[float]) -> float | None:
    """Kendall's tau-a between positions 0..n-1 and ``seq`` (ties in ``seq`` count as neither)."""
    n = len(seq)
    if n < 2:
        return None
    conc = disc = 0
    for i in range(n):
        for j in range(i + 1, n):
            if seq[i] < seq[j]:
                conc += 1
            elif seq[i] > seq[j]:
                disc += 1
    return (conc - disc) / (n * (n - 1) / 2)


class Tally:
    def __init__(self) -> None:
        self.tp = self.fp = self.fn = 0

    def add(self, ours: list[str], truth: list[str]) -> tuple[list[str], list[str]]:
        left = list(truth)
        extra: list[str] = []
        for o in ours:
            k = next((i for i, t in enumerate(left) if _same(o, t)), None)
            if k is None:
                extra.append(o)
                self.fp += 1
            else:
                left.pop(k)
                self.tp += 1
        self.fn += len(left)
        return left, extra

    def prf(self) -> dict[str, float]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        return {"precision": round(p, 3), "recall": round(r, 3),
                "f1": round(2 * p * r / (p + r), 3) if p + r else 0.0, "truth": self.tp + self.fn,
                "found": self.tp + self.fp}


def _same(a: str, b: str) -> bool:
    a, b = norm(a), norm(b)
    if not a or not b:
        return False
    if a == b or sorted(a.split()) == sorted(b.split()):  # the same words ("1 들어가며" / "들어가며 1")
        return True
    return difflib.SequenceMatcher(None, a, b).ratio() >= 0.8


def _overlap(a: Any, b: Any) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    area = (a[2] - a[0]) * (a[3] - a[1])
    return w * h / area if area > 0 else 0.0


def _order_of(box: Any, boxes: list[Any], orders: list[float]) -> float | None:
    best, where = 0.0, None
    for b, o in zip(boxes, orders, strict=True):
        ov = _overlap(box, b)
        if ov > best:
            best, where = ov, o
    return where if best >= 0.3 else None


def _taus(truth_boxes: list[Any], ours: list[Any], ours_order: list[float], base: list[Any],
          base_order: list[float]) -> tuple[float | None, float | None]:
    def tau(boxes: list[Any], orders: list[float]) -> float | None:
        seq = [o for o in (_order_of(b, boxes, orders) for b in truth_boxes) if o is not None]
        return kendall_tau(seq) if len(seq) >= 3 else None
    return tau(ours, ours_order), tau(base, base_order)


def run_docling(show: bool) -> dict[str, Any]:
    from ingest.steps.format_parser import extract_text_layer
    from ingest.steps.segment_builder import build_segment

    root = EVAL / "docling" / "pdf"
    heads, furn = Tally(), Tally()
    taus: list[float] = []
    base_taus: list[float] = []
    docs = 0
    for gt_path in sorted((root / "groundtruth").glob("*.json")):
        pdf = root / "sources" / f"{gt_path.stem}.pdf"
        if not pdf.exists():
            continue
        gt = json.loads(gt_path.read_text())
        sizes = {int(k): v["size"] for k, v in (gt.get("pages") or {}).items()}
        pages = sorted(sizes)
        layer = extract_text_layer(pdf, "pdf", pages)
        segs = [build_segment(pt.page, pt, None, width_pt=sizes[pt.page]["width"], height_pt=sizes[pt.page]["height"],
                              width_px=int(sizes[pt.page]["width"]), height_px=int(sizes[pt.page]["height"]))
                for pt in layer]
        styles = doc_styles(segs)
        layouts = [page_layout(s, styles) for s in segs]
        docs += 1
        ours_h = [b["text"] for lay in layouts for b in lay["blocks"] if b["type"] in ("heading", "title")]
        truth_h = [t["text"] for t in gt["texts"] if t["label"] in ("title", "section_header")]
        missed, extra = heads.add(ours_h, truth_h)
        ours_f = [b["text"] for lay in layouts for b in lay["blocks"] if b["type"] in ("header", "footer")]
        truth_f = [t["text"] for t in gt["texts"] if t["label"] in ("page_header", "page_footer")]
        furn.add(ours_f, truth_f)
        order = [r["$ref"] for r in _flatten(gt, gt["body"])]
        by_ref = {t["self_ref"]: t for t in gt["texts"]}
        doc_taus = []
        for seg, lay in zip(segs, layouts, strict=True):
            page = seg["page"]
            height = sizes[page]["height"]
            truth_boxes = []
            for ref in order:
                t = by_ref.get(ref)
                if not t or t["label"] in ("page_header", "page_footer") or not t.get("prov"):
                    continue
                prov = t["prov"][0]
                if prov["page_no"] != page:
                    continue
                bb = prov["bbox"]
                if bb.get("coord_origin") == "BOTTOMLEFT":
                    truth_boxes.append((bb["l"], height - bb["t"], bb["r"], height - bb["b"]))
                else:
                    truth_boxes.append((bb["l"], bb["t"], bb["r"], bb["b"]))
            body = [b for b in lay["blocks"] if b["type"] not in ("header", "footer")]
            lines = [ln for ln in seg["lines"] if ln.get("bbox")]
            ours, base = _taus(truth_boxes, [b["bbox"] for b in body], [float(b["order"]) for b in body],
                               [ln["bbox"] for ln in lines], [float(i) for i in range(len(lines))])
            if ours is not None and base is not None:
                taus.append(ours)
                base_taus.append(base)
                doc_taus.append(ours)
        if show:
            print(f"  {gt_path.stem}: pages={len(pages)} headings truth={len(truth_h)} ours={len(ours_h)} "
                  f"tau={_mean(doc_taus)}", file=sys.stderr)
            for m in missed[:8]:
                print(f"    missed: {m[:70]}", file=sys.stderr)
            for e in extra[:8]:
                print(f"    extra:  {e[:70]}", file=sys.stderr)
    return {"set": "docling", "documents": docs, "headings": heads.prf(), "headers_footers": furn.prf(),
            "reading_order_tau": _mean(taus), "baseline_line_order_tau": _mean(base_taus), "pages_scored": len(taus)}


def _flatten(gt: dict[str, Any], node: dict[str, Any]) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    groups = {g["self_ref"]: g for g in gt.get("groups") or ()}
    for child in node.get("children") or ():
        ref = child["$ref"]
        if ref in groups:
            out.extend(_flatten(gt, groups[ref]))
        else:
            out.append(child)
    return out


def run_omnidocbench(show: bool) -> dict[str, Any]:
    raw = json.loads((EVAL / "omnidocbench_demo" / "OmniDocBench_demo.json").read_text())
    heads, furn = Tally(), Tally()
    taus: list[float] = []
    base_taus: list[float] = []
    for page_no, page in enumerate(raw, start=1):
        info = page["page_info"]
        dets = [d for d in page["layout_dets"] if not d.get("ignore")]
        lines = []
        for d in dets:
            for span in d.get("line_with_spans") or ():
                if span.get("text"):
                    xs, ys = span["poly"][0::2], span["poly"][1::2]
                    lines.append({"text": span["text"], "bbox": [min(xs), min(ys), max(xs), max(ys)]})
        lines.sort(key=lambda ln: (round(ln["bbox"][1] / 10), ln["bbox"][0]))
        seg = {"page": page_no, "source": "ocr", "width": info["width"], "height": info["height"], "lines": lines}
        lay = page_layout(seg, doc_styles([seg]))
        ours_h = [b["text"] for b in lay["blocks"] if b["type"] in ("heading", "title")]
        truth_h = [d.get("text") or "" for d in dets if d["category_type"] == "title"]
        missed, extra = heads.add(ours_h, truth_h)
        ours_f = [b["text"] for b in lay["blocks"] if b["type"] in ("header", "footer")]
        truth_f = [d.get("text") or "" for d in dets if d["category_type"] in ("header", "footer", "page_number")]
        furn.add(ours_f, truth_f)
        ordered = sorted((d for d in dets if d.get("order") is not None and d["category_type"] not in
                          ("header", "footer", "page_number", "abandon")), key=lambda d: d["order"])
        truth_boxes = [(min(d["poly"][0::2]), min(d["poly"][1::2]), max(d["poly"][0::2]), max(d["poly"][1::2]))
                       for d in ordered]
        body = [b for b in lay["blocks"] if b["type"] not in ("header", "footer")]
        ours, base = _taus(truth_boxes, [b["bbox"] for b in body], [float(b["order"]) for b in body],
                           [ln["bbox"] for ln in lines], [float(i) for i in range(len(lines))])
        if ours is not None and base is not None:
            taus.append(ours)
            base_taus.append(base)
        if show:
            print(f"  {info['image_path'][:60]}: tau={ours} base={base} headings truth={len(truth_h)} "
                  f"ours={len(ours_h)}", file=sys.stderr)
            for m in missed[:5]:
                print(f"    missed: {m[:70]}", file=sys.stderr)
            for e in extra[:5]:
                print(f"    extra:  {e[:70]}", file=sys.stderr)
    return {"set": "omnidocbench_demo (oracle OCR lines)", "pages": len(raw), "headings": heads.prf(),
            "headers_footers": furn.prf(), "reading_order_tau": _mean(taus),
            "baseline_line_order_tau": _mean(base_taus), "pages_scored": len(taus)}


def _mean(xs: list[float]) -> float | None:
    return round(sum(xs) / len(xs), 3) if xs else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.layout", description=__doc__.split("\n")[0])
    parser.add_argument("what", nargs="?", choices=("all", "docling", "omnidocbench"), default="all")
    parser.add_argument("--show", action="store_true", help="per-document details on stderr")
    args = parser.parse_args(argv)
    if not EVAL.exists():
        print(json.dumps({"error": f"no evaluation data at {EVAL}"}))
        return 1
    if args.what in ("all", "docling"):
        print(json.dumps(run_docling(args.show), ensure_ascii=False))
    if args.what in ("all", "omnidocbench"):
        print(json.dumps(run_omnidocbench(args.show), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
