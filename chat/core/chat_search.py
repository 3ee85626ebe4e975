"""Finding a user's chats by title and message text (pure): the matcher and its snippet.

``GET /v1/sessions?q=`` reads the user's sessions newest first from the per-user index (seed 002's GSI1,
the same query as the chat list) and, for each, its messages, keeping those whose title or text holds the
words; at most ``MAX_SCANNED`` sessions are read per search, so a search is bounded in both modes. The
I/O is ``ChatService.search_sessions``; this module only decides what matches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

MAX_SCANNED = 200  # sessions read per search (newest activity first)
MAX_QUERY_CHARS = 200
SNIPPET_CHARS = 120


def terms(query: str) -> list[str]:
    """The words to find (case-folded); every one must occur."""
    return [t for t in query.casefold().split() if t]


def message_texts(messages: Iterable[Mapping[str, Any]]) -> list[str]:
    """The text a person sees of stored messages: question and answer text blocks, no tool results, no
    replaced turns."""
    out: list[str] = []
    for m in messages:
        if m.get("superseded"):
            continue
        for b in m.get("content") or []:
            if isinstance(b, dict) and b.get("type") == "text" and b.get("text"):
                out.append(str(b["text"]))
    return out


def snippet(text: str, term: str) -> str:
    """About ``SNIPPET_CHARS`` characters of ``text`` around the first ``term``, on one line."""
    flat = " ".join(text.split())
    at = flat.casefold().find(term)
    if at < 0:
        return flat[:SNIPPET_CHARS]
    start = max(0, at - SNIPPET_CHARS // 3)
    end = min(len(flat), start + SNIPPET_CHARS)
    return ("…" if start else "") + flat[start:end] + ("…" if end < len(flat) else "")


def match(title: str | None, texts: Sequence[str], words: Sequence[str]) -> dict[str, Any] | None:
    """``{"in": "title"|"text", "snippet"}`` when every word is in the title or the text, else ``None``."""
    if not words:
        return None
    folded_title = (title or "").casefold()
    if all(w in folded_title for w in words):
        return {"in": "title", "snippet": None}
    whole = "\n".join(texts)
    folded = whole.casefold()
    if not all(w in folded_title or w in folded for w in words):
        return None
    # the snippet comes from the message holding the most of the words (the first such one)
    hit = max(texts, key=lambda t: sum(w in t.casefold() for w in words))
    first = next((w for w in words if w in hit.casefold()), words[0])
    return {"in": "text", "snippet": snippet(hit, first)}


