"""The reader's development loop on statement questions: capture what search hands the reader, then replay.

    python -m bench.reader_statements capture [--dataset sec10q] [--split S] [--data-dir D]  # service path, once
    python -m bench.reader_statements replay [--data-dir D] [--show]                         # the reader alone

``capture`` runs ``docchat eval answers`` (ingest → chat over HTTP/SSE, embedded defaults) with a
``LocalModel`` that also writes down, for every question, the sources its ``search_documents`` call returned
(``captures.json`` in the eval data dir). ``replay`` answers those captures again with the current
``chat.models.reader`` — no ingest, no search — and scores them like the eval does (gold number in the
answer, a citation on the gold page), so a reader change is measured in seconds. Meant for the development
set (``sec10q``, ``chat/evaluation/sec10q.py``); ``--show`` prints each answer, which is only for a set that
is not reported on. KorQuAD's development questions are its calibration split (even articles): ``capture
--dataset korquad --split calibration`` (1,000 questions, ~7 min here), then ``replay`` in ~2 min; the run's
``last-run.json`` says which ask was which question and side, so the replay's correct and declined figures are
the eval's (its cited counts a source's first page, where the eval counts the page the quote is on: lower for
chunks across a page break).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from chat.evaluation.catalog import load
from chat.evaluation.datasets import SPLITS, SUBSETS, EvalQuestion
from chat.evaluation.report import is_correct
from chat.models.local import LocalModel, _sources_after, latest_question, reader_answer
from chat.models.port import PURPOSE_SUMMARY, PURPOSE_TITLE, ModelRequest
from chat.models.replies import Reply, ToolUse
from store.config import Settings

CAPTURES = "captures.json"


class RecordingModel(LocalModel):
    """``LocalModel`` that keeps (question, sources) of every answer it writes."""

    def __init__(self) -> None:
        super().__init__()
        self.captured: list[dict[str, Any]] = []

    def reply_for(self, request: ModelRequest) -> Reply:
        reply = super().reply_for(request)
        index, question = latest_question(request.messages)
        final = not any(isinstance(b, ToolUse) for b in reply.blocks)  # not a further tool call (a cover page)
        if index >= 0 and final and request.purpose not in (PURPOSE_TITLE, PURPOSE_SUMMARY):
            sources, any_result = _sources_after(request.messages, index)
            if any_result:
                self.captured.append({"question": question, "sources": sources})
        return reply


def _data_dir(args: argparse.Namespace) -> Path:
    if args.data_dir:
        return Path(args.data_dir).expanduser()
    return Settings().server.data_dir / "eval-answers" / str(args.dataset)


def capture(args: argparse.Namespace) -> int:
    from rich.console import Console

    from chat.evaluation.run import evaluate, print_table

    data_dir = _data_dir(args)
    dataset = load(args.dataset, args.data, limit=args.limit, split=args.split, subset=args.subset)
    model = RecordingModel()
    summary = asyncio.run(evaluate(Settings().with_overrides(data_dir=data_dir), dataset, model=model))
    print_table(summary, Console(width=160))
    keys = {d.key: d.key for d in dataset.documents}
    (data_dir / CAPTURES).write_text(json.dumps({"dataset": args.dataset, "split": args.split,
                                                  "subset": args.subset, "documents": keys,
                                                  "captures": model.captured}, ensure_ascii=False), encoding="utf-8")
    print(f"{len(model.captured)} captures written to {data_dir / CAPTURES}")
    return 0


def _same(asked: str, captured: str) -> bool:
    return " ".join(asked.split()) == " ".join(captured.split())


def _asks(data_dir: Path) -> list[tuple[str, str]]:
    """(question id, polarity) of every ask of the captured run, in order (``last-run.json``; [] without one)."""
    path = data_dir / "last-run.json"
    if not path.exists():
        return []
    answers = json.loads(path.read_text(encoding="utf-8")).get("answers", [])
    return [(str(a["qid"]), str(a["polarity"])) for a in answers]


def replayed(data_dir: Path, data: Path | None) -> Iterator[tuple[EvalQuestion, bool, list[dict[str, Any]]]]:
    """(question, positive?, the sources search gave) of every capture in ``data_dir``, in the order asked."""
    saved = json.loads((data_dir / CAPTURES).read_text(encoding="utf-8"))
    dataset = load(saved["dataset"], data, split=saved.get("split", "all"), subset=saved.get("subset", "all"))
    by_text = {q.text: q for q in dataset.questions}
    by_qid = {q.qid: q for q in dataset.questions}
    asked = _asks(data_dir)
    seen: set[str] = set()
    for item in saved["captures"]:
        q = by_text.get(item["question"]) or by_text.get(item["question"].strip())
        # the eval's own record of the asks, in order, says which question and which side (two questions of a
        # set may share a text); without it, each question is asked in its own project first, then in the other
        while asked and by_qid.get(asked[0][0]) is not None and not _same(by_qid[asked[0][0]].text, item["question"]):
            asked.pop(0)  # an ask that left no capture (no search result)
        if asked and asked[0][0] in by_qid:
            qid, polarity = asked.pop(0)
            q, positive = by_qid[qid], polarity == "positive"
        elif q is None:
            continue
        else:  # an ``absent`` question is negative in both
            positive = q.text not in seen and not q.absent
        seen.add(q.text)
        yield q, positive, item["sources"]


def replay(args: argparse.Namespace) -> int:
    data_dir = _data_dir(args)
    saved = json.loads((data_dir / CAPTURES).read_text(encoding="utf-8"))
    dataset = load(saved["dataset"], args.data, split=saved.get("split", "all"), subset=saved.get("subset", "all"))
    file_of = {d.key: d.file_name for d in dataset.documents}
    totals = {"positive": 0, "correct": 0, "cited": 0, "declined_pos": 0, "negative": 0, "declined_neg": 0,
              "gold_found": 0}
    # aggregate causes only (no question or answer text): which reader path answered or declined each ask
    causes: Counter[str] = Counter()
    for q, positive, sources in replayed(data_dir, args.data):
        answer = reader_answer(q.text, sources)
        pages = {(str(s["ref"]), str(s.get("file_name", "")), int(s.get("page") or 0)) for s in sources}
        cited_refs = {ref for ref, _ in answer.quotes}
        gold_pages = {(file_of.get(d, d), p) for d, p in q.pages}
        cited = any((f, p) in gold_pages for ref, f, p in pages if ref in cited_refs)
        if positive:
            ok = is_correct(q, answer.text) and not answer.declined
            found = any((f, p) in gold_pages for _, f, p in pages)
            totals["gold_found"] += found
            outcome = "declined" if answer.declined else "correct" if ok else "wrong"
            causes[f"positive {outcome:8} gold page {'in' if found else 'not in'} sources · {answer.why}"] += 1
            totals["positive"] += 1
            totals["correct"] += ok
            totals["cited"] += cited
            totals["declined_pos"] += answer.declined
        else:
            totals["negative"] += 1
            totals["declined_neg"] += answer.declined
            ok = answer.declined
            causes[f"negative {'declined' if ok else 'answered'} · {answer.why}"] += 1
        if args.show and (not args.failures or not (ok and (cited or not positive))):
            side = "POS" if positive else "NEG"
            print(f"--- {side} {q.qid} ok={ok} cited={cited} why={answer.why} gold={q.golds[0]}")
            print(q.text)
            print(answer.text)
    pos, neg = max(totals["positive"], 1), max(totals["negative"], 1)
    print(f"positives {totals['positive']}: correct {totals['correct'] / pos:.1%}, cited {totals['cited'] / pos:.1%}, "
          f"declined {totals['declined_pos'] / pos:.1%}; negatives {totals['negative']}: declined "
          f"{totals['declined_neg'] / neg:.1%}; a gold page among the positives' sources "
          f"{totals['gold_found'] / pos:.1%}")
    if args.causes:
        for cause, n in sorted(causes.items()):
            print(f"{n:5}  {cause}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.reader_statements", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    for name in ("capture", "replay"):
        s = sub.add_parser(name)
        s.add_argument("--dataset", default="sec10q")
        s.add_argument("--data-dir", default=None)
        s.add_argument("--data", type=Path, default=None, help="evaluation data root (default ../shared/evaldata)")
        s.add_argument("--limit", type=int, default=None)
        s.add_argument("--split", choices=SPLITS, default="all",
                       help="capture: which questions (korquad: 'calibration' is its development split)")
        s.add_argument("--show", action="store_true", help="print every answer (development sets only)")
        s.add_argument("--failures", action="store_true", help="with --show: only the wrong ones")
        s.add_argument("--subset", choices=SUBSETS, default="all", help="capture: financebench's verbatim subset")
        s.add_argument("--causes", action="store_true",
                       help="replay: count the asks by outcome, gold page found and the reader's path (no text)")
    args = p.parse_args(argv)
    return capture(args) if args.command == "capture" else replay(args)


if __name__ == "__main__":
    sys.exit(main())
