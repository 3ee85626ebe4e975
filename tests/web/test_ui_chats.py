"""Chat state fixes of issue 16 in real Chromium: "/" reopens the last chat, deleting a chat keeps the right
address, a reopened chat keeps the search line's result count, chips carry the S numbers the text uses, and
the token tooltip counts cached input."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.api_double import ORIGIN, ApiDouble
from tests.web.test_ui import CITATION

pytestmark = pytest.mark.browser

SESSIONS = [{"session_id": "s1", "title": "Vacation", "updated_at": "2026-01-01T00:00:00Z"},
            {"session_id": "s2", "title": "Pensions", "updated_at": "2026-01-01T00:00:00Z"}]


def _stored_answer() -> list[dict[str, Any]]:
    s3 = {**CITATION, "ref": "S3", "chunk_id": "d1:00007", "quote": "Unused days carry over."}
    return [{"seq": 1, "role": "user", "text": "How many vacation days?", "citations": []},
            {"seq": 4, "role": "assistant", "text": "25 days [S1]; unused ones carry over [S3].",
             "citations": [CITATION, s3],
             "tools": [{"name": "search_documents", "summary": "searched: vacation days",
                        "input": {"query": "vacation days"}, "results": 3}],
             "usage": {"input": 0, "output": 30, "cache_read": 100, "cache_write": 20}}]


def _api() -> ApiDouble:
    api = ApiDouble(sessions=[dict(s) for s in SESSIONS])
    api.messages = {"s1": _stored_answer(), "s2": [{"seq": 1, "role": "user", "text": "Pension age?",
                                                   "citations": []}]}
    return api


def test_opening_the_app_reopens_the_last_chat(page: Any) -> None:
    api = _api()
    api.install(page)
    page.goto(f"{ORIGIN}/?user=alice")
    page.wait_for_selector("#app:not([hidden])")
    page.click("[data-session-id='s2'] .session-open")
    page.locator(".message.user", has_text="Pension age?").wait_for()
    page.goto(f"{ORIGIN}/")
    page.locator(".message.user", has_text="Pension age?").wait_for()
    assert page.url.endswith("#s=s2")
    assert page.get_attribute("[data-session-id='s2'] .session-open", "aria-current") == "page"
    assert page.page_errors == []


def test_deleting_a_chat_keeps_the_right_address(page: Any) -> None:
    api = _api()
    api.install(page)
    page.goto(f"{ORIGIN}/?user=alice#s=s1")
    page.wait_for_selector(".message.assistant")
    # deleting another chat: the open chat and its address stay
    page.hover("[data-session-id='s2']")
    page.get_by_role("button", name="Delete chat “Pensions”").click()
    page.locator("dialog.confirm-dialog").get_by_role("button", name="Delete").click()
    page.wait_for_selector("[data-session-id='s2']", state="detached")
    assert page.url.endswith("#s=s1") and page.locator(".message.assistant").count() == 1
    # deleting the open chat: a new chat at "/", replacing the address (Back does not lead to the deleted chat)
    length = page.evaluate("history.length")
    page.hover("[data-session-id='s1']")
    page.get_by_role("button", name="Delete chat “Vacation”").click()
    page.locator("dialog.confirm-dialog").get_by_role("button", name="Delete").click()
    page.wait_for_selector("#messages .empty")
    assert "#s=" not in page.url and page.evaluate("history.length") == length
    # and "/" does not reopen it
    page.goto(f"{ORIGIN}/")
    page.wait_for_selector("#messages .empty")
    assert "#s=" not in page.url
    assert page.page_errors == []


def test_a_reopened_chat_keeps_result_counts_ref_numbers_and_token_counts(page: Any) -> None:
    api = _api()
    api.install(page)
    page.goto(f"{ORIGIN}/?user=alice#s=s1")
    page.wait_for_selector(".message.assistant .chip")
    assert page.inner_text(".activity").strip() == "searching: “vacation days” — 3 results"
    chip = page.locator(".message.assistant .chip")
    assert chip.count() == 1 and chip.inner_text().split()[:2] == ["S1,", "S3"]
    # its name holds the text it shows (issue 16, axe: label-content-name-mismatch)
    assert chip.get_attribute("aria-label") == "Open source S1, S3 handbook.pdf · p. 2"
    title = page.get_attribute(".message.assistant .meta", "title")
    assert title == "tokens: 120 in (100 from cache) · 30 out"
    assert page.page_errors == []


def test_the_sign_in_form_offers_the_clis_default_user(page: Any) -> None:
    """`docchat ingest/ask` act as the server's default user; the browser offers the same name, so both meet."""
    api = ApiDouble(token="dev:carol")
    api.config = {**api.config, "default_user": "carol"}
    api.install(page)
    page.goto(f"{ORIGIN}/")
    page.wait_for_selector("#signin:not([hidden])")
    assert page.input_value("#signin-name") == "carol"
    page.keyboard.press("Enter")
    page.wait_for_selector("#app:not([hidden])")
    assert page.inner_text("#user-name") == "carol"


def _ask_held(page: Any, api: ApiDouble) -> None:
    """Sign in as alice and send a question whose answer the double holds: the Stop button shows."""
    api.install(page)
    page.goto(f"{ORIGIN}/?user=alice")
    page.wait_for_selector("#app:not([hidden])")
    page.fill("#composer-input", "연차는 며칠인가요?")
    page.keyboard.press("Enter")
    page.wait_for_selector("#stop:not([hidden])")


def test_keyboard_esc_stops_up_edits_slash_focuses(page: Any) -> None:
    from tests.web.test_ui import _answer

    api = ApiDouble(answer=_answer(["never shown"]), hold_answer=True)
    _ask_held(page, api)
    page.keyboard.press("Escape")  # stops the answer
    page.wait_for_selector("#send:not([hidden])")
    assert [r["path"] for r in api.log if r["method"] == "POST"][-1] == "/v1/sessions/s1/stop"
    page.focus("#composer-input")
    page.keyboard.press("ArrowUp")  # the empty box takes the last question back
    assert page.input_value("#composer-input") == "연차는 며칠인가요?"
    page.fill("#composer-input", "")
    page.focus("#new-chat")
    page.keyboard.press("/")  # focuses the search over your chats, typing nothing
    assert page.evaluate("document.activeElement.id") == "chat-search-input"
    assert page.input_value("#chat-search-input") == ""
    assert page.page_errors == []


def test_esc_before_the_chat_exists_still_stops_the_answer(page: Any) -> None:
    """Esc right after Enter, while the new chat is still being created (a loaded server): the stop is kept and
    sent once the chat exists, and the answer ends — it was silently dropped before."""
    from tests.web.test_ui import _answer

    api = ApiDouble(answer=_answer(["never shown"]), hold_answer=True, hold={"POST /v1/sessions"})
    _ask_held(page, api)
    page.keyboard.press("Escape")  # no chat yet: nothing to post a stop to
    assert not [r for r in api.log if r["path"].endswith("/stop")]
    assert page.is_disabled("#stop")  # shown as asked for
    assert api.release("POST /v1/sessions") == 1
    page.wait_for_selector("#send:not([hidden])", timeout=5000)  # well before the 8 s give-up
    assert any(r["method"] == "POST" and r["path"] == "/v1/sessions/s1/stop" for r in api.log)
    assert page.is_enabled("#stop")
    assert page.page_errors == []


def test_tables_render_as_tables_and_the_answer_can_be_copied(browser: Any) -> None:
    from tests.web.test_ui import _answer

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=ORIGIN)
    page = context.new_page()
    try:
        md = "| Year | Days |\n|---|---|\n| 2025 | 25 |\n| 2026 | 26 |\n\nSee [S1]."
        api = ApiDouble(answer=_answer([md], [CITATION]))
        api.install(page)
        page.goto(f"{ORIGIN}/?user=alice")
        page.wait_for_selector("#app:not([hidden])")
        page.fill("#composer-input", "Days per year?")
        page.keyboard.press("Enter")
        page.wait_for_selector(".message.assistant:not(.streaming) .md table")
        cells = page.eval_on_selector_all(".md table td", "els => els.map(e => e.textContent)")
        assert cells == ["2025", "25", "2026", "26"]
        page.get_by_role("button", name="Copy the answer").click()
        page.wait_for_selector(".copy-answer:text('Copied')")
        assert page.evaluate("navigator.clipboard.readText()") == md
    finally:
        context.close()
