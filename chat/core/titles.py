"""A session's title after its first exchange: the question truncated (local) or the cheap title model.

The title model is remote: with ``DOCCHAT_PII_MODE=mask`` the question and answer it is sent are masked
(``ingest.pii.masking``), so a title may read "Call [PHONE_1]" but never holds the number."""

from __future__ import annotations

import asyncio
import json

from chat.core.ports import SessionStorePort
from chat.models.port import PURPOSE_TITLE, ChatModel, ModelRequest
from ingest.pii.masking import mask_all
from store.config import Settings
from store.logging import get_logger

log = get_logger(__name__)

TITLE_CHARS = 60


def truncate_title(text: str, limit: int = TITLE_CHARS) -> str:
    one_line = " ".join(text.split())
    if len(one_line) <= limit:
        return one_line
    cut = one_line[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,.;:") + "…"


def title_request(question: str, answer: str, *, model: str) -> ModelRequest:
    """The request to the title model: the first question and answer (clipped) as data."""
    return ModelRequest(
        system=[
            {
                "type": "text",
                "text": "Write a short title (at most 6 words) for this conversation. "
                "Reply with the title only, no quotes.",
            }
        ],
        messages=[
            {
                "role": "user",
                "content": [
                    {
                        "type": "text",
                        "text": json.dumps({"question": question[:2000], "answer": answer[:2000]}, ensure_ascii=False),
                    }
                ],
            }
        ],
        tools=[],
        max_tokens=32,
        model=model,
        metadata={"purpose": PURPOSE_TITLE},
    )


async def make_title(model: ChatModel, settings: Settings, question: str, answer: str) -> str:
    """Local model: the first question, truncated. Bedrock: the cheap title model via ``complete``."""
    if settings.chat.chat_model == "local":
        return truncate_title(question)
    sent_q, sent_a = question, answer
    if settings.ingest.pii_mode == "mask":  # the title model is remote: no personal data in what it is sent
        sent_q, sent_a = mask_all([question, answer])
    message = await model.complete(title_request(sent_q, sent_a, model=settings.chat.bedrock_title_model_id))
    text = "".join(b.get("text", "") for b in message.get("content", []) if b.get("type") == "text")
    return truncate_title(text.strip().strip('"') or question)


async def set_title(
    sessions: SessionStorePort, model: ChatModel, settings: Settings, session_id: str, question: str, answer: str
) -> None:
    """Name the session; a failure is logged and never fails the answer."""
    try:
        title = await make_title(model, settings, question, answer)
        if title:
            await asyncio.to_thread(sessions.rename_session, session_id, title)
    except Exception as exc:
        log.warning("title_failed", session_id=session_id, error_type=type(exc).__name__)
