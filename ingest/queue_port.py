"""The job-queue port (seed 004): ``Message``, the ``JobQueue`` Protocol and the lane picker.

Adapters: ``ingest/queue_sqlite.py`` (embedded) and ``ingest/queue_sqs.py`` (Amazon SQS); ``ingest/queue.py``
gathers the three for importers.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from store.errors import ConfigError

Priority = Literal["high", "low"]
PRIORITIES: tuple[Priority, Priority] = ("high", "low")


@dataclass(frozen=True, slots=True)
class Message:
    body: dict[str, Any]
    priority: Priority
    receipt: str
    receive_count: int
    message_id: str


@dataclass(frozen=True, slots=True)
class DeadLetter:
    """A message in a lane's dead-letter queue (what ``docchat dlq`` lists and redrives)."""

    body: dict[str, Any]
    priority: Priority  # the lane it was dead-lettered from
    message_id: str
    receipt: str  # what ``drop_dead`` / ``release_dead`` take (SQS: the receipt handle of the peek)
    receive_count: int
    dead_at: float | None  # when it was dead-lettered (epoch s), where the backend knows it (SQLite); else None


@runtime_checkable
class JobQueue(Protocol):
    #: deliveries before a message dead-letters (the redrive policy's ``maxReceiveCount``)
    max_receives: int

    def send(self, body: Mapping[str, Any], *, priority: Priority) -> str:
        """Enqueue a job; returns the message id."""

    def receive(
        self, *, wait_seconds: float = 0.0, visibility_seconds: int = 300, lanes: tuple[Priority, ...] = PRIORITIES
    ) -> Message | None:
        """One message from the lanes (weighted), waiting up to ``wait_seconds`` (long poll), or None."""

    def extend(self, msg: Message, visibility_seconds: int) -> bool:
        """Keep a running job invisible for ``visibility_seconds`` more; False if the receipt is stale."""

    def retry_later(self, msg: Message, delay_seconds: int) -> None:
        """Make the message visible again after ``delay_seconds`` (backoff before a retry)."""

    def delete(self, msg: Message) -> None:
        """Acknowledge: the job is done (or a no-op)."""

    def dead_letters(self, priority: Priority) -> list[dict[str, Any]]:
        """Bodies in a dead-letter queue (for operators and tests; at most 100)."""

    def list_dead(self, priority: Priority, *, limit: int = 1000, hold_seconds: int = 0) -> list[DeadLetter]:
        """The messages of a lane's dead-letter queue, oldest first where known. ``hold_seconds`` > 0 keeps them
        from other readers that long (a redrive about to drop them); 0 leaves them as they were (a listing)."""

    def drop_dead(self, letter: DeadLetter) -> None:
        """Delete a message from its dead-letter queue (it was redriven, or its workflow no longer needs it)."""

    def release_dead(self, letters: list[DeadLetter]) -> None:
        """Give back messages ``list_dead`` held, untouched."""

    def depth(self, priority: Priority) -> int:
        """Approximate number of messages waiting (visible) in a queue."""

    def close(self) -> None: ...


class PriorityPicker:
    """Smooth weighted round robin over the two lanes (pure): which queue to ask first."""

    def __init__(self, high_share: float = 0.7) -> None:
        if not 0.0 < high_share < 1.0:
            raise ConfigError("high_share must be strictly between 0 and 1")
        self.weights: dict[Priority, float] = {"high": high_share, "low": 1.0 - high_share}
        self.credit: dict[Priority, float] = {"high": 0.0, "low": 0.0}
        self._lock = threading.Lock()

    def order(self, lanes: tuple[Priority, ...] = PRIORITIES) -> list[Priority]:
        if len(lanes) <= 1:
            return list(lanes)
        with self._lock:
            for lane in lanes:
                self.credit[lane] += self.weights[lane]
            first = max(lanes, key=lambda lane: (self.credit[lane], lane == "high"))
            self.credit[first] -= sum(self.weights[lane] for lane in lanes)
        return [first, *[lane for lane in lanes if lane != first]]
