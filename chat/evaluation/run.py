"""``docchat eval answers``: ingest a set into two projects of the real in-process service, ask, score, report.

Every document is uploaded once, to project A or B (``chat/evaluation/datasets.py``); every question is asked
in a new session of its own project (positive) and of the other one (negative), over HTTP/SSE like
``docchat ask``. The service keeps its data in the evaluation's own data dir (default
``<data_dir>/eval-answers/<dataset>``): a re-run finds the projects by name and the uploads are deduplicated
by content, so nothing is ingested twice. The figures are printed as a table (or JSON); every answer, with its
scores, is written to ``last-run.json`` there. Missing a target is a measurement, not an error: exit 0.

``--split`` (``datasets.default_split``: ``report`` for KorQuAD, ``all`` otherwise) picks the questions and
articles; a split other than ``all`` has projects of its own (``eval-korquad-report-A``), so a run never asks
a negative over a project that another split filled with the question's own article.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from chat.evaluation.catalog import load
from chat.evaluation.datasets import EvalDataset, EvalQuestion, Group, Split, Subset, default_split
from chat.evaluation.pdfgen import write_unicode_pdf
from chat.evaluation.report import Outcome, Polarity, score, summarise, table_rows
from chat.evaluation.service import EvalClient, Upload, serve_in_process
from store.config import Settings
from store.errors import DocchatError
from store.logging import configure_logging

GROUPS: tuple[Group, Group] = ("A", "B")
RESULTS_FILE = "last-run.json"


def project_name(dataset: str, group: Group, split: Split = "all") -> str:
    return f"eval-{dataset}-{group}" if split == "all" else f"eval-{dataset}-{split}-{group}"


def split_note(summary: dict[str, Any]) -> str:
    """What the run's split means, for the table's notes."""
    split = summary.get("split", "all")
    if summary.get("dataset") != "korquad":
        return f"split {split}: every question (this set has no calibration split)"
    if split == "report":
        return ("split report: questions of the odd-index KorQuAD articles only, held out from the reader's "
                "decline-threshold calibration")
    if split == "calibration":
        return ("split calibration: questions of the even-index KorQuAD articles only, the ones the reader's "
                "decline threshold was calibrated on (not held out)")
    return "split all: questions of every KorQuAD article, calibration (even) and report (odd) mixed"


def _progress(console: Console) -> Progress:
    return Progress(TextColumn("{task.description}", style="bold"), BarColumn(bar_width=30), MofNCompleteColumn(),
                    TimeElapsedColumn(), TextColumn("{task.fields[note]}"), console=console, transient=False)


async def _ingest(client: EvalClient, dataset: EvalDataset, projects: dict[Group, str], tmp: Path,
                  progress: Progress, *, concurrency: int = 4) -> dict[str, Upload]:
    """Upload every document to its group's project (generated ones first written as PDFs); wait for all."""
    task = progress.add_task("ingesting", total=len(dataset.documents), note="uploading")
    uploads: dict[str, Upload] = {}
    for doc in dataset.documents:
        path = doc.path
        if path is None:
            path = write_unicode_pdf(tmp / doc.file_name, doc.pages)
        try:
            uploads[doc.key] = await client.upload(projects[doc.group], path, doc.file_name)
        except (DocchatError, OSError) as exc:
            uploads[doc.key] = Upload("", "", "failed", False, error=getattr(exc, "message", None) or str(exc))
    done = {"completed": 0, "failed": 0}
    gate = asyncio.Semaphore(concurrency)

    async def follow(upload: Upload) -> None:
        async with gate:
            if upload.workflow_id:
                await client.wait(upload)
        done["completed" if upload.status == "completed" else "failed"] += 1
        progress.update(task, advance=1, note=f"{done['completed']} ready, {done['failed']} failed")

    await asyncio.gather(*(follow(u) for u in uploads.values()))
    return uploads


async def _ask_all(client: EvalClient, questions: Sequence[EvalQuestion], projects: dict[Group, str],
                   group_of: dict[str, Group], key_of: dict[str, str], progress: Progress) -> list[Outcome]:
    task = progress.add_task("asking", total=2 * len(questions), note="")
    outcomes: list[Outcome] = []
    for q in questions:
        own = group_of[q.document]
        for polarity, group in (("positive", own), ("negative", "B" if own == "A" else "A")):
            record = await client.ask(projects[group], q.text)
            cites = [(key_of.get(doc_id, doc_id), page) for doc_id, page in record.citations]
            pol: Polarity = "positive" if polarity == "positive" and not q.absent else "negative"
            outcomes.append(score(q, pol, group, record.text, cites, first_token_s=record.first_token_s,
                                  total_s=record.total_s, error=record.error))
            right = sum(1 for o in outcomes if o.correct)
            progress.update(task, advance=1, note=f"{right} correct")
    return outcomes


async def evaluate(settings: Settings, dataset: EvalDataset, *, console: Console | None = None,
                   model: Any = None) -> dict[str, Any]:
    """Run ``dataset`` through the service on ``settings`` (its data dir is the evaluation's); the summary."""
    console = console or Console(stderr=True)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request would drown the progress bars
    settings.server.data_dir.mkdir(parents=True, exist_ok=True)
    group_of = {d.key: d.group for d in dataset.documents}
    started = time.perf_counter()
    async with serve_in_process(settings, model=model) as url, EvalClient(url) as client:
        projects = {g: await client.project(project_name(dataset.name, g, dataset.split), dataset.language)
                    for g in GROUPS}
        with _progress(console) as progress, tempfile.TemporaryDirectory(prefix="docchat-eval-") as tmp:
            uploads = await _ingest(client, dataset, projects, Path(tmp), progress)
            ingest_s = time.perf_counter() - started
            ready = {k for k, u in uploads.items() if u.status == "completed"}
            askable = [q for q in dataset.questions if q.document in ready and all(d in ready for d, _ in q.pages)]
            key_of = {u.document_id: k for k, u in uploads.items() if u.document_id}
            outcomes = await _ask_all(client, askable, projects, group_of, key_of, progress)
        in_projects = {g: len(await client.documents(projects[g])) for g in GROUPS}
    failed = {k: u.error or u.status for k, u in uploads.items() if u.status != "completed"}
    extra = {
        "model": settings.chat.chat_model,
        "split": dataset.split,
        "subset": str(dataset.notes.get("subset", "all")),
        "questions": len(dataset.questions),
        "asked": len(askable),
        "skipped": len(dataset.questions) - len(askable),
        "documents": len(dataset.documents),
        "documents_failed": failed,
        "documents_in_projects": in_projects,
        "ingested_now": sum(1 for u in uploads.values() if not u.duplicate and u.status == "completed"),
        "ingest_s": round(ingest_s, 1),
        "ask_s": round(time.perf_counter() - started - ingest_s, 1),
        "data_dir": str(settings.server.data_dir),
        "notes": dataset.notes,
    }
    summary = summarise(dataset.name, outcomes, extra=extra)
    results = settings.server.data_dir / RESULTS_FILE
    results.write_text(json.dumps(summary, ensure_ascii=False, indent=1), encoding="utf-8")
    summary["answers_file"] = str(results)
    return summary


def print_table(summary: dict[str, Any], console: Console) -> None:
    header, cells = table_rows(summary)
    table = Table(title=f"docchat eval answers — {summary['dataset']}, split {summary.get('split', 'all')} "
                        f"({summary.get('model', '?')} model)")
    for i, h in enumerate(header):
        table.add_column(h, justify="left" if i == 0 else "right")
    for line in cells:
        table.add_row(*line)
    console.print(table)
    notes = [split_note(summary),
             f"{summary.get('asked', 0)} of {summary.get('questions', 0)} questions asked, each in its own "
             "project (positive) and in the other (negative)"]
    if summary.get("subset", "all") == "verbatim":
        notes.append(f"subset {summary['subset']}: only the questions whose gold number is printed on the evidence "
                     "page, and only their filings ingested")
    elif summary.get("subset", "all") == "computed":
        notes.append(f"subset {summary['subset']}: only the questions whose gold is computed or worded (a "
                     "development set, not the target), and only their filings ingested")
    if summary.get("documents_failed"):
        notes.append(f"documents that failed to ingest (their questions skipped): {summary['documents_failed']}")
    notes.append(f"documents in the projects: {summary.get('documents_in_projects')}; "
                 f"ingest {summary.get('ingest_s')} s, answers {summary.get('ask_s')} s")
    notes.append(f"every answer: {summary.get('answers_file')}")
    for note in notes:
        console.print(note, highlight=False, soft_wrap=True)


def run_cli(settings: Settings, args: argparse.Namespace) -> int:
    from store.process import limit_malloc_arenas

    limit_malloc_arenas(settings.server.malloc_arena_max)
    # the service's INFO lines would drown the progress bars; keep warnings and errors
    level = settings.server.log_level if settings.server.log_level.upper() not in ("INFO",) else "WARNING"
    configure_logging(level, json=settings.server.log_json)
    split: Split = args.split or default_split(args.dataset)
    subset: Subset = getattr(args, "subset", "all") or "all"
    dataset = (load(args.dataset, args.data, limit=args.limit, split=split, subset=subset) if subset != "all"
               else load(args.dataset, args.data, limit=args.limit, split=split))
    data_dir = Path(args.eval_data_dir).expanduser() if args.eval_data_dir else (
        settings.server.data_dir / "eval-answers" / args.dataset)
    summary = asyncio.run(evaluate(settings.with_overrides(data_dir=data_dir), dataset))
    if args.json:
        summary.pop("answers", None)
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        console = Console()
        if not console.is_terminal:
            console = Console(width=160)  # a pipe or a file: don't squeeze the table into 80 columns
        print_table(summary, console)
    return 0
