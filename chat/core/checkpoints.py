"""The progress checkpoint of a generation (pure): its events so far as compact frames, bounded in size.

A process that answers a question writes this every poll interval (``chat.core.shared``); a process that
follows the generation for a client decodes it and republishes the events with their original positions,
so the SSE ids (``<generation_id>.<n>``) and ``Last-Event-ID`` work the same on every process.

Frames (one JSON array): ``["e", n, event, data]`` for one event, ``["t", n, text, [len, …]]`` for a run of
consecutive ``text`` events starting at ``n`` (their deltas joined; the lengths split them back exactly).
Over ``max_bytes`` the oldest events are dropped (a follower that needs them reports a replay gap, as
the in-memory buffer does).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from chat.core.events import EVENT_NAMES, ChatEvent

_FRAME_OVERHEAD = 12  # brackets, the kind, the position and the commas of one frame, roughly


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _frames(events: Sequence[ChatEvent]) -> list[list[Any]]:
    frames: list[list[Any]] = []
    for ev in events:
        if ev.event == "text":
            delta = str(ev.data.get("delta", ""))
            last = frames[-1] if frames else None
            if last is not None and last[0] == "t" and last[1] + len(last[3]) == ev.n:
                last[2] += delta
                last[3].append(len(delta))
            else:
                frames.append(["t", ev.n, delta, [len(delta)]])
        else:
            frames.append(["e", ev.n, ev.event, ev.data])
    return frames


def encode(events: Sequence[ChatEvent], max_bytes: int) -> str:
    """The frames of ``events`` (in position order), the oldest dropped until the encoding fits ``max_bytes``."""
    sizes = [len(_dumps(ev.data).encode("utf-8")) + _FRAME_OVERHEAD for ev in events]
    total = sum(sizes)
    start = 0
    while start < len(events) and total > max_bytes:
        total -= sizes[start]
        start += 1
    while True:
        text = _dumps(_frames(events[start:]))
        if len(text.encode("utf-8")) <= max_bytes or start >= len(events):
            return text if start < len(events) else "[]"
        start += max(1, (len(events) - start) // 10)


def decode(text: str) -> list[tuple[int, str, dict[str, Any]]]:
    """``(n, event, data)`` for every event in the frames, in order; malformed input gives what parsed."""
    if not text:
        return []
    try:
        frames = json.loads(text)
    except ValueError:
        return []
    out: list[tuple[int, str, dict[str, Any]]] = []
    for frame in frames if isinstance(frames, list) else []:
        if not isinstance(frame, list) or len(frame) != 4 or not isinstance(frame[1], int):
            continue
        kind, n = frame[0], frame[1]
        if kind == "t" and isinstance(frame[2], str) and isinstance(frame[3], list):
            pos = 0
            for i, length in enumerate(frame[3]):
                out.append((n + i, "text", {"delta": frame[2][pos : pos + int(length)]}))
                pos += int(length)
        elif kind == "e" and frame[2] in EVENT_NAMES and isinstance(frame[3], dict):
            out.append((n, str(frame[2]), frame[3]))
    return out
