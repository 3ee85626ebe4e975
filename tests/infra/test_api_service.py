"""The API on Fargate behind an ALB: SSE-friendly idle timeout, /healthz, autoscaling, HTTPS option."""

from __future__ import annotations

from aws_cdk.assertions import Match
from docchat_infra.api_service import HEALTH_CHECK_PATH


def _lb_attributes(synth) -> dict[str, str]:
    props = synth.only("AWS::ElasticLoadBalancingV2::LoadBalancer")
    return {a["Key"]: a["Value"] for a in props["LoadBalancerAttributes"]}


def test_idle_timeout_outlasts_sse_keepalives(default) -> None:
    idle = int(_lb_attributes(default)["idle_timeout.timeout_seconds"])
    assert idle == default.config.alb_idle_timeout_seconds
    assert idle >= 4 * default.config.settings.chat.sse_keepalive_seconds
    assert idle >= 300
    assert _lb_attributes(default)["routing.http.drop_invalid_header_fields.enabled"] == "true"


def test_target_health_check_is_healthz(default) -> None:
    props = default.only("AWS::ElasticLoadBalancingV2::TargetGroup")
    assert HEALTH_CHECK_PATH == "/healthz"
    assert props["HealthCheckPath"] == "/healthz"
    assert props["Matcher"] == {"HttpCode": "200"}
    # ECS registers each task on its container port, the one the app listens on
    default.template.has_resource_properties(
        "AWS::ECS::Service",
        {"LoadBalancers": [Match.object_like({"ContainerName": "api",
                                              "ContainerPort": default.config.settings.server.port})]},
    )
    attrs = {a["Key"]: a["Value"] for a in props["TargetGroupAttributes"]}
    assert int(attrs["deregistration_delay.timeout_seconds"]) >= 60


def test_api_autoscales_on_cpu_and_requests(default) -> None:
    cfg = default.config
    targets = [
        t["Properties"]
        for t in default.resources("AWS::ApplicationAutoScaling::ScalableTarget").values()
        if t["Properties"]["MinCapacity"] == cfg.api_min_tasks
    ]
    assert any(t["MaxCapacity"] == cfg.api_max_tasks for t in targets)
    metrics = {
        p["Properties"]["TargetTrackingScalingPolicyConfiguration"]["PredefinedMetricSpecification"][
            "PredefinedMetricType"
        ]: p["Properties"]["TargetTrackingScalingPolicyConfiguration"]["TargetValue"]
        for p in default.resources("AWS::ApplicationAutoScaling::ScalingPolicy").values()
        if p["Properties"]["PolicyType"] == "TargetTrackingScaling"
    }
    assert metrics == {
        "ECSServiceAverageCPUUtilization": cfg.api_cpu_target_percent,
        "ALBRequestCountPerTarget": cfg.api_requests_per_target,
    }


def test_api_runs_on_fargate_in_private_subnets_with_rollback(default) -> None:
    default.template.has_resource_properties(
        "AWS::ECS::Service",
        {
            "LaunchType": "FARGATE",
            "NetworkConfiguration": {"AwsvpcConfiguration": {"AssignPublicIp": "DISABLED"}},
            "DeploymentConfiguration": Match.object_like(
                {"DeploymentCircuitBreaker": {"Enable": True, "Rollback": True}}
            ),
        },
    )
    default.template.has_resource_properties(
        "AWS::ECS::TaskDefinition",
        {"RequiresCompatibilities": ["FARGATE"], "Cpu": str(default.config.api_cpu)},
    )


def test_default_listener_is_http_and_alt_is_https_with_redirect(default, alt) -> None:
    listeners = [r["Properties"] for r in default.resources("AWS::ElasticLoadBalancingV2::Listener").values()]
    assert [(x["Port"], x["Protocol"]) for x in listeners] == [(80, "HTTP")]
    listeners = [r["Properties"] for r in alt.resources("AWS::ElasticLoadBalancingV2::Listener").values()]
    by_port = {x["Port"]: x for x in listeners}
    assert by_port[443]["Protocol"] == "HTTPS"
    assert by_port[443]["Certificates"] == [{"CertificateArn": alt.config.certificate_arn}]
    assert by_port[80]["DefaultActions"][0]["Type"] == "redirect"
    assert alt.json["Outputs"]["ServiceUrl"]["Value"] == "https://chat.example.com"


def test_load_balancer_only_reaches_the_api_port(default) -> None:
    egress = [r["Properties"] for r in default.resources("AWS::EC2::SecurityGroupEgress").values()]
    assert egress and all(e["FromPort"] == default.config.settings.server.port for e in egress)
