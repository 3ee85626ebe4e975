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
