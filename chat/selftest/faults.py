"""``docchat selftest faults``: every fault scenario, bounded, one table (issue 13, "a fault and load suite")."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from chat.selftest import appends, disconnects, schema_fuzz, server_kill, worker_kill
from chat.selftest.procs import Processes
from chat.selftest.report import SCENARIOS, Result
from store.config import Settings
from store.errors import DocchatError

__all__ = ["FULL", "SCENARIOS", "SHORT", "Sizes", "run_faults"]


@dataclass(frozen=True)
class Sizes:
    """How much each scenario does (the issue's counts; ``SHORT`` is the version make test runs)."""

    answers: int = 100  # answers cut by a kill -9 of the server
    concurrency: int = 10  # answers in flight at each kill (so answers / concurrency kills)
    seed_pages: int = 2  # the server-kill sessions' project document (0: no project, no embedding model)
    pdf_pages: int = 40
    worker_kills: int | None = None  # None: at every step boundary
    appends: int = 1000
    disconnects: int = 200
    disconnect_sessions: int = 20
    fuzz_examples: int = 100  # schemathesis examples per operation and phase
    fuzz_seconds: float = 300.0
    fuzz_phases: str = "examples,coverage,fuzzing,stateful"
    budget_s: float = 900.0  # per scenario with restarts (server kill, worker kill)


FULL = Sizes()
SHORT = Sizes(answers=2, concurrency=2, seed_pages=0, pdf_pages=3, worker_kills=1, appends=40, disconnects=16,
              disconnect_sessions=4, fuzz_examples=1, fuzz_seconds=10.0, fuzz_phases="fuzzing", budget_s=120.0)


def _guard(name: str, results: list[Result], fn: Callable[[], Result],
           report: Callable[[Result], None] | None) -> None:
    """Run one scenario; one that cannot finish (a process that never starts) is a failed row, not a crash."""
    t0 = time.monotonic()
    try:
        results.append(fn())
    except (DocchatError, OSError, TimeoutError) as exc:
        r = Result(name, seconds=time.monotonic() - t0)
        r.fail(f"did not finish: {type(exc).__name__}: {exc}")
        results.append(r)
    if report is not None:
        report(results[-1])


def run_faults(settings: Settings, *, sizes: Sizes = FULL, only: Sequence[str] = SCENARIOS, seed: int = 0,
               work_dir: Path | None = None, keep: bool = False, parallel: bool = False,
               report: Callable[[Result], None] | None = None) -> list[Result]:
    """Run the chosen scenarios in a scratch folder (removed afterwards unless ``keep``); their results.

    Three groups share nothing: the API scenarios (one server's data: kill -9, then disconnects and
    schemathesis against the restarted server), the appends, the worker kill. ``parallel`` runs the groups at
    once (each in a thread of its own; their processes are separate), which mostly overlaps start-up time."""
    work = Path(tempfile.mkdtemp(prefix="docchat-selftest-", dir=work_dir))

    def api_group() -> list[Result]:
        results: list[Result] = []
        api = work / "api"
        with Processes(api) as procs:
            port: int | None = None
            server = {"disconnect_grace_seconds": 0}
            if "server-kill" in only:
                def kill() -> Result:
                    nonlocal port
                    r, port = server_kill.run(procs, api, answers=sizes.answers, concurrency=sizes.concurrency,
                                              seed=seed, budget_s=sizes.budget_s, seed_pages=sizes.seed_pages,
                                              **server)
                    return r
                _guard("server kill -9 during answers", results, kill, report)
            if port is None:
                _, port = procs.server("api", api / "data", **server)
            live = port
            if "disconnects" in only:
                _guard("random client disconnects", results, lambda: disconnects.run(
                    live, api / "data", disconnects=sizes.disconnects, sessions=sizes.disconnect_sessions,
                    seed=seed), report)
            if "schemathesis" in only:
                _guard("schemathesis over /schema/openapi.json", results, lambda: schema_fuzz.run(
                    procs, live, api, max_examples=sizes.fuzz_examples, max_time_s=sizes.fuzz_seconds,
                    seed=seed, phases=sizes.fuzz_phases), report)
        return results

    def worker_group() -> list[Result]:
        results: list[Result] = []
        _guard("worker kill -9 at step boundaries", results, lambda: worker_kill.run(
            settings, work / "worker", pages=sizes.pdf_pages, max_kills=sizes.worker_kills,
            budget_s=sizes.budget_s), report)
        return results

    def appends_group() -> list[Result]:
        results: list[Result] = []
        _guard("appends: lost responses + throttles", results, lambda: appends.run(
            settings, work / "appends", appends=sizes.appends, seed=seed), report)
        return results

    groups: list[Callable[[], list[Result]]] = []
    if {"server-kill", "disconnects", "schemathesis"} & set(only):
        groups.append(api_group)
    if "appends" in only:
        groups.append(appends_group)
    if "worker-kill" in only:
        groups.append(worker_group)
    try:
        if parallel and len(groups) > 1:
            with ThreadPoolExecutor(max_workers=len(groups)) as pool:
                outcomes = list(pool.map(lambda g: g(), groups))
        else:
            outcomes = [g() for g in groups]
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    return [r for rs in outcomes for r in rs]
