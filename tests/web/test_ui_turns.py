"""Issue 16 in real Chromium against the API double: feedback stored with the turn (kept across a reload),
the sources panel (file, page, quote, relevance; click → the viewer on that page with exactly the quoted
lines), regenerate and edit-and-resend in place of the last turn, chat search, pinning and the Markdown
export. Screenshots at desktop and phone width go to test-output/web/."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.api_double import ORIGIN, ApiDouble
from tests.web.conftest import screenshot
from tests.web.test_ui import CITATION, _answer

pytestmark = pytest.mark.browser

S1 = {**CITATION, "score": 0.82, "bboxes": [{"page": 2, "x0": 72, "y0": 144, "x1": 540, "y1": 160},
                                             {"page": 2, "x0": 72, "y0": 162, "x1": 400, "y1": 178}]}
S3 = {**CITATION, "ref": "S3", "chunk_id": "d1:00007", "page": 3, "quote": "Unused days carry over to March.",
      "score": 0.41, "bbox": {"page": 3, "x0": 72, "y0": 400, "x1": 300, "y1": 416},
      "bboxes": [{"page": 3, "x0": 72, "y0": 400, "x1": 300, "y1": 416}]}


def _api() -> ApiDouble:
    api = ApiDouble(sessions=[{"session_id": "s1", "title": "Vacation days", "updated_at": "2026-01-02T00:00:00Z"},
                              {"session_id": "s2", "title": "Pensions", "updated_at": "2026-01-01T00:00:00Z"}])
    api.messages = {
        "s1": [{"seq": 1, "role": "user", "text": "How many vacation days?", "citations": []},
               {"seq": 4, "role": "assistant", "text": "25 days [S1]; unused ones carry over [S3].",
                "citations": [S1, S3], "tools": [], "usage": {}}],
        "s2": [{"seq": 1, "role": "user", "text": "When can I retire?", "citations": []},
               {"seq": 2, "role": "assistant", "text": "At 67, the pension plan says.", "citations": []}],
    }
    return api


def _open(page: Any, api: ApiDouble, hash_: str = "#s=s1") -> None:
    api.install(page)
    page.goto(f"{ORIGIN}/?user=alice{hash_}")
    page.wait_for_selector("#app:not([hidden])")


def _requests(api: ApiDouble, method: str, fragment: str) -> list[dict[str, Any]]:
    return [r for r in api.log if r["method"] == method and fragment in r["path"]]


def test_feedback_is_saved_with_the_answer_and_shown_after_reload(page: Any) -> None:
    api = _api()
    _open(page, api)
    answer = page.locator(".message.assistant")
    answer.get_by_role("button", name="Bad answer").click()
    page.wait_for_selector(".feedback[data-rating='down']")
    page.fill(".feedback-comment", "The March rule is on page 4")
    page.locator(".feedback-form").get_by_role("button", name="Save").click()
    page.wait_for_selector(".feedback-note:text('“The March rule is on page 4”')")
    assert api.feedback[("s1", 4)]["rating"] == "down"
    assert api.feedback[("s1", 4)]["comment"] == "The March rule is on page 4"
    screenshot(page, "ui16-feedback")
    page.reload()
    page.wait_for_selector(".feedback[data-rating='down']")
    assert answer.get_by_role("button", name="Bad answer").get_attribute("aria-pressed") == "true"
    assert answer.get_by_role("button", name="Good answer").get_attribute("aria-pressed") == "false"
    assert page.inner_text(".feedback-note") == "“The March rule is on page 4”"
    # the pressed thumb again clears it
    answer.get_by_role("button", name="Bad answer").click()
    page.wait_for_selector(".feedback[data-rating='']")
    assert ("s1", 4) not in api.feedback
    assert page.page_errors == []


def test_sources_panel_lists_each_citation_and_opens_its_lines(page: Any) -> None:
    api = _api()
    _open(page, api)
    page.click(".sources > summary")
    rows = page.locator(".source")
    assert rows.count() == 2
    assert rows.nth(0).locator(".source-where").inner_text() == "handbook.pdf · page 2"
    assert rows.nth(0).locator(".source-quote").inner_text() == "Employees get 25 vacation days."
    assert "0.82" in rows.nth(0).locator(".source-score").inner_text()
    assert rows.nth(1).locator(".source-ref").inner_text() == "S3"
    assert "0.41" in rows.nth(1).locator(".source-score").inner_text()
    screenshot(page, "ui16-sources")
    # S1: page 2, both of its quoted lines highlighted, nothing else; the banner is S1's quote
    rows.nth(0).locator(".source-open").click()
    page.wait_for_selector("#viewer[open] #viewer-page .highlight.current")
    assert page.inner_text("#viewer-title") == "handbook.pdf — page 2"
    assert page.inner_text("#viewer-quote") == "“Employees get 25 vacation days.”"
    boxes = page.eval_on_selector_all("#viewer-page .highlight.current",
                                      "els => els.map(e => [e.style.left, e.style.top, e.style.width, e.style.height])")
    got = [[float(v.rstrip("%")) for v in b] for b in boxes]
    expected = [[72 * 150 / 72 / 1275 * 100, y0 * 150 / 72 / 1650 * 100, (x1 - 72) * 150 / 72 / 1275 * 100,
                 (y1 - y0) * 150 / 72 / 1650 * 100] for x1, y0, y1 in ((540, 144, 160), (400, 162, 178))]
    assert got == [pytest.approx(e, abs=0.01) for e in expected]
    page.keyboard.press("Escape")
    page.wait_for_selector("#viewer[open]", state="detached")
    # S3: its own page and line, its own banner
    rows.nth(1).locator(".source-open").click()
    page.wait_for_selector("#viewer-title:text('handbook.pdf — page 3')")
    page.wait_for_selector("#viewer-page .highlight.current")
    assert page.inner_text("#viewer-quote") == "“Unused days carry over to March.”"
    assert page.locator("#viewer-page .highlight.current").count() == 1
    top = page.eval_on_selector("#viewer-page .highlight.current", "el => el.style.top")
    assert float(top.rstrip("%")) == pytest.approx(400 * 150 / 72 / 1650 * 100, abs=0.01)
    assert page.page_errors == []


def test_regenerate_and_edit_replace_the_last_turn(page: Any) -> None:
    api = _api()
    api.answer = _answer(["A fresh answer [S1]."], [S1])
    _open(page, api)
    page.wait_for_selector(".message.assistant .regenerate:not([hidden])")
    assert page.locator(".edit-question:not([hidden])").count() == 1
    page.click(".regenerate")
    page.locator(".message.assistant:not(.streaming) .md", has_text="A fresh answer").wait_for()
    asks = _requests(api, "POST", "/messages")
    assert len(asks) == 1
    assert api.messages["s1"][-1]["text"] == "How many vacation days?"
    assert [m["role"] for m in api.messages["s1"]] == ["user"]  # the old turn set aside
    assert page.locator(".message.user").count() == 1 and page.locator(".message.assistant").count() == 1
    body = json.loads(_posted(page, api)[-1])
    assert body["replaces_seq"] == 1 and body["text"] == "How many vacation days?"
    # ↑ in the empty box edits the last question; Enter sends it in its place
    page.wait_for_selector(".regenerate:not([hidden])")
    page.focus("#composer-input")
    page.keyboard.press("ArrowUp")
    assert page.input_value("#composer-input") == "How many vacation days?"
    assert page.locator(".message.user.editing").count() == 1
    page.fill("#composer-input", "How many vacation days in 2027?")
    page.keyboard.press("Enter")
    page.wait_for_selector(".message.user .user-text:text('in 2027')")
    page.wait_for_selector(".message.assistant:not(.streaming)")
    assert page.locator(".message.user").count() == 1
    body = json.loads(_posted(page, api)[-1])
    assert body["replaces_seq"] == 1 and body["text"] == "How many vacation days in 2027?"
    screenshot(page, "ui16-regenerated")
    assert page.page_errors == []


def _posted(page: Any, api: ApiDouble) -> list[str]:
    return api.posted  # type: ignore[attr-defined,no-any-return]


def _listed(page: Any) -> list[str]:
    return page.eval_on_selector_all("#session-list .session", "els => els.map(e => e.dataset.sessionId)")  # type: ignore[no-any-return]


def test_search_pin_and_export(page: Any, browser: Any) -> None:
    api = _api()
    _open(page, api)
    page.fill("#chat-search-input", "retire")
    page.wait_for_selector("#chat-search-results:not([hidden]) .session")
    found = page.locator("#chat-search-results .session")
    assert found.count() == 1 and found.get_attribute("data-session-id") == "s2"
    assert "retire" in found.locator(".session-snippet").inner_text()
    assert page.is_hidden("#session-list")
    screenshot(page, "ui16-search")
    found.locator(".session-open").click()
    page.locator(".message.user", has_text="When can I retire?").wait_for()
    page.press("#chat-search-input", "Escape")
    assert page.is_visible("#session-list") and page.is_hidden("#chat-search-results")
    # pin the open chat (s2, the older one): it heads the list
    assert _listed(page) == ["s1", "s2"]
    page.click("#pin-chat")
    page.wait_for_selector("#pin-chat[aria-pressed='true']")
    page.wait_for_selector("#session-list .session[data-pinned='true']")
    assert _listed(page) == ["s2", "s1"]
    # export: a download named after the chat, with its questions and answers
    page.click("[data-session-id='s1'] .session-open")
    page.locator(".message.user", has_text="How many vacation days?").wait_for()
    with page.expect_download() as info:
        page.click("#export-chat")
    download = info.value
    assert download.suggested_filename == "Vacation days.md"
    text = open(download.path(), encoding="utf-8").read()
    assert text.startswith("# Vacation days") and "How many vacation days?" in text
    # phone width: the tools and the search still fit
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        p2 = phone.new_page()
        _open(p2, _api())
        p2.wait_for_selector(".message.assistant .feedback")
        p2.click(".sources > summary")
        assert p2.eval_on_selector("#chat-tools", "el => el.getBoundingClientRect().right") <= 390
        screenshot(p2, "ui16-phone")
    finally:
        phone.close()
    assert page.page_errors == []
