"""The Operations and Usage pages in Debian's Chromium against the real app (read models in SQLite, a
dead-lettered document in the SQLite queue): cards, uPlot charts served from /static/vendor, the failure
with its reason and a working redrive button, and a user's own usage."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from chat.app.factory import create_app
from chat.app.ops_routes import Ops
from chat.app.prom import Prom
from chat.app.wiring import Services
from ingest.build import build_queue
from ingest.dlq import Admins, DeadLetters
from store import open_item_table
from store.config import Settings
from store.metrics import MetricsRecorder, SqliteMetricsStore
from store.workflows import WorkflowStore
from tests.chat.chat_harness import free_port
from tests.ingest.test_dlq_api import _dead_document
from tests.web.conftest import screenshot

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[tuple[str, WorkflowStore, Any]]:
    data = tmp_path_factory.mktemp("ops-data")
    settings = Settings(data_dir=data, queue_max_receives=2)
    store = WorkflowStore(open_item_table(settings, "workflows"))
    queue = build_queue(settings)
    _, dead = _dead_document(store, queue)
    metrics = SqliteMetricsStore(data / "metrics.db")
    now = time.time()
    t = [now - 3 * 3600]
    rec = MetricsRecorder(metrics, flush_seconds=60, clock=lambda: t[0])
    while t[0] <= now:  # three hours of activity, one event a minute
        rec.event(counts={"questions": 2, "tokens_in": 300, "tokens_out": 80, "answers": 2},
                  timings={"ttft_seconds": 0.6, "answer_seconds": 3.5}, user="alice", project="p1",
                  usage={"questions": 2, "tokens_in": 300, "tokens_out": 80, "cache_read": 900})
        rec.event(counts={"pages_processed": 5, "docs_completed": 1}, timings={"step_seconds.ocr": 1.5},
                  latest_add={"docs.completed": 1})
        rec.flush()
        t[0] += 60
    t[0] = now
    rec.event(counts={"docs_failed": 1, "errors.timeout": 1},
              latest_add={"dlq": 1, "docs.failed": 1},
              latest_put={"queue_depth.high": 4, "queue_depth.low": 9, "workers_busy": 2,
                          "last_error": {"code": "timeout", "reason": "OCR timed out", "workflow_id": "w"}})
    rec.flush(everything=True)  # the users' items too (they wait for their own, longer cadence)
    admins = Admins(settings)
    ops = Ops(store=metrics, admins=admins, prom=Prom())
    dlq = DeadLetters(settings, store=store, queue=queue, admins=admins)
    app = create_app(settings, services=Services(settings, dependencies={"ops": ops, "dead_letters": dlq},
                                                 web_ui=True))
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=lambda: asyncio.run(srv.serve()), daemon=True)
    thread.start()
    for _ in range(500):
        if srv.started:
            break
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}", store, dead
    finally:
        srv.should_exit = True
        thread.join(10)
        queue.close()


def test_operations_page_shows_state_charts_and_redrives_a_failure(server: Any, page: Any) -> None:
    base, store, dead = server
    page.goto(f"{base}/ops?user=alice")
    page.wait_for_selector("#ops:not([hidden])")
    page.wait_for_selector("[data-chart='ttft_seconds'] canvas")
    assert page.text_content("[data-card='queue_high'] .value") == "4"
    assert page.text_content("[data-card='dlq'] .value") == "1"
    assert "OCR timed out" in page.text_content("[data-card='last_error'] .value")
    assert page.text_content("[data-card='ttft_p95'] .value") == "0.6 s"
    assert int(page.text_content("[data-card='questions'] .value").replace(",", "")) >= 118
    assert len(page.query_selector_all(".chart canvas")) == 6  # uPlot drew every chart
    assert "items read" in page.text_content("#items-read")
    assert "timeout 1" in page.text_content("#errors")
    page.select_option("#window", "24h")
    page.wait_for_load_state("networkidle")
    row = page.locator(f"tr[data-document='{dead.document_id}']")
    assert "OCR timed out" in row.text_content()
    screenshot(page, "ops-page")
    row.locator("button").click()
    page.wait_for_selector(f"tr[data-document='{dead.document_id}'] button:has-text('Sent again')")
    assert store.get_workflow("alice", dead.workflow_id)["status"] == "pending"
    assert page.page_errors == []


def test_usage_page_shows_the_users_own_days(server: Any, page: Any) -> None:
    base, _, _ = server
    page.goto(f"{base}/usage?user=alice")
    page.wait_for_selector("#usage-rows tr")
    assert int(page.text_content("[data-card='questions'] .value").replace(",", "")) >= 360
    assert page.text_content("[data-card='cache_hit'] .value") == "75 %"
    screenshot(page, "usage-page")
    page.goto(f"{base}/usage?user=bob")
    page.wait_for_selector("#usage-read:has-text('items read')")  # no eval: the page's CSP forbids it
    assert page.text_content("[data-card='questions'] .value") == "0"
    assert page.page_errors == []
