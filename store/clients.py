"""Every external client, built from settings in one place: boto3 (DynamoDB, S3, SQS, Bedrock runtime),
the Anthropic Bedrock client and the OpenSearch client. Adapters receive the client as an argument; tests
pass doubles (moto, fake runtimes) instead. Each import is lazy so start-up pays only for what it uses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from store.config import Settings
from store.errors import ConfigError

if TYPE_CHECKING:
    from anthropic import AsyncAnthropicBedrock


def aws_client(settings: Settings, service: str, *, credentials: Mapping[str, str] | None = None,
               **config: Any) -> Any:
    """A boto3 client for ``service`` honouring the region and endpoints (moto, DynamoDB Local) in ``settings``:
    ``aws_endpoint_url_<service>`` (dynamodb, s3, sqs) when set, else ``aws_endpoint_url``.

    Retries use botocore's ``standard`` mode; ``config`` adds ``botocore.config.Config`` options.
    ``credentials`` (``aws_access_key_id``, ``aws_secret_access_key``…) replace the default chain: only for
    stand-ins such as DynamoDB Local and moto, which accept any.
    """
    import boto3
    from botocore.config import Config

    cfg = Config(
        region_name=settings.aws.aws_region,
        retries={"max_attempts": 5, "mode": "standard"},
        connect_timeout=5,
        read_timeout=config.pop("read_timeout", 30),
        max_pool_connections=config.pop("max_pool_connections", 32),
        **config,
    )
    endpoint = settings.aws.endpoint_for(service)  # DOCCHAT_AWS_ENDPOINT_URL_<SERVICE>, else the general one
    return boto3.client(service, endpoint_url=endpoint, config=cfg, **(credentials or {}))  # type: ignore[call-overload]


def bedrock_runtime_client(settings: Settings) -> Any:
    """A ``bedrock-runtime`` client for ``settings`` (adaptive retry mode, bounded pool)."""
    import boto3
    from botocore.config import Config

    cfg = Config(
        retries={"total_max_attempts": 3, "mode": "adaptive"},  # client-side rate limiting; we back off too
        max_pool_connections=max(10, settings.retrieval.embedding_concurrency * 2),
        connect_timeout=5,
        read_timeout=60,
    )
    return boto3.client(
        "bedrock-runtime",
        region_name=settings.effective_bedrock_region,
        endpoint_url=settings.aws.aws_endpoint_url,
        config=cfg,
    )


def anthropic_bedrock_client(settings: Settings) -> AsyncAnthropicBedrock:
    """The one place the Anthropic Bedrock client is built. Credentials: the default AWS chain."""
    import anthropic

    return anthropic.AsyncAnthropicBedrock(
        aws_region=settings.effective_bedrock_region,
        base_url=settings.aws.bedrock_base_url,
        max_retries=settings.chat.model_max_retries,
        timeout=settings.chat.model_timeout_seconds,
    )


def opensearch_client(settings: Settings) -> Any:
    """An ``AsyncOpenSearch`` for ``settings.retrieval.opensearch_endpoint``; SigV4-signed for ``*.amazonaws.com``."""
    from opensearchpy import AsyncHttpConnection, AsyncOpenSearch, AWSV4SignerAsyncAuth

    endpoint = settings.retrieval.opensearch_endpoint
    if not endpoint:
        raise ConfigError("DOCCHAT_OPENSEARCH_ENDPOINT is required when DOCCHAT_INDEX_BACKEND=opensearch")
    url = endpoint if "://" in endpoint else f"https://{endpoint}"
    host = urlparse(url).hostname or ""
    kwargs: dict[str, Any] = {
        "hosts": [url],
        "connection_class": AsyncHttpConnection,
        "timeout": 30,
        "max_retries": 3,
        "retry_on_timeout": True,
        "pool_maxsize": 20,
    }
    if host.endswith(".amazonaws.com"):
        import boto3

        credentials = boto3.Session().get_credentials()
        if credentials is None:
            raise ConfigError("no AWS credentials found for signing OpenSearch requests")
        service = settings.retrieval.opensearch_service
        kwargs["http_auth"] = AWSV4SignerAsyncAuth(credentials, settings.aws.aws_region, service)
        kwargs["use_ssl"] = True
        kwargs["verify_certs"] = True
    return AsyncOpenSearch(**kwargs)
