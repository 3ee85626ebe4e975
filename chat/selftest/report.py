"""What a scenario found: attempts, failures, a few example failures, notes, and the table that prints them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

#: the fault scenarios of ``docchat selftest faults`` (``--only`` names), in the order they run (the worker kill
#: last: it opens LanceDB in this process, which should not fork children afterwards)
SCENARIOS = ("server-kill", "disconnects", "schemathesis", "appends", "worker-kill")


@dataclass
class Result:
    scenario: str
    attempts: int = 0
    failures: int = 0
    seconds: float = 0.0
    #: what was checked and counted beside the failures (kills, repairs, requests …), printed after the table
    notes: dict[str, object] = field(default_factory=dict)
    #: the first few failures, described (printed after the table)
    examples: list[str] = field(default_factory=list)
    #: the scenario could not run here (a missing tool): why; it counts as neither passed nor failed
    skipped: str | None = None

    def fail(self, what: str, limit: int = 5) -> None:
        self.failures += 1
        if len(self.examples) < limit:
            self.examples.append(what)

    @property
    def ok(self) -> bool:
        return self.failures == 0


def table(results: Sequence[Result]) -> str:
    """The results as a fixed-width table, then each scenario's notes and example failures."""
    rows = [("scenario", "attempts", "failures", "seconds", "result")]
    for r in results:
        verdict = "skipped" if r.skipped else ("ok" if r.ok else "FAILED")
        rows.append((r.scenario, str(r.attempts), str(r.failures), f"{r.seconds:.1f}", verdict))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in
                               enumerate(zip(row, widths, strict=True))))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    for r in results:
        if r.skipped:
            lines.append(f"{r.scenario}: skipped: {r.skipped}")
        if r.notes:
            lines.append(f"{r.scenario}: " + ", ".join(f"{k}={v}" for k, v in r.notes.items()))
        lines += [f"{r.scenario}: failure: {e}" for e in r.examples]
    return "\n".join(lines)
