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


def _wait_held(page: Any, api: ApiDouble, key: str) -> None:
    method, path = key.split(" ", 1)
    deadline = time.monotonic() + 10
    seen = lambda: any(r["method"] == method and r["path"] == path for r in api.log)  # noqa: E731
    while not seen() and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert seen(), f"the page never sent {key}"


def test_a_file_sent_before_the_projects_have_loaded_goes_to_the_chosen_project_and_stays_listed(page: Any) -> None:
    """A file dropped the moment the app shows, while its project list is still on the way: it goes to the
    project the app then selects (no second "My documents" project), and its row is not wiped by that
    project's document listing arriving after it."""
    api = ApiDouble(hold={"GET /v1/projects"})
    api.workflow_events = {"w1": [("progress", {"workflow_id": "w1", "status": "completed", "progress": 1.0})]}
    _open(page, api)
    _wait_held(page, api, "GET /v1/projects")
    page.set_input_files("#file-input", files=[_pdf("early.pdf", b"early")])
    page.wait_for_timeout(200)
    assert api.release("GET /v1/projects") == 1
    page.wait_for_selector(".doc[data-status='completed']", timeout=5000)
    assert [p["project_id"] for p in api.projects] == ["p1"]
    assert len(_posts(api)) == 1
    assert page.locator(".doc").count() == 1
    assert page.page_errors == []


def test_an_upload_still_in_flight_when_the_document_listing_arrives_keeps_its_row(page: Any) -> None:
    """The project's listing answers while a file is still being sent: the row of that upload stays (before,
    the listing rebuilt the panel without it and the document never showed until a reload)."""
    docs = "/v1/projects/p1/documents"
    api = ApiDouble(hold={f"GET {docs}", f"POST {docs}"})
    api.documents["p1"] = [{"document_id": "d0", "file_name": "old.pdf", "status": "completed", "page_count": 2,
                            "created_at": "2026-01-01T00:00:00Z"}]
    api.workflow_events = {"w2": [("progress", {"workflow_id": "w2", "status": "completed", "progress": 1.0})]}
    _open(page, api)
    _wait_held(page, api, f"GET {docs}")
    page.set_input_files("#file-input", files=[_pdf("new.pdf", b"new")])
    _wait_held(page, api, f"POST {docs}")
    assert api.release(f"GET {docs}") == 1
    page.wait_for_selector(".doc >> text=old.pdf", timeout=5000)
    assert page.locator(".doc >> text=new.pdf").count() == 1
    assert api.release(f"POST {docs}") == 1
    page.wait_for_selector(".doc[data-status='completed'] >> text=new.pdf", timeout=5000)
    assert page.locator(".doc").count() == 2
    assert page.page_errors == []
