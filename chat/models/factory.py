"""Building the configured chat model from settings (the one place a model and its client are made)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chat.models.port import PURPOSE_ANSWER, PURPOSE_TITLE, ChatModel

if TYPE_CHECKING:
    from store.config import Settings


def build_chat_model(settings: Settings, *, purpose: str = PURPOSE_ANSWER) -> ChatModel:
    """The one place a chat model (and its Anthropic client) is built from settings.

    ``purpose="title"`` gives the cheap title model (Haiku on Bedrock; the same local model).
    """
    if settings.chat.chat_model == "bedrock":
        from chat.models.bedrock import BedrockModel
        from store.clients import anthropic_bedrock_client

        model_id = settings.chat.bedrock_title_model_id if purpose == PURPOSE_TITLE else settings.chat.bedrock_model_id
        return BedrockModel.from_settings(anthropic_bedrock_client(settings), settings, model_id=model_id)
    from chat.models.local import LocalModel

    return LocalModel(context_window=settings.chat.context_window_tokens)


def is_remote_model(settings: Settings) -> bool:
    """Whether the configured chat model runs outside this service (Bedrock): what it is sent must be masked
    (``DOCCHAT_PII_MODE``); the embedded extractive model reads the owner's original text."""
    return settings.chat.chat_model != "local"
