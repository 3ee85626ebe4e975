"""Read models under load (issue 17, seed 003): the dashboard's read cost stays flat whatever the traffic.

Writes a day of synthetic activity compressed in time — seed 004's figures, 300k uploads and 1M questions a
day at 1× (and 10×) — through the real ``MetricsRecorder`` (simulated clocks: a flush every simulated second,
a user's usage item every simulated minute) into SQLite or DynamoDB Local, then reads the views the
Operations page reads and prints, per window, the items read and the read latency, and the writes per event.

* The last ``--full-minutes`` of the day go through the hot path event by event (each question, each upload,
  each job and each of its steps is one ``event()``); the rest of the day is fed one aggregate event per kind
  and simulated second (the same items get written: one per minute / 5-minute bucket / user-day — the point of
  the read model — at a fraction of the benchmark's run time). Writes per event are measured on the full part.
* Users come in sessions (a user asks ``--session-questions`` questions a few tens of seconds apart, and
  uploads documents in threes); ``--users`` active users at 1×, ten times as many at 10×.

Run: ``python -m bench.readmodels [--backend sqlite|dynamodb-local] [--scales 1,10] [--full-minutes 10]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from store.metrics import MetricsRecorder, MetricsStore, SqliteMetricsStore
from store.metrics_views import series, summary, usage

DAY = 86400
UPLOADS_PER_DAY = 300_000
QUESTIONS_PER_DAY = 1_000_000
STEPS = ("segment_prep", "format_parser", "segment_builder", "chunking")
WINDOWS = ("1h", "6h", "24h")
#: DynamoDB Local accepts any credentials (loopback only)
LOCAL_CREDS = {"aws_access_key_id": "local", "aws_secret_access_key": "local", "region_name": "us-east-1"}


class SimClock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@contextmanager
def sqlite_store() -> Iterator[tuple[MetricsStore, Callable[[], None]]]:
    with tempfile.TemporaryDirectory() as d:
        store = SqliteMetricsStore(Path(d) / "metrics.db")
        yield store, store.close


@contextmanager
def dynamodb_local_store(tools_dir: Path) -> Iterator[tuple[MetricsStore, Callable[[], None]]]:
    import socket
    import subprocess

    import boto3

    from chat.cli.aws_local import find_dynamodb_local
    from store.metrics_dynamo import DynamoMetricsStore
    from store.schema import SESSIONS_TABLE, create_table_kwargs

    java, jar = find_dynamodb_local(tools_dir)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([java, f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}", "-jar", str(jar),
                             "-inMemory", "-disableTelemetry", "-port", str(port)], cwd=jar.parent,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        client = boto3.client("dynamodb", endpoint_url=f"http://127.0.0.1:{port}", **LOCAL_CREDS)
        deadline = time.monotonic() + 60
        while True:
            try:
                client.list_tables()
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.25)
        client.create_table(**create_table_kwargs("bench-sessions", SESSIONS_TABLE))
        yield DynamoMetricsStore(client, "bench-sessions"), lambda: None
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def simulate_day(store: MetricsStore, *, scale: int, end: float, full_minutes: int, users: int,
                 session_questions: int, rng: random.Random) -> dict[str, Any]:
    """One day ending at ``end``; returns events/writes counted on the full-rate part."""
    wall = SimClock(end - DAY)
    mono = SimClock(0.0)
    api = MetricsRecorder(store, flush_seconds=1, usage_flush_seconds=60, clock=wall, monotonic=mono, writer="api")
    worker = MetricsRecorder(store, flush_seconds=1, usage_flush_seconds=60, clock=wall, monotonic=mono,
                             writer="worker")
    q_rate = QUESTIONS_PER_DAY * scale / DAY
    u_rate = UPLOADS_PER_DAY * scale / DAY
    active_users = users * scale
    sessions: list[tuple[str, str, int]] = []  # (user, project, questions left)
    full_from = DAY - full_minutes * 60
    measured: dict[str, Any] = {"events": 0.0, "writes": 0.0}
    carry_q = carry_u = 0.0
    for sec, step in _ticks(full_from):
        wall.t = end - DAY + sec
        mono.t = float(sec)
        carry_q += q_rate * step
        carry_u += u_rate * step
        n_q, n_u = int(carry_q), int(carry_u)
        carry_q -= n_q
        carry_u -= n_u
        full = step == 1
        before = api.events + worker.events
        if not full:  # one aggregate event per kind and minute: the same items as event by event
            api.event(counts={"questions": n_q, "answers": n_q, "tokens_in": 900 * n_q, "tokens_out": 150 * n_q,
                              "cache_read": 2500 * n_q, "declined": n_q // 20},
                      timings={"ttft_seconds": rng.uniform(0.3, 2.5), "answer_seconds": rng.uniform(2, 12)})
            api.event(counts={"uploads": n_u})
            worker.event(counts={"docs_completed": n_u, "pages_processed": 12 * n_u},
                         timings={f"step_seconds.{s}": rng.uniform(0.1, 3) for s in STEPS},
                         latest_add={"docs.completed": n_u}, latest_put={"queue_depth.high": rng.randint(0, 50)})
        else:
            for _ in range(n_q):
                if not sessions or rng.random() < 1 / session_questions:
                    u = rng.randrange(active_users)
                    sessions.append((f"u{u}", f"p{u}-{rng.randrange(3)}", session_questions))
                i = rng.randrange(max(1, len(sessions) - 400), len(sessions)) if len(sessions) > 1 else 0
                user, project, left = sessions[i]
                sessions[i] = (user, project, left - 1)
                tin, tout, cache = rng.randint(300, 3000), rng.randint(50, 400), rng.randint(0, 4000)
                api.event(counts={"questions": 1, "answers": 1, "tokens_in": tin, "tokens_out": tout,
                                  "cache_read": cache},
                          timings={"ttft_seconds": rng.uniform(0.3, 2.5), "answer_seconds": rng.uniform(2, 12)},
                          user=user, project=project,
                          usage={"questions": 1, "tokens_in": tin, "tokens_out": tout, "cache_read": cache})
            for k in range(n_u):
                user = sessions[-1 - (k // 3) % max(1, len(sessions))][0] if sessions else "u0"
                api.event(counts={"uploads": 1}, user=user, usage={"uploads": 1, "pages": 12},
                          latest_add={"docs.pending": 1})
                for s in STEPS:  # the job's steps, then its completion (the worker process)
                    worker.event(timings={f"step_seconds.{s}": rng.uniform(0.1, 3)})
                worker.event(counts={"docs_completed": 1, "pages_processed": 12}, user=user,
                             usage={"pages_processed": 12}, latest_add={"docs.completed": 1, "workers_busy": 0})
        writes_before = api.writes + worker.writes
        api.flush()
        worker.flush()
        if full:
            measured["events"] += api.events + worker.events - before
            measured["writes"] += api.writes + worker.writes - writes_before
    writes_before = api.writes + worker.writes
    api.flush(everything=True)
    worker.flush(everything=True)
    measured["writes"] += api.writes + worker.writes - writes_before  # the user items still waiting
    measured["sample_user"] = sessions[-1][0] if sessions else "u0"  # type: ignore[assignment]
    return measured


def _ticks(full_from: int) -> Iterator[tuple[int, int]]:
    """(second of the day, seconds it stands for): minutes up to ``full_from``, then every second."""
    for sec in range(0, full_from, 60):
        yield sec, 60
    for sec in range(full_from, DAY):
        yield sec, 1


def read_costs(store: MetricsStore, end: float, runs: int) -> list[dict[str, Any]]:
    rows = []
    for window in WINDOWS:
        samples, items = [], 0
        for _ in range(runs):
            t0 = time.perf_counter()
            items = series(store, "ttft_seconds", window, now=end)["items_read"]
            samples.append((time.perf_counter() - t0) * 1000)
        s_samples, s_items = [], 0
        for _ in range(runs):
            t0 = time.perf_counter()
            s_items = summary(store, window, now=end)["items_read"]
            s_samples.append((time.perf_counter() - t0) * 1000)
        rows.append({"window": window, "series_items": items, "series_ms": statistics.median(samples),
                     "summary_items": s_items, "summary_ms": statistics.median(s_samples)})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", choices=("sqlite", "dynamodb-local"), default="sqlite")
    ap.add_argument("--scales", default="1,10")
    ap.add_argument("--full-minutes", type=int, default=10, help="minutes at the day's end fed event by event")
    ap.add_argument("--users", type=int, default=50_000, help="active users at 1x")
    ap.add_argument("--session-questions", type=int, default=5)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tools-dir", type=Path, default=Path(".tools"))
    args = ap.parse_args(argv)
    end = float(int(time.time()) // 300 * 300 + 150)
    print(f"backend={args.backend} day=300k uploads + 1M questions per 1x; full-rate part: last {args.full_minutes}"
          f" min; users={args.users}/1x")
    print(f"{'scale':>5} {'window':>6} {'series items':>12} {'series ms':>9} {'summary items':>13} "
          f"{'summary ms':>10} {'events (full)':>13} {'writes/event':>12} {'sim s':>6}")
    for scale in (int(s) for s in args.scales.split(",")):
        opener = sqlite_store() if args.backend == "sqlite" else dynamodb_local_store(args.tools_dir)
        with opener as (store, close):
            t0 = time.perf_counter()
            m = simulate_day(store, scale=scale, end=end, full_minutes=args.full_minutes, users=args.users,
                             session_questions=args.session_questions, rng=random.Random(scale))
            sim_s = time.perf_counter() - t0
            per_event = m["writes"] / m["events"] if m["events"] else 0.0
            for row in read_costs(store, end, args.runs):
                print(f"{scale:>4}x {row['window']:>6} {row['series_items']:>12} {row['series_ms']:>9.2f} "
                      f"{row['summary_items']:>13} {row['summary_ms']:>10.2f} {int(m['events']):>13} "
                      f"{per_event:>12.3f} {sim_s:>6.0f}")
            t1 = time.perf_counter()
            u = usage(store, user=str(m["sample_user"]), days=7, now=end)
            print(f"{scale:>4}x usage(one user, 7 days): {u['items_read']} item(s) read in "
                  f"{(time.perf_counter() - t1) * 1000:.2f} ms; "
                  f"hot-path synchronous writes per event: 0 (the recorder only adds in memory)")
            close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
