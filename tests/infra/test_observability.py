"""The operations dashboard and alarms (issue 17): DLQ > 0, ingest failure rate, p95 time to first token,
from metric filters on the JSON log lines the service writes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_cdk.assertions import Match


def _alarms(synth: Any) -> dict[str, dict[str, Any]]:
    return {k: v["Properties"] for k, v in synth.resources("AWS::CloudWatch::Alarm").items()}


@pytest.mark.parametrize("variant", ["default", "alt"])
def test_alarms_cover_dlq_failure_rate_and_ttft_p95(variant: str, synthesized: Any) -> None:
    synth = synthesized[variant]
    alarms = _alarms(synth)
    dlq = [p for k, p in alarms.items() if "DeadLetterAlarm" in k]
    assert len(dlq) == 2 and all(p["Threshold"] == 1 and p["MetricName"] == "ApproximateNumberOfMessagesVisible"
                                 for p in dlq)
    ttft = next(p for k, p in alarms.items() if "TtftP95" in k)
    assert ttft["ExtendedStatistic"] == "p95" and ttft["MetricName"] == "TimeToFirstToken"
    assert ttft["Namespace"] == "docchat" and ttft["Threshold"] == 8.0
    rate = next(p for k, p in alarms.items() if "FailureRate" in k)
    expr = next(m for m in rate["Metrics"] if "Expression" in m)
    assert "failed / (done + failed)" in expr["Expression"] and rate["Threshold"] == 0.1
    names = {m["MetricStat"]["Metric"]["MetricName"] for m in rate["Metrics"] if "MetricStat" in m}
    assert names == {"DocumentsCompleted", "DocumentsFailed"}
    topic = next(iter(synth.resources("AWS::SNS::Topic")))
    for props in [*dlq, ttft, rate]:
        assert props["AlarmActions"] == [{"Ref": topic}]


def test_metric_filters_read_the_services_log_lines(default: Any) -> None:
    filters = [v["Properties"] for v in default.resources("AWS::Logs::MetricFilter").values()]
    by_name = {f["MetricTransformations"][0]["MetricName"]: f for f in filters}
    assert set(by_name) >= {"TimeToFirstToken", "AnswerLatency", "TokensIn", "TokensOut", "DocumentsCompleted",
                            "DocumentsFailed", "PagesProcessed"}
    ttft = by_name["TimeToFirstToken"]
    assert "answer_finished" in ttft["FilterPattern"] and ttft["MetricTransformations"][0]["MetricValue"] == "$.ttft_s"
    assert "job_dead_letter" in by_name["DocumentsFailed"]["FilterPattern"]
    groups = {k for k in default.resources("AWS::Logs::LogGroup")}
    api = next(g for g in groups if g.startswith("ApiLogs"))
    worker = next(g for g in groups if g.startswith("WorkerLogs"))
    assert ttft["LogGroupName"] == {"Ref": api}
    assert by_name["DocumentsCompleted"]["LogGroupName"] == {"Ref": worker}


def test_dashboard_shows_queues_documents_failure_rate_ttft_and_tokens(default: Any) -> None:
    default.template.resource_count_is("AWS::CloudWatch::Dashboard", 1)
    body = json.dumps(default.only("AWS::CloudWatch::Dashboard")["DashboardBody"])
    for title in ("Queue depth", "Dead-letter queues", "Documents", "Ingest failure rate",
                  "Time to first token (s)", "Answer latency (s)", "Model tokens", "Alarms"):
        assert title in body
    default.template.has_resource_properties("AWS::CloudWatch::Dashboard", {"DashboardBody": Match.any_value()})


def test_the_service_logs_json_for_the_filters(default: Any) -> None:
    assert default.stack.settings_env["DOCCHAT_LOG_JSON"] == "true"
