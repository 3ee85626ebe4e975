"""Claude page analysis on Bedrock (``DOCCHAT_ANALYSIS_MODEL=bedrock``): per page, the rendered image and the
(masked) text lines with their boxes go to Claude, which answers through one tool whose input is the layout
JSON of :mod:`ingest.analysis.layout` plus a short page summary and figure/chart descriptions.

- **Prompt caching**: the tool schema and the system prompt are the same for every page and carry the cache
  breakpoint (``cache_control`` on the system block caches tools + system); only the page differs. (Bedrock
  caches a prefix from 1,024 tokens on Sonnet, 2,048 on Haiku; the prompt and schema are about that size.)
- **Bounded concurrency** (``DOCCHAT_ANALYSIS_CONCURRENCY`` pages in flight), each request under a timeout.
- **Retries**: throttling, overload, time-outs and dropped connections back off exponentially; a malformed
  answer (no tool call, JSON that does not parse, a schema violation) is asked again; after
  ``DOCCHAT_ANALYSIS_MAX_RETRIES`` retries the page fails — :class:`AnalysisFailed` (malformed: permanent)
  or :class:`AnalysisThrottled` (retryable: the worker redelivers later) — and so does the step; never a
  hung workflow.
- **Token budget** per document (``DOCCHAT_ANALYSIS_TOKEN_BUDGET``, input + output): once spent no new page
  starts (pages in flight finish, so it overshoots by at most ``concurrency`` pages); the step keeps the
  embedded layout for the pages left, marked ``budget_exhausted``.
- **Usage** (requests, retries, tokens incl. cache reads/writes) is returned for the step record.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Callable, Mapping
from typing import Any

from ingest.analysis.layout import BLOCK_TYPES
from ingest.fields.model import FIELDS_SCHEMA
from ingest.fields.model import PROMPT as FIELDS_PROMPT
from ingest.fields.model import validated as validated_fields
from store.config import Settings
from store.errors import PermanentError, Throttled
from store.logging import get_logger

log = get_logger(__name__)

TOOL_NAME = "record_page_layout"
SYSTEM_PROMPT = """You analyse the layout of one page of a document for a search index.
You get the page image and its text lines, numbered L0, L1, ..., each with its box [x0, y0, x1, y1] in PDF
points from the top-left corner of the page. Personal data in the text is masked as [TYPE_n]; keep the
placeholders as they are and never guess what they hide.

Call the tool record_page_layout exactly once with:
- blocks: the page's layout blocks in reading order. type is one of title (the document's title, first page
  only), heading (give level: 1 for a main section, 2 for a sub-section, ...), paragraph, list (one block
  per list item), table, figure (a picture, chart or diagram), caption, header (running header) or footer
  (running footer, page number). text is the block's text exactly as on the page (for a table: its title
  if any); lines are the numbers of the text lines the block holds (L7 -> 7); bbox is the block's box in
  the same points. A table also gets markdown: the table as a GitHub Markdown table, every cell as printed.
  A figure also gets description: what it shows, with the numbers a chart plots (axis, series, values)
  when legible; describe only what is visible.
- key_values: labelled fields ("Invoice number: 123", form fields) with key, value and bbox.
- summary: two or three sentences on what the page says, from its text only.
""" + FIELDS_PROMPT + """
Use only what is on the page. Do not invent text, values or boxes; leave out a field you cannot read."""

_BOX = {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4}
TOOL: dict[str, Any] = {
    "name": TOOL_NAME,
    "description": "Record the layout blocks, key-value fields and summary of the page.",
    "input_schema": {
        "type": "object",
        "properties": {
            "blocks": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "type": {"type": "string", "enum": list(BLOCK_TYPES)},
                    "text": {"type": "string"},
                    "level": {"type": "integer", "minimum": 1, "maximum": 6},
                    "lines": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                    "bbox": _BOX,
                    "markdown": {"type": "string"},
                    "description": {"type": "string"},
                },
                "required": ["type", "text", "bbox"],
            }},
            "key_values": {"type": "array", "items": {
                "type": "object",
                "properties": {"key": {"type": "string"}, "value": {"type": "string"}, "bbox": _BOX},
                "required": ["key", "value"],
            }},
            "summary": {"type": "string"},
            "fields": FIELDS_SCHEMA,
        },
        "required": ["blocks", "summary"],
    },
}


class AnalysisFailed(PermanentError):
    """The model's answers for a page were malformed on every attempt, or it rejected the request: retrying
    the workflow will not help (the step fails with this message)."""

    code = "analysis_failed"


class AnalysisThrottled(Throttled):
    """The model throttled (or timed out on) a page on every attempt: the workflow is retried later."""


class _Retry(Exception):
    def __init__(self, why: str, *, throttled: bool) -> None:
        super().__init__(why)
        self.why = why
        self.throttled = throttled


class BedrockPageAnalyzer:
    def __init__(self, client: Any, *, model_id: str, concurrency: int = 4, max_retries: int = 3,
                 max_output_tokens: int = 4096, timeout_s: float = 120.0, token_budget: int = 0,
                 backoff_s: float = 1.0, close_client: bool = False) -> None:
        self.client = client
        self.model_id = model_id
        self.concurrency = max(1, concurrency)
        self.max_retries = max(0, max_retries)
        self.max_output_tokens = max_output_tokens
        self.timeout_s = timeout_s
        self.token_budget = token_budget
        self.backoff_s = backoff_s
        self.close_client = close_client
        self.usage: dict[str, Any] = {"model": model_id, "requests": 0, "retries": 0, "throttled": 0,
                                      "malformed": 0, "pages": 0, "pages_over_budget": 0, "input_tokens": 0,
                                      "output_tokens": 0, "cache_read_input_tokens": 0,
                                      "cache_creation_input_tokens": 0}

    @classmethod
    def from_settings(cls, client: Any, settings: Settings, *, close_client: bool = True) -> BedrockPageAnalyzer:
        ing = settings.ingest
        return cls(client, model_id=ing.analysis_model_id, concurrency=ing.analysis_concurrency,
                   max_retries=ing.analysis_max_retries, max_output_tokens=ing.analysis_max_output_tokens,
                   timeout_s=ing.analysis_timeout_seconds, token_budget=ing.analysis_token_budget,
                   close_client=close_client)

    def _spent(self) -> bool:
        used = self.usage["input_tokens"] + self.usage["output_tokens"] + self.usage["cache_read_input_tokens"] \
            + self.usage["cache_creation_input_tokens"]
        return self.token_budget > 0 and used >= self.token_budget

    async def analyze_pages(self, pages: list[int], load: Callable[[int], dict[str, Any]],
                            on_page: Callable[[int, dict[str, Any]], None]) -> dict[str, Any]:
        """Analyse ``pages`` (``load(page)`` gives a page's input; ``on_page`` gets each layout); returns usage."""
        gate = asyncio.Semaphore(self.concurrency)

        async def one(page: int) -> None:
            async with gate:
                if self._spent():
                    self.usage["pages_over_budget"] += 1
                    return
                inp = await asyncio.to_thread(load, page)
                layout = await self.analyze_page(inp)
                await asyncio.to_thread(on_page, page, layout)

        try:
            async with asyncio.TaskGroup() as tg:  # the first failure cancels the pages in flight
                for page in pages:
                    tg.create_task(one(page))
        except BaseExceptionGroup as group:
            first = group.exceptions[0]
            raise first from None
        finally:
            if self.close_client:
                await self.client.close()
        return dict(self.usage)

    async def analyze_page(self, inp: Mapping[str, Any]) -> dict[str, Any]:
        params = self.request(inp)
        page = int(inp["page"])
        attempt = 0
        while True:
            try:
                raw = await asyncio.wait_for(self._call(params), self.timeout_s)
                layout = to_layout(raw, inp, self.model_id)
                self.usage["pages"] += 1
                return layout
            except _Retry as retry:
                self.usage["throttled" if retry.throttled else "malformed"] += 1
                if attempt >= self.max_retries:
                    log.warning("analysis_failed", page=page, why=retry.why, attempts=attempt + 1)
                    cls = AnalysisThrottled if retry.throttled else AnalysisFailed
                    raise cls(f"segment analysis of page {page}: {retry.why} after {attempt + 1} attempts",
                              page=page) from None
                attempt += 1
                self.usage["retries"] += 1
                log.info("analysis_retry", page=page, why=retry.why, attempt=attempt)
                if retry.throttled:
                    await asyncio.sleep(self.backoff_s * 2 ** (attempt - 1))

    def request(self, inp: Mapping[str, Any]) -> dict[str, Any]:
        """The Messages request for one page (system prompt and tool schema first, cached)."""
        lines = inp.get("lines") or ()
        listing = "\n".join(f"L{k} {_fmt_box(ln.get('bbox'))} {' '.join(str(ln.get('text') or '').split())}"
                            for k, ln in enumerate(lines))
        text = (f"Page {inp['page']} ({_num(inp.get('width'))} x {_num(inp.get('height'))} pt).\n"
                f"Text lines:\n{listing or '(no text layer: read the image)'}")
        content: list[dict[str, Any]] = []
        png = inp.get("png")
        if png:
            content.append({"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                        "data": base64.b64encode(png).decode("ascii")}})
        content.append({"type": "text", "text": text})
        return {
            "model": self.model_id, "max_tokens": self.max_output_tokens,
            "system": [{"type": "text", "text": SYSTEM_PROMPT, "cache_control": {"type": "ephemeral"}}],
            "tools": [TOOL], "tool_choice": {"type": "tool", "name": TOOL_NAME},
            "messages": [{"role": "user", "content": content}],
        }

    async def _call(self, params: dict[str, Any]) -> Any:
        import anthropic

        self.usage["requests"] += 1
        parts: list[str] = []
        tool = False
        try:
            stream: Any = await self.client.messages.create(**params, stream=True)
            try:
                async for event in stream:
                    data = event.model_dump(exclude_none=True)
                    kind = data.get("type")
                    if kind == "message_start":
                        self._add_usage((data.get("message") or {}).get("usage") or {})
                    elif kind == "content_block_start":
                        tool = tool or (data.get("content_block") or {}).get("type") == "tool_use"
                    elif kind == "content_block_delta":
                        delta = data.get("delta") or {}
                        if delta.get("type") == "input_json_delta":
                            parts.append(str(delta.get("partial_json") or ""))
                    elif kind == "message_delta":
                        self._add_usage({"output_tokens": (data.get("usage") or {}).get("output_tokens", 0)})
            finally:
                await stream.close()
        except anthropic.APIStatusError as exc:
            if exc.status_code in (408, 429, 500, 502, 503, 504, 529) or _throttle_text(str(exc)):
                raise _Retry(f"throttled ({exc.status_code})", throttled=True) from None
            raise AnalysisFailed(f"the model rejected the request ({exc.status_code})") from None
        except (anthropic.APITimeoutError, anthropic.APIConnectionError, TimeoutError) as exc:
            raise _Retry(type(exc).__name__, throttled=True) from None
        except anthropic.AnthropicError as exc:
            if _throttle_text(str(exc)):
                raise _Retry("throttled", throttled=True) from None
            raise AnalysisFailed(f"model request failed: {type(exc).__name__}") from None
        if not tool:
            raise _Retry("the answer has no tool call", throttled=False)
        try:
            return json.loads("".join(parts) or "{}")
        except json.JSONDecodeError:
            raise _Retry("the tool input is not valid JSON", throttled=False) from None

    def _add_usage(self, usage: Mapping[str, Any]) -> None:
        for key in ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"):
            value = usage.get(key)
            if isinstance(value, int):
                self.usage[key] += value


def _throttle_text(text: str) -> bool:
    low = text.lower()
    return "throttl" in low or "too many requests" in low or "overloaded" in low or "serviceunavailable" in low


def to_layout(raw: Any, inp: Mapping[str, Any], model_id: str) -> dict[str, Any]:
    """The model's tool input as the page's layout JSON (the shape of ``ingest.analysis.layout``); raises
    ``_Retry`` when it does not fit the schema. Boxes are clamped to the page; line numbers must exist."""
    if not isinstance(raw, dict) or not isinstance(raw.get("blocks"), list):
        raise _Retry("the tool input has no blocks", throttled=False)
    page = int(inp["page"])
    width, height = float(inp.get("width") or 0.0), float(inp.get("height") or 0.0)
    n_lines = len(inp.get("lines") or ())
    blocks: list[dict[str, Any]] = []
    for k, b in enumerate(raw["blocks"], start=1):
        if not isinstance(b, dict) or b.get("type") not in BLOCK_TYPES or not isinstance(b.get("text", ""), str):
            raise _Retry(f"block {k} does not fit the schema", throttled=False)
        item: dict[str, Any] = {"id": f"p{page}-b{k}", "type": b["type"], "text": b.get("text") or "",
                                "bbox": _clamp(b.get("bbox"), width, height), "order": k,
                                "lines": [i for i in b.get("lines") or () if isinstance(i, int) and 0 <= i < n_lines]}
        if b["type"] == "heading":
            level = b.get("level")
            item["level"] = int(level) if isinstance(level, int) and 1 <= level <= 6 else 1
        elif b["type"] == "title":
            item["level"] = 0
        if b["type"] == "table":
            item["markdown"] = str(b.get("markdown") or "")
        if b["type"] == "figure" and b.get("description"):
            item["description"] = str(b["description"])
        blocks.append(item)
    kvs = [{"key": str(kv["key"]), "value": str(kv["value"]), "bbox": _clamp(kv.get("bbox"), width, height)}
           for kv in raw.get("key_values") or () if isinstance(kv, dict) and kv.get("key") and "value" in kv]
    summary = raw.get("summary")
    fields, dropped = validated_fields(raw.get("fields"), inp.get("lines") or (), page)
    return {"page": page, "width": round(width, 2), "height": round(height, 2), "source": "bedrock",
            "model": model_id, "text_source": (inp.get("local") or {}).get("text_source"),
            "summary": str(summary) if isinstance(summary, str) else None, "blocks": blocks,
            "reading_order": [b["id"] for b in blocks], "key_values": kvs,
            "fields": fields, "fields_dropped": dropped}


def _clamp(raw: Any, width: float, height: float) -> list[float]:
    if not isinstance(raw, list | tuple) or len(raw) != 4 or not all(isinstance(v, int | float) for v in raw):
        return [0.0, 0.0, 0.0, 0.0]
    x0, y0, x1, y1 = (float(v) for v in raw)
    w, h = width or max(x0, x1), height or max(y0, y1)
    return [round(min(max(0.0, v), lim), 2) for v, lim in ((x0, w), (y0, h), (x1, w), (y1, h))]


def _fmt_box(raw: Any) -> str:
    if not raw:
        return "[]"
    return "[" + ",".join(_num(v) for v in raw) + "]"


def _num(v: Any) -> str:
    try:
        return f"{float(v):.0f}"
    except (TypeError, ValueError):
        return "?"
