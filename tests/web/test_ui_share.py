"""Issue 16 in real Chromium against the real chat API: share a chat read-only from the Share dialog, open the
share link as the user it was shared with (read-only, no message box), and a third user is denied — in the
browser and through the API. Screenshots at desktop and phone width."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from chat.models.scripted import ScriptedModel
from tests.web.conftest import screenshot
from tests.web.live_chat import live_chat

pytestmark = pytest.mark.browser

ALICE = {"Authorization": "Bearer dev:alice"}
CAROL = {"Authorization": "Bearer dev:carol"}


def _user_page(browser: Any, width: int = 1280, height: int = 800) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    pg = context.new_page()
    pg.page_errors = []
    pg.on("pageerror", lambda exc: pg.page_errors.append(str(exc)))
    return pg


def test_share_read_only_and_a_third_user_is_denied(browser: Any, tmp_path: Path) -> None:
    with live_chat(tmp_path, ScriptedModel(["Revenue grew 12% in 2024."])) as (base, _h):
        with httpx.Client(base_url=base, timeout=10) as c:
            sid = c.post("/v1/sessions", json={"title": "Revenue"}, headers=ALICE).json()["session_id"]
            assert c.post(f"/v1/sessions/{sid}/messages", json={"text": "How did revenue do?"},
                          headers=ALICE).status_code == 200
        # alice shares it with bob from the Share dialog
        alice = _user_page(browser)
        alice.goto(f"{base}/?user=alice#s={sid}")
        alice.locator(".message.assistant", has_text="Revenue grew").wait_for()
        alice.get_by_role("button", name="Share", exact=True).click()
        dialog = alice.locator("#share-dialog")
        dialog.get_by_label("User to share with").fill("bob")
        dialog.get_by_role("button", name="Share", exact=True).click()
        dialog.locator(".share[data-user='bob']").wait_for()
        assert alice.input_value("#share-link") == f"{base}/s/{sid}"  # no secret in the link
        screenshot(alice, "share-dialog")
        link = alice.input_value("#share-link")
        alice.context.close()

        # bob opens the link: the chat, read-only
        for width, height, name in ((1280, 800, "desktop"), (390, 844, "phone")):
            bob = _user_page(browser, width, height)
            bob.goto(f"{link}?user=bob")
            bob.locator(".message.assistant", has_text="Revenue grew").wait_for()
            bob.locator("#read-only-note", has_text="Shared with you by alice").wait_for()
            assert bob.locator("#composer").is_hidden()
            assert bob.locator("#share-chat").is_hidden()  # only the owner shares
            assert bob.url == link
            if width > 700:
                bob.locator(".shared-with-me [data-shared-id]", has_text="Revenue").wait_for()
            screenshot(bob, f"share-viewer-{name}")
            assert bob.page_errors == []
            bob.context.close()

        # carol, a third user with the same link: denied, nothing of the chat shown
        carol = _user_page(browser)
        carol.goto(f"{link}?user=carol")
        carol.get_by_text("This chat does not exist or is not shared with you.").wait_for()
        assert carol.locator(".message").count() == 0
        assert carol.locator(".shared-with-me").is_hidden()
        screenshot(carol, "share-denied")
        carol.context.close()
        with httpx.Client(base_url=base, timeout=10) as c:
            assert c.get(f"/v1/sessions/{sid}/messages", headers=CAROL).status_code == 404
            assert c.post(f"/v1/sessions/{sid}/messages", json={"text": "hi"}, headers=CAROL).status_code == 404
