"""Per-user usage limits (issue 13 item 8, OWASP LLM10): the policy over the ``UsageCounters`` port.

``UsageLimits`` admits or refuses each costly action with ``LimitExceeded`` (HTTP 429, ``Retry-After``, the
limit's name in the body). The limits come from ``settings.limits`` (0 = unlimited):

==========================  ==========================================  =====================================
limit                       counted                                     Retry-After
==========================  ==========================================  =====================================
questions_per_minute        each question, fixed UTC minute window      seconds to the next minute
concurrent_answers          answers generating at once (leased slots)   a few seconds
uploads_per_day             each upload request, fixed UTC day          seconds to the next UTC midnight
pages_per_day               pages of accepted uploads, fixed UTC day    seconds to the next UTC midnight
projects                    projects the user has now (total)           a minute (deleting one frees a place)
sessions_per_day            new chats, fixed UTC day                    seconds to the next UTC midnight
==========================  ==========================================  =====================================

Sessions are limited per day, not in total: people keep their chat history and do not expect it to run out
(chats expire after ``session_ttl_days`` anyway); what costs is creating them in bulk. Projects are limited in
total because each one is kept (and searched) until the user deletes it.

An answer slot is a lease that expires ``answer_timeout_seconds`` (+ a margin) after it was taken, so a
process that dies mid-answer cannot keep a user's slot for ever. The projects counter is a fast gate checked
atomically, and deleting a project gives its place back; a counter still at 0 is started from the user's real
number of projects (those created before limits existed).
"""

from __future__ import annotations

import asyncio
import math
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from store.config import LimitsSettings, Settings
from store.errors import LimitExceeded
from store.logging import get_logger
from store.usage_counters import UsageCounters

log = get_logger(__name__)

MINUTE = 60
DAY = 86_400
EXPIRY_MARGIN_S = 3_600  # a window's counter outlives its window by this much (then TTL removes it)
SLOT_RETRY_AFTER_S = 5
PROJECTS_RETRY_AFTER_S = 60
LEASE_WITHOUT_TIMEOUT_S = 3_600  # the answer slot lease when answers have no time cap
LEASE_MARGIN_S = 60


def _bucket(now: float, seconds: int) -> tuple[str, int]:
    """The window holding ``now`` (a UTC label) and when it ends (epoch seconds)."""
    start = int(now) - int(now) % seconds
    fmt = "%Y%m%d%H%M" if seconds < DAY else "%Y%m%d"
    return datetime.fromtimestamp(start, UTC).strftime(fmt), start + seconds


def _retry_after(now: float, end: int) -> int:
    return max(1, math.ceil(end - now))


@dataclass
class AnswerLease:
    """A held answer slot (and the question it counted); ``release`` once the answer has ended."""

    limits: UsageLimits | None
    user_id: str
    slot: int | None = None
    lease: str = ""

    async def release(self) -> None:
        if self.limits is None or self.slot is None:
            return
        limits, self.limits = self.limits, None  # once
        await asyncio.to_thread(limits.counters.release_slot, self.user_id, "answers", self.slot, self.lease)


class UsageLimits:
    """Admits a user's questions, answers, uploads, pages, projects and sessions within ``settings.limits``."""

    def __init__(
        self,
        counters: UsageCounters,
        limits: LimitsSettings,
        *,
        answer_timeout_s: float = 0.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.counters = counters
        self.limits = limits
        self.answer_timeout_s = answer_timeout_s
        self._clock = clock

    @classmethod
    def from_settings(cls, settings: Settings, counters: UsageCounters) -> UsageLimits:
        return cls(counters, settings.limits, answer_timeout_s=settings.chat.answer_timeout_seconds)

    def close(self) -> None:
        self.counters.close()

    # --- the pieces ----------------------------------------------------------------------------

    def _take_window(self, user_id: str, name: str, limit_name: str, limit: int, amount: int, seconds: int,
                     what: str) -> None:
        """Count ``amount`` in the current window or raise ``LimitExceeded``."""
        if limit <= 0 or amount <= 0:
            return
        now = self._clock()
        label, end = _bucket(now, seconds)
        if self.counters.add(user_id, f"{name}#{label}", amount, limit=limit, expire_at=end + EXPIRY_MARGIN_S) is None:
            wait = _retry_after(now, end)
            per = "minute" if seconds == MINUTE else "day"
            log.info("limit_reached", limit=limit_name, user_id=user_id, max=limit, retry_after=wait)
            raise LimitExceeded(
                f"limit reached: {limit} {what} per {per} ({limit_name}); try again in {wait} s",
                limit=limit_name, retry_after=wait,
            )

    def _give_back(self, user_id: str, name: str, amount: int, seconds: int) -> None:
        label, _ = _bucket(self._clock(), seconds)
        self.counters.subtract(user_id, f"{name}#{label}", amount)

    # --- questions and answers ------------------------------------------------------------------

    def _admit_question(self, user_id: str) -> AnswerLease:
        lim = self.limits
        self._take_window(user_id, "questions", "questions_per_minute", lim.limit_questions_per_minute, 1, MINUTE,
                          "questions")
        if lim.limit_concurrent_answers <= 0:
            return AnswerLease(None, user_id)
        lease = uuid.uuid4().hex
        hold = (self.answer_timeout_s or LEASE_WITHOUT_TIMEOUT_S) + LEASE_MARGIN_S
        slot = self.counters.acquire_slot(user_id, "answers", lim.limit_concurrent_answers, lease,
                                          expire_at=int(self._clock() + hold))
        if slot is None:
            if lim.limit_questions_per_minute > 0:  # the refused question does not count against the minute
                self._give_back(user_id, "questions", 1, MINUTE)
            log.info("limit_reached", limit="concurrent_answers", user_id=user_id, max=lim.limit_concurrent_answers)
            raise LimitExceeded(
                f"limit reached: {lim.limit_concurrent_answers} answers at once (concurrent_answers); "
                "wait for an answer to finish or stop it",
                limit="concurrent_answers", retry_after=SLOT_RETRY_AFTER_S,
            )
        return AnswerLease(self, user_id, slot, lease)

    async def admit_question(self, user_id: str) -> AnswerLease:
        """Count a question and hold an answer slot; ``LimitExceeded`` when either is used up."""
        return await asyncio.to_thread(self._admit_question, user_id)

    # --- sessions, uploads, pages -----------------------------------------------------------------

    async def admit_session(self, user_id: str) -> None:
        await asyncio.to_thread(self._take_window, user_id, "sessions", "sessions_per_day",
                                self.limits.limit_sessions_per_day, 1, DAY, "new chats")

    async def admit_upload(self, user_id: str) -> None:
        await asyncio.to_thread(self._take_window, user_id, "uploads", "uploads_per_day",
                                self.limits.limit_uploads_per_day, 1, DAY, "uploads")

    async def admit_pages(self, user_id: str, pages: int) -> Callable[[], Awaitable[None]]:
        """Count ``pages`` against today's pages; returns an async refund (for an upload that then fails)."""
        limit = self.limits.limit_pages_per_day
        await asyncio.to_thread(self._take_window, user_id, "pages", "pages_per_day", limit, pages, DAY, "pages")

        async def refund() -> None:
            if limit > 0 and pages > 0:
                await asyncio.to_thread(self._give_back, user_id, "pages", pages, DAY)

        return refund

    # --- projects ---------------------------------------------------------------------------------

    def _admit_project(self, user_id: str, count_existing: Callable[[], int]) -> bool:
        limit = self.limits.limit_projects
        if limit <= 0:
            return False
        if self.counters.get(user_id, "projects") == 0:
            # first project, or projects from before the counter existed: start it from the real number. Safe
            # against a concurrent creation: that one added to the counter first, so the set_if finds 1, not 0.
            actual = count_existing()
            if actual:
                self.counters.set_if(user_id, "projects", actual, expected=0)
        if self.counters.add(user_id, "projects", 1, limit=limit, expire_at=None) is not None:
            return True
        log.info("limit_reached", limit="projects", user_id=user_id, max=limit)
        raise LimitExceeded(
            f"limit reached: {limit} projects (projects); delete a project to create another",
            limit="projects", retry_after=PROJECTS_RETRY_AFTER_S,
        )

    async def admit_project(self, user_id: str, count_existing: Callable[[], int]) -> Callable[[], Awaitable[None]]:
        """Take a place for a new project; returns an async refund for a creation that then fails."""
        taken = await asyncio.to_thread(self._admit_project, user_id, count_existing)

        async def refund() -> None:
            if taken:
                await asyncio.to_thread(self.counters.subtract, user_id, "projects", 1)

        return refund

    async def project_deleted(self, user_id: str) -> None:
        """A project is gone: its place is free again."""
        if self.limits.limit_projects > 0:
            await asyncio.to_thread(self.counters.subtract, user_id, "projects", 1)


def open_usage_counters(settings: Settings) -> UsageCounters:
    """``limits.db`` in the data dir locally; the session table on AWS (shared by every task)."""
    if settings.server.backend == "aws":
        from store.clients import aws_client
        from store.usage_counters_dynamo import DynamoUsageCounters

        return DynamoUsageCounters(aws_client(settings, "dynamodb"), settings.store.sessions_table)
    from store.usage_counters import SqliteUsageCounters

    return SqliteUsageCounters(settings.server.data_dir / "limits.db")


def open_usage_limits(settings: Settings) -> UsageLimits:
    return UsageLimits.from_settings(settings, open_usage_counters(settings))
