"""Amazon Titan Text Embeddings V2 on Bedrock, through boto3's ``bedrock-runtime`` ``InvokeModel``.

Why boto3 rather than ``langchain-aws``'s ``BedrockEmbeddings``: that class sends one request per text
sequentially (no bounded concurrency), adds langchain-core as a dependency for a single HTTP call, and
swallows the botocore error codes we need to tell throttling (retry) from bad input (fail). With boto3
we pass the client in (built once from ``Settings``), set ``dimensions``/``normalize`` per request,
run a bounded thread pool, and retry ``ThrottlingException`` & co. with jittered exponential backoff
on top of botocore's own adaptive retries.

Titan V2 takes one ``inputText`` per request (up to 50,000 characters / 8,192 tokens) and uses no
query/passage prefixes.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from store.errors import ConfigError, InvalidInput, Throttled, UpstreamError
from store.logging import get_logger

log = get_logger(__name__)

TITAN_V2_DIMENSIONS = (256, 512, 1024)
TITAN_V2_MAX_CHARS = 50_000
RETRYABLE_CODES = frozenset(
    {"ThrottlingException", "ServiceUnavailableException", "ModelTimeoutException", "InternalServerException"}
)





class BedrockEmbedder:
    """Titan Text Embeddings V2; ``client`` is a boto3 ``bedrock-runtime`` client (passed in)."""

    def __init__(
        self,
        client: Any,
        *,
        model_id: str = "amazon.titan-embed-text-v2:0",
        dimension: int = 1024,
        normalize: bool = True,
        concurrency: int = 4,
        max_attempts: int = 6,
        base_delay_s: float = 0.25,
        max_delay_s: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if dimension not in TITAN_V2_DIMENSIONS:
            raise ConfigError(f"Titan Text Embeddings V2 supports dimensions {TITAN_V2_DIMENSIONS}, not {dimension}")
        if concurrency < 1:
            raise ConfigError("embedding concurrency must be >= 1")
        self._client = client
        self.model_id = model_id
        self.dimension = dimension
        self._normalize = normalize
        self._concurrency = concurrency
        self._max_attempts = max_attempts
        self._base_delay = base_delay_s
        self._max_delay = max_delay_s
        self._sleep = sleep

    def _invoke_once(self, text: str) -> list[float]:
        from botocore.exceptions import BotoCoreError, ClientError

        body = {
            "inputText": text[:TITAN_V2_MAX_CHARS] if text.strip() else " ",
            "dimensions": self.dimension,
            "normalize": self._normalize,
            "embeddingTypes": ["float"],
        }
        for attempt in range(1, self._max_attempts + 1):
            try:
                resp = self._client.invoke_model(
                    modelId=self.model_id,
                    body=json.dumps(body),
                    contentType="application/json",
                    accept="application/json",
                )
                payload = json.loads(resp["body"].read())
            except ClientError as exc:
                code = exc.response.get("Error", {}).get("Code", "")
                if code in RETRYABLE_CODES and attempt < self._max_attempts:
                    delay = min(self._max_delay, self._base_delay * 2 ** (attempt - 1)) * (0.5 + random.random() / 2)
                    log.warning("bedrock_embed_retry", code=code, attempt=attempt, delay_s=round(delay, 3))
                    self._sleep(delay)
                    continue
                if code in RETRYABLE_CODES:
                    raise Throttled(f"Bedrock embeddings throttled after {attempt} attempts ({code})") from exc
                if code == "ValidationException":
                    raise InvalidInput(f"Bedrock rejected the embedding request: {exc}") from exc
                raise UpstreamError(f"Bedrock embeddings failed ({code or 'unknown'}): {exc}") from exc
            except BotoCoreError as exc:
                raise UpstreamError(f"Bedrock embeddings failed: {exc}") from exc
            vec = (payload.get("embeddingsByType") or {}).get("float") or payload.get("embedding")
            if not isinstance(vec, list) or len(vec) != self.dimension:
                got = len(vec) if isinstance(vec, list) else None
                raise UpstreamError(f"Bedrock returned an embedding of length {got}, expected {self.dimension}")
            return [float(x) for x in vec]
        raise AssertionError("unreachable")  # pragma: no cover

    def embed_passages(
        self, texts: Sequence[str], progress: Callable[[int, int], None] | None = None
    ) -> list[list[float]]:
        if not texts:
            return []
        if self._concurrency == 1 or len(texts) == 1:
            out = []
            for i, t in enumerate(texts):
                out.append(self._invoke_once(t))
                if progress is not None:
                    progress(i + 1, len(texts))
            return out
        results: list[list[float]] = [[] for _ in texts]
        done = 0
        with ThreadPoolExecutor(max_workers=self._concurrency, thread_name_prefix="titan") as pool:
            futures = {pool.submit(self._invoke_once, t): i for i, t in enumerate(texts)}
            try:
                for fut, i in futures.items():
                    results[i] = fut.result()
                    done += 1
                    if progress is not None:
                        progress(done, len(texts))
            except BaseException:
                for f in futures:
                    f.cancel()
                raise
        return results

    def embed_query(self, text: str) -> list[float]:
        return self._invoke_once(text)
