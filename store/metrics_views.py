"""What the operations views read (seed 003 window routing) — a fixed number of precomputed items, never history.

=========  ========================  ===================
window     items                     at most
=========  ========================  ===================
summary    ``LATEST`` + the window   1 + the window's
1 h        ``GRAPH#1M#`` (1 minute)  60
6 h        ``GRAPH#5M#`` (5 minute)  72
12 h       ``GRAPH#5M#``             144
24 h       ``GRAPH#5M#``             288
usage      ``USAGE#<day>``           ``days`` (≤ 31)
=========  ========================  ===================

The count does not depend on traffic: every event of a minute lands in the same item. Each answer says
``items_read``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from store.errors import InvalidInput
from store.metrics import (
    BUCKET_SECONDS,
    GLOBAL_PK,
    HISTOGRAM_BOUNDS,
    LATEST_SK,
    METRICS,
    RAW_SECONDS,
    MetricsStore,
    bucket_sk,
    day_sk,
    metric_kind,
    raw_sk,
    user_pk,
)


@dataclass(frozen=True)
class Window:
    name: str
    seconds: int
    step: int  # item resolution

    @property
    def items(self) -> int:
        return self.seconds // self.step


WINDOWS: dict[str, Window] = {
    "1h": Window("1h", 3600, RAW_SECONDS),
    "6h": Window("6h", 6 * 3600, BUCKET_SECONDS),
    "12h": Window("12h", 12 * 3600, BUCKET_SECONDS),
    "24h": Window("24h", 24 * 3600, BUCKET_SECONDS),
}

#: totals shown on the summary cards
SUMMARY_COUNTS = ("uploads", "pages_processed", "ocr_pages", "docs_completed", "docs_failed", "questions",
                  "answers", "declined", "tokens_in", "tokens_out", "cache_read", "cache_write")
SUMMARY_TIMINGS = ("ttft_seconds", "answer_seconds", "job_seconds")


def window_of(name: str) -> Window:
    w = WINDOWS.get(name)
    if w is None:
        raise InvalidInput(f"window must be one of: {', '.join(WINDOWS)}")
    return w


def _bounds(w: Window, now: float) -> tuple[str, str, list[int]]:
    """The first/last key of the window's items (the current one included) and each item's start time."""
    last = int(now) - int(now) % w.step
    starts = [last - i * w.step for i in range(w.items - 1, -1, -1)]
    key = raw_sk if w.step == RAW_SECONDS else bucket_sk
    return key(starts[0]), key(starts[-1]), starts


def _read_window(store: MetricsStore, w: Window, now: float) -> tuple[dict[str, dict[str, Any]], list[int], int]:
    lo, hi, starts = _bounds(w, now)
    items, read = store.query(GLOBAL_PK, lo, hi)
    return {str(i["sk"]): i for i in items}, starts, read


def p95(attrs: dict[str, Any], metric: str) -> float | None:
    """The 95th percentile from the histogram cells (the cell's upper bound; the max for the open cell)."""
    cells = [float(attrs.get(f"h.{metric}.{i}", 0)) for i in range(len(HISTOGRAM_BOUNDS) + 1)]
    total = sum(cells)
    if total <= 0:
        return None
    seen = 0.0
    for i, c in enumerate(cells):
        seen += c
        if seen >= 0.95 * total:
            if i < len(HISTOGRAM_BOUNDS):
                hi = attrs.get("hi." + metric)
                return min(HISTOGRAM_BOUNDS[i], float(hi)) if hi is not None else HISTOGRAM_BOUNDS[i]
            return float(attrs.get("hi." + metric, HISTOGRAM_BOUNDS[-1]))
    return None  # pragma: no cover - the loop reaches the total


def point(attrs: dict[str, Any], metric: str) -> dict[str, Any]:
    n = float(attrs.get("n." + metric, 0))
    out: dict[str, Any] = {"count": n}
    if metric_kind(metric) == "timing":
        s = float(attrs.get("s." + metric, 0))
        out.update(sum=s, avg=(s / n) if n else None, min=attrs.get("lo." + metric),
                   max=attrs.get("hi." + metric), p95=p95(attrs, metric))
    return out


def combine(items: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Sum counts/sums/histograms and take min/max over items (a window's totals from its buckets)."""
    total: dict[str, Any] = {}
    for item in items:
        for k, v in item.items():
            if not isinstance(v, int | float) or isinstance(v, bool):
                continue
            if k.startswith("lo."):
                total[k] = min(v, total.get(k, v))
            elif k.startswith("hi."):
                total[k] = max(v, total.get(k, v))
            elif k.startswith(("n.", "s.", "h.")):
                total[k] = total.get(k, 0) + v
    return total


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def series(store: MetricsStore, metric: str, window: str, *, now: float | None = None) -> dict[str, Any]:
    if metric_kind(metric) is None or len(metric) > 100:
        raise InvalidInput("unknown metric; use one of: " + ", ".join(sorted(METRICS)))
    w = window_of(window)
    now = time.time() if now is None else now
    by_sk, starts, read = _read_window(store, w, now)
    key = raw_sk if w.step == RAW_SECONDS else bucket_sk
    points = [{"t": s, **point(by_sk.get(key(s), {}), metric)} for s in starts]
    return {"metric": metric, "window": w.name, "step_seconds": w.step, "points": points,
            "items_read": read, "max_items": w.items,
            "source": "GRAPH#1M" if w.step == RAW_SECONDS else "GRAPH#5M"}


def summary(store: MetricsStore, window: str = "1h", *, now: float | None = None) -> dict[str, Any]:
    """The current state (``LATEST``) and the window's totals: 1 + at most ``window.items`` items read."""
    w = window_of(window)
    now = time.time() if now is None else now
    latest = store.get(GLOBAL_PK, LATEST_SK) or {}
    by_sk, _, read = _read_window(store, w, now)
    totals = combine(list(by_sk.values()))
    errors = {k[2 + len("errors."):]: v for k, v in totals.items() if k.startswith("n.errors.")}
    steps = sorted({k.split(".")[2] for k in totals if k.startswith("n.step_seconds.")})
    done, failed = float(totals.get("n.docs_completed", 0)), float(totals.get("n.docs_failed", 0))
    return {
        "window": w.name,
        "latest": {k: v for k, v in latest.items() if k != "sk"},
        "totals": {m: float(totals.get("n." + m, 0)) for m in SUMMARY_COUNTS},
        "timings": {m: point(totals, m) for m in SUMMARY_TIMINGS},
        "steps": {s: point(totals, "step_seconds." + s) for s in steps},
        "errors": errors,
        "failure_rate": failed / (done + failed) if done + failed else 0.0,
        "items_read": read + 1,
        "max_items": w.items + 1,
        "now": iso(now),
    }


def usage(store: MetricsStore, *, user: str, project: str | None = None, days: int = 7,
          now: float | None = None) -> dict[str, Any]:
    """A user's usage totals by day — or one of their projects' (kept in the owner's items) — and per project;
    ``days`` (≤ 31) items read."""
    if not 1 <= days <= 31:
        raise InvalidInput("days must be between 1 and 31")
    now = time.time() if now is None else now
    first, last = day_sk(now - (days - 1) * 86400), day_sk(now)
    items, read = store.query(user_pk(user), first, last)
    prefix = "n." if project is None else f"n.p.{project}."
    rows = []
    projects: dict[str, dict[str, float]] = {}
    for item in items:
        if project is None:
            row = {k[2:]: v for k, v in item.items() if k.startswith("n.") and not k.startswith("n.p.")}
        else:
            row = {k[len(prefix):]: v for k, v in item.items() if k.startswith(prefix)}
        rows.append({"day": str(item["sk"]).removeprefix("USAGE#"), **row, "cache_hit_ratio": cache_hit(row)})
        for k, v in item.items():
            if project is None and k.startswith("n.p.") and isinstance(v, int | float):
                pid, _, metric = k[4:].rpartition(".")
                per = projects.setdefault(pid, {})
                per[metric] = per.get(metric, 0) + v
    total: dict[str, float] = {}
    for row in rows:
        for k, v in row.items():
            if k not in ("day", "cache_hit_ratio") and isinstance(v, int | float):
                total[k] = total.get(k, 0) + v
    return {"days": rows, "totals": {**total, "cache_hit_ratio": cache_hit(total)}, "projects": projects,
            "items_read": read, "max_items": days}


def cache_hit(row: dict[str, Any]) -> float | None:
    """Share of prompt tokens read from the prompt cache (cache reads over every input token)."""
    read = float(row.get("cache_read", 0))
    whole = read + float(row.get("cache_write", 0)) + float(row.get("tokens_in", 0))
    return round(read / whole, 4) if whole else None
