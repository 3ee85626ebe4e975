"""The two ingest queues (high = small documents, low = large ones), each with a dead-letter queue."""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from store.schema import HIGH_QUEUE, LOW_QUEUE, RECEIVE_WAIT_SECONDS, QueueSpec

from .config import InfraConfig

# The lanes' shape (long polling, retention, the DLQ) comes from ``store.schema``, which
# ``docchat aws bootstrap`` reads too, so a stand-in stack cannot drift from the deployed one.
__all__ = ["RECEIVE_WAIT_SECONDS", "IngestQueues"]


class IngestQueues(Construct):
    def __init__(self, scope: Construct, construct_id: str, *, config: InfraConfig) -> None:
        super().__init__(scope, construct_id)
        self.high, self.high_dlq = self._pair("High", HIGH_QUEUE, config)
        self.low, self.low_dlq = self._pair("Low", LOW_QUEUE, config)

    def _pair(self, name: str, spec: QueueSpec, config: InfraConfig) -> tuple[sqs.Queue, sqs.Queue]:
        dlq = sqs.Queue(
            self,
            f"{name}DeadLetterQueue",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.seconds(spec.dlq_retention_seconds),
        )
        queue = sqs.Queue(
            self,
            f"{name}Queue",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            visibility_timeout=Duration.seconds(config.queue_visibility_seconds),
            receive_message_wait_time=Duration.seconds(spec.receive_wait_seconds),
            retention_period=Duration.seconds(spec.retention_seconds),
            dead_letter_queue=sqs.DeadLetterQueue(
                queue=dlq, max_receive_count=config.settings.queue.queue_max_receives
            ),
        )
        return queue, dlq

    @property
    def queues(self) -> tuple[sqs.Queue, sqs.Queue]:
        return (self.high, self.low)

    @property
    def dead_letter_queues(self) -> tuple[sqs.Queue, sqs.Queue]:
        return (self.high_dlq, self.low_dlq)

    def backlog(
        self, period: Duration = Duration.minutes(1), *, lanes: tuple[str, ...] = ("high", "low")
    ) -> cloudwatch.MathExpression:
        """Messages waiting or being worked on in ``lanes`` (default both): what a worker pool scales on."""
        using: dict[str, cloudwatch.IMetric] = {}
        for tag, queue in (("h", self.high), ("l", self.low)):
            if ("high" if tag == "h" else "low") not in lanes:
                continue
            using[f"{tag}v"] = queue.metric_approximate_number_of_messages_visible(period=period, statistic="Maximum")
            using[f"{tag}f"] = queue.metric_approximate_number_of_messages_not_visible(
                period=period, statistic="Maximum"
            )
        return cloudwatch.MathExpression(
            expression="+".join(f"FILL({name},0)" for name in using),
            using_metrics=using,
            label=f"ingest backlog, {'+'.join(lanes)} (visible + in flight)",
            period=period,
        )
