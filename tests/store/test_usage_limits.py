"""The limits policy (store/usage_limits.py) over the SQLite counters: windows, Retry-After, refunds, projects."""

from __future__ import annotations

from pathlib import Path

import pytest

from store.config import LimitsSettings, Settings
from store.errors import LimitExceeded
from store.usage_counters import SqliteUsageCounters
from store.usage_limits import UsageLimits, _bucket

DAY0 = 1_780_000_000 - 1_780_000_000 % 86_400  # a UTC midnight


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def limits(tmp_path: Path, clock: Clock, **values: int) -> UsageLimits:
    base = {f: 0 for f in LimitsSettings.__dataclass_fields__}
    base.update({f"limit_{k}": v for k, v in values.items()})
    return UsageLimits(SqliteUsageCounters(tmp_path / "limits.db", clock=clock), LimitsSettings(**base), clock=clock)


def test_buckets_are_utc_minutes_and_days() -> None:
    assert _bucket(DAY0 + 61.5, 60) == (_bucket(DAY0 + 60, 60)[0], DAY0 + 120)
    label, end = _bucket(DAY0 + 3 * 3600, 86_400)
    assert len(label) == 8 and end == DAY0 + 86_400


def test_defaults_are_on_and_zero_means_unlimited() -> None:
    lim = Settings().limits
    assert all(getattr(lim, f) > 0 for f in LimitsSettings.__dataclass_fields__)
    assert Settings(limit_projects=0).limits.limit_projects == 0


async def test_zero_limits_never_refuse(tmp_path: Path) -> None:
    lim = limits(tmp_path, Clock(DAY0))
    for _ in range(50):
        lease = await lim.admit_question("alice")
        await lim.admit_session("alice")
        await lim.admit_upload("alice")
        await lim.admit_pages("alice", 10_000)
        await lim.admit_project("alice", lambda: 0)
        await lease.release()


async def test_retry_after_is_the_rest_of_the_window(tmp_path: Path) -> None:
    clock = Clock(DAY0 + 10 * 60 + 45)  # 00:10:45
    lim = limits(tmp_path, clock, questions_per_minute=1, uploads_per_day=1)
    await lim.admit_question("alice")
    with pytest.raises(LimitExceeded) as q:
        await lim.admit_question("alice")
    assert (q.value.limit, q.value.retry_after) == ("questions_per_minute", 15)
    await lim.admit_upload("alice")
    with pytest.raises(LimitExceeded) as u:
        await lim.admit_upload("alice")
    assert (u.value.limit, u.value.retry_after) == ("uploads_per_day", 86_400 - 645)


async def test_a_question_refused_for_concurrency_does_not_count_against_the_minute(tmp_path: Path) -> None:
    lim = limits(tmp_path, Clock(DAY0), questions_per_minute=2, concurrent_answers=1)
    lease = await lim.admit_question("alice")
    for _ in range(3):
        with pytest.raises(LimitExceeded) as exc:
            await lim.admit_question("alice")
        assert exc.value.limit == "concurrent_answers"
    await lease.release()
    await lease.release()  # once only
    await (await lim.admit_question("alice")).release()  # the second question of the minute


async def test_page_refund_gives_the_pages_back(tmp_path: Path) -> None:
    lim = limits(tmp_path, Clock(DAY0), pages_per_day=10)
    refund = await lim.admit_pages("alice", 8)
    with pytest.raises(LimitExceeded):
        await lim.admit_pages("alice", 3)
    await refund()
    await lim.admit_pages("alice", 10)


async def test_projects_from_before_the_limit_count_and_deletes_free_places(tmp_path: Path) -> None:
    lim = limits(tmp_path, Clock(DAY0), projects=3)
    existing = 2  # created before limits were switched on
    await lim.admit_project("alice", lambda: existing)
    with pytest.raises(LimitExceeded) as exc:
        await lim.admit_project("alice", lambda: existing + 1)
    assert exc.value.limit == "projects"
    await lim.project_deleted("alice")
    await lim.admit_project("alice", lambda: existing)
    refund = await lim.admit_project("bob", lambda: 0)
    await refund()  # a creation that failed gives its place back
    for _ in range(3):
        await lim.admit_project("bob", lambda: 0)
