"""Progress checkpoints (chat/core/checkpoints.py): exact round trip of positions and deltas, bounded size."""

from __future__ import annotations

import asyncio

from chat.core import checkpoints, events
from chat.core.events import ChatEvent
from chat.core.generations import Generation


def _events(texts: list[str]) -> list[ChatEvent]:
    out = [events.make_event("g1", 1, "start", events.start("t1", "s1"))]
    for i, t in enumerate(texts):
        out.append(events.make_event("g1", i + 2, "text", events.text(t)))
    out.append(events.make_event("g1", len(out) + 1, "tool", events.tool("search_documents", {"q": "x"}, "done")))
    out.append(events.make_event("g1", len(out) + 1, "text", events.text("after")))
    out.append(events.make_event("g1", len(out) + 1, "done", events.done(4, "end_turn")))
    return out


def test_round_trip_keeps_every_position_and_delta() -> None:
    evs = _events(["Héllo ", "wörld", " 🌤", "", "\n[S1]"])
    frames = checkpoints.encode(evs, 100_000)
    back = checkpoints.decode(frames)
    assert back == [(e.n, e.event, e.data) for e in evs]
    # text runs are joined: much smaller than the SSE frames themselves
    assert frames.count('"t"') == 2 and len(frames) < sum(len(e.wire) for e in evs)


def test_over_the_bound_the_oldest_events_go() -> None:
    evs = _events([f"word{i} " for i in range(2000)])
    frames = checkpoints.encode(evs, 4096)
    assert len(frames.encode()) <= 4096
    back = checkpoints.decode(frames)
    assert back[-1] == (evs[-1].n, "done", evs[-1].data)  # the newest survive
    ns = [n for n, _, _ in back]
    assert ns == list(range(ns[0], evs[-1].n + 1)) and ns[0] > 1  # contiguous from where it was cut


def test_malformed_checkpoints_decode_to_what_parsed() -> None:
    assert checkpoints.decode("") == [] and checkpoints.decode("{not json") == []
    assert checkpoints.decode('[["e",1,"bogus",{}],["e",2,"done",{"seq":1}],"x"]') == [(2, "done", {"seq": 1})]


async def test_a_follower_mirrors_positions_and_reports_a_gap() -> None:
    gen = Generation(generation_id="g1", session_id="s1", user_id="u", turn_id="t")
    gen.mirror(1, "start", {"turn_id": "t"})
    gen.mirror(1, "start", {"turn_id": "t"})  # seen already: ignored
    gen.mirror(2, "text", {"delta": "a"})
    assert [e.n for e in gen.buffered()] == [1, 2] and gen.last_n == 2
    gen.mirror(7, "text", {"delta": "z"})  # the checkpoint lost 3..6
    batch, gap = gen.events_after(2)
    assert gap and [e.n for e in batch] == [7]
    assert gen.buffered()[0].id == "g1.7"
    await asyncio.sleep(0)
