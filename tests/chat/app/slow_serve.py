"""``docchat serve`` with a slow scripted chat model: one real API process for the multi-process tests.

Run as ``python -m tests.chat.app.slow_serve --port P`` with the usual ``DOCCHAT_*`` environment. Everything is
the production path (``chat.cli.main`` → ``run_serve`` → ``create_app`` → ``build_services``) except the chat
model, which streams ``ANSWER`` in small deltas so an answer lasts a couple of seconds.
"""

from __future__ import annotations

import sys
from typing import Any

ANSWER = " ".join(f"word{i}." for i in range(90))
CHUNK = 6
DELAY_S = 0.02


def main(argv: list[str]) -> int:
    import chat.models.factory as factory
    from chat.cli.main import main as docchat
    from chat.models.scripted import Reply, ScriptedModel, Text

    model = ScriptedModel(lambda _request: Reply(Text(ANSWER, chunk=CHUNK)), delay=DELAY_S)

    def build(settings: Any, *, purpose: str = "answer") -> Any:
        return model

    factory.build_chat_model = build  # type: ignore[assignment]
    return docchat(["serve", *argv])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
