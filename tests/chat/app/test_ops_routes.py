"""The read models end to end: a question answered through the API lands in the aggregates, and
``/v1/ops/summary``, ``/v1/ops/series``, ``/v1/usage`` and ``/metrics`` show it (admins only for ops)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
import structlog

from chat.app.factory import create_app
from chat.app.ops_routes import Ops
from chat.app.prom import Prom
from chat.app.wiring import Services
from chat.core.service import ChatService
from chat.models.scripted import Reply, ScriptedModel, Text, Usage
from ingest.dlq import Admins
from store.metrics import MetricsRecorder, SqliteMetricsStore
from tests.chat.chat_harness import ALICE, BOB, FakeRetriever, sample_ingest, serve, session_store, settings_for


def _app(tmp_path: Path, model: Any, **overrides: Any) -> tuple[Any, MetricsRecorder]:
    settings = settings_for(tmp_path, **overrides)
    ingest = sample_ingest()
    store = SqliteMetricsStore(tmp_path / "metrics.db")
    recorder = MetricsRecorder(store, flush_seconds=0)
    prom = Prom()
    recorder.listeners.append(prom.listener)
    chat = ChatService(settings=settings, sessions=session_store(settings), model=model,
                       retriever=FakeRetriever(ingest), ingest=ingest, metrics=recorder)
    prom.watch_streams(chat.registry.streams_open)
    prom.watch_queue(lambda: {"high": 3, "low": 1})
    ops = Ops(store=store, admins=Admins(settings), prom=prom, recorder=recorder)
    services = Services(settings=settings, dependencies={"chat": chat, "ops": ops}, on_start=[chat.start],
                        on_stop=[chat.stop])
    return create_app(settings, services=services), recorder


async def _ask(c: httpx.AsyncClient, text: str, project: str = "p1") -> None:
    sid = (await c.post("/v1/sessions", json={"project_id": project})).json()["session_id"]
    r = await c.post(f"/v1/sessions/{sid}/messages", json={"text": text})
    assert r.status_code == 200 and "event: done" in r.text


async def test_a_question_lands_in_summary_series_usage_and_metrics(tmp_path: Path) -> None:
    model = ScriptedModel([Reply(Text("It grew [S1]."), usage=Usage(10, 5, 150, 40)),
                           Reply(Text("The documents do not say."), usage=Usage(7, 3, 0, 0))])
    app, _ = _app(tmp_path, model)
    async with serve(app) as base, httpx.AsyncClient(base_url=base, headers=ALICE) as c:
        await _ask(c, "How did revenue do?")
        await _ask(c, "Who is the CEO?")
        s = (await c.get("/v1/ops/summary", params={"window": "1h"})).json()
        assert s["totals"]["questions"] == 2 and s["totals"]["answers"] == 2
        assert s["totals"]["tokens_in"] == 17 and s["totals"]["cache_read"] == 150
        assert s["timings"]["ttft_seconds"]["count"] == 2 and s["timings"]["answer_seconds"]["max"] > 0
        assert 1 <= s["items_read"] <= 61
        series = (await c.get("/v1/ops/series", params={"metric": "questions", "window": "24h"})).json()
        assert series["items_read"] <= 288 and len(series["points"]) == 288
        assert sum(p["count"] for p in series["points"]) == 2
        assert (await c.get("/v1/ops/series", params={"metric": "nope", "window": "1h"})).status_code == 400
        assert (await c.get("/v1/ops/series", params={"metric": "questions", "window": "2h"})).status_code == 400
        mine = (await c.get("/v1/usage")).json()
        assert mine["totals"]["questions"] == 2 and mine["totals"]["cache_hit_ratio"] == round(150 / 207, 4)
        theirs = (await c.get("/v1/usage", headers=BOB)).json()
        assert theirs["totals"].get("questions", 0) == 0  # each user sees only their own
        prom = await c.get("/metrics")
        assert prom.status_code == 200 and prom.headers["content-type"].startswith("text/plain")
        text = prom.text
        assert 'docchat_model_tokens_total{kind="input"} 17.0' in text
        assert 'docchat_queue_depth{lane="high"} 3.0' in text and "docchat_sse_streams_open 0.0" in text
        assert 'route="/v1/sessions/{session_id}/messages"' in text
        assert "docchat_time_to_first_token_seconds_count 2.0" in text
        assert (await c.get("/metrics", headers={})).status_code in (200, 401)
        r = await c.get("/v1/ops/summary", headers={"X-Request-ID": "abc-123"})
        assert r.headers["x-request-id"] == "abc-123"


async def test_ops_views_are_for_admins_and_metrics_need_a_token(tmp_path: Path) -> None:
    app, _ = _app(tmp_path, ScriptedModel([]), admin_users="root")
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
        alice, root = {"Authorization": "Bearer dev:alice"}, {"Authorization": "Bearer dev:root"}
        assert (await c.get("/v1/ops/summary", headers=alice)).status_code == 403
        assert (await c.get("/v1/ops/series", params={"metric": "questions"}, headers=alice)).status_code == 403
        assert (await c.get("/v1/ops/summary", headers=root)).status_code == 200
        assert (await c.get("/v1/usage", headers=alice)).status_code == 200  # one's own usage: any user
        assert (await c.get("/metrics")).status_code == 401
        assert (await c.get("/metrics", headers=alice)).status_code == 200  # local mode: any signed-in user
        assert (await c.get("/v1/ops/summary")).status_code == 401
    ops = app.state["services"].dependencies["ops"]
    ops.aws = True  # aws mode: /metrics is for admins (a Prometheus scraper with an admin's token)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
        assert (await c.get("/metrics", headers=alice)).status_code == 403
        assert (await c.get("/metrics", headers=root)).status_code == 200


async def test_request_id_is_bound_for_every_log_line_of_the_request(tmp_path: Path) -> None:
    app, _ = _app(tmp_path, ScriptedModel([]))
    seen: list[Any] = []
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
        with pytest.MonkeyPatch.context() as mp:
            import chat.app.ops_routes as routes

            def spy(*a: Any, **k: Any) -> Any:
                seen.append(structlog.contextvars.get_contextvars())
                return {"window": "1h", "items_read": 0}

            mp.setattr(routes.metrics_views, "summary", spy)
            r = await c.get("/v1/ops/summary", headers={"Authorization": "Bearer dev:a", "X-Request-ID": "rid-7"})
        assert r.status_code == 200
    assert seen and seen[0].get("request_id") == "rid-7"
