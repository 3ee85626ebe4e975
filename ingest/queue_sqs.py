"""``SqsJobQueue``: the job queues of seed 004 on Amazon SQS.

Long polling, ``ChangeMessageVisibility`` to extend a running job, DLQs by the queues' redrive policy
(``maxReceiveCount``; created by infra/, by moto in tests). The client is passed in; every call goes through
``_call``, which maps throttling to ``Throttled`` and other failures to ``RetryableError``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ingest.queue_port import PRIORITIES, DeadLetter, Message, Priority, PriorityPicker
from store.errors import ConfigError, RetryableError, Throttled
from store.logging import get_logger

log = get_logger(__name__)

_THROTTLE_CODES = frozenset({"ThrottlingException", "RequestThrottled", "Throttling", "OverLimit"})
#: how long a dead-letter listing keeps the messages it has seen out of sight, so each is read once
PEEK_SECONDS = 30


class SqsJobQueue:
    """Amazon SQS: two queues (high, low) whose redrive policies name their DLQs."""

    def __init__(
        self,
        client: Any,
        high_url: str,
        low_url: str,
        *,
        high_share: float = 0.7,
        max_receives: int | None = None,
        max_wait_seconds: int = 20,
        dlq_confirm_wait_seconds: int = 1,
    ) -> None:
        if not high_url or not low_url:
            raise ConfigError("SQS needs DOCCHAT_QUEUE_HIGH_URL and DOCCHAT_QUEUE_LOW_URL")
        self.client = client
        self.urls: dict[Priority, str] = {"high": high_url, "low": low_url}
        self.picker = PriorityPicker(high_share)
        self.max_wait_seconds = max_wait_seconds
        self.dlq_confirm_wait_seconds = dlq_confirm_wait_seconds
        self._dlq_urls: dict[Priority, str | None] = {}
        self.max_receives = max_receives if max_receives is not None else self._redrive_max_receives()

    def _call(self, op: str, **kwargs: Any) -> Any:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            return getattr(self.client, op)(**kwargs)
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            if code in _THROTTLE_CODES:
                raise Throttled("SQS throttled the request", op=op) from exc
            raise RetryableError(f"SQS {op} failed: {code}", op=op, code=code) from exc
        except BotoCoreError as exc:
            raise RetryableError(f"SQS {op} failed: {type(exc).__name__}", op=op) from exc

    def _redrive(self, priority: Priority) -> dict[str, Any]:
        attrs = self._call("get_queue_attributes", QueueUrl=self.urls[priority], AttributeNames=["RedrivePolicy"])
        raw = attrs.get("Attributes", {}).get("RedrivePolicy")
        return dict(json.loads(raw)) if raw else {}

    def _redrive_max_receives(self) -> int:
        policy = self._redrive("high")
        if not policy:
            raise ConfigError("the high-priority SQS queue has no redrive policy (a DLQ is required)")
        return int(policy.get("maxReceiveCount", 5))

    def send(self, body: Mapping[str, Any], *, priority: Priority) -> str:
        resp = self._call("send_message", QueueUrl=self.urls[priority], MessageBody=json.dumps(dict(body)))
        return str(resp["MessageId"])

    def _receive_one(self, lane: Priority, wait: int, visibility_seconds: int) -> Message | None:
        resp = self._call(
            "receive_message",
            QueueUrl=self.urls[lane],
            MaxNumberOfMessages=1,
            WaitTimeSeconds=wait,
            VisibilityTimeout=visibility_seconds,
            MessageSystemAttributeNames=["ApproximateReceiveCount"],
        )
        msgs = resp.get("Messages") or []
        if not msgs:
            return None
        m = msgs[0]
        count = int(m.get("Attributes", {}).get("ApproximateReceiveCount", 1))
        return Message(json.loads(m["Body"]), lane, m["ReceiptHandle"], count, m["MessageId"])

    def receive(
        self, *, wait_seconds: float = 0.0, visibility_seconds: int = 300, lanes: tuple[Priority, ...] = PRIORITIES
    ) -> Message | None:
        order = self.picker.order(lanes)
        for lane in order:
            msg = self._receive_one(lane, 0, visibility_seconds)
            if msg is not None:
                return msg
        wait = min(self.max_wait_seconds, int(wait_seconds))
        if wait <= 0:
            return None
        # nothing waiting anywhere: long-poll the high lane (latency matters there); low is asked next round
        return self._receive_one("high" if "high" in lanes else order[0], wait, visibility_seconds)

    def extend(self, msg: Message, visibility_seconds: int) -> bool:
        try:
            self._call("change_message_visibility", QueueUrl=self.urls[msg.priority], ReceiptHandle=msg.receipt,
                       VisibilityTimeout=min(visibility_seconds, 43_200))
        except RetryableError as exc:
            if exc.context.get("code") in ("ReceiptHandleIsInvalid", "MessageNotInflight", "InvalidParameterValue"):
                return False
            raise
        return True

    def retry_later(self, msg: Message, delay_seconds: int) -> None:
        self.extend(msg, max(0, delay_seconds))

    def delete(self, msg: Message) -> None:
        self._call("delete_message", QueueUrl=self.urls[msg.priority], ReceiptHandle=msg.receipt)

    def _dlq_url(self, priority: Priority) -> str | None:
        if priority not in self._dlq_urls:
            arn = self._redrive(priority).get("deadLetterTargetArn")
            url = None
            if arn:
                name = str(arn).rsplit(":", 1)[-1]
                url = str(self._call("get_queue_url", QueueName=name)["QueueUrl"])
            self._dlq_urls[priority] = url
        return self._dlq_urls[priority]

    def dead_letters(self, priority: Priority) -> list[dict[str, Any]]:
        return [d.body for d in self.list_dead(priority, limit=100)]

    def list_dead(self, priority: Priority, *, limit: int = 1000, hold_seconds: int = 0) -> list[DeadLetter]:
        """Read the DLQ through: each message received once (kept invisible while reading), then released
        unless ``hold_seconds`` asks to keep it. An empty short poll is confirmed by a short long poll
        (``dlq_confirm_wait_seconds``: short polls sample a subset of SQS's servers)."""
        url = self._dlq_url(priority)
        if url is None:
            return []
        seen: dict[str, DeadLetter] = {}
        confirmed = False
        while len(seen) < limit:
            wait = self.dlq_confirm_wait_seconds if confirmed else 0
            resp = self._call("receive_message", QueueUrl=url, MaxNumberOfMessages=min(10, limit - len(seen)),
                              VisibilityTimeout=max(hold_seconds, PEEK_SECONDS), WaitTimeSeconds=wait,
                              MessageSystemAttributeNames=["ApproximateReceiveCount", "SentTimestamp"])
            fresh = [m for m in resp.get("Messages") or [] if m["MessageId"] not in seen]
            if not fresh:
                if confirmed:
                    break
                confirmed = True
                continue
            confirmed = False
            for m in fresh:
                attrs = m.get("Attributes", {})
                seen[m["MessageId"]] = DeadLetter(json.loads(m["Body"]), priority, m["MessageId"], m["ReceiptHandle"],
                                                  int(attrs.get("ApproximateReceiveCount", 0)), None)
        letters = list(seen.values())
        if hold_seconds <= 0:
            self.release_dead(letters)
        return letters

    def drop_dead(self, letter: DeadLetter) -> None:
        url = self._dlq_url(letter.priority)
        if url is not None:
            self._call("delete_message", QueueUrl=url, ReceiptHandle=letter.receipt)

    def release_dead(self, letters: list[DeadLetter]) -> None:
        for letter in letters:
            url = self._dlq_url(letter.priority)
            if url is None:
                continue
            try:
                self._call("change_message_visibility", QueueUrl=url, ReceiptHandle=letter.receipt, VisibilityTimeout=0)
            except RetryableError:  # it shows again when its peek's visibility runs out anyway
                log.warning("dead_letter_release_failed", message_id=letter.message_id)

    def depth(self, priority: Priority) -> int:
        attrs = self._call("get_queue_attributes", QueueUrl=self.urls[priority],
                           AttributeNames=["ApproximateNumberOfMessages"])
        return int(attrs.get("Attributes", {}).get("ApproximateNumberOfMessages", 0))

    def close(self) -> None:
        return None
