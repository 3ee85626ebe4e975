"""Scoring each answer and summarising a run (pure): rows of figures, the issue's targets, the table and JSON."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from dataclasses import field as dc_field
from typing import Any, Literal

from chat.evaluation.datasets import EvalQuestion
from chat.evaluation.scoring import (
    cited_on,
    date_in,
    is_declined,
    number_in,
    percentile,
    primary_number,
    span_in_first_sentence,
    strip_citations,
    text_in,
)

Polarity = Literal["positive", "negative"]


@dataclass(slots=True)
class Outcome:
    qid: str
    field: str
    polarity: Polarity
    project: str  # "A" or "B"
    in_target: bool
    correct: bool | None  # None on negatives (nothing to be right about)
    cited: bool
    declined: bool
    first_token_s: float | None
    total_s: float
    answer: str
    citations: list[tuple[str, int]] = dc_field(default_factory=list)  # (document key or service id, page)
    error: str | None = None


def is_correct(q: EvalQuestion, answer: str) -> bool:
    text = strip_citations(answer)
    if q.kind == "span":
        return span_in_first_sentence(q.golds, answer)
    if q.kind == "date":
        return date_in(q.golds[0], text)
    if q.kind == "number":
        gold = primary_number(q.golds[0])
        return gold is not None and number_in(gold, text)
    return text_in(q.golds[0], text)


def score(q: EvalQuestion, polarity: Polarity, project: str, answer: str, citations: Sequence[tuple[str, int]],
          *, first_token_s: float | None, total_s: float, error: str | None = None) -> Outcome:
    """One asked question: ``citations`` are (document key, page) — keys of the set's documents where known."""
    declined = is_declined(answer, len(citations))
    return Outcome(  # a decline is never correct, even where the question it repeats holds the gold words
        qid=q.qid, field=q.field, polarity=polarity, project=project, in_target=q.in_target,
        correct=(is_correct(q, answer) and not declined) if polarity == "positive" else None,
        cited=cited_on(citations, q.pages), declined=declined,
        first_token_s=first_token_s, total_s=total_s, answer=answer, citations=list(citations), error=error,
    )


# --------------------------------------------------------------------------- rows and targets


@dataclass(frozen=True, slots=True)
class Target:
    row: str
    metric: str  # a key of a row: correct, cited, declined_positive, declined_negative
    op: Literal[">=", "<="]
    threshold: float

    def met(self, value: float | None) -> bool:
        if value is None:
            return False
        return value >= self.threshold if self.op == ">=" else value <= self.threshold


RowFilter = Callable[[Outcome], bool]


def _everything(o: Outcome) -> bool:
    return True


def _in_target(o: Outcome) -> bool:
    return o.in_target


def _field_is(name: str) -> RowFilter:
    def keep(o: Outcome) -> bool:
        return o.field == name

    return keep


def row_plan(dataset: str) -> tuple[list[tuple[str, RowFilter]], list[Target]]:
    """The report's rows for ``dataset`` and the issue's targets (issue 12, "Measured")."""
    rows: list[tuple[str, RowFilter]] = [(dataset, _everything)]
    targets = [Target(dataset, "declined_negative", ">=", 0.95), Target(dataset, "declined_positive", "<=", 0.05)]
    if dataset == "financebench":
        rows.append(("financebench verbatim", _in_target))
        targets += [Target("financebench verbatim", "correct", ">=", 0.80),
                    Target("financebench verbatim", "cited", ">=", 0.80)]
    elif dataset == "sec10q":  # the development set of statement questions (chat/evaluation/sec10q.py)
        rows.append(("sec10q verbatim", _in_target))
        targets += [Target("sec10q verbatim", "correct", ">=", 0.80), Target("sec10q verbatim", "cited", ">=", 0.80)]
    elif dataset == "sec10k":  # the 10-K development set (chat/evaluation/sec10k.py)
        rows.append(("sec10k verbatim", _in_target))
        targets += [Target("sec10k verbatim", "correct", ">=", 0.80), Target("sec10k verbatim", "cited", ">=", 0.80)]
    elif dataset == "korquad":
        targets.append(Target("korquad", "correct", ">=", 0.85))
    elif dataset == "sroie":
        for name in ("total", "date"):
            rows.append((f"sroie {name}", _field_is(name)))
            targets.append(Target(f"sroie {name}", "correct", ">=", 0.90))
    return rows, targets


def _rate(values: Sequence[bool]) -> float | None:
    return sum(values) / len(values) if values else None


def _times(values: Sequence[float]) -> dict[str, float | None]:
    return {"median": percentile(values, 50), "p95": percentile(values, 95)}


def summarise_row(name: str, outcomes: Sequence[Outcome]) -> dict[str, Any]:
    pos = [o for o in outcomes if o.polarity == "positive"]
    neg = [o for o in outcomes if o.polarity == "negative"]
    return {
        "row": name,
        "n": len(pos),
        "correct": _rate([bool(o.correct) for o in pos]),
        "cited": _rate([o.cited for o in pos]),
        "correct_and_cited": _rate([bool(o.correct) and o.cited for o in pos]),
        "declined_positive": _rate([o.declined for o in pos]),
        "declined_negative": _rate([o.declined for o in neg]),
        "negatives": len(neg),
        "errors": sum(1 for o in outcomes if o.error),
        "first_token_s": _times([o.first_token_s for o in outcomes if o.first_token_s is not None]),
        "total_s": _times([o.total_s for o in outcomes]),
    }


def summarise(dataset: str, outcomes: Sequence[Outcome], *, extra: Mapping[str, Any] | None = None,
              include_answers: bool = True) -> dict[str, Any]:
    """The run as one JSON-able object: rows, targets (with the measured value and whether it is met), answers."""
    plan, targets = row_plan(dataset)
    rows = [summarise_row(name, [o for o in outcomes if keep(o)]) for name, keep in plan]
    by_row = {r["row"]: r for r in rows}
    out: dict[str, Any] = {"dataset": dataset, **(extra or {}), "rows": rows, "targets": [
        {**asdict(t), "value": by_row[t.row][t.metric], "met": t.met(by_row[t.row][t.metric])} for t in targets
    ]}
    if include_answers:
        out["answers"] = [asdict(o) for o in outcomes]
    return out


# --------------------------------------------------------------------------- the table


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _secs(t: Mapping[str, float | None]) -> str:
    med, p95 = t.get("median"), t.get("p95")
    return "-" if med is None or p95 is None else f"{med:.2f} / {p95:.2f}"


COLUMNS = (("correct", "correct"), ("cited", "cited"), ("declined_positive", "declined pos"),
           ("declined_negative", "declined neg"))


def table_rows(summary: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Header and cells of the report table; a figure with a target shows it: ``12.0% (≥85% ✗)``."""
    header = ["dataset", "n", *(label for _, label in COLUMNS), "1st token s med / p95", "total s med / p95"]
    goals: dict[tuple[str, str], dict[str, Any]] = {(t["row"], t["metric"]): t for t in summary["targets"]}
    cells = []
    for r in summary["rows"]:
        line = [str(r["row"]), str(r["n"])]
        for key, _ in COLUMNS:
            text = _pct(r[key])
            goal = goals.get((r["row"], key))
            if goal is not None:
                sign = "≥" if goal["op"] == ">=" else "≤"
                text += f" ({sign}{100 * goal['threshold']:.0f}% {'✓' if goal['met'] else '✗'})"
            line.append(text)
        line += [_secs(r["first_token_s"]), _secs(r["total_s"])]
        cells.append(line)
    return header, cells
