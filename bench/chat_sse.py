"""SSE benchmarks (run through ``python -m bench.chat_server relay|concurrent``; see ``bench/chat_server.py``).

* relay rate: events per CPU-second for three ways of writing the stream inside Litestar, driven at the
  ASGI level with a live producer;
* concurrent streams: N streams from a double at a fixed token rate through uvicorn on loopback, read
  by a raw-socket client in a separate process that records the gap between consecutive events.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from litestar import Litestar, get
from litestar.handlers import asgi
from litestar.response import ServerSentEvent, Stream
from litestar.response.sse import ServerSentEventMessage

from bench.chat_common import BenchIngest, bench_settings, chat_app, free_port, pct, serve
from chat.core import events as ev
from chat.core.generations import Generation

# --------------------------------------------------------------------------- relay rate


async def _produce(gen: Generation, n: int) -> None:
    for i in range(n):
        gen.publish("text", ev.text(f"tok{i} "))
        if i % 4 == 3:
            await asyncio.sleep(0)  # a live producer: the relay sees events as they come
    gen.publish("done", ev.done(1, "end_turn"))
    gen.finish()


async def _per_event(gen: Generation) -> AsyncIterator[Any]:
    cursor = 0
    while True:
        batch, _ = gen.events_after(cursor)
        for e in batch:
            cursor = e.n
            yield e
        if gen.finished and not gen.events_after(cursor)[0]:
            return
        if not batch:
            await gen.wait_changed()


def _relay_app() -> Any:
    from sse_starlette import EventSourceResponse

    state: dict[str, Generation] = {}

    @get("/ours")
    async def ours() -> Stream:
        return Stream(state["gen"].relay(0, 15.0), media_type="text/event-stream")

    @get("/litestar")
    async def litestar_sse() -> ServerSentEvent:
        async def gen() -> AsyncIterator[ServerSentEventMessage]:
            async for e in _per_event(state["gen"]):
                yield ServerSentEventMessage(
                    data=json.dumps(e.data, separators=(",", ":")), event=e.event, id=f"g.{e.n}"
                )

        return ServerSentEvent(gen())

    @asgi("/sse-starlette")
    async def starlette_sse(scope: Any, receive: Any, send: Any) -> None:
        async def gen() -> AsyncIterator[dict[str, Any]]:
            async for e in _per_event(state["gen"]):
                yield {"data": json.dumps(e.data, separators=(",", ":")), "event": e.event, "id": f"g.{e.n}"}

        await EventSourceResponse(gen(), ping=15)(scope, receive, send)

    app = Litestar([ours, litestar_sse, starlette_sse], logging_config=None)
    app.state.relay = state
    return app


async def _drive(app: Any, path: str) -> tuple[int, int]:
    """Call the ASGI app for one GET; returns (bytes, frames) of the body."""
    body = 0
    frames = 0
    done = asyncio.Event()
    sent_request = False

    async def receive() -> dict[str, Any]:
        nonlocal sent_request
        if not sent_request:
            sent_request = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal body, frames
        if message["type"] == "http.response.body":
            chunk = message.get("body", b"")
            body += len(chunk)
            frames += chunk.count(b"event: ")
            if not message.get("more_body", False):
                done.set()

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"bench")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
        "state": {},
    }
    await app(scope, receive, send)
    return body, frames


async def bench_relay(n: int = 100_000) -> dict[str, Any]:
    app = _relay_app()
    results: dict[str, Any] = {"benchmark": "sse_relay_events_per_cpu_second", "events": n, "target": 10_000}
    for name, path in (
        ("ours_batched_stream", "/ours"),
        ("litestar_ServerSentEvent", "/litestar"),
        ("sse_starlette_EventSourceResponse", "/sse-starlette"),
    ):
        gen = Generation(generation_id="g", session_id="s", user_id="u", turn_id="t", max_events=n * 2)
        app.state.relay["gen"] = gen
        cpu0, wall0 = time.process_time(), time.perf_counter()
        producer = asyncio.create_task(_produce(gen, n))
        _, frames = await _drive(app, path)
        await producer
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        results[name] = {
            "frames": frames,
            "events_per_cpu_s": round(frames / cpu),
            "events_per_wall_s": round(frames / wall),
        }
    return results


# --------------------------------------------------------------------------- concurrent streams


async def _client_stream(port: int, sid: str, gaps: list[float], errors: list[str], tokens: int) -> None:
    body = json.dumps({"text": "go"}).encode()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            (
                f"POST /v1/sessions/{sid}/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Authorization: Bearer dev:bench\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            ).encode()
            + body
        )
        await writer.drain()
        buf = b""
        last: float | None = None
        texts = 0
        status_checked = False
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                break
            now = time.perf_counter()
            buf += chunk
            if not status_checked and b"\r\n" in buf:
                status_checked = True
                if not buf.startswith(b"HTTP/1.1 200"):
                    errors.append(buf.split(b"\r\n", 1)[0].decode())
                    return
            cut = buf.rfind(b"\n\n")
            if cut < 0:
                continue
            complete, buf = buf[: cut + 2], buf[cut + 2 :]
            if b"event: error\n" in complete:
                errors.append("error event")
            for _ in range(complete.count(b"event: text\n")):
                if last is not None:
                    gaps.append((now - last) * 1000)
                last = now
                texts += 1
            if b"event: done\n" in complete:
                break
        writer.close()
        if texts < tokens:
            errors.append(f"only {texts} text events")
    except OSError as exc:
        errors.append(type(exc).__name__)


def _client_process(port: int, sids: list[str], tokens: int, ramp_s: float, out: Any) -> None:
    async def main() -> None:
        gaps: list[float] = []
        errors: list[str] = []
        tasks = []
        for sid in sids:
            tasks.append(asyncio.create_task(_client_stream(port, sid, gaps, errors, tokens)))
            if ramp_s:
                await asyncio.sleep(ramp_s / len(sids))
        await asyncio.gather(*tasks)
        out.send({"gaps": gaps, "errors": errors})

    asyncio.run(main())


async def bench_concurrent(
    streams: int = 500, tokens: int = 100, rate: float = 50.0, gc_gen0: int | None = None, ramp_s: float = 1.0
) -> dict[str, Any]:
    from chat.core.service import ChatService
    from chat.models.scripted import Reply, ScriptedModel, Text
    from store import open_session_store

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        extra = {} if gc_gen0 is None else {"gc_gen0_threshold": gc_gen0}
        settings = bench_settings(Path(tmp), port=port, disconnect_grace_seconds=5.0, **extra)
        sessions = open_session_store(settings)
        model = ScriptedModel(lambda req: Reply(Text("tok " * tokens, chunk=4)), delay=1.0 / rate)
        chat = ChatService(settings=settings, sessions=sessions, model=model, retriever=None, ingest=BenchIngest())
        app = chat_app(settings, chat)
        sids = [sessions.create_session("bench", f"s{i}") for i in range(streams)]
        from chat.app.server import tune_gc

        tune_gc(settings.server.gc_gen0_threshold)  # what `docchat up` / `docchat serve` do before serving
        server, task = await serve(app, port)
        parent, child = multiprocessing.Pipe()
        ctx = multiprocessing.get_context("spawn")
        proc = ctx.Process(target=_client_process, args=(port, sids, tokens, ramp_s, child))
        cpu0, wall0 = time.process_time(), time.perf_counter()
        proc.start()
        result = await asyncio.to_thread(parent.recv)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        await asyncio.to_thread(proc.join)
        server.should_exit = True
        await task
    gaps, errors = result["gaps"], result["errors"]
    return {
        "benchmark": "concurrent_streams",
        "streams": streams,
        "tokens_per_stream": tokens,
        "tokens_per_s_per_stream": rate,
        "ramp_s": ramp_s,
        "gc_gen0_threshold": settings.server.gc_gen0_threshold,
        "text_events": len(gaps) + streams,
        "gap_ms_p50": round(pct(gaps, 50), 2),
        "gap_ms_p99": round(pct(gaps, 99), 2),
        "gap_ms_max": round(max(gaps), 2) if gaps else None,
        "errors": len(errors),
        "error_kinds": sorted(set(errors))[:5],
        "server_cpu_s": round(cpu, 2),
        "server_cpu_us_per_event": round(cpu / max(1, len(gaps) + streams) * 1e6, 1),
        "server_cpu_share_of_one_core": round(cpu / wall, 2),
        "wall_s": round(wall, 2),
        "target": "p99 gap < 50 ms, 0 errors",
    }


