"""Retrieval evaluation sets read from ``../shared/evaldata`` (never copied into the repo).

- KorQuAD 1.0 dev: every paragraph is a corpus unit (one document per article), every question a query
  whose target is its paragraph.
- FinanceBench (local-PDF subset): every page of the referenced filings is a corpus unit (plain
  text-layer extraction with pypdfium2; the AES-encrypted files open with the empty user password),
  the evidence page(s) are the targets (0-indexed in the data, 1-based here).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from retrieval.types import Chunk
from store.errors import InvalidInput, NotFound

DEFAULT_ROOT = Path("../shared/evaldata")


@dataclass(frozen=True, slots=True)
class Query:
    text: str
    targets: frozenset[tuple[str, int]]  # (document_id, page) pairs; KorQuAD uses page = paragraph index + 1
    document_id: str  # the document the question is about (FinanceBench: the filing)


@dataclass(slots=True)
class EvalSet:
    name: str
    project_id: str
    units: list[Chunk]
    queries: list[Query]
    language: str = "en"
    notes: dict[str, object] = field(default_factory=dict)


def resolve_root(root: Path | None) -> Path:
    base = root if root is not None else DEFAULT_ROOT
    if not base.is_dir():
        raise NotFound(f"evaluation data not found at {base.resolve()} (expected ../shared/evaldata)")
    return base


def load_korquad(root: Path | None = None, *, limit: int | None = None, max_articles: int | None = None) -> EvalSet:
    path = resolve_root(root) / "korquad_v1" / "KorQuAD_v1.0_dev.json"
    if not path.is_file():
        raise NotFound(f"KorQuAD dev set not found at {path}")
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    if max_articles is not None:
        data = data[:max_articles]
    units: list[Chunk] = []
    queries: list[Query] = []
    for a, article in enumerate(data):
        doc_id = f"kq{a:03d}"
        for p, para in enumerate(article["paragraphs"]):
            units.append(
                Chunk(
                    chunk_id=f"{doc_id}:{p:05d}",
                    project_id="korquad",
                    document_id=doc_id,
                    file_name=str(article.get("title", doc_id)),
                    text=para["context"],
                    page_start=p + 1,
                    page_end=p + 1,
                    chunk_index=p,
                    language="ko",
                )
            )
            for qa in para["qas"]:
                queries.append(Query(qa["question"], frozenset({(doc_id, p + 1)}), doc_id))
    if limit is not None:
        queries = queries[:limit]
    return EvalSet("korquad", "korquad", units, queries, language="ko")


def _pdf_pages(pdf: Path) -> list[str]:
    import pypdfium2

    try:
        doc = pypdfium2.PdfDocument(str(pdf), password="")
    except pypdfium2.PdfiumError as exc:
        raise InvalidInput(f"cannot open {pdf.name}: {exc}") from exc
    try:
        out = []
        for i in range(len(doc)):
            page = doc[i]
            tp = page.get_textpage()
            out.append(tp.get_text_bounded())
            tp.close()
            page.close()
        return out
    finally:
        doc.close()


def load_financebench(
    root: Path | None = None,
    *,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EvalSet:
    base = resolve_root(root) / "financebench"
    qfile = base / "financebench_subset_local_pdfs.jsonl"
    if not qfile.is_file():
        raise NotFound(f"FinanceBench questions not found at {qfile}")
    rows = [json.loads(line) for line in qfile.read_text(encoding="utf-8").splitlines() if line.strip()]
    if limit is not None:
        rows = rows[:limit]
    queries = []
    for r in rows:
        targets = frozenset((e["doc_name"], int(e["evidence_page_num"]) + 1) for e in r["evidence"])
        queries.append(Query(r["question"], targets, r["doc_name"]))
    docs = sorted({d for q in queries for d, _ in q.targets} | {q.document_id for q in queries})
    units: list[Chunk] = []
    missing = []
    for i, doc in enumerate(docs):
        pdf = base / "pdfs" / f"{doc}.pdf"
        if not pdf.is_file():
            missing.append(doc)
            continue
        for pno, text in enumerate(_pdf_pages(pdf), start=1):
            units.append(
                Chunk(
                    chunk_id=f"{doc}:{pno:05d}",
                    project_id="financebench",
                    document_id=doc,
                    file_name=pdf.name,
                    text=text,
                    page_start=pno,
                    page_end=pno,
                    chunk_index=pno - 1,
                )
            )
        if progress is not None:
            progress(i + 1, len(docs))
    return EvalSet("financebench", "financebench", units, queries, notes={"documents": len(docs), "missing": missing})
