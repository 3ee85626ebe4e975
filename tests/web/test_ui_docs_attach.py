"""Issue 16 in real Chromium: choose which documents a chat uses (stored on the session before its first
question, shown again when the chat is reopened), and attach a file from the message box — a chip with its
progress, and a question sent meanwhile waits until the document is searchable, then joins the selection.
Screenshots at desktop and phone width."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest

from tests.web.api_double import ORIGIN, ApiDouble, sse
from tests.web.conftest import screenshot

pytestmark = pytest.mark.browser

ANSWER = [("start", {"generation_id": "g1"}), ("text", {"delta": "From the policy."}),
          ("done", {"seq": 2, "stop_reason": "end_turn"})]


class SelectionDouble(ApiDouble):
    """The API double plus what issue 16 adds: a session's document selection and workflow status polling."""

    def __init__(self) -> None:
        super().__init__()
        self.documents = {"p1": [
            {"document_id": "d1", "workflow_id": "w1", "file_name": "handbook.pdf", "status": "completed",
             "page_count": 3},
            {"document_id": "d2", "workflow_id": "w2", "file_name": "policy.pdf", "status": "completed",
             "page_count": 2}]}
        self.answer = list(ANSWER)
        self.selection: dict[str, list[str] | None] = {}
        self.workflows: dict[str, dict[str, Any]] = {}
        self.wf_lock = threading.Lock()

    def _api(self, route: Any, method: str, path: str, query: Any, data: Any, headers: Any,
             request: Any = None) -> None:
        m = re.fullmatch(r"/v1/sessions/([^/]+)/documents", path)
        if m and method == "PUT":
            self.selection[m.group(1)] = data["document_ids"]
            route.fulfill(json={"session_id": m.group(1), "document_ids": data["document_ids"]})
            return
        m = re.fullmatch(r"/v1/sessions/([^/]+)", path)
        if m and method == "GET" and any(s["session_id"] == m.group(1) for s in self.sessions):
            s = next(s for s in self.sessions if s["session_id"] == m.group(1))
            route.fulfill(json={"generating": False, "access": "owner", "project_id": "p1", **s,
                                "document_ids": self.selection.get(m.group(1))})
            return
        m = re.fullmatch(r"/v1/workflows/([^/]+)(/events)?", path)
        if m and m.group(1) in self.workflows:
            with self.wf_lock:
                state = dict(self.workflows[m.group(1)])
            if m.group(2):
                route.fulfill(status=200, body=sse([("progress", state)], generation=m.group(1)),
                              headers={"Content-Type": "text/event-stream"})
            else:
                route.fulfill(json=state)
            return
        if re.fullmatch(r"/v1/projects/([^/]+)/documents", path) and method == "POST":
            n = sum(len(v) for v in self.documents.values()) + 1
            with self.wf_lock:
                self.workflows[f"w{n}"] = {"status": "in_progress", "progress": 0.4, "searchable": False}
        super()._api(route, method, path, query, data, headers, request)

    def calls(self, method: str, pattern: str) -> list[dict[str, Any]]:
        return [e for e in self.log if e["method"] == method and re.fullmatch(pattern, e["path"])]


def test_a_chat_uses_the_documents_chosen_next_to_the_message_box(page: Any) -> None:
    api = SelectionDouble()
    api.install(page)
    page.goto(f"{ORIGIN}/?user=alice")
    page.wait_for_selector("#app:not([hidden])")
    button = page.locator("#docpicker-button")
    assert button.text_content() == "All documents"
    button.click()
    dialog = page.locator("#docpicker")
    dialog.get_by_label("policy.pdf").check()
    assert dialog.get_by_label("Only the documents checked below").is_checked()
    screenshot(page, "docpicker-desktop")
    dialog.get_by_role("button", name="Use these").click()
    assert button.text_content() == "policy.pdf"
    page.fill("#composer-input", "What does the policy say?")
    page.keyboard.press("Enter")
    page.locator(".message.assistant", has_text="From the policy.").wait_for()
    # the new chat got its selection before its first question
    sid = api.sessions[0]["session_id"]
    assert api.selection[sid] == ["d2"]
    order = [(e["method"], e["path"]) for e in api.log if e["path"].startswith(f"/v1/sessions/{sid}")]
    assert order.index(("PUT", f"/v1/sessions/{sid}/documents")) < order.index(("POST", f"/v1/sessions/{sid}/messages"))
    # a new chat starts with all documents; reopening the chat shows its selection again
    page.click("#new-chat")
    page.wait_for_function("document.querySelector('#docpicker-button')?.textContent === 'All documents'")
    page.click(f"[data-session-id='{sid}'] .session-open")
    page.wait_for_function("document.querySelector('#docpicker-button')?.textContent === 'policy.pdf'")
    # back to all documents
    button.click()
    dialog.get_by_label("All documents of the project").check()
    dialog.get_by_role("button", name="Use these").click()
    page.wait_for_function("document.querySelector('#docpicker-button')?.textContent === 'All documents'")
    assert api.selection[sid] is None
    assert page.page_errors == []


@pytest.mark.parametrize("width,height,name", [(1280, 800, "desktop"), (390, 844, "phone")])
def test_an_attached_file_is_uploaded_and_the_question_waits_until_it_is_searchable(
    browser: Any, width: int, height: int, name: str, tmp_path: Any
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    api = SelectionDouble()
    api.sessions = [{"session_id": "s1", "title": "Policy", "updated_at": "2026-01-01T00:00:00Z"}]
    api.messages = {"s1": []}
    api.selection["s1"] = ["d2"]
    api.install(page)
    page.goto(f"{ORIGIN}/?user=alice#s=s1")
    page.wait_for_function("document.querySelector('#docpicker-button')?.textContent === 'policy.pdf'")
    pdf = tmp_path / "new-contract.pdf"
    pdf.write_bytes(b"%PDF-1.4\n% a new contract\n")
    page.set_input_files("#attach-input", str(pdf))
    chip = page.locator("#attachments .attachment", has_text="new-contract.pdf")
    chip.locator(".attachment-state", has_text="Processing 40%").wait_for()
    assert api.calls("POST", r"/v1/projects/p1/documents")  # the ordinary upload API, into the chat's project
    page.fill("#composer-input", "What does the new contract say?")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#send').textContent === 'Waiting…'")
    screenshot(page, f"attach-waiting-{name}")
    page.wait_for_timeout(1200)  # the chip is polled meanwhile; nothing is sent while it is not searchable
    assert not api.calls("POST", r"/v1/sessions/s1/messages")
    with api.wf_lock:
        api.workflows["w3"] = {"status": "in_progress", "progress": 0.7, "searchable": True}
    page.locator(".message.assistant", has_text="From the policy.").wait_for()
    sent = api.calls("POST", r"/v1/sessions/s1/messages")
    assert len(sent) == 1
    assert api.selection["s1"] == ["d2", "d3"]  # the attached document joined the chat's selection first
    puts = [i for i, e in enumerate(api.log) if e["method"] == "PUT"]
    posts = [i for i, e in enumerate(api.log) if e["method"] == "POST" and e["path"] == "/v1/sessions/s1/messages"]
    assert puts and posts and puts[-1] < posts[0]
    assert page.locator("#attachments .attachment").count() == 0  # sent with the question
    screenshot(page, f"attach-sent-{name}")
    assert errors == []
    context.close()
