"""The GPU path measured on real pages (issue 18) — run by ``scripts/gpu-check.sh`` on a GPU machine.

    python -m bench.gpu_check --pages 24 --batch 8 --chunks 4096 --e5-dir /models/multilingual-e5-small

Pages: the first ``--pages`` pages of the 10-Qs in ``../shared/evaldata/docugami_sec10q`` rendered at
``--dpi`` as image-only "scans" (greyscale, a little blur and noise, no text layer), the text layer kept as the
reference. OCR: PaddleOCR (``PaddleOcrEngine``, ``--batch`` pages per ``predict`` through
``ingest.steps.ocr_batch``) and the CPU engine (RapidOCR) on the same pages: pages/s each, CER of each
against the text layer and of PaddleOCR against RapidOCR. Embedding: the torch embedder (fp16, its own
batches) on ``--chunks`` passages of ~256 tokens cut from the same documents: chunks/s, peak GPU memory, and
the cosine between its vectors and the ONNX CPU embedder's on a sample (same vector space). One JSON line.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import time
from pathlib import Path
from typing import Any

from bench.ingest_quality import edit_distance

DOCS = Path(__file__).resolve().parents[1] / ".." / "shared" / "evaldata" / "docugami_sec10q" / "docs"


def scanned_pages(docs: Path, count: int, dpi: int, seed: int = 0) -> list[tuple[bytes, str]]:
    """(PNG of a page as a scan, its text layer) for the first ``count`` non-blank pages of the PDFs."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageFilter

    rng = random.Random(seed)
    out: list[tuple[bytes, str]] = []
    for pdf in sorted(docs.glob("*.pdf")):
        doc = pdfium.PdfDocument(str(pdf))
        try:
            for page in doc:
                text = page.get_textpage().get_text_range()
                if len(text.split()) < 30:
                    continue
                img = page.render(scale=dpi / 72).to_pil().convert("L").filter(ImageFilter.GaussianBlur(0.6))
                noise = Image.effect_noise(img.size, 12).point(lambda v: v - 128)
                img = Image.blend(img, Image.merge("L", [noise]).convert("L"), 0.04).rotate(
                    rng.uniform(-0.4, 0.4), fillcolor=255)
                buf = io.BytesIO()
                img.save(buf, format="PNG")
                out.append((buf.getvalue(), text))
                if len(out) >= count:
                    return out
        finally:
            doc.close()
    return out


def cer(predicted: str, reference: str) -> float:
    a, b = " ".join(predicted.lower().split()), " ".join(reference.lower().split())
    return edit_distance(list(a), list(b)) / max(1, len(b))


def run_ocr(engine: Any, pages: list[tuple[bytes, str]], batch: int) -> tuple[float, list[str]]:
    from ingest.steps.ocr_batch import recognize_pages

    texts: list[str] = []
    t0 = time.perf_counter()
    for start in range(0, len(pages), batch):
        run = [png for png, _ in pages[start:start + batch]]
        texts.extend(r.text for r in recognize_pages(engine, run, language="en"))
    return len(pages) / max(1e-9, time.perf_counter() - t0), texts


def passages(pages: list[tuple[bytes, str]], count: int, words: int = 190) -> list[str]:
    """~256-token passages (about 190 English words) cycled from the pages' text layers."""
    tokens = " ".join(t for _, t in pages).split()
    out = [" ".join(tokens[i:i + words]) for i in range(0, max(1, len(tokens) - words), words)]
    return [out[i % len(out)] for i in range(count)] if out else []


def gpu_memory_mb() -> dict[str, float]:
    out: dict[str, float] = {}
    try:
        import torch

        if torch.cuda.is_available():
            out["torch_peak_mb"] = round(torch.cuda.max_memory_allocated() / 2**20, 1)
    except ImportError:
        pass
    try:
        import paddle

        out["paddle_peak_mb"] = round(paddle.device.cuda.max_memory_allocated() / 2**20, 1)
    except Exception as exc:  # no paddle, or a CPU build
        out["paddle_peak_mb_error"] = type(exc).__name__  # type: ignore[assignment]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.gpu_check")
    parser.add_argument("--docs", type=Path, default=DOCS)
    parser.add_argument("--pages", type=int, default=24)
    parser.add_argument("--dpi", type=int, default=150)
    parser.add_argument("--batch", type=int, default=8, help="pages per PaddleOCR predict call")
    parser.add_argument("--chunks", type=int, default=4096)
    parser.add_argument("--embed-batch", type=int, default=256)
    parser.add_argument("--e5-dir", type=Path, default=None, help="HF export of multilingual-e5-small (torch)")
    parser.add_argument("--cpu-pages", type=int, default=6, help="pages the CPU OCR engine reads (it is slow)")
    parser.add_argument("--skip-ocr", action="store_true")
    parser.add_argument("--skip-embed", action="store_true")
    args = parser.parse_args(argv)
    res: dict[str, Any] = {"bench": "gpu_check", "dpi": args.dpi}
    pages = scanned_pages(args.docs, args.pages, args.dpi)
    res["pages"] = len(pages)
    if not args.skip_ocr:
        from ingest.steps.ocr import PaddleOcrEngine, RapidOcrEngine

        paddle = PaddleOcrEngine(device="gpu")
        run_ocr(paddle, pages[:2], 2)  # build the pipeline and warm the kernels (not timed)
        rate, texts = run_ocr(paddle, pages, args.batch)
        res.update({"paddle_pages_per_s": round(rate, 2), "paddle_batch": args.batch,
                    "paddle_cer_vs_text_layer": round(sum(cer(t, p[1]) for t, p in zip(texts, pages, strict=True))
                                                      / max(1, len(pages)), 4)})
        cpu = pages[:args.cpu_pages]
        cpu_rate, cpu_texts = run_ocr(RapidOcrEngine(), cpu, 1)
        res.update({"rapidocr_pages_per_s": round(cpu_rate, 2), "cpu_pages": len(cpu),
                    "rapidocr_cer_vs_text_layer": round(sum(cer(t, p[1]) for t, p in zip(cpu_texts, cpu, strict=True))
                                                        / max(1, len(cpu)), 4),
                    "paddle_cer_vs_rapidocr": round(sum(cer(a, b) for a, b in zip(texts, cpu_texts, strict=False))
                                                    / max(1, len(cpu_texts)), 4)})
    if not args.skip_embed and args.e5_dir is not None:
        from retrieval.onnx_embedder import OnnxE5Embedder
        from retrieval.torch_embedder import TorchE5Embedder

        texts = passages(pages, args.chunks)
        gpu = TorchE5Embedder(args.e5_dir, batch_size=args.embed_batch)
        gpu.embed_passages(texts[: args.embed_batch])  # CUDA kernels warmed, not timed
        t0 = time.perf_counter()
        vecs = gpu.embed_passages(texts)
        res.update({"torch_chunks": len(texts), "torch_chunks_per_s": round(len(texts) / (time.perf_counter() - t0), 1),
                    "torch_embed_batch": args.embed_batch})
        sample = texts[:16]
        ref = OnnxE5Embedder().embed_passages(sample)
        cos = [sum(x * y for x, y in zip(a, b, strict=True)) for a, b in zip(vecs[:16], ref, strict=True)]
        res["torch_vs_onnx_cosine_min"] = round(min(cos), 4) if cos else None
    res.update(gpu_memory_mb())
    print(json.dumps(res), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
