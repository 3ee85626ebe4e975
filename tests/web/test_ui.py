"""UI behaviours in real Chromium against a scripted API double (see ``api_double.py``).

Markdown escaping and the SSE parser run as the page's own ES modules (``page.evaluate``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.api_double import ORIGIN, ApiDouble
from tests.web.conftest import screenshot

pytestmark = pytest.mark.browser


def _open(page: Any, api: ApiDouble, query: str = "?user=alice") -> None:
    api.install(page)
    page.goto(f"{ORIGIN}/{query}")
    page.wait_for_selector("#app:not([hidden])")


def _answer(text_parts: list[str], citations: list[dict[str, Any]] | None = None) -> list[tuple[str, dict[str, Any]]]:
    events: list[tuple[str, dict[str, Any]]] = [("start", {"turn_id": "t1", "session_id": "s1"}),
                                                ("tool", {"name": "search_documents",
                                                          "input": {"query": "vacation days"}, "status": "running"}),
                                                ("tool", {"name": "search_documents",
                                                          "input": {"query": "vacation days"}, "status": "done",
                                                          "results": 3})]
    events += [("text", {"delta": t}) for t in text_parts]
    events += [("citation", c) for c in citations or []]
    events += [("usage", {"input": 120, "output": 30, "cache_read": 100, "cache_write": 0}),
               ("done", {"seq": 4, "stop_reason": "end_turn"})]
    return events


CITATION = {"ref": "S1", "document_id": "d1", "file_name": "handbook.pdf", "page": 2, "chunk_id": "d1:00003",
            "quote": "Employees get 25 vacation days.", "bbox": {"page": 2, "x0": 72, "y0": 144, "x1": 540, "y1": 180}}


# --- the markdown renderer and the SSE parser, run in the page ------------------------------------

MARKDOWN_CASES: list[tuple[str, str]] = [
    ("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"),
    ('<img src=x onerror="alert(1)">', "<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</p>"),
    ("**bold** and *it* and `a<b>`", "<p><strong>bold</strong> and <em>it</em> and <code>a&lt;b&gt;</code></p>"),
    ("[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>"),
    ("[x](data:text/html,hi)", "<p>[x](data:text/html,hi)</p>"),
    # the quote ends the URL; it cannot end the href attribute
    ('[x](https://e.com/a" onmouseover="alert(1))',
     '<p>[x](<a href="https://e.com/a" target="_blank" rel="noopener noreferrer nofollow">https://e.com/a</a>'
     "&quot; onmouseover=&quot;alert(1))</p>"),
    ("[docs](https://example.com/a?b=1&c=2)",
     '<p><a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer nofollow">docs</a></p>'),
    ("- one\n- two **b**", "<ul><li>one</li><li>two <strong>b</strong></li></ul>"),
    ("1. a\n2. b", "<ol><li>a</li><li>b</li></ol>"),
    ("```\n<b>x</b>\n```", "<pre><code>&lt;b&gt;x&lt;/b&gt;</code></pre>"),
    ("휴가는 25일입니다 [S1].", '<p>휴가는 25일입니다 <sup class="ref" data-ref="S1">S1</sup>.</p>'),
    ("有給休暇は**25日**です。", "<p>有給休暇は<strong>25日</strong>です。</p>"),
    ("snake_case_name stays", "<p>snake_case_name stays</p>"),
    ("# Title", "<h3>Title</h3>"),
    ("line one\nline two", "<p>line one<br>line two</p>"),
    ("`` `x` ``", "<p><code>`x`</code></p>"),
    ("a\u0000b", "<p>ab</p>"),
]


def test_markdown_renders_safely(page: Any) -> None:
    api = ApiDouble()
    api.install(page)
    page.goto(f"{ORIGIN}/")
    sources = [src for src, _ in MARKDOWN_CASES]
    rendered = page.evaluate(
        "async (all) => { const m = await import('/static/markdown.js'); return all.map(m.renderMarkdown); }", sources
    )
    assert dict(zip(sources, rendered, strict=True)) == dict(MARKDOWN_CASES)


def test_markdown_output_never_contains_live_html(page: Any) -> None:
    """Whatever the model says, rendering it creates no element but the renderer's own, and runs nothing."""
    api = ApiDouble()
    api.install(page)
    page.goto(f"{ORIGIN}/")
    attacks = [
        "<img src=x onerror=window.__pwned=1>",
        "<svg/onload=window.__pwned=1>",
        "[a](https://x.test/\"><img src=x onerror=window.__pwned=1>)",
        "**<iframe srcdoc='<script>parent.__pwned=1</script>'>**",
        "`</code><img src=x onerror=window.__pwned=1>`",
        "- <a href=javascript:window.__pwned=1>x</a>",
        "| a | <b onclick=x> |\n|---|---|\n| <img src=x onerror=window.__pwned=1> | c |",
        "> <style>*{display:none}</style>",
    ]
    result = page.evaluate(
        """async (attacks) => {
            const { renderMarkdown } = await import('/static/markdown.js');
            const allowed = new Set(['P','STRONG','EM','CODE','PRE','A','UL','OL','LI','BR','SUP','H3','H4','H5','H6',
                                     'BLOCKQUOTE','HR','DEL','DIV','TABLE','THEAD','TBODY','TR','TH','TD']);
            const bad = [];
            for (const a of attacks) {
                const box = document.createElement('div');
                box.innerHTML = renderMarkdown(a);
                document.body.append(box);
                for (const el of box.querySelectorAll('*')) {
                    if (!allowed.has(el.tagName)) bad.push(a + ' -> ' + el.tagName);
                    for (const attr of el.attributes) {
                        if (attr.name.startsWith('on') || attr.name === 'style' || attr.name === 'srcdoc') {
                            bad.push(a + ' -> ' + attr.name);
                        }
                        if (attr.name === 'href' && !/^https?:/.test(attr.value)) {
                            bad.push(a + ' -> href ' + attr.value);
                        }
                    }
                }
            }
            await new Promise((r) => setTimeout(r, 100));
            return { bad, pwned: window.__pwned === 1 };
        }""",
        attacks,
    )
    assert result == {"bad": [], "pwned": False}


def test_sse_parser_handles_split_chunks_and_cjk(page: Any) -> None:
    api = ApiDouble()
    api.install(page)
    page.goto(f"{ORIGIN}/")
    wire = (
        ": keep-alive\n\n"
        'id: g.1\r\nevent: text\r\ndata: {"delta":"안녕하세요 "}\r\n\r\n'
        'id: g.2\nevent: text\ndata: {"delta":"こんにちは"}\n\n'
        "event: text\ndata: line1\ndata: line2\n\n"
        "data: no-final-blank-line"
    )
    result = page.evaluate(
        """async (wire) => {
            const { readEvents } = await import('/static/sse.js');
            const bytes = new TextEncoder().encode(wire);
            // one byte per network chunk: every multi-byte character and every \\r\\n is split
            const body = new ReadableStream({
                start(c) { for (const b of bytes) c.enqueue(new Uint8Array([b])); c.close(); },
            });
            const out = [];
            for await (const ev of readEvents(new Response(body))) out.push(ev);
            return out;
        }""",
        wire,
    )
    assert result == [
        {"event": "text", "data": {"delta": "안녕하세요 "}, "id": "g.1"},
        {"event": "text", "data": {"delta": "こんにちは"}, "id": "g.2"},
        {"event": "text", "data": "line1\nline2", "id": "g.2"},
    ]


def test_silent_stream_counts_as_dropped(page: Any) -> None:
    """No bytes (not even keep-alives) for idleMs: the stream ends as Unreachable, so the caller resumes."""
    api = ApiDouble()
    api.install(page)
    page.goto(f"{ORIGIN}/")
    result = page.evaluate(
        """async () => {
            const { Api } = await import('/static/api.js');
            const api = new Api(async () => 'dev:alice');
            const t0 = performance.now();
            try {
                for await (const ev of api.events('GET', '/v1/hang', { idleMs: 300 })) { return 'event ' + ev.event; }
                return 'ended';
            } catch (err) {
                return [err.name, Math.round(performance.now() - t0)];
            }
        }"""
    )
    assert result[0] == "Unreachable" and 250 <= result[1] < 5000


# --- the app ------------------------------------------------------------------------------------


def test_sign_in_by_name_and_from_the_url(page: Any) -> None:
    api = ApiDouble()
    api.install(page)
    page.goto(f"{ORIGIN}/")
    page.wait_for_selector("#signin:not([hidden])")
    screenshot(page, "ui-signin")
    page.fill("#signin-name", "alice")
    page.keyboard.press("Enter")
    page.wait_for_selector("#app:not([hidden])")
    assert page.inner_text("#user-name") == "alice"
    calls = [r for r in api.log if r["path"] == "/v1/sessions"]
    assert calls and calls[-1]["headers"]["authorization"] == "Bearer dev:alice"
    # ?user= signs in directly and leaves the address bar clean
    page.goto(f"{ORIGIN}/?user=alice")
    page.wait_for_selector("#app:not([hidden])")
    assert "user=" not in page.url
    assert page.page_errors == []


def test_sessions_page_in_as_the_list_scrolls(page: Any) -> None:
    api = ApiDouble(sessions=[{"session_id": f"s{i}", "title": f"Chat number {i}",
                               "updated_at": "2026-01-01T00:00:00Z"} for i in range(75)])
    _open(page, api)
    page.wait_for_selector("#session-list li.session >> nth=29")
    first_pages = len([r for r in api.log if r["path"] == "/v1/sessions"])
    page.eval_on_selector("#session-list", "el => el.scrollTop = el.scrollHeight")
    page.wait_for_selector("#session-list li.session >> nth=59")
    page.eval_on_selector("#session-list", "el => el.scrollTop = el.scrollHeight")
    page.wait_for_selector("#session-list li.session >> nth=74")
    titles = page.eval_on_selector_all("#session-list .session-title", "els => els.map(e => e.textContent)")
    assert titles == [f"Chat number {i}" for i in range(75)]
    cursors = [r["query"].get("cursor") for r in api.log if r["path"] == "/v1/sessions"]
    assert cursors[:3] == [None, ["30"], ["60"]]
    assert first_pages >= 1


def test_streamed_answer_with_tool_activity_citation_and_page_viewer(page: Any) -> None:
    api = ApiDouble(answer=_answer(["Employees get **25", " vacation days** a year [S1].",
                                    "\n\n<img src=x onerror=window.__pwned=1>"], [CITATION]))
    _open(page, api)
    page.fill("#composer-input", "How many vacation days?")
    page.keyboard.press("Enter")
    page.wait_for_selector(".message.assistant .chip")
    md = page.locator(".message.assistant .md")
    assert md.inner_text().startswith("Employees get 25 vacation days a year")
    assert md.locator("strong").inner_text() == "25 vacation days"
    assert md.locator("img").count() == 0 and page.evaluate("window.__pwned") is None
    assert "searching: “vacation days” — 3 results" in page.inner_text(".activity")
    assert page.inner_text(".chip") .strip().endswith("handbook.pdf · p. 2")
    post = next(r for r in api.log if r["method"] == "POST" and r["path"] == "/v1/sessions/s1/messages")
    assert post["headers"]["authorization"] == "Bearer dev:alice"
    assert page.locator("#session-list .session").count() == 1
    assert "#s=s1" in page.url
    screenshot(page, "ui-answer")
    # the chip opens the cited page with the region highlighted
    page.click(".chip")
    page.wait_for_selector("#viewer[open] .highlight")
    assert page.inner_text("#viewer-title") == "handbook.pdf — page 2"
    box = page.eval_on_selector(".highlight", "el => [el.style.left, el.style.top, el.style.width, el.style.height]")
    # (72, 144)-(540, 180) pt at 150 DPI on a 1275x1650 px page
    expected = [72 * 150 / 72 / 1275 * 100, 144 * 150 / 72 / 1650 * 100,
                (540 - 72) * 150 / 72 / 1275 * 100, (180 - 144) * 150 / 72 / 1650 * 100]
    got = [float(v.rstrip("%")) for v in box]
    assert got == pytest.approx(expected, abs=0.01)
    src = page.get_attribute("#viewer-img", "src")
    assert src is not None and src.startswith("blob:")
    screenshot(page, "ui-viewer")
    # page through: the highlight belongs to page 2 only; past the last page the viewer says so
    page.click("#viewer-next")
    page.wait_for_selector("#viewer-title:text('handbook.pdf — page 3')")
    page.wait_for_selector("#viewer-status:text('')", state="attached")
    assert page.locator("#viewer-page .highlight").count() == 0
    page.click("#viewer-next")
    page.wait_for_selector("#viewer-status:text('This is the last page.')")
    assert page.is_disabled("#viewer-next")
    page.keyboard.press("Escape")
    assert not page.is_visible("#viewer")
    assert page.page_errors == []


def test_dropped_stream_is_resumed_with_last_event_id(page: Any) -> None:
    api = ApiDouble(answer=_answer(["Part one, ", "part two, ", "part three."], [CITATION]), cut=4)
    _open(page, api)
    page.fill("#composer-input", "Tell me")
    page.keyboard.press("Enter")
    page.wait_for_selector(".message.assistant .chip")
    assert page.inner_text(".message.assistant .md").startswith("Part one, part two, part three.")
    resume = [r for r in api.log if r["path"] == "/v1/sessions/s1/stream"]
    assert resume, "the client never reconnected"
    assert resume[0]["headers"].get("last-event-id") == "g1.4"
    assert page.is_visible("#send") and not page.is_visible("#stop")


def test_enter_sends_and_shift_enter_adds_a_line(page: Any) -> None:
    api = ApiDouble(answer=_answer(["ok"]))
    _open(page, api)
    box = page.locator("#composer-input")
    box.fill("첫 줄")
    box.press("Shift+Enter")
    box.type("二行目")
    assert box.input_value() == "첫 줄\n二行目"
    assert not [r for r in api.log if r["method"] == "POST" and r["path"].endswith("/messages")]
    box.press("Enter")
    page.wait_for_selector(".message.assistant:not(.streaming)")
    post = next(r for r in api.log if r["method"] == "POST" and r["path"].endswith("/messages"))
    assert post is not None
    assert page.inner_text(".message.user") == "첫 줄\n二行目"
    assert box.input_value() == ""


def test_stop_button_stops_the_answer(page: Any) -> None:
    api = ApiDouble(answer=_answer(["never shown"]), hold_answer=True)
    _open(page, api)
    page.fill("#composer-input", "a long question")
    page.keyboard.press("Enter")
    page.wait_for_selector("#stop:not([hidden])")
    assert not page.is_visible("#send")
    page.click("#stop")
    page.wait_for_selector("#send:not([hidden])")
    assert "Stopped — the partial answer was saved." in page.inner_text(".message.assistant .meta")
    assert [r["path"] for r in api.log if r["method"] == "POST"][-1] == "/v1/sessions/s1/stop"


def test_unreachable_server_shows_a_clear_message_and_recovers(page: Any) -> None:
    api = ApiDouble(sessions=[{"session_id": "s1", "title": "Old chat", "updated_at": "2026-01-01T00:00:00Z"}])
    _open(page, api)
    api.down = True
    page.click("#new-chat")
    page.fill("#composer-input", "hello?")
    page.keyboard.press("Enter")
    page.wait_for_selector("#banner:not([hidden])")
    assert "Cannot reach the docchat server" in page.inner_text("#banner")
    screenshot(page, "ui-unreachable")
    api.down = False
    page.wait_for_selector("#banner", state="hidden", timeout=15000)


def test_rename_and_delete_a_session(page: Any) -> None:
    api = ApiDouble(sessions=[{"session_id": "s1", "title": "First", "updated_at": "2026-01-01T00:00:00Z"},
                              {"session_id": "s2", "title": "Second", "updated_at": "2026-01-01T00:00:00Z"}])
    api.messages = {"s1": [], "s2": []}
    _open(page, api)
    # keyboard: Tab from a chat reaches its rename button
    page.focus("[data-session-id='s2'] .session-open")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Rename chat “Second”"
    page.keyboard.press("Enter")
    page.fill(".session-rename", "두 번째 대화")
    page.keyboard.press("Enter")
    page.wait_for_selector("#session-list .session-title:text('두 번째 대화')")
    assert api.sessions[1]["title"] == "두 번째 대화"
    page.hover("[data-session-id='s2']")
    page.get_by_role("button", name="Delete chat “두 번째 대화”").click()
    page.locator("dialog.confirm-dialog").get_by_role("button", name="Delete").click()
    page.wait_for_selector("#session-list .session-title:text('두 번째 대화')", state="detached")
    assert [s["session_id"] for s in api.sessions] == ["s1"]


def test_upload_shows_progress_then_ready_and_failure_reason(page: Any) -> None:
    api = ApiDouble()
    api.workflow_events = {
        "w1": [("progress", {"workflow_id": "w1", "status": "in_progress", "progress": 0.5}),
               ("progress", {"workflow_id": "w1", "status": "completed", "progress": 1.0})],
        "w2": [("progress", {"workflow_id": "w2", "status": "failed",
                             "error": "the PDF is encrypted and no password was given"})],
    }
    _open(page, api)
    page.set_input_files("#file-input", files=[
        {"name": "a.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.4 a"},
        {"name": "locked.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.4 b"},
    ])
    page.wait_for_selector(".doc[data-status='completed']")
    page.wait_for_selector(".doc[data-status='failed']")
    assert "encrypted" in page.inner_text(".doc[data-status='failed'] .doc-reason")
    screenshot(page, "ui-documents")


def test_delete_a_ready_document(page: Any) -> None:
    api = ApiDouble()
    api.documents["p1"] = [
        {"document_id": "d1", "workflow_id": "w1", "status": "completed", "file_name": "old.pdf", "page_count": 2},
        {"document_id": "d2", "workflow_id": "w2", "status": "completed", "file_name": "keep.pdf", "page_count": 1},
    ]
    _open(page, api)
    page.wait_for_selector(".doc[data-document-id='d1']")
    page.get_by_role("button", name="Delete old.pdf").click()
    # an in-app dialog, not the browser's confirm(); Cancel keeps the document
    page.locator("dialog.confirm-dialog").get_by_role("button", name="Cancel").click()
    page.wait_for_selector("dialog.confirm-dialog", state="detached")
    assert len(api.documents["p1"]) == 2
    page.get_by_role("button", name="Delete old.pdf").click()
    screenshot(page, "ui-confirm-dialog")
    page.locator("dialog.confirm-dialog").get_by_role("button", name="Delete").click()
    page.wait_for_selector(".doc[data-document-id='d1']", state="detached")
    assert [d["document_id"] for d in api.documents["p1"]] == ["d2"]
    assert page.is_visible(".doc[data-document-id='d2']")


def test_expanding_a_document_shows_its_summary_and_outline(page: Any) -> None:
    api = ApiDouble()
    summary = {"kind": "extractive", "title": "Harbor Bridge Inspection Report", "page_count": 3,
               "text": "The inspection covered every span.\nCorrosion: found on the north pylon.",
               "outline": [{"level": 1, "text": "Harbor Bridge Inspection Report", "page": 1},
                           {"level": 2, "text": "1. Findings <b>bold</b>", "page": 2}], "lead": []}
    api.documents["p1"] = [
        {"document_id": "d1", "workflow_id": "w1", "status": "completed", "file_name": "bridge.pdf", "page_count": 3,
         "summary": summary, "identity": {"company": "Harbor <i>Works</i> Inc.", "tickers": ["HBW"]}},
        {"document_id": "d2", "workflow_id": "w2", "status": "completed", "file_name": "plain.pdf", "page_count": 1,
         "identity": {}},
    ]
    _open(page, api)
    page.wait_for_selector(".doc[data-document-id='d1']")
    # whose document it is, from its cover (text, never markup); a document whose cover names nobody shows none
    assert page.inner_text(".doc[data-document-id='d1'] .doc-company") == "Harbor <i>Works</i> Inc. · HBW"
    assert not page.is_visible(".doc[data-document-id='d2'] .doc-company")
    assert not page.is_visible(".doc[data-document-id='d2'] .doc-summary")  # nothing to expand yet
    assert not page.is_visible(".doc[data-document-id='d1'] .doc-summary-body")  # collapsed
    page.click(".doc[data-document-id='d1'] .doc-summary > summary")
    body = ".doc[data-document-id='d1'] .doc-summary-body"
    page.wait_for_selector(body, state="visible")
    assert page.inner_text(f"{body} .doc-summary-kind").startswith("Extractive summary")
    assert page.inner_text(f"{body} .doc-summary-title") == "Harbor Bridge Inspection Report"
    assert page.locator(f"{body} .doc-summary-text").all_inner_texts() == [
        "The inspection covered every span.", "Corrosion: found on the north pylon."]
    items = page.locator(f"{body} .doc-outline li")
    assert items.count() == 2 and items.nth(1).get_attribute("data-level") == "1"
    assert items.nth(1).inner_text() == "1. Findings <b>bold</b> p. 2"  # text, never markup
    assert page.locator(f"{body} b").count() == 0
    screenshot(page, "ui-document-summary")


def test_phone_width_layout(browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        api = ApiDouble(sessions=[{"session_id": "s1", "title": "Chat", "updated_at": "2026-01-01T00:00:00Z"}],
                        answer=_answer(["短い答え [S1]"], [CITATION]))
        _open(page, api)
        assert not page.is_visible("#documents") or page.evaluate(
            "document.getElementById('documents').getBoundingClientRect().left >= innerWidth")
        page.fill("#composer-input", "質問")
        page.keyboard.press("Enter")
        page.wait_for_selector(".chip")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, "the page scrolls sideways on a phone"
        screenshot(page, "ui-phone")
        page.click("#toggle-sessions")
        page.wait_for_timeout(300)
        assert page.evaluate("document.getElementById('sessions').getBoundingClientRect().left") >= -1
        screenshot(page, "ui-phone-sessions")
    finally:
        context.close()


def test_page_has_labels_for_its_controls(page: Any) -> None:
    _open(page, ApiDouble())
    unlabeled = page.evaluate(
        """() => [...document.querySelectorAll('#app button, #app input, #app select, #app textarea')]
              .filter((el) => el.offsetParent !== null && el.type !== 'file')
              .filter((el) => !(el.getAttribute('aria-label') || el.labels?.length || el.textContent.trim()))
              .map((el) => el.outerHTML)"""
    )
    assert unlabeled == []
    assert json.loads(json.dumps(page.page_errors)) == []


def test_cognito_sign_in_with_pkce(page: Any) -> None:
    """aws mode: hosted UI redirect (code + PKCE S256), code exchange, then API calls with the access token."""
    import base64
    import hashlib
    from urllib.parse import parse_qs, urlsplit

    def b64(obj: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

    id_token = f"{b64({'alg': 'none'})}.{b64({'email': 'kim@example.com', 'sub': 'u-1'})}.sig"
    api = ApiDouble(token="ACCESS-1", config={"mode": "aws", "cognito_domain": "https://auth.example.test",
                                             "client_id": "client-1", "render_dpi": 150, "max_upload_bytes": 1000})
    api.install(page)
    seen: dict[str, Any] = {}

    def authorize(route: Any, request: Any) -> None:
        seen["authorize"] = parse_qs(urlsplit(request.url).query)
        q = seen["authorize"]
        # the hosted UI signs the user in and redirects back with a code
        route.fulfill(status=302, headers={"Location": f"{ORIGIN}/?code=CODE-1&state={q['state'][0]}"})

    def token(route: Any, request: Any) -> None:
        seen["token"] = parse_qs(request.post_data)
        route.fulfill(json={"access_token": "ACCESS-1", "id_token": id_token, "refresh_token": "R-1",
                            "expires_in": 3600, "token_type": "Bearer"},
                      headers={"Access-Control-Allow-Origin": ORIGIN})

    page.route("https://auth.example.test/oauth2/authorize*", authorize)
    page.route("https://auth.example.test/oauth2/token", token)
    page.goto(f"{ORIGIN}/")
    page.wait_for_selector("#signin-cognito:not([hidden])")
    page.click("#signin-cognito-button")
    page.wait_for_selector("#app:not([hidden])")
    q = seen["authorize"]
    assert q["response_type"] == ["code"] and q["client_id"] == ["client-1"]
    assert q["redirect_uri"] == [f"{ORIGIN}/"] and q["code_challenge_method"] == ["S256"]
    t = seen["token"]
    assert t["grant_type"] == ["authorization_code"] and t["code"] == ["CODE-1"]
    challenge = base64.urlsafe_b64encode(hashlib.sha256(t["code_verifier"][0].encode()).digest()).decode().rstrip("=")
    assert challenge == q["code_challenge"][0]
    assert page.inner_text("#user-name") == "kim@example.com"
    assert "code=" not in page.url
    calls = [r for r in api.log if r["path"] == "/v1/sessions"]
    assert calls and calls[-1]["headers"]["authorization"] == "Bearer ACCESS-1"


def test_reopening_a_chat_mid_answer_attaches_to_the_running_answer(page: Any) -> None:
    api = ApiDouble(sessions=[{"session_id": "s1", "title": "Running", "updated_at": "2026-01-01T00:00:00Z",
                               "generating": True}],
                    answer=_answer(["Still ", "streaming."], [CITATION]))
    api.messages = {"s1": [{"seq": 1, "role": "user", "text": "question asked in another tab", "citations": []}]}
    _open(page, api, "?user=alice#s=s1")
    page.wait_for_selector(".message.assistant .chip")
    assert page.inner_text(".message.user") == "question asked in another tab"
    assert page.inner_text(".message.assistant .md").startswith("Still streaming.")
    resume = [r for r in api.log if r["path"] == "/v1/sessions/s1/stream"]
    assert resume and "last-event-id" not in resume[0]["headers"]


def test_new_project_and_switching_projects(page: Any) -> None:
    api = ApiDouble()
    api.documents["p1"] = [{"document_id": "d1", "workflow_id": "w1", "file_name": "handbook.pdf",
                            "status": "completed", "page_count": 12}]
    _open(page, api)
    page.wait_for_selector(".doc[data-status='completed']")
    assert "Ready · 12 pages" in page.inner_text(".doc")
    page.fill("#new-project-name", "계약서 프로젝트")
    page.click("#new-project button[type=submit]")
    page.wait_for_selector("#project-select option:text('계약서 프로젝트')", state="attached")
    assert page.eval_on_selector("#project-select", "el => el.value") == "p2"
    page.wait_for_selector("#document-list .placeholder")
    page.select_option("#project-select", "p1")
    page.wait_for_selector(".doc[data-status='completed']")
    # the choice is remembered per user
    page.reload()
    page.wait_for_selector(".doc[data-status='completed']")
    assert page.eval_on_selector("#project-select", "el => el.value") == "p1"


def test_delete_the_current_project(page: Any) -> None:
    api = ApiDouble()
    api.projects.append({"project_id": "p2", "name": "Old contracts"})
    api.documents["p2"] = [{"document_id": "d9", "workflow_id": "w9", "file_name": "old.pdf",
                            "status": "completed", "page_count": 1}]
    _open(page, api)
    page.select_option("#project-select", "p2")
    page.wait_for_selector(".doc[data-document-id='d9']")
    # not a permanent red link: behind "Project settings", confirmed in an in-app dialog
    assert not page.get_by_role("button", name="Delete this project").is_visible()
    page.click("#project-actions summary")
    page.get_by_role("button", name="Delete this project").click()
    page.locator("dialog.confirm-dialog").get_by_role("button", name="Delete").click()
    page.wait_for_selector("#project-select option[value='p2']", state="detached")
    assert [p["project_id"] for p in api.projects] == ["p1"]
    assert page.eval_on_selector("#project-select", "el => el.value") == "p1"
    page.wait_for_selector(".doc[data-document-id='d9']", state="detached")


def test_the_viewer_shows_the_clicked_citations_own_quote_and_lines_on_its_own_page_only(page: Any) -> None:
    first = {**CITATION, "quote": "Employees get 25 vacation days.",
             "bboxes": [{"page": 2, "x0": 72, "y0": 144, "x1": 540, "y1": 160}]}
    second = {**CITATION, "ref": "S2", "chunk_id": "d1:00004", "quote": "Unused days carry over to March.",
              "bbox": {"page": 2, "x0": 72, "y0": 400, "x1": 300, "y1": 416},
              "bboxes": [{"page": 2, "x0": 72, "y0": 400, "x1": 300, "y1": 416}]}
    api = ApiDouble(answer=_answer(["You get 25 days [S1]; unused days carry over [S2]."], [first, second]))
    _open(page, api)
    page.fill("#composer-input", "Vacation?")
    page.keyboard.press("Enter")
    page.wait_for_selector(".message.assistant .chip")
    page.click(".message.assistant sup.ref[data-ref='S2']")
    page.wait_for_selector("#viewer[open] .highlight.current")
    assert page.inner_text("#viewer-quote") == "“Unused days carry over to March.”"
    assert page.locator("#viewer-page .highlight.current").count() == 1
    assert page.locator("#viewer-page .highlight.other").count() == 1
    top = page.eval_on_selector(".highlight.current", "el => el.style.top")
    assert float(top.rstrip("%")) == pytest.approx(400 * 150 / 72 / 1650 * 100, abs=0.01)
    page.click("#viewer-next")
    page.wait_for_selector("#viewer-title:text('handbook.pdf — page 3')")
    assert not page.is_visible("#viewer-quote")  # the banner belongs to the cited page
    page.click("#viewer-prev")
    page.wait_for_selector("#viewer-title:text('handbook.pdf — page 2')")
    assert page.inner_text("#viewer-quote") == "“Unused days carry over to March.”"
    assert page.page_errors == []
