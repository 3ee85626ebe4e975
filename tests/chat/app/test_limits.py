"""Per-user limits over real HTTP (issue 13 item 8): a burst over each limit → 429 with ``Retry-After`` and the
limit's name; under the limit works; counters are per user; an answer's work is bounded in time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from chat.app.factory import create_app
from chat.app.wiring import Services
from chat.models.port import ModelRequest
from chat.models.scripted import Reply, ScriptedModel, Text
from ingest.build import build_ingest
from ingest.sample_docs import write_text_pdf
from store.blobs import FileBlobStore
from store.config import LimitsSettings, Settings
from store.schema import WORKFLOW_TABLE
from store.sqlite_items import SqliteItemTable
from store.usage_counters import SqliteUsageCounters
from store.usage_limits import UsageLimits
from tests.chat.chat_harness import ALICE, BOB, make_harness, parse_sse, serve

NOON = 1_780_000_000 - 1_780_000_000 % 86_400 + 12 * 3600 + 30  # 12:00:30 UTC on some day


class Clock:
    def __init__(self, now: float = NOON) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def limits_for(tmp_path: Path, clock: Clock, *, answer_timeout_s: float = 0.0, **values: int) -> UsageLimits:
    """Every limit off (0) except those given."""
    base = {f: 0 for f in LimitsSettings.__dataclass_fields__}
    base.update({f"limit_{k}": v for k, v in values.items()})
    counters = SqliteUsageCounters(tmp_path / "limits.db", clock=clock)
    return UsageLimits(counters, LimitsSettings(**base), answer_timeout_s=answer_timeout_s, clock=clock)


def assert_limited(resp: httpx.Response, limit: str, *, max_wait: int) -> int:
    assert resp.status_code == 429, resp.text
    wait = int(resp.headers["Retry-After"])
    assert 1 <= wait <= max_wait
    err = resp.json()["error"]
    assert err["code"] == "limit_exceeded" and err["limit"] == limit and err["retry_after"] == wait
    assert limit in err["message"]
    return wait


def echo_model(gate: asyncio.Event | None = None) -> ScriptedModel:
    async def reply(request: ModelRequest) -> Reply:
        if gate is not None and request.metadata.get("purpose") == "answer":
            await gate.wait()
        return Reply(Text("Noted."))

    return ScriptedModel(reply)


async def _session(client: httpx.AsyncClient, headers: dict[str, str] = ALICE) -> str:
    resp = await client.post("/v1/sessions", json={}, headers=headers)
    assert resp.status_code == 201, resp.text
    return str(resp.json()["session_id"])


async def _ask(client: httpx.AsyncClient, sid: str, headers: dict[str, str] = ALICE) -> httpx.Response:
    return await client.post(f"/v1/sessions/{sid}/messages", json={"text": "What grew?"}, headers=headers)


# --- chat: questions, answers, sessions -------------------------------------------------------------


async def test_questions_per_minute_burst_gets_429_until_the_next_minute(tmp_path: Path) -> None:
    clock = Clock()
    h = make_harness(tmp_path, echo_model())
    h.chat.limits = limits_for(tmp_path, clock, questions_per_minute=3)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        sid = await _session(client)
        for _ in range(3):
            ok = await _ask(client, sid)
            assert ok.status_code == 200
            assert parse_sse(ok.content)[-1][0] == "done"
        wait = assert_limited(await _ask(client, sid), "questions_per_minute", max_wait=60)
        assert wait == 30  # the minute window ends at 12:01:00
        bob_sid = await _session(client, BOB)
        assert (await _ask(client, bob_sid, BOB)).status_code == 200  # per user
        clock.now += wait
        assert (await _ask(client, sid)).status_code == 200  # a new minute


async def test_concurrent_answers_over_the_limit_get_429_and_a_finished_answer_frees_its_slot(
    tmp_path: Path,
) -> None:
    clock = Clock()
    gate = asyncio.Event()
    h = make_harness(tmp_path, echo_model(gate), disconnect_policy="finish")
    h.chat.limits = limits_for(tmp_path, clock, concurrent_answers=1, questions_per_minute=100)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        first, second = await _session(client), await _session(client)
        async with client.stream("POST", f"/v1/sessions/{first}/messages", json={"text": "Q"}, headers=ALICE) as r:
            assert r.status_code == 200
            busy = await _ask(client, second)
            assert_limited(busy, "concurrent_answers", max_wait=10)
            gate.set()
            await r.aread()
        for _ in range(100):  # the slot is released when the generation ends
            resp = await _ask(client, second)
            if resp.status_code == 200:
                break
            await asyncio.sleep(0.05)
        assert resp.status_code == 200


async def test_other_users_answer_while_one_user_is_at_the_concurrency_limit(tmp_path: Path) -> None:
    gate = asyncio.Event()
    h = make_harness(tmp_path, echo_model(gate), disconnect_policy="finish")
    h.chat.limits = limits_for(tmp_path, Clock(), concurrent_answers=1)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        mine, bobs = await _session(client), await _session(client, BOB)
        async with client.stream("POST", f"/v1/sessions/{mine}/messages", json={"text": "Q"}, headers=ALICE) as r:
            assert r.status_code == 200
            async with client.stream("POST", f"/v1/sessions/{bobs}/messages", json={"text": "Q"},
                                     headers=BOB) as rb:
                assert rb.status_code == 200
                gate.set()
                await rb.aread()
            await r.aread()


async def test_an_answer_is_stopped_at_its_time_limit_and_frees_its_slot(tmp_path: Path) -> None:
    gate = asyncio.Event()  # never set: the model would wait for ever
    h = make_harness(tmp_path, echo_model(gate), answer_timeout_seconds=0.5)
    h.chat.limits = limits_for(tmp_path, Clock(), concurrent_answers=1, answer_timeout_s=0.5)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        sid = await _session(client)
        started = time.monotonic()
        resp = await _ask(client, sid)
        assert time.monotonic() - started < 10
        events = parse_sse(resp.content)
        errors = [e[1] for e in events if e[0] == "error"]
        assert errors and errors[0]["code"] == "time_limit"
        assert events[-1][0] == "done" and events[-1][1]["stop_reason"] == "interrupted"
        gate.set()
        assert (await _ask(client, sid)).status_code == 200  # the slot came back
    stored = h.sessions.load_messages(sid)
    assert [m["role"] for m in stored[:2]] == ["user", "assistant"]  # the cut answer is stored, history valid


async def test_sessions_per_day_burst_gets_429_and_counts_exactly(tmp_path: Path) -> None:
    clock = Clock()
    h = make_harness(tmp_path, echo_model())
    h.chat.limits = limits_for(tmp_path, clock, sessions_per_day=5)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        burst = await asyncio.gather(*(client.post("/v1/sessions", json={}, headers=ALICE) for _ in range(12)))
        assert sorted(r.status_code for r in burst) == [201] * 5 + [429] * 7
        wait = assert_limited(next(r for r in burst if r.status_code == 429), "sessions_per_day", max_wait=86_400)
        assert wait == 12 * 3600 - 30  # to the next UTC midnight
        assert (await client.post("/v1/sessions", json={}, headers=BOB)).status_code == 201
        clock.now += wait
        assert (await client.post("/v1/sessions", json={}, headers=ALICE)).status_code == 201


async def test_under_the_default_limits_everything_works(tmp_path: Path) -> None:
    h = make_harness(tmp_path, echo_model())
    h.chat.limits = UsageLimits(SqliteUsageCounters(tmp_path / "limits.db"), Settings().limits)
    async with serve(h.app()) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        sid = await _session(client)
        for _ in range(3):
            assert (await _ask(client, sid)).status_code == 200


# --- ingest: projects, uploads, pages --------------------------------------------------------------


class _NoIndex:
    async def index_keywords(self, *a: Any, **k: Any) -> None: ...

    async def index_chunks(self, *a: Any, **k: Any) -> None: ...

    async def delete_document(self, *a: Any, **k: Any) -> None: ...


@pytest.fixture
async def ingest_client(tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """``open(clock, **limits)`` → an httpx client on the ingest API with those limits (no workers run)."""
    opened: list[Any] = []

    async def open_client(clock: Clock, **values: int) -> httpx.AsyncClient:
        settings = Settings(data_dir=tmp_path / "data")
        items = SqliteItemTable(tmp_path / "workflows.db", WORKFLOW_TABLE, purge_interval_s=None)
        limits = limits_for(tmp_path, clock, **values)
        svc = build_ingest(settings, items=items, blobs=FileBlobStore(tmp_path / "blobs"), index=_NoIndex(),
                           limits=limits)
        app = create_app(settings, services=Services(
            settings, dependencies={"uploads": svc.uploads, "documents": svc.documents}, on_stop=[svc.close]))
        client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1")
        opened.append((client, items))
        return client

    yield open_client
    for client, items in opened:
        await client.aclose()
        items.close()


async def _project(client: httpx.AsyncClient, headers: dict[str, str] = ALICE) -> httpx.Response:
    return await client.post("/v1/projects", json={"name": "P"}, headers=headers)


async def test_projects_burst_gets_429_and_deleting_one_frees_a_place(ingest_client: Any) -> None:
    client = await ingest_client(Clock(), projects=3)
    burst = await asyncio.gather(*(_project(client) for _ in range(8)))
    assert sorted(r.status_code for r in burst) == [201] * 3 + [429] * 5
    assert_limited(next(r for r in burst if r.status_code == 429), "projects", max_wait=3600)
    assert (await _project(client, BOB)).status_code == 201  # per user
    listed = (await client.get("/v1/projects", headers=ALICE)).json()["items"]
    assert len(listed) == 3
    assert (await client.delete(f"/v1/projects/{listed[0]['project_id']}", headers=ALICE)).status_code == 204
    assert (await _project(client)).status_code == 201
    assert_limited(await _project(client), "projects", max_wait=3600)


async def _upload(client: httpx.AsyncClient, pid: str, data: bytes, headers: dict[str, str] = ALICE) -> Any:
    return await client.post(f"/v1/projects/{pid}/documents", files={"file": ("a.pdf", data, "application/pdf")},
                             headers=headers)


async def test_uploads_per_day_burst_gets_429_before_the_body_is_read(ingest_client: Any, tmp_path: Path) -> None:
    client = await ingest_client(Clock(), uploads_per_day=2)
    pid = (await _project(client)).json()["project_id"]
    pdfs = [write_text_pdf(tmp_path / f"d{i}.pdf", 1, lines=3 + i, seed=i).read_bytes() for i in range(4)]
    assert [(await _upload(client, pid, pdfs[i])).status_code for i in range(2)] == [202, 202]
    wait = assert_limited(await _upload(client, pid, pdfs[2]), "uploads_per_day", max_wait=86_400)
    assert wait == 12 * 3600 - 30
    bob_pid = (await _project(client, BOB)).json()["project_id"]
    assert (await _upload(client, bob_pid, pdfs[3], BOB)).status_code == 202


async def test_pages_per_day_counts_accepted_pages_only(ingest_client: Any, tmp_path: Path) -> None:
    client = await ingest_client(Clock(), pages_per_day=5)
    pid = (await _project(client)).json()["project_id"]
    three = write_text_pdf(tmp_path / "three.pdf", 3, lines=4).read_bytes()
    first = await _upload(client, pid, three)
    assert first.status_code == 202 and first.json()["page_count"] == 3
    assert (await _upload(client, pid, three)).status_code == 200  # a duplicate: no new pages counted
    other_three = write_text_pdf(tmp_path / "three-b.pdf", 3, lines=5, seed=1).read_bytes()
    assert_limited(await _upload(client, pid, other_three), "pages_per_day", max_wait=86_400)
    two = write_text_pdf(tmp_path / "two.pdf", 2, lines=4, seed=2).read_bytes()
    assert (await _upload(client, pid, two)).status_code == 202  # the refused upload cost nothing
    assert_limited(await _upload(client, pid, write_text_pdf(tmp_path / "one.pdf", 1, seed=3).read_bytes()),
                   "pages_per_day", max_wait=86_400)
