"""The Review view in Debian's Chromium against the real app (embedded adapters, in-process workers): an uploaded
receipt's doubtful total plus a batch of queued fields are worked through with the keyboard only — the cropped page
region shows beside each value, C corrects, A accepts, U marks unreadable — and the throughput is measured.

Screenshot: ``test-output/web/review-*.png``.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from chat.app.factory import create_app
from chat.app.wiring import Services
from ingest.build import build_ingest
from ingest.review import Reviews
from retrieval.search import build_retriever
from store.blobs import FileBlobStore
from store.config import Settings
from store.schema import WORKFLOW_TABLE
from store.sqlite_items import SqliteItemTable
from tests.ingest.docfactory import text_pdf
from tests.web.conftest import screenshot

pytestmark = pytest.mark.browser

ALICE = {"Authorization": "Bearer dev:alice"}
RECEIPT = ["ACME TRADING SDN BHD", "Invoice No: INV-0042", "Date: 25/12/2023", "Sub Total 8.00", "GST 6% 0.51",
           "Total 9.00", "Thank you"]
EXTRA = 24  # queued fields besides the total (throughput)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    settings = Settings.from_env(env={}, data_dir=tmp_path / "data", chunk_tokens=64, chunk_overlap_tokens=8,
                                 reviewer_users="rita,rex")
    items = SqliteItemTable(settings.server.data_dir / "workflows.db", WORKFLOW_TABLE, purge_interval_s=None)
    retriever = build_retriever(settings)
    svc = build_ingest(settings, items=items, blobs=FileBlobStore(settings.server.data_dir / "blobs" / "documents"),
                       index=retriever)
    runner = svc.runner()
    reviews = Reviews(settings, store=svc.store, blobs=svc.blobs, index=svc.index)
    app = create_app(settings, services=Services(
        settings, dependencies={"uploads": svc.uploads, "documents": svc.documents, "reviews": reviews},
        on_start=[retriever.start, runner.start], on_stop=[runner.stop, svc.close, retriever.close], web_ui=True))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    for _ in range(3000):
        if server.started:
            break
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}", reviews
    finally:
        server.should_exit = True
        thread.join(20)
        items.close()


def _wait_until(page: Any, expression: str, timeout_s: float = 30.0) -> None:
    """Poll a JS expression (the page's CSP forbids eval, which ``wait_for_function`` needs)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        page.wait_for_timeout(20)


def _prepare(base: str, reviews: Reviews) -> str:
    with httpx.Client(base_url=base, timeout=60) as client:
        pid = client.post("/v1/projects", json={"name": "Receipts"}, headers=ALICE).json()["project_id"]
        r = client.post(f"/v1/projects/{pid}/documents", headers=ALICE,
                        files={"file": ("receipt.pdf", text_pdf([RECEIPT]), "application/pdf")})
        did, wid = r.json()["document_id"], r.json()["workflow_id"]
        for _ in range(1200):
            if client.get(f"/v1/workflows/{wid}", headers=ALICE).json()["status"] in ("completed", "failed"):
                break
            time.sleep(0.05)
        queue = client.get(f"/v1/projects/{pid}/review", headers=ALICE).json()["items"]
        assert [i["field"] for i in queue] == ["total"]
    # a batch more, as a day of receipts would queue them (the same page region, other field names)
    reviews.queue.open_items(pid, did, wid, [
        {"field": f"z{i:02d}", "value": f"{i}.00", "normalized": f"{i}.00", "confidence": 0.9, "page": 1,
         "bbox": queue[0]["bbox"], "reasons": ["low_confidence: confidence 0.900 < 0.98"]} for i in range(EXTRA)])
    return pid


def test_review_keyboard_only_with_the_page_crop(served: tuple[str, Reviews], page: Any) -> None:
    base, reviews = served
    pid = _prepare(base, reviews)
    page.goto(f"{base}/?user=alice")
    page.wait_for_selector("#app:not([hidden])")
    # the project arrives after the app shows: the review opened before it was selected had no rows (failed once)
    page.wait_for_selector(f"#project-select option[value='{pid}']:checked", state="attached")
    page.focus("#open-review")  # keyboard only, from the first key (the chat API is not wired here: its 404 banner)
    page.keyboard.press("Enter")
    page.wait_for_selector("#review .review-row")
    _wait_until(page, "document.querySelector('#review-crop').dataset.state === 'ready'")
    assert page.eval_on_selector("#review-crop", "c => c.width > 50 && c.height > 10")
    assert page.text_content("#review-value") == "9.00"
    assert "total_mismatch" in (page.text_content("#review-meta") or "")
    screenshot(page, "review-item")

    started = time.perf_counter()
    page.keyboard.press("c")
    page.keyboard.press("Control+A")
    page.keyboard.type("8.51")
    page.keyboard.press("Enter")
    _wait_until(page, f"document.querySelectorAll('#review .review-row').length === {EXTRA}")
    page.keyboard.press("u")
    _wait_until(page, f"document.querySelectorAll('#review .review-row').length === {EXTRA - 1}")
    for left in range(EXTRA - 2, -1, -1):
        page.keyboard.press("a")
        _wait_until(page, f"document.querySelectorAll('#review .review-row').length === {left}")
    seconds = time.perf_counter() - started
    per_minute = (EXTRA + 1) / seconds * 60
    print(f"\nreview throughput (keyboard only, Chromium): {EXTRA + 1} items in {seconds:.1f} s = "
          f"{per_minute:.0f} items/min")
    assert page.text_content("#review-status") == "Nothing to review."
    assert per_minute >= 30  # "dozens per minute"
    assert page.page_errors == []

    resolved = reviews.queue.list(pid, "resolved", limit=100).items
    decisions = {i["field"]: (i["decision"], i["corrected"]) for i in resolved}
    assert decisions["total"] == ("correct", "8.51") and decisions["z00"] == ("unreadable", None)
    assert sum(1 for d, _ in decisions.values() if d == "accept") == EXTRA - 1
    page.focus("#review-show-audit")
    page.keyboard.press("Enter")
    page.wait_for_selector("#review-audit li")
    assert "correction" in (page.text_content("#review-audit") or "")
    screenshot(page, "review-history")


def _user_page(browser: Any, base: str, user: str) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    pg = context.new_page()
    pg.page_errors = []
    pg.on("pageerror", lambda exc: pg.page_errors.append(str(exc)))
    with pg.expect_response(lambda r: r.url.endswith("/v1/review/projects")):
        pg.goto(f"{base}/?user={user}")
    pg.wait_for_selector("#app:not([hidden])")
    return pg


def test_the_owner_shares_a_project_and_only_that_reviewer_reaches_it(served: tuple[str, Reviews], page: Any,
                                                                        browser: Any) -> None:
    base, reviews = served
    with httpx.Client(base_url=base, timeout=30) as client:  # a project with one queued field (no pipeline run)
        pid = client.post("/v1/projects", json={"name": "Receipts"}, headers=ALICE).json()["project_id"]
    reviews.queue.open_items(pid, "d1", "w1", [{"field": "total", "value": "9.00", "normalized": "9.00",
                                                 "confidence": 0.9, "page": None, "bbox": None,
                                                 "reasons": ["low_confidence: confidence 0.900 < 0.98"]}])
    # alice (the owner) names rita as the reviewer in the project settings
    page.goto(f"{base}/?user=alice")
    page.wait_for_selector("#app:not([hidden])")
    assert page.is_hidden("#shared-reviews")  # nothing is shared with alice
    # opening the settings loads the stored reviewers; the owner types before that answer arrives (held
    # here), and the late answer must not wipe what was typed
    held: list[Any] = []
    reviewers_url = f"**/v1/projects/{pid}/reviewers"
    page.route(reviewers_url, lambda route: held.append(route) if route.request.method == "GET" else route.continue_())
    page.click("#project-actions summary")
    deadline = time.monotonic() + 30
    while not held:
        assert time.monotonic() < deadline, "the reviewers were never loaded"
        page.wait_for_timeout(20)
    page.fill("#share-users", "rita")
    held[0].fulfill(status=200, content_type="application/json", body='{"reviewers": []}')
    page.wait_for_timeout(300)
    assert page.input_value("#share-users") == "rita"
    page.unroute(reviewers_url)
    page.keyboard.press("Enter")
    _wait_until(page, "(document.querySelector('#share-status').textContent || '').includes('rita')")
    assert reviews.store.items.get(f"PROJ#{pid}", "META")["data"]["reviewers"] == ["rita"]

    # rita sees it under "Projects shared with me for review" and works its queue
    rita = _user_page(browser, base, "rita")
    try:
        rita.wait_for_selector("#shared-reviews:not([hidden]) .shared-review")
        assert "Projects shared with me for review" in (rita.text_content("#shared-reviews") or "")
        assert "Receipts (alice)" in (rita.text_content("#shared-review-list") or "")
        rita.click(".shared-review")
        rita.wait_for_selector("#review .review-row")
        assert rita.text_content("#review-title") == "Review · Receipts"
        assert rita.text_content("#review-value") == "9.00"
        rita.keyboard.press("a")
        _wait_until(rita, "document.querySelectorAll('#review .review-row').length === 0")
        screenshot(rita, "review-shared")
        assert rita.page_errors == []
    finally:
        rita.context.close()
    [done] = reviews.queue.list(pid, "resolved").items
    assert done["resolved_by"] == "rita" and done["decision"] == "accept"

    # nobody else: not a reviewer it was not shared with (rex), not another user (bob)
    rex = _user_page(browser, base, "rex")
    try:
        assert rex.is_hidden("#shared-reviews")
    finally:
        rex.context.close()
    for user in ("rex", "bob"):
        with httpx.Client(base_url=base, timeout=30) as client:
            headers = {"Authorization": f"Bearer dev:{user}"}
            assert client.get(f"/v1/projects/{pid}/review", headers=headers).status_code == 404
            assert client.get(f"/v1/projects/{pid}/reviewers", headers=headers).status_code == 404
            assert client.get("/v1/review/projects", headers=headers).json() == {"projects": []}
    # unshared: rita no longer reaches it
    with httpx.Client(base_url=base, timeout=30) as client:
        assert client.put(f"/v1/projects/{pid}/reviewers", json={"users": []}, headers=ALICE).status_code == 200
        rita_h = {"Authorization": "Bearer dev:rita"}
        assert client.get("/v1/review/projects", headers=rita_h).json() == {"projects": []}
        assert client.get(f"/v1/projects/{pid}/review", headers=rita_h).status_code == 404
    assert page.page_errors == []
