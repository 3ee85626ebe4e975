"""One contract suite for every JobQueue adapter (SQLite, SQS on moto): visibility, receive count, DLQ, priority."""

from __future__ import annotations

import json
from collections import Counter

import boto3
import pytest
from moto import mock_aws

from ingest.queue import PriorityPicker, SqliteJobQueue, SqsJobQueue
from store.errors import RetryableError

MAX_RECEIVES = 3


class Clock:
    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


def _sqs_queue(**options):
    client = boto3.client("sqs", region_name="us-east-1")
    urls = {}
    for lane in ("high", "low"):
        dlq = client.create_queue(QueueName=f"docchat-{lane}-dlq")["QueueUrl"]
        arn = client.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        urls[lane] = client.create_queue(
            QueueName=f"docchat-{lane}",
            Attributes={"VisibilityTimeout": "30",
                        "RedrivePolicy": json.dumps({"deadLetterTargetArn": arn, "maxReceiveCount": MAX_RECEIVES})},
        )["QueueUrl"]
    return SqsJobQueue(client, urls["high"], urls["low"], **options)


@pytest.fixture(params=["sqlite", "sqs"])
def queue(request, tmp_path):
    if request.param == "sqlite":
        q = SqliteJobQueue(tmp_path / "q.db", max_receives=MAX_RECEIVES, clock=Clock(), poll_interval=0.01)
        yield q
        q.close()
    else:
        with mock_aws():
            yield _sqs_queue()


def test_send_receive_delete(queue):
    queue.send({"workflow_id": "w1"}, priority="high")
    msg = queue.receive(visibility_seconds=30)
    assert msg.body == {"workflow_id": "w1"} and msg.priority == "high" and msg.receive_count == 1
    assert queue.receive(visibility_seconds=30) is None  # in flight: invisible
    queue.delete(msg)
    queue.retry_later(msg, 0)  # stale receipt after delete: harmless
    assert queue.receive(visibility_seconds=30) is None


def test_retry_later_redelivers_with_a_higher_receive_count(queue):
    queue.send({"n": 1}, priority="low")
    first = queue.receive(visibility_seconds=30)
    assert queue.extend(first, 60)
    assert queue.receive(visibility_seconds=30) is None
    queue.retry_later(first, 0)
    second = queue.receive(visibility_seconds=30)
    assert second.body == {"n": 1} and second.receive_count == 2 and second.priority == "low"


def test_dead_letter_after_max_receives(queue):
    assert queue.max_receives == MAX_RECEIVES
    queue.send({"workflow_id": "poison"}, priority="high")
    for n in range(1, MAX_RECEIVES + 1):
        msg = queue.receive(visibility_seconds=30)
        assert msg is not None and msg.receive_count == n
        queue.retry_later(msg, 0)
    assert queue.receive(visibility_seconds=30) is None
    assert queue.dead_letters("high") == [{"workflow_id": "poison"}]
    assert queue.dead_letters("low") == []


def test_both_lanes_are_served_about_70_30_and_neither_starves(queue):
    for i in range(10):
        queue.send({"i": i}, priority="high")
        queue.send({"i": i}, priority="low")
    lanes = []
    for _ in range(10):
        msg = queue.receive(visibility_seconds=300)
        lanes.append(msg.priority)
        queue.delete(msg)
    counts = Counter(lanes)
    assert counts["high"] == 7 and counts["low"] == 3
    rest = []
    while (msg := queue.receive(visibility_seconds=300)) is not None:
        rest.append(msg.priority)
        queue.delete(msg)
    assert Counter(rest) == {"high": 3, "low": 7}  # the low lane drains too, without idling


def test_high_only_lane(queue):
    queue.send({"big": True}, priority="low")
    assert queue.receive(visibility_seconds=30, lanes=("high",)) is None
    queue.send({"small": True}, priority="high")
    assert queue.receive(visibility_seconds=30, lanes=("high",)).body == {"small": True}


def test_sqlite_visibility_timeout_expires(tmp_path):
    clock = Clock()
    q = SqliteJobQueue(tmp_path / "q.db", max_receives=5, clock=clock)
    q.send({"x": 1}, priority="low")
    msg = q.receive(visibility_seconds=30)
    clock.t += 29
    assert q.receive(visibility_seconds=30) is None
    clock.t += 2  # the worker died: the message comes back
    again = q.receive(visibility_seconds=30)
    assert again.receive_count == 2
    q.delete(msg)  # the dead worker's stale receipt deletes nothing
    q.retry_later(again, 0)
    assert q.depth("low") == 1
    q.close()


def test_sqlite_long_poll_wakes_on_send(tmp_path):
    import threading
    import time

    q = SqliteJobQueue(tmp_path / "q.db", poll_interval=5.0)
    threading.Timer(0.2, lambda: q.send({"late": 1}, priority="high")).start()
    t0 = time.monotonic()
    msg = q.receive(wait_seconds=3.0)
    assert msg is not None and msg.body == {"late": 1} and time.monotonic() - t0 < 2.0
    q.close()


def test_picker_is_smooth_weighted_round_robin():
    picker = PriorityPicker(0.7)
    firsts = [picker.order()[0] for _ in range(10)]
    assert Counter(firsts) == {"high": 7, "low": 3}
    assert "low" in firsts[:4]  # interleaved, not 7 highs then 3 lows
    assert picker.order(("low",)) == ["low"]


def test_sqlite_close_while_other_threads_receive_and_send_does_not_crash(tmp_path):
    """Shutdown closes the queue while worker threads may still be inside receive(): that must be safe
    (closing a SQLite connection another thread is using crashes the process) and receive() then returns None."""
    import threading

    q = SqliteJobQueue(tmp_path / "q.db", poll_interval=0.001)
    stop = threading.Event()
    results: list[object] = []

    def receiver():
        while not stop.is_set():
            msg = q.receive(wait_seconds=0.01, visibility_seconds=30)
            if msg is None and q._closed:
                results.append("closed")
                return
            if msg is not None:
                try:
                    q.delete(msg)
                except RetryableError:  # closed between receive and delete: a clear error, never a crash
                    assert q._closed
                    results.append("closed")
                    return

    def sender():
        for i in range(10_000):
            if stop.is_set():
                return
            try:
                q.send({"i": i}, priority="high" if i % 2 else "low")
            except Exception as exc:  # after close: a clear RetryableError, never a crash
                results.append(type(exc).__name__)
                return

    threads = [threading.Thread(target=receiver) for _ in range(3)] + [threading.Thread(target=sender)]
    for t in threads:
        t.start()
    import time

    time.sleep(0.3)
    q.close()
    stop.set()
    for t in threads:
        t.join(timeout=10)
    assert not any(t.is_alive() for t in threads)
    assert results.count("closed") == 3
    assert q.receive(wait_seconds=0) is None


def _dead(queue, body, priority="high"):
    queue.send(body, priority=priority)
    for _ in range(MAX_RECEIVES):
        msg = queue.receive(visibility_seconds=30, lanes=(priority,))
        queue.retry_later(msg, 0)
    assert queue.receive(visibility_seconds=30, lanes=(priority,)) is None  # moved to the DLQ


def test_list_dead_reads_every_dead_letter_once_and_leaves_them_there(queue):
    for i in range(12):  # more than one SQS receive batch
        _dead(queue, {"workflow_id": f"w{i}"}, "high" if i % 3 else "low")
    high = queue.list_dead("high")
    low = queue.list_dead("low")
    assert sorted(d.body["workflow_id"] for d in high + low) == sorted(f"w{i}" for i in range(12))
    assert len({d.message_id for d in high}) == len(high) == 8 and len(low) == 4
    assert all(d.priority == "high" and d.receive_count >= MAX_RECEIVES for d in high)
    again = queue.list_dead("high")  # a listing takes nothing away
    assert sorted(d.message_id for d in again) == sorted(d.message_id for d in high)
    assert len(queue.list_dead("high", limit=3)) == 3


def test_drop_dead_deletes_and_release_gives_back(queue):
    _dead(queue, {"workflow_id": "a"})
    _dead(queue, {"workflow_id": "b"})
    held = queue.list_dead("high", hold_seconds=120)
    assert len(held) == 2
    a = next(d for d in held if d.body["workflow_id"] == "a")
    b = next(d for d in held if d.body["workflow_id"] == "b")
    queue.drop_dead(a)
    queue.release_dead([b])
    assert [d.body for d in queue.list_dead("high")] == [{"workflow_id": "b"}]
    assert queue.dead_letters("high") == [{"workflow_id": "b"}]
    assert queue.receive(visibility_seconds=30) is None  # nothing went back to the work queues
