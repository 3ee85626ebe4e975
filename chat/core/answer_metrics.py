"""One answer's numbers for the read models (issue 17), taken from the events its generation publishes.

``AnswerMetrics`` is a ``Generation.observer``: the first ``text`` event gives the time to first token,
``usage`` events add up the tokens (every model round), ``error`` gives the code, and ``done`` records one
event — questions, answers, declined answers, latency, tokens in/out, cache read/write, errors by code — into
the global aggregates and the user's and project's usage by day. The answer's text is held only to tell a
decline (``chat.evaluation.scoring.is_declined``) and is never logged or stored.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from store.logging import get_logger
from store.metrics import MetricsRecorder, record_safely

log = get_logger(__name__)

MAX_TEXT_CHARS = 4000  # a decline is said at the start; the rest of a long answer is not kept


class AnswerMetrics:
    def __init__(self, recorder: MetricsRecorder | None, *, user: str, project: str | None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.recorder = recorder
        self.user = user
        self.project = project
        self.clock = clock
        self.started = clock()
        self.ttft: float | None = None
        self.tokens = {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0}
        self.text: list[str] = []
        self.chars = 0
        self.citations = 0
        self.error: str | None = None
        self.recorded = False

    def __call__(self, event: str, data: dict[str, Any]) -> None:
        if event == "text":
            if self.ttft is None:
                self.ttft = self.clock() - self.started
            delta = str(data.get("delta") or "")
            if self.chars < MAX_TEXT_CHARS:
                self.text.append(delta)
                self.chars += len(delta)
        elif event == "usage":
            for k in self.tokens:
                v = data.get(k)
                if isinstance(v, int) and not isinstance(v, bool):
                    self.tokens[k] += v
        elif event == "citation":
            self.citations += 1
        elif event == "error":
            self.error = str(data.get("code") or "error")
        elif event == "done" and not self.recorded:
            self.recorded = True
            self.record(str(data.get("stop_reason") or ""))

    def record(self, stop_reason: str) -> None:
        from chat.evaluation.scoring import is_declined

        answered = self.error is None and stop_reason not in ("error", "interrupted")
        declined = answered and is_declined("".join(self.text), self.citations)
        t = self.tokens
        counts: dict[str, float] = {"questions": 1, "tokens_in": t["input"], "tokens_out": t["output"],
                                    "cache_read": t["cache_read"], "cache_write": t["cache_write"]}
        if answered:
            counts["answers"] = 1
        if declined:
            counts["declined"] = 1
        if self.error is not None:
            counts["errors." + self.error] = 1
        timings = {"answer_seconds": self.clock() - self.started}
        if self.ttft is not None:
            timings["ttft_seconds"] = self.ttft
        usage = {"questions": 1, "tokens_in": t["input"], "tokens_out": t["output"],
                 "cache_read": t["cache_read"], "cache_write": t["cache_write"]}
        # numbers only (never the question or the answer): CloudWatch metric filters read this line (infra/)
        log.info("answer_finished", ttft_s=round(self.ttft, 4) if self.ttft is not None else None,
                 answer_s=round(timings["answer_seconds"], 4), tokens_in=t["input"], tokens_out=t["output"],
                 cache_read=t["cache_read"], cache_write=t["cache_write"], declined=declined,
                 code=self.error or "ok")
        record_safely(self.recorder, counts=counts, timings=timings, user=self.user, project=self.project,
                      usage=usage)
