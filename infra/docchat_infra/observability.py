"""The operations dashboard and alarms in CloudWatch, from the same events as the read models (issue 17).

The service logs JSON (``DOCCHAT_LOG_JSON=true`` in the containers); metric filters turn its numbers-only
lines into metrics in the ``docchat`` namespace — ``answer_finished`` (time to first token, answer latency,
tokens) from the API, ``job_completed`` / ``job_failed`` / ``job_dead_letter`` from the workers — next to SQS's
own queue metrics. Alarms (to the stack's alarm topic): a dead-letter queue above zero (``stack.py``), the
ingest failure rate, and the p95 time to first token.
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_logs as logs
from aws_cdk import aws_sns as sns
from constructs import Construct

from .queues import IngestQueues

NAMESPACE = "docchat"
FAILURE_RATE_ALARM = 0.10  # failed / (completed + failed) over 15 minutes
TTFT_P95_ALARM_SECONDS = 8.0
PERIOD = Duration.minutes(5)


class Observability(Construct):
    def __init__(self, scope: Construct, construct_id: str, *, queues: IngestQueues, api_logs: logs.ILogGroup,
                 worker_logs: logs.ILogGroup, topic: sns.ITopic) -> None:
        super().__init__(scope, construct_id)
        ttft = self._filter("Ttft", api_logs, '{ $.event = "answer_finished" && $.ttft_s = * }', "TimeToFirstToken",
                            "$.ttft_s", unit=cloudwatch.Unit.SECONDS)
        latency = self._filter("AnswerLatency", api_logs, '{ $.event = "answer_finished" }', "AnswerLatency",
                               "$.answer_s", unit=cloudwatch.Unit.SECONDS)
        tokens_in = self._filter("TokensIn", api_logs, '{ $.event = "answer_finished" }', "TokensIn", "$.tokens_in")
        tokens_out = self._filter("TokensOut", api_logs, '{ $.event = "answer_finished" }', "TokensOut",
                                  "$.tokens_out")
        completed = self._filter("Completed", worker_logs, '{ $.event = "job_completed" }', "DocumentsCompleted", "1")
        failed = self._filter("Failed", worker_logs, '{ $.event = "job_failed" || $.event = "job_dead_letter" }',
                              "DocumentsFailed", "1")
        pages = self._filter("Pages", worker_logs, '{ $.event = "job_completed" }', "PagesProcessed", "$.pages")

        window = Duration.minutes(15)
        failure_rate = cloudwatch.MathExpression(
            expression="IF(done + failed > 0, failed / (done + failed), 0)",
            using_metrics={"done": completed.metric(statistic="Sum", period=window),
                           "failed": failed.metric(statistic="Sum", period=window)},
            period=window, label="ingest failure rate")
        ttft_p95 = ttft.metric(statistic="p95", period=PERIOD)
        self.failure_alarm = cloudwatch.Alarm(
            self, "FailureRateAlarm", metric=failure_rate, threshold=FAILURE_RATE_ALARM, evaluation_periods=1,
            comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
            treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
            alarm_description="more than 10% of ingest jobs failed in the last 15 minutes")
        self.ttft_alarm = cloudwatch.Alarm(
            self, "TtftP95Alarm", metric=ttft_p95, threshold=TTFT_P95_ALARM_SECONDS, evaluation_periods=3,
            datapoints_to_alarm=2, comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
            treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
            alarm_description="p95 time to first token above 8 s")
        for alarm in (self.failure_alarm, self.ttft_alarm):
            alarm.add_alarm_action(cw_actions.SnsAction(topic))

        def queue_metric(q: object, label: str) -> cloudwatch.IMetric:
            return q.metric_approximate_number_of_messages_visible(  # type: ignore[attr-defined]
                period=Duration.minutes(1), statistic="Maximum", label=label)

        self.dashboard = cloudwatch.Dashboard(self, "Dashboard", default_interval=Duration.hours(6))
        self.dashboard.add_widgets(
            cloudwatch.GraphWidget(title="Queue depth", width=12, left=[
                queue_metric(queues.high, "high"), queue_metric(queues.low, "low")]),
            cloudwatch.GraphWidget(title="Dead-letter queues", width=12, left=[
                queue_metric(queues.high_dlq, "high DLQ"), queue_metric(queues.low_dlq, "low DLQ")]),
        )
        self.dashboard.add_widgets(
            cloudwatch.GraphWidget(title="Documents", width=8, left=[
                completed.metric(statistic="Sum", period=PERIOD, label="completed"),
                failed.metric(statistic="Sum", period=PERIOD, label="failed")],
                right=[pages.metric(statistic="Sum", period=PERIOD, label="pages")]),
            cloudwatch.GraphWidget(title="Ingest failure rate", width=8, left=[failure_rate],
                                   left_annotations=[cloudwatch.HorizontalAnnotation(value=FAILURE_RATE_ALARM)]),
            cloudwatch.AlarmStatusWidget(title="Alarms", width=8, alarms=[self.failure_alarm, self.ttft_alarm]),
        )
        self.dashboard.add_widgets(
            cloudwatch.GraphWidget(title="Time to first token (s)", width=8, left=[
                ttft.metric(statistic="p50", period=PERIOD, label="p50"), ttft_p95],
                left_annotations=[cloudwatch.HorizontalAnnotation(value=TTFT_P95_ALARM_SECONDS)]),
            cloudwatch.GraphWidget(title="Answer latency (s)", width=8, left=[
                latency.metric(statistic="p50", period=PERIOD, label="p50"),
                latency.metric(statistic="p95", period=PERIOD, label="p95")]),
            cloudwatch.GraphWidget(title="Model tokens", width=8, left=[
                tokens_in.metric(statistic="Sum", period=PERIOD, label="in"),
                tokens_out.metric(statistic="Sum", period=PERIOD, label="out")]),
        )

    def _filter(self, cid: str, group: logs.ILogGroup, pattern: str, name: str, value: str,
                unit: cloudwatch.Unit | None = None) -> logs.MetricFilter:
        return logs.MetricFilter(self, cid, log_group=group, filter_pattern=logs.FilterPattern.literal(pattern),
                                 metric_namespace=NAMESPACE, metric_name=name, metric_value=value, unit=unit)
