"""``docchat selftest load`` (also ``python -m bench.load``): seed 004's peak on the embedded backend — uploads
at a fixed rate (20/s) for a while (60 s) while chats (100) ask question after question — against one real
``docchat up`` on loopback. Prints latency percentiles (upload accepted; answer first event, first text,
complete) and errors by kind; afterwards it waits a bounded while for the uploads to finish processing.

Open loop for uploads (sent on schedule, not after the previous one answered), bounded by ``--max-in-flight``;
closed loop for chats (each asks again as soon as its answer ends). Every per-user limit is off."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from chat.core.events import SSEParser
from chat.selftest.client import client, create_project, new_session, write_report
from chat.selftest.procs import Processes
from store.config import Settings

QUESTIONS = ("What was the revenue in 2024?", "How many people work there?", "Where does the office move?",
             "What happened to operating costs?")


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    v = sorted(values)

    def q(p: float) -> float:
        return v[min(len(v) - 1, max(0, round(p * (len(v) - 1))))]

    return {"n": len(v), "p50": q(0.5), "p90": q(0.9), "p99": q(0.99), "max": v[-1]}


@dataclass
class LoadStats:
    upload_s: list[float] = field(default_factory=list)
    first_event_s: list[float] = field(default_factory=list)
    first_text_s: list[float] = field(default_factory=list)
    answer_s: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    uploads_sent: int = 0
    uploads_skipped: int = 0  # not sent: --max-in-flight uploads were already waiting
    workflows: list[str] = field(default_factory=list)
    processed: Counter[str] = field(default_factory=Counter)
    drain_s: float = 0.0


async def _upload_loop(c: httpx.AsyncClient, project_id: str, pdfs: list[tuple[str, bytes]], rate: float,
                       until: float, max_in_flight: int, stats: LoadStats) -> None:
    in_flight: set[asyncio.Task[None]] = set()

    async def one(pdf: tuple[str, bytes]) -> None:
        t0 = time.perf_counter()
        try:
            r = await c.post(f"/v1/projects/{project_id}/documents", files={"file": (*pdf, "application/pdf")})
        except httpx.HTTPError as exc:
            stats.errors[f"upload {type(exc).__name__}"] += 1
            return
        if r.status_code >= 400:
            stats.errors[f"upload HTTP {r.status_code}"] += 1
            return
        stats.upload_s.append(time.perf_counter() - t0)
        stats.workflows.append(str(r.json()["workflow_id"]))

    start, n = time.monotonic(), 0
    while time.monotonic() < until:
        due = start + n / rate
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        pdf = pdfs[n % len(pdfs)]
        n += 1
        if len(in_flight) >= max_in_flight:
            stats.uploads_skipped += 1
            continue
        stats.uploads_sent += 1
        task = asyncio.create_task(one(pdf))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)
    if in_flight:
        await asyncio.wait(in_flight, timeout=120)


async def _chat_loop(c: httpx.AsyncClient, session_id: str, rng: random.Random, until: float,
                     stats: LoadStats) -> None:
    while time.monotonic() < until:
        t0 = time.perf_counter()
        first = first_text = None
        ended = False
        parser = SSEParser()
        try:
            async with c.stream("POST", f"/v1/sessions/{session_id}/messages",
                                json={"text": rng.choice(QUESTIONS)}) as r:
                if r.status_code >= 400:
                    await r.aread()
                    stats.errors[f"ask HTTP {r.status_code}"] += 1
                    await asyncio.sleep(0.2)
                    continue
                async for chunk in r.aiter_raw():
                    for m in parser.feed(chunk):
                        now = time.perf_counter() - t0
                        first = first if first is not None else now
                        if m.event == "text" and first_text is None:
                            first_text = now
                        if m.event == "error":
                            stats.errors[f"ask error {json.loads(m.data).get('code')}"] += 1
                        ended = ended or m.event == "done"
        except httpx.HTTPError as exc:
            stats.errors[f"ask {type(exc).__name__}"] += 1
            continue
        if not ended:
            stats.errors["ask ended without done"] += 1
            continue
        stats.answer_s.append(time.perf_counter() - t0)
        if first is not None:
            stats.first_event_s.append(first)
        if first_text is not None:
            stats.first_text_s.append(first_text)


async def _drain(c: httpx.AsyncClient, stats: LoadStats, within_s: float) -> None:
    t0 = time.monotonic()
    pending = list(stats.workflows)
    while pending and time.monotonic() - t0 < within_s:
        still = []
        for wid in pending:
            try:
                status = (await c.get(f"/v1/workflows/{wid}")).json().get("status")
            except (httpx.HTTPError, ValueError):
                status = None
            if status in ("completed", "failed"):
                stats.processed[str(status)] += 1
            else:
                still.append(wid)
        pending = still
        if pending:
            await asyncio.sleep(1.0)
    stats.processed["unfinished"] = len(pending)
    stats.drain_s = time.monotonic() - t0


async def _run(port: int, work: Path, args: argparse.Namespace) -> LoadStats:
    stats = LoadStats()
    rng = random.Random(args.seed)
    n_pdfs = max(1, min(2000, int(args.uploads_per_s * args.seconds) + 1))
    paths = [write_report_unique(work / "pdfs" / f"up-{i:05d}.pdf", args.pages, i) for i in range(n_pdfs)]
    pdfs = [(p.name, p.read_bytes()) for p in paths]  # in memory: the clock is for the server
    async with client(port, "loader", timeout_s=120) as up, client(port, "chatter", timeout_s=120) as chat:
        project_id = await create_project(up, "load")
        sessions = [await new_session(chat) for _ in range(args.chats)]
        until = time.monotonic() + args.seconds
        tasks = [asyncio.create_task(_chat_loop(chat, sid, random.Random(rng.random()), until, stats))
                 for sid in sessions]
        if args.uploads_per_s > 0:
            tasks.append(asyncio.create_task(_upload_loop(up, project_id, pdfs, args.uploads_per_s, until,
                                                          args.max_in_flight, stats)))
        await asyncio.wait(tasks, timeout=args.seconds + 180)
        await _drain(up, stats, args.drain_seconds)
    return stats


def write_report_unique(path: Path, pages: int, n: int) -> Path:
    """A report PDF with a line of its own (uploads are deduplicated by content)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_report(path, pages)
    with path.open("ab") as f:  # a trailing comment after %%EOF: a different file, the same document
        f.write(b"\n%% selftest upload %d\n" % n)
    return path


def summary(stats: LoadStats, args: argparse.Namespace) -> dict[str, Any]:
    return {
        "config": {"uploads_per_s": args.uploads_per_s, "seconds": args.seconds, "chats": args.chats,
                   "pages": args.pages},
        "uploads": {"sent": stats.uploads_sent, "accepted": len(stats.upload_s), "skipped": stats.uploads_skipped,
                    "accepted_per_s": round(len(stats.upload_s) / args.seconds, 2),
                    "processed": dict(stats.processed), "drain_s": round(stats.drain_s, 1)},
        "answers": {"complete": len(stats.answer_s), "per_s": round(len(stats.answer_s) / args.seconds, 2)},
        "latency_s": {"upload_accepted": percentiles(stats.upload_s),
                      "answer_first_event": percentiles(stats.first_event_s),
                      "answer_first_text": percentiles(stats.first_text_s),
                      "answer_complete": percentiles(stats.answer_s)},
        "errors": dict(stats.errors),
    }


def render(s: dict[str, Any]) -> str:
    c, u, a = s["config"], s["uploads"], s["answers"]
    lines = [f"load: {c['uploads_per_s']} uploads/s ({c['pages']}-page PDFs) for {c['seconds']:.0f} s with "
             f"{c['chats']} concurrent chats (embedded backend, loopback)",
             f"uploads: {u['sent']} sent, {u['accepted']} accepted ({u['accepted_per_s']}/s), {u['skipped']} skipped "
             f"(in-flight cap); processed after {u['drain_s']} s: {u['processed']}",
             f"answers: {a['complete']} complete ({a['per_s']}/s)",
             f"{'latency (s)':<22}{'n':>7}{'p50':>9}{'p90':>9}{'p99':>9}{'max':>9}"]
    for name, p in s["latency_s"].items():
        if p:
            lines.append(f"{name:<22}{p['n']:>7}{p['p50']:>9.3f}{p['p90']:>9.3f}{p['p99']:>9.3f}{p['max']:>9.3f}")
        else:
            lines.append(f"{name:<22}{0:>7}")
    errors = s["errors"]
    lines.append("errors: " + (", ".join(f"{k}={v}" for k, v in sorted(errors.items())) if errors else "none"))
    return "\n".join(lines)


def run_load(args: argparse.Namespace) -> dict[str, Any]:
    """Start a server in a scratch folder, run the load, stop everything; the summary."""
    work = Path(tempfile.mkdtemp(prefix="docchat-load-", dir=args.work_dir))
    try:
        with Processes(work) as procs:
            _, port = procs.server("api", work / "data")
            stats = asyncio.run(_run(port, work, args))
        return summary(stats, args)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_load_cli(args: argparse.Namespace, settings: Settings) -> int:
    s = run_load(args)
    print(render(s))
    if args.json:
        print(json.dumps(s, indent=2))
    return 0
