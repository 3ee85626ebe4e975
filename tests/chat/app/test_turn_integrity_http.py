"""Issue 13 item 2 through the real app on loopback: cut answers at random points — the client leaves
(``DOCCHAT_DISCONNECT_GRACE_SECONDS=0``), ``POST …/stop``, or both — and after every cut the stored
turns themselves are valid: every question has an answer turn, no seq gaps, and the text the generation
published (what the client was shown) is the text stored.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx

from chat.core.partial import INTERRUPTED_NOTE
from chat.core.service import ChatService
from chat.models.port import ModelRequest
from chat.models.scripted import Reply, ScriptedModel, Text, ToolUse
from store.block_repair import assert_request_history
from tests.chat.chat_harness import (
    ALICE,
    EventReader,
    FakeRetriever,
    Harness,
    parse_sse,
    sample_ingest,
    serve,
    settings_for,
)
from tests.chat.turn_checks import assert_every_question_answered, gated_store

CUTS = 30


def script(rng: random.Random) -> Any:
    def reply(request: ModelRequest) -> Reply:
        last = request.messages[-1]["content"][0]
        if last.get("type") == "tool_result" or rng.random() < 0.4:
            return Reply(Text(" ".join(f"word{i}" for i in range(rng.randint(5, 40))), chunk=6))
        return Reply(Text("Let me look."), ToolUse("search_documents", {"query": "revenue"}))

    return reply


def stored_text(messages: list[dict[str, Any]]) -> str:
    """The text of the assistant turns of the newest question, without the interrupted note."""
    start = max(i for i, m in enumerate(messages) if m["role"] == "user" and m["content"][0]["type"] == "text")
    text = "".join(b["text"] for m in messages[start + 1 :] if m["role"] == "assistant"
                   for b in m["content"] if b["type"] == "text")
    return text.removesuffix(INTERRUPTED_NOTE).removesuffix(INTERRUPTED_NOTE.strip())


async def settled(chat: ChatService, sid: str) -> None:
    for _ in range(1000):
        if chat.registry.running(sid) is None:
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the generation did not finish")


async def test_random_cuts_leave_every_question_answered_as_shown(tmp_path: Path) -> None:
    rng = random.Random(13)
    settings = settings_for(tmp_path, disconnect_grace_seconds=0.0, disconnect_policy="partial")
    sessions = gated_store(settings)
    sessions.append_delay_s = 0.002  # widen the write windows a cut may fall into
    model = ScriptedModel(script(rng), delay=0.002)
    ingest = sample_ingest()
    chat = ChatService(settings=settings, sessions=sessions, model=model, retriever=FakeRetriever(ingest),
                       ingest=ingest)
    h = Harness(settings, chat, ingest, chat.retriever, sessions, model)  # type: ignore[arg-type]
    outcomes: dict[str, int] = {}
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, headers=ALICE, timeout=10) as c:
        sid = (await c.post("/v1/sessions", json={})).json()["session_id"]
        for i in range(CUTS):
            how = rng.choice(["disconnect", "stop", "stop+disconnect"])
            after = rng.randint(0, 30)  # events read before the cut (0: right after the response starts)
            seen: list[tuple[str, dict[str, Any], str | None]] = []
            async with c.stream("POST", f"/v1/sessions/{sid}/messages", json={"text": f"question {i}"}) as r:
                assert r.status_code == 200
                reader = EventReader(r)
                while len(seen) < after:
                    batch = await reader.until("text")
                    if not batch:
                        break
                    seen += batch
                if how != "disconnect":
                    await c.post(f"/v1/sessions/{sid}/stop")
                if how == "stop":
                    seen += await reader.until("done")
            await settled(chat, sid)
            stored = sessions.list_messages(sid, None, 500)["items"]
            assert_every_question_answered(stored)
            gen = chat.registry.get(sid)
            assert gen is not None
            published = [(e.event, e.data) for e in gen.events_after(0)[0]]
            shown = "".join(d["delta"] for n, d in published if n == "text")
            assert stored_text(stored) == shown, (i, how, after)
            assert published[-1][0] == "done" and published[-1][1]["seq"] == stored[-1]["seq"]
            client_text = "".join(e[1]["delta"] for e in seen if e[0] == "text")
            assert shown.startswith(client_text)
            if how == "stop":
                assert seen[-1][0] == "done" and client_text == shown
            outcomes[published[-1][1]["stop_reason"]] = outcomes.get(published[-1][1]["stop_reason"], 0) + 1
        r = await c.post(f"/v1/sessions/{sid}/messages", json={"text": "still there?"})
        assert parse_sse(r.content)[-1][1]["stop_reason"] == "end_turn"
    assert_every_question_answered(sessions.list_messages(sid, None, 500)["items"])
    for request in model.requests:
        assert_request_history(request.messages)
    assert outcomes.get("interrupted", 0) >= CUTS // 5, outcomes  # the cuts did cut answers
