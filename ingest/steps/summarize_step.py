"""The ``document_summarizer`` step: read the segments one page at a time, summarise, store the record on the
document item (``PROJ#/DOC#`` ``summary``), record the step.

``DOCCHAT_ANALYSIS_MODEL=local`` (the embedded default): the extractive summary
(``ingest.steps.summarize.extractive_summary``). ``bedrock``: Claude's summary
(``ingest.steps.summarize_bedrock``) of the masked page texts; when that fails (after its retries) the step
is recorded ``failed`` with the reason, the extractive summary is stored instead and the document stays
searchable — a summary is never worth a failed document.

Where headings come from is ``page_analysis`` + ``ingest.steps.summarize.page_digest``: the segment
analyzer's per-page layout JSON when it exists, else the segment's own lines.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ingest.results import segment_key
from ingest.steps.summarize import DIGEST_TEXT_CHARS, PageDigest, extractive_summary, page_digest
from ingest.steps.summarize_bedrock import AnthropicSummaryModel, Budget, SummaryModel, bedrock_summary
from store.blobs import BlobStore
from store.config import Settings
from store.errors import DocchatError, NotFound
from store.logging import get_logger
from store.workflows import Claim, WorkflowStore

log = get_logger(__name__)

STEP = "document_summarizer"
#: page text kept per page for the extractive summary (its lead sentences come from the opening text)
LOCAL_PAGE_CHARS = 2000


def page_analysis(blobs: BlobStore, workflow_id: str, page: int) -> dict[str, Any] | None:
    """The segment analyzer's layout JSON of ``page`` (blocks with types and levels; with Bedrock a page
    summary) at ``ingest.results.analysis_key``, or None when the page has none (analysis failed or skipped)."""
    from ingest.results import analysis_key

    try:
        raw = blobs.get(analysis_key(workflow_id, page))
    except NotFound:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def masker(settings: Settings, store: WorkflowStore, blobs: BlobStore, claim: Claim) -> Callable[[str], str]:
    """What masks a text before it goes to Bedrock (seed 004): ``ingest.pii`` with the document's numbering from
    the ``pii`` step, so a value is the same placeholder here as in chat; the identity with ``pii_mode=off``
    (the project's override, else ``DOCCHAT_PII_MODE``)."""
    from ingest.pii.masking import mask
    from ingest.pii.step import effective_mode, load_placeholders

    mode = effective_mode(settings.ingest.pii_mode, store.project_pii_mode(claim.project_id))
    if mode == "off":
        return lambda text: text
    placeholders = load_placeholders(blobs, claim.workflow_id)
    return lambda text: mask(text, placeholders)


def digests(blobs: BlobStore, workflow_id: str, page_count: int, *, page_chars: int,
            use_analysis: bool = True) -> list[PageDigest]:
    """Each page's digest, from the segment analyzer's layout where there is one. When that layout names no
    heading anywhere in the document (one font size throughout), the summary's own heading rules (numbered
    sections, short lines) are used instead: ``use_analysis=False``."""
    out: list[PageDigest] = []
    analysed = False
    for page in range(1, page_count + 1):
        try:
            seg = json.loads(blobs.get(segment_key(workflow_id, page)))
        except NotFound:
            continue
        layout = page_analysis(blobs, workflow_id, page) if use_analysis else None
        analysed = analysed or layout is not None
        d = page_digest(seg, layout)
        kept, body = 0, []
        for para in d.body:  # bounded memory: a 3000-page document keeps what its summary may use
            if kept >= page_chars:
                break
            body.append(para[: page_chars - kept])
            kept += len(body[-1])
        d.body = body
        out.append(d)
    if analysed and not any(d.headings for d in out):
        return digests(blobs, workflow_id, page_count, page_chars=page_chars, use_analysis=False)
    return out


async def run_summarizer(settings: Settings, store: WorkflowStore, blobs: BlobStore, claim: Claim, *,
                         file_name: str, page_count: int, model: SummaryModel | None = None,
                         to_thread: Callable[..., Any] | None = None) -> dict[str, Any]:
    """Summarise, store, record the step; returns the stored record."""
    import asyncio

    run = to_thread or asyncio.to_thread
    await run(store.record_step, claim, STEP, "in_progress")
    bedrock = settings.ingest.analysis_model == "bedrock"
    chars = DIGEST_TEXT_CHARS if bedrock else LOCAL_PAGE_CHARS
    if bedrock:
        chars = min(chars, max(400, 4 * settings.ingest.summary_document_tokens // max(1, page_count)))
    pages = await run(digests, blobs, claim.workflow_id, page_count, page_chars=chars)
    summary = extractive_summary(pages, file_name=file_name, page_count=page_count)
    failure: str | None = None
    if bedrock:
        own_client = None
        try:
            if model is None:
                from store.clients import anthropic_bedrock_client

                own_client = anthropic_bedrock_client(settings)
                model = AnthropicSummaryModel(own_client, settings.ingest.analysis_model_id)
            mask = await run(masker, settings, store, blobs, claim)
            budget = Budget(settings.ingest.summary_call_input_tokens, settings.ingest.summary_output_tokens,
                            settings.ingest.summary_document_tokens, settings.ingest.summary_concurrency)
            summary = await bedrock_summary(model, pages, file_name=file_name, page_count=page_count, mask=mask,
                                            budget=budget)
        except DocchatError as exc:
            failure = exc.message
        except Exception as exc:  # a summary is never worth the document: keep the extractive one
            failure = f"{type(exc).__name__}"
            log.warning("summary_failed", workflow_id=claim.workflow_id, error=failure)
        finally:
            if own_client is not None:
                await own_client.close()
    await run(store.put_document_summary, claim, summary)
    if failure is not None:
        await run(store.record_step, claim, STEP, "failed",
                  error=f"the Bedrock summary failed ({failure}); the extractive summary was stored instead"[:500])
    else:
        usage = summary.get("usage") or {}
        reason = (f"{summary['kind']} summary by {summary['model']}: {usage.get('calls', 0)} calls, "
                  f"{usage.get('input_tokens', 0)} input / {usage.get('output_tokens', 0)} output tokens"
                  if summary.get("model") else "extractive summary: title, outline of headings, lead sentences")
        await run(store.record_step, claim, STEP, "completed", done=page_count, total=page_count, reason=reason)
    log.info("summary_stored", workflow_id=claim.workflow_id, kind=summary["kind"], headings=len(summary["outline"]))
    return summary
