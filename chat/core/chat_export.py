"""A chat as Markdown (pure): questions, answers, citations as footnotes (file, page, quote), feedback.

Input: the session view and the display items (``chat.core.display.display_items``). Each ``[S1]`` /
``[S1, P2]`` in an answer becomes footnote references ``[^1]`` / ``[^1][^2]``, numbered across the chat;
the footnotes follow the answer that uses them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

_GROUP_RE = re.compile(r"\[((?:[SP]\d+)(?:\s*[,;]\s*[SP]\d+)*)\]")
_REF_RE = re.compile(r"[SP]\d+")
RATING_LABELS = {"up": "👍 helpful", "down": "👎 not helpful"}


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _quote_block(text: str) -> str:
    return "\n".join("> " + line if line.strip() else ">" for line in text.strip().splitlines())


def _score(c: Mapping[str, Any]) -> str:
    s = c.get("score")
    return f", relevance {float(s):.3g}" if isinstance(s, int | float) and not isinstance(s, bool) else ""


def to_markdown(session: Mapping[str, Any], items: Sequence[Mapping[str, Any]], *, exported_at: str) -> str:
    """The whole chat as one Markdown document."""
    title = _one_line(session.get("title") or "Untitled chat")
    lines = [f"# {title}", "", f"_Exported from docchat on {exported_at}._", ""]
    n = 0
    for it in items:
        if it.get("role") == "user":
            lines += ["## Question", "", _quote_block(str(it.get("text") or "")) or ">", ""]
            continue
        cites = {str(c.get("ref")): c for c in it.get("citations") or [] if c.get("ref")}
        numbers: dict[str, int] = {}

        def refs(m: re.Match[str], cites: Mapping[str, Any] = cites, numbers: dict[str, int] = numbers) -> str:
            nonlocal n
            out = []
            for ref in _REF_RE.findall(m.group(1)):
                if ref not in cites:
                    out.append(f"[{ref}]")
                    continue
                if ref not in numbers:
                    n += 1
                    numbers[ref] = n
                out.append(f"[^{numbers[ref]}]")
            return "".join(out)

        text = _GROUP_RE.sub(refs, str(it.get("text") or "").strip())
        lines += ["## Answer", "", text or "_(no answer text)_", ""]
        if it.get("interrupted"):
            lines += ["_Stopped — the partial answer was saved._", ""]
        fb = it.get("feedback") or {}
        if fb.get("rating") in RATING_LABELS:
            comment = f": {_one_line(fb['comment'])}" if fb.get("comment") else ""
            lines += [f"**Feedback:** {RATING_LABELS[fb['rating']]}{comment}", ""]
        for ref, num in numbers.items():
            c = cites[ref]
            quote = _one_line(c.get("quote") or "")
            where = f"{_one_line(c.get('file_name') or 'document')}, page {c.get('page')}{_score(c)}"
            lines.append(f"[^{num}]: {where}" + (f" — “{quote}”" if quote else ""))
        if numbers:
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def file_name(session: Mapping[str, Any]) -> str:
    """A safe download name from the title (``chat.md`` without one)."""
    stem = re.sub(r"[^\w\- ]+", "", _one_line(session.get("title") or ""), flags=re.UNICODE).strip()[:60]
    return f"{stem.replace(' ', '-') or 'chat'}.md"
