"""Uploads in the documents panel (issue 16): sent a few at once, processing watched apart, failures kept
listed (across reloads) until dismissed or retried, duplicates said so. Real Chromium, scripted API double."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.api_double import ORIGIN, ApiDouble
from tests.web.conftest import screenshot

pytestmark = pytest.mark.browser


def _open(page: Any, api: ApiDouble) -> None:
    api.install(page)
    page.goto(f"{ORIGIN}/?user=alice")
    page.wait_for_selector("#app:not([hidden])")


def _pdf(name: str, body: bytes) -> dict[str, Any]:
    return {"name": name, "mimeType": "application/pdf", "buffer": b"%PDF-1.4 " + body}


def _posts(api: ApiDouble) -> list[dict[str, Any]]:
    return [r for r in api.log if r["method"] == "POST" and r["path"] == "/v1/projects/p1/documents"]


def test_uploads_do_not_wait_for_processing(page: Any) -> None:
    """Four files, the first three take long to process: all four are sent at once and the broken one's
    rejection shows at once (before, each file waited for the previous one's processing)."""
    api = ApiDouble(hang_workflows={"w1", "w2", "w3"}, reject_uploads={"broken": "this file is not a PDF or image"})
    _open(page, api)
    t0 = time.monotonic()
    page.set_input_files("#file-input", files=[_pdf("a.pdf", b"a"), _pdf("b.pdf", b"b"), _pdf("c.pdf", b"c"),
                                               _pdf("broken.pdf", b"x")])
    page.wait_for_selector(".doc[data-status='failed']", timeout=5000)
    assert "not a PDF" in page.inner_text(".doc[data-status='failed'] .doc-reason")
    page.wait_for_function("document.querySelectorAll(\".doc[data-status='pending']\").length === 3", timeout=5000)
    assert len(_posts(api)) == 4
    assert time.monotonic() - t0 < 5
    screenshot(page, "ui-uploads-parallel")
    assert page.page_errors == []


def test_a_failed_upload_stays_listed_until_dismissed_and_can_be_retried(page: Any) -> None:
    api = ApiDouble(reject_uploads={"scan": "the server refused the file"})
    api.workflow_events = {"w1": [("progress", {"workflow_id": "w1", "status": "completed", "progress": 1.0})]}
    _open(page, api)
    page.set_input_files("#file-input", files=[_pdf("scan.pdf", b"1")])
    row = page.locator(".doc[data-status='failed']")
    row.wait_for()
    assert row.get_by_role("button", name="Dismiss scan.pdf").is_visible()
    # retry in the same tab sends the same file again
    api.reject_uploads = {}
    row.get_by_role("button", name="Retry uploading scan.pdf").click()
    page.wait_for_selector(".doc[data-status='completed']")
    assert page.locator(".doc[data-status='failed']").count() == 0
    assert len(_posts(api)) == 2
    # a failure survives a reload until it is dismissed
    api.reject_uploads = {"other": "too many pages"}
    page.set_input_files("#file-input", files=[_pdf("other.pdf", b"2")])
    page.wait_for_selector(".doc[data-status='failed']")
    page.reload()
    page.wait_for_selector(".doc[data-status='failed']")
    assert "too many pages" in page.inner_text(".doc[data-status='failed'] .doc-reason")
    assert page.locator(".doc[data-status='completed']").count() == 1
    page.get_by_role("button", name="Dismiss other.pdf").click()
    page.wait_for_selector(".doc[data-status='failed']", state="detached")
    page.reload()
    page.wait_for_selector(".doc[data-status='completed']")
    assert page.locator(".doc[data-status='failed']").count() == 0
    assert page.page_errors == []


def test_a_duplicate_upload_says_so(page: Any) -> None:
    api = ApiDouble()
    api.workflow_events = {"w1": [("progress", {"workflow_id": "w1", "status": "completed", "progress": 1.0})]}
    _open(page, api)
    page.set_input_files("#file-input", files=[_pdf("report.pdf", b"same bytes")])
    page.wait_for_selector(".doc[data-status='completed']")
    page.set_input_files("#file-input", files=[_pdf("report-copy.pdf", b"same bytes")])
    dup = page.locator(".doc[data-status='duplicate']")
    dup.wait_for()
    assert "Already in this project (as “report.pdf”)" in dup.inner_text()
    assert page.locator(".doc[data-status='completed']").count() == 1
    dup.get_by_role("button", name="Dismiss report-copy.pdf").click()
    page.wait_for_selector(".doc[data-status='duplicate']", state="detached")
    assert page.page_errors == []
