"""OpenSearch request bodies and response parsing (pure; no client here).

- index body: ``knn_vector`` (HNSW; engine/space configurable, cosine by default), ``text`` analysed with
  ``standard`` plus one sub-field per configured language analyzer (``text.ko`` → ``nori``,
  ``text.ja`` → ``kuromoji``), keyword fields for the filters.
- search pipeline: ``normalization-processor`` (min_max, arithmetic_mean with [keyword, vector] weights).
- queries: BM25 ``multi_match`` over the text fields, ``knn`` with an efficient filter, and ``hybrid``
  with the project/document filter inside *both* sub-queries (a hybrid query takes no outer filter).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from retrieval.layout import (
    decode_bboxes,
    decode_line_boxes,
    decode_page_offsets,
    encode_bboxes,
    encode_line_boxes,
    encode_page_offsets,
)
from retrieval.types import Chunk, Hit, SearchFilter
from store.errors import ConfigError, InvalidInput

SOURCE_FIELDS = ["chunk_id", "project_id", "document_id", "file_name", "page_start", "page_end", "text", "bboxes",
                 "page_offsets", "line_boxes"]
_STORED_ONLY = {"type": "keyword", "index": False, "doc_values": False}
#: Fields added after the first release; ``OpenSearchIndex.ensure`` adds them to an existing index's mapping
#: (otherwise dynamic mapping would index them as text).
LAYOUT_MAPPING: dict[str, Any] = {"page_offsets": _STORED_ONLY, "line_boxes": _STORED_ONLY}


def parse_analyzers(spec: str) -> dict[str, str]:
    """``"ko=nori,ja=kuromoji"`` → ``{"ko": "nori", "ja": "kuromoji"}`` (empty string → no sub-fields)."""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        lang, sep, analyzer = part.partition("=")
        if not sep or not lang.strip().isidentifier() or not analyzer.strip():
            raise ConfigError(f"DOCCHAT_OPENSEARCH_ANALYZERS: expected lang=analyzer pairs, got {part!r}")
        out[lang.strip()] = analyzer.strip()
    return out


def index_body(
    dimension: int,
    *,
    analyzers: Mapping[str, str],
    engine: str = "faiss",
    space_type: str = "cosinesimil",
    m: int = 16,
    ef_construction: int = 128,
) -> dict[str, Any]:
    if engine not in ("faiss", "lucene", "nmslib"):
        raise ConfigError(f"unknown k-NN engine {engine!r}")
    text_fields: dict[str, Any] = {lang: {"type": "text", "analyzer": an} for lang, an in analyzers.items()}
    text_fields[PAIRS_FIELD] = {"type": "text", "analyzer": "docchat_pairs"}
    return {
        "settings": {"index": {"knn": True}, "analysis": PAIRS_ANALYSIS},
        "mappings": {
            "properties": {
                "chunk_id": {"type": "keyword"},
                "project_id": {"type": "keyword"},
                "document_id": {"type": "keyword"},
                "file_name": {"type": "keyword"},
                "workflow_id": {"type": "keyword"},
                "language": {"type": "keyword"},
                "chunk_index": {"type": "integer"},
                "page_start": {"type": "integer"},
                "page_end": {"type": "integer"},
                "bboxes": dict(_STORED_ONLY),
                **{name: dict(spec) for name, spec in LAYOUT_MAPPING.items()},
                "text": {"type": "text", "analyzer": "standard", "fields": text_fields},
                "vector": {
                    "type": "knn_vector",
                    "dimension": dimension,
                    "method": {
                        "name": "hnsw",
                        "engine": engine,
                        "space_type": space_type,
                        "parameters": {"m": m, "ef_construction": ef_construction},
                    },
                },
            }
        },
    }


def pipeline_body(keyword_weight: float, technique: str = "min_max") -> dict[str, Any]:
    if not 0.0 <= keyword_weight <= 1.0:
        raise ConfigError("DOCCHAT_HYBRID_KEYWORD_WEIGHT must be within [0, 1]")
    return {
        "description": "docchat hybrid search: BM25 + k-NN, normalised and combined",
        "phase_results_processors": [
            {
                "normalization-processor": {
                    "normalization": {"technique": technique},
                    "combination": {
                        "technique": "arithmetic_mean",
                        "parameters": {"weights": [round(keyword_weight, 4), round(1.0 - keyword_weight, 4)]},
                    },
                }
            }
        ],
    }


def document_source(chunk: Chunk, vector: Sequence[float] | None) -> dict[str, Any]:
    """The stored document; without a vector (keyword-searchable first, issue 18) the field is left out."""
    source: dict[str, Any] = {
        "chunk_id": chunk.chunk_id,
        "project_id": chunk.project_id,
        "document_id": chunk.document_id,
        "file_name": chunk.file_name,
        "workflow_id": chunk.workflow_id,
        "language": chunk.language,
        "chunk_index": chunk.chunk_index,
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "bboxes": encode_bboxes(chunk.bboxes),
        "page_offsets": encode_page_offsets(chunk.page_offsets),
        "line_boxes": encode_line_boxes(chunk.line_boxes),
        "text": chunk.text,
    }
    if vector is not None:
        source["vector"] = [float(x) for x in vector]
    return source


def filter_clauses(flt: SearchFilter) -> list[dict[str, Any]]:
    projects = flt.projects
    if not projects:
        raise InvalidInput("a search needs a project id")
    clauses: list[dict[str, Any]] = [
        {"term": {"project_id": projects[0]}} if len(projects) == 1 else {"terms": {"project_id": list(projects)}}
    ]
    if flt.document_ids is not None:
        clauses.append({"terms": {"document_id": list(flt.document_ids)}})
    return clauses


#: word-pair shingles (stop words removed first), the OpenSearch twin of ``retrieval.textproc.phrase_terms``
PAIRS_FIELD = "pairs"
PAIRS_ANALYSIS: dict[str, Any] = {
    "filter": {
        "docchat_stop": {"type": "stop", "stopwords": "_english_"},
        "docchat_stem": {"type": "stemmer", "language": "english"},
        "docchat_shingle": {
            "type": "shingle",
            "min_shingle_size": 2,
            "max_shingle_size": 2,
            "output_unigrams": False,
            "filler_token": "",
        },
    },
    "analyzer": {
        "docchat_pairs": {
            "type": "custom",
            "tokenizer": "standard",
            "filter": ["lowercase", "docchat_stop", "docchat_stem", "docchat_shingle"],
        }
    },
}


def keyword_query(text: str, flt: SearchFilter, analyzers: Mapping[str, str]) -> dict[str, Any]:
    fields = ["text", *(f"text.{lang}" for lang in analyzers), f"text.{PAIRS_FIELD}"]
    return {
        "bool": {
            "must": [{"multi_match": {"query": text, "fields": fields, "type": "most_fields"}}],
            "filter": filter_clauses(flt),
        }
    }


def knn_query(vector: Sequence[float], flt: SearchFilter, k: int) -> dict[str, Any]:
    vec = [float(x) for x in vector]
    return {"knn": {"vector": {"vector": vec, "k": k, "filter": {"bool": {"filter": filter_clauses(flt)}}}}}


def search_body(
    text: str, vector: Sequence[float] | None, flt: SearchFilter, *, k: int, mode: str, analyzers: Mapping[str, str]
) -> dict[str, Any]:
    body: dict[str, Any] = {"size": k, "_source": SOURCE_FIELDS}
    if mode == "keyword":
        body["query"] = keyword_query(text, flt, analyzers)
    elif vector is None:
        raise InvalidInput(f"{mode} search needs a query vector")
    elif mode == "vector":
        body["query"] = knn_query(vector, flt, k)
    elif mode == "hybrid":
        # Each sub-query must carry the filter itself: a hybrid query cannot be wrapped in a bool filter.
        body["query"] = {"hybrid": {"queries": [keyword_query(text, flt, analyzers), knn_query(vector, flt, k)]}}
    else:
        raise InvalidInput(f"unknown search mode {mode!r}")
    return body


def parse_hits(response: Mapping[str, Any], mode: str) -> list[Hit]:
    """Hits from a ``_search`` response (``hits.hits[*]._source`` / ``_score``)."""
    out: list[Hit] = []
    for rank, h in enumerate(response.get("hits", {}).get("hits", []), start=1):
        src = h.get("_source") or {}
        boxes = decode_bboxes(src.get("bboxes"))
        out.append(
            Hit(
                chunk_id=str(src.get("chunk_id") or h.get("_id")),
                document_id=str(src.get("document_id", "")),
                file_name=str(src.get("file_name", "")),
                page_start=int(src.get("page_start") or 0),
                page_end=int(src.get("page_end") or 0),
                text=str(src.get("text", "")),
                score=float(h.get("_score") or 0.0),
                project_id=str(src.get("project_id", "")),
                bbox=boxes[0] if boxes else None,
                extra={f"{mode}_rank": float(rank)},
                bboxes=boxes,
                page_offsets=decode_page_offsets(src.get("page_offsets")),
                line_boxes=decode_line_boxes(src.get("line_boxes")),
            )
        )
    return out


def bulk_errors(items: Sequence[Mapping[str, Any]]) -> list[tuple[str, int, str]]:
    """``(id, status, reason)`` for every failed item of a bulk response / async_bulk error list."""
    failed = []
    for item in items:
        (op, info), *_ = item.items()
        status = int(info.get("status", 0))
        if status >= 300 or "error" in info:
            err = info.get("error") or {}
            reason = f"{err.get('type', 'error')}: {err.get('reason', '')}" if isinstance(err, dict) else str(err)
            failed.append((str(info.get("_id", "?")), status, f"{op} {reason}".strip()))
    return failed
