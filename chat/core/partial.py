"""Interrupted answers (pure): what is kept of a cut-off assistant turn, and how it is marked.

Seed 002 option B: only text survives (completed blocks, plus the text of an unfinished block
that was already streamed to the user); never a ``tool_use``, never unsigned thinking. The kept
turn ends with ``INTERRUPTED_NOTE`` so the display (``chat.core.display``) and a replayed retry
(``chat.core.replay``) can tell it was cut off.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chat.models.accumulator import MessageAccumulator
from store.blocks import partial_turn

Block = dict[str, Any]

INTERRUPTED_NOTE = "\n\n[interrupted: the answer was cut off]"


def is_interrupted(blocks: Sequence[Any]) -> bool:
    """Whether a stored assistant turn is one that was cut off (its last text ends with the note)."""
    texts = [b for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
    return bool(texts) and str(texts[-1].get("text", "")).endswith(INTERRUPTED_NOTE.strip())


def received_text(acc: MessageAccumulator) -> list[Block]:
    """The partial-turn rule with the text streamed so far of an unfinished text block kept.

    Characters already streamed to the user are complete; the unsafe parts of a cut turn (tool_use,
    unsigned thinking) are never kept. Only text survives: an interrupted turn carries no thinking.
    """
    content = acc.message.get("content") or []
    kept = partial_turn(content, acc.completed_indices(), keep_open_text=True)
    return [b for b in kept if b.get("type") == "text"]


def interrupted_blocks(acc: MessageAccumulator | None) -> list[Block]:
    """The blocks stored for a cut-off answer: the received text (if any) and the interrupted note."""
    blocks = received_text(acc) if acc is not None else []
    blocks.append({"type": "text", "text": INTERRUPTED_NOTE.strip() if not blocks else INTERRUPTED_NOTE})
    return blocks
