"""Deployment options, read once from CDK context (``cdk.json`` or ``-c key=value``).

Two kinds of keys:

* infrastructure options (``InfraConfig`` fields below: sizes, counts, switches);
* any ``store.config.Settings`` field name (``session_ttl_days``, ``bedrock_model_id``, ...). Those become the
  service's ``Settings`` *and* shape the infrastructure (TTL lifecycle, DLQ redrive count, queue visibility,
  which Bedrock models the roles may invoke), so the two can never disagree.

This module is plain Python (no CDK imports) so it is cheap to test.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from store.config import Settings, setting_fields
from store.errors import ConfigError
from store.schema import queue_visibility_seconds

SearchKind = Literal["serverless", "domain"]
#: OpenSearch Serverless names (collection, policies = name + suffix) must stay within 32 characters.
SEARCH_NAME = re.compile(r"[a-z][a-z0-9-]{2,23}")

#: Settings the stack always decides itself (they describe *this* deployment, not a tunable).
STACK_OWNED_SETTINGS = frozenset(
    {
        "backend",
        "host",
        "port",
        "aws_region",
        "aws_endpoint_url",
        "workflow_table",
        "sessions_table",
        "documents_bucket",
        "sessions_bucket",
        "queue_high_url",
        "queue_low_url",
        "embedder",
        "index_backend",
        "opensearch_endpoint",
        "opensearch_service",
        "chat_model",
        "cognito_region",
        "cognito_user_pool_id",
        "cognito_client_id",
        "cognito_domain",
        "data_dir",
        "log_json",
        "ocr_engine",
    }
)
SETTINGS_FIELDS = frozenset(f.name for f in setting_fields())


@dataclass(frozen=True)
class InfraConfig:
    """Every knob of the deployment (CDK context key = field name)."""

    stack_name: str = "Docchat"
    #: Retain tables/buckets/user pool on stack deletion and turn on DynamoDB/Cognito deletion protection.
    deletion_protection: bool = True
    # --- network ------------------------------------------------------------------------------------
    max_azs: int = 2
    nat_gateways: int = 1
    # --- API (Fargate behind an ALB) -------------------------------------------------------------------
    api_cpu: int = 1024
    api_memory_mib: int = 4096
    api_min_tasks: int = 2
    api_max_tasks: int = 10
    api_cpu_target_percent: int = 60
    api_requests_per_target: int = 600
    #: ALB idle timeout; SSE streams send a keep-alive every ``sse_keepalive_seconds``, a tool round can be
    #: silent longer (retrieval + first token), so keep it generous. ALB maximum is 4000 s.
    alb_idle_timeout_seconds: int = 900
    certificate_arn: str | None = None
    domain_name: str | None = None
    allowed_cidr: str = "0.0.0.0/0"
    # --- ingest workers (ECS on GPU instances) ---------------------------------------------------------
    worker_instance_types: tuple[str, ...] = ("g6.xlarge", "g5.xlarge")
    worker_max_tasks: int = 4
    worker_spot: bool = False
    worker_cpu: int = 3584
    worker_memory_mib: int = 14336
    worker_root_volume_gib: int = 100
    #: Queue messages (visible + in flight, both queues) per running worker task.
    worker_backlog_per_task: int = 10
    #: Minutes with an empty backlog before the workers (and then the GPU instances) go to zero.
    worker_idle_minutes: int = 10
    #: The small-document lane (seed 004's starvation rule): a worker service of its own on the high queue only,
    #: never below this many tasks, so a big PDF on the shared pool never holds up a 1-page upload.
    worker_small_min_tasks: int = 1
    worker_small_max_tasks: int = 2
    # --- search ------------------------------------------------------------------------------------------
    search: SearchKind = "serverless"
    search_name: str = "docchat"
    #: OpenSearch Serverless standby replicas (production redundancy); False halves the minimum OCUs.
    search_standby_replicas: bool = True
    domain_instance_type: str = "t3.medium.search"
    domain_data_nodes: int = 1
    domain_volume_gib: int = 20
    # --- Bedrock -------------------------------------------------------------------------------------------
    #: Regions an inference profile (``us.``/``eu.``/``apac.``…) may route to; empty = the built-in table.
    bedrock_profile_regions: tuple[str, ...] = ()
    # --- auth -----------------------------------------------------------------------------------------------
    cognito_domain_prefix: str | None = None
    callback_urls: tuple[str, ...] = ()
    self_sign_up: bool = False
    # --- operations -------------------------------------------------------------------------------------
    log_retention_days: int = 30
    alarm_email: str | None = None
    #: The service settings this deployment runs with (defaults + any Settings field given as context).
    settings: Settings = field(default_factory=lambda: Settings(backend="aws"))

    # ----------------------------------------------------------------------------------------------------
    @property
    def queue_visibility_seconds(self) -> int:
        """The queues' default visibility timeout, sized to the longest step.

        Only a receive that names no visibility gets it: the worker (``ingest/worker.py``) receives with its
        own short lease (``queue_lease_seconds``, 30 s) and renews it every third of that from a thread of its
        own while the step runs in another thread or a sandboxed child, so a killed worker's job is taken over
        after about the lease. The longest single blocking step is a sandboxed parse (``parse_timeout_seconds``
        wall clock); twice that is the floor for anything that does rely on the default.
        ``Settings.queue_visibility_seconds`` can only raise it.
        """
        return queue_visibility_seconds(
            self.settings.queue.queue_visibility_seconds, self.settings.ingest.parse_timeout_seconds
        )

    @property
    def https(self) -> bool:
        return self.certificate_arn is not None

    def validate(self) -> None:
        if self.nat_gateways < 1:
            raise ConfigError("nat_gateways must be at least 1: tasks run in private subnets and need egress")
        if self.max_azs < 2:
            raise ConfigError("max_azs must be at least 2 (an ALB needs two availability zones)")
        if not 1 <= self.api_min_tasks <= self.api_max_tasks:
            raise ConfigError("need 1 <= api_min_tasks <= api_max_tasks")
        if not 1 <= self.worker_max_tasks <= 20:
            raise ConfigError("worker_max_tasks must be between 1 and 20")
        if not 1 <= self.worker_small_min_tasks <= self.worker_small_max_tasks <= 20:
            raise ConfigError("need 1 <= worker_small_min_tasks <= worker_small_max_tasks <= 20 (the small-document "
                              "lane always runs)")
        if self.alb_idle_timeout_seconds > 4000:
            raise ConfigError("alb_idle_timeout_seconds must be at most 4000 (ALB limit)")
        if self.alb_idle_timeout_seconds < 4 * self.settings.chat.sse_keepalive_seconds:
            raise ConfigError("alb_idle_timeout_seconds must be at least 4x sse_keepalive_seconds")
        if self.search not in ("serverless", "domain"):
            raise ConfigError(f"search must be 'serverless' or 'domain', not {self.search!r}")
        if not self.worker_instance_types:
            raise ConfigError("worker_instance_types must name at least one GPU instance type")
        if bool(self.domain_name) != bool(self.certificate_arn):
            raise ConfigError("domain_name and certificate_arn go together (an ACM certificate for that name)")
        if self.queue_visibility_seconds > 43200:
            raise ConfigError("queue visibility must be at most 12 hours (SQS limit)")
        if not SEARCH_NAME.fullmatch(self.search_name):
            raise ConfigError("search_name: 3-24 chars, lowercase letters, digits and '-', starting with a letter")


def config_from_context(get: Callable[[str], Any]) -> InfraConfig:
    """Build the config from a context getter (``node.try_get_context``); unknown keys are ignored."""
    values: dict[str, Any] = {}
    for f in fields(InfraConfig):
        if f.name == "settings":
            continue
        raw = get(f.name)
        if raw is None:
            continue
        values[f.name] = _coerce(f.name, f.default, raw)
    env: dict[str, str] = {}
    for name in sorted(SETTINGS_FIELDS - STACK_OWNED_SETTINGS):
        raw = get(name)
        if raw is not None:
            env["DOCCHAT_" + name.upper()] = str(raw).lower() if isinstance(raw, bool) else str(raw)
    values["settings"] = Settings.from_env(env, backend="aws")
    config = InfraConfig(**values)
    config.validate()
    return config


def config_from_mapping(context: Mapping[str, Any]) -> InfraConfig:
    return config_from_context(context.get)


def _coerce(name: str, default: Any, raw: Any) -> Any:
    """Context from ``cdk.json`` arrives typed; from ``-c key=value`` it arrives as a string."""
    try:
        if isinstance(default, bool):
            if isinstance(raw, bool):
                return raw
            text = str(raw).lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise ValueError(raw)
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, tuple):
            if isinstance(raw, str):
                raw = json.loads(raw) if raw.startswith("[") else [p for p in raw.split(",") if p]
            return tuple(str(x) for x in raw)
        return None if raw in ("", None) else str(raw)
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"context {name}={raw!r} is not valid") from exc
