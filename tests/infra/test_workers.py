"""GPU ingest workers: ECS capacity provider on g6/g5 with the GPU AMI, queue-depth scaling to zero."""

from __future__ import annotations

import pytest
from docchat_infra.workers import backlog_steps


def test_backlog_steps() -> None:
    assert backlog_steps(10, 1) == [(1, 1)]
    assert backlog_steps(10, 4) == [(1, 1), (10, 2), (20, 3), (30, 4)]


def test_gpu_instances_from_the_ecs_gpu_ami(default) -> None:
    template = default.only("AWS::EC2::LaunchTemplate")["LaunchTemplateData"]
    param = template["ImageId"]["Ref"]
    assert "gpu" in param.lower() and "ecsoptimizedami" in param.lower()
    assert default.json["Parameters"][param]["Default"].startswith("/aws/service/ecs/optimized-ami/")
    assert "/gpu/" in default.json["Parameters"][param]["Default"]
    assert template["MetadataOptions"]["HttpTokens"] == "required"
    assert template["BlockDeviceMappings"][0]["Ebs"]["Encrypted"] is True
    group = default.only("AWS::AutoScaling::AutoScalingGroup")
    assert group["MinSize"] == "0"
    assert group["MaxSize"] == str(default.config.worker_max_tasks)
    overrides = [o["InstanceType"] for o in group["MixedInstancesPolicy"]["LaunchTemplate"]["Overrides"]]
    assert overrides == ["g6.xlarge", "g5.xlarge"]
    assert group["MixedInstancesPolicy"]["InstancesDistribution"]["OnDemandPercentageAboveBaseCapacity"] == 100
    assert group["NewInstancesProtectedFromScaleIn"] is True


def test_spot_option(alt) -> None:
    group = alt.only("AWS::AutoScaling::AutoScalingGroup")
    assert group["MixedInstancesPolicy"]["InstancesDistribution"]["OnDemandPercentageAboveBaseCapacity"] == 0


def test_capacity_provider_manages_instances(default) -> None:
    provider = default.only("AWS::ECS::CapacityProvider")["AutoScalingGroupProvider"]
    assert provider["ManagedScaling"]["Status"] == "ENABLED"
    assert provider["ManagedScaling"]["TargetCapacity"] == 100
    assert provider["ManagedTerminationProtection"] == "ENABLED"
    user_data = default.only("AWS::EC2::LaunchTemplate")["LaunchTemplateData"]["UserData"]["Fn::Base64"]["Fn::Join"][1]
    text = "".join(p for p in user_data if isinstance(p, str))
    assert "ECS_CLUSTER=" in text
    assert "ECS_AWSVPC_BLOCK_IMDS=true" in text


def test_worker_task_takes_one_gpu_and_runs_on_the_capacity_provider(default) -> None:
    tasks = [
        t["Properties"]
        for t in default.resources("AWS::ECS::TaskDefinition").values()
        if "EC2" in t["Properties"].get("RequiresCompatibilities", [])
    ]
    assert len(tasks) == 1
    container = tasks[0]["ContainerDefinitions"][0]
    assert container["ResourceRequirements"] == [{"Type": "GPU", "Value": "1"}]
    env = {e["Name"]: e["Value"] for e in container["Environment"]}
    assert env["DOCCHAT_OCR_ENGINE"] == "paddle"
    service = next(
        s["Properties"]
        for s in default.resources("AWS::ECS::Service").values()
        if "CapacityProviderStrategy" in s["Properties"]
    )
    assert service["DesiredCount"] == 0
    provider_id = next(iter(default.resources("AWS::ECS::CapacityProvider")))
    assert service["CapacityProviderStrategy"][0]["CapacityProvider"] == {"Ref": provider_id}


def _step_policies(synth) -> dict[str, dict]:
    return {
        k: p["Properties"]["StepScalingPolicyConfiguration"]
        for k, p in synth.resources("AWS::ApplicationAutoScaling::ScalingPolicy").items()
        if p["Properties"]["PolicyType"] == "StepScaling"
    }


@pytest.mark.parametrize("variant", ["default", "alt"])
def test_workers_scale_on_both_queues_and_down_to_zero(variant: str, synthesized) -> None:
    synth = synthesized[variant]
    cfg = synth.config
    target = next(
        t["Properties"]
        for t in synth.resources("AWS::ApplicationAutoScaling::ScalableTarget").values()
        if t["Properties"]["MinCapacity"] == 0
    )
    assert target["MaxCapacity"] == cfg.worker_max_tasks
    policies = _step_policies(synth)
    out = next(p for k, p in policies.items() if "ScaleOut" in k)
    zero = next(p for k, p in policies.items() if "ScaleToZero" in k)
    assert out["AdjustmentType"] == zero["AdjustmentType"] == "ExactCapacity"
    assert [s["ScalingAdjustment"] for s in out["StepAdjustments"]] == list(range(1, cfg.worker_max_tasks + 1))
    assert zero["StepAdjustments"] == [{"MetricIntervalUpperBound": 0, "ScalingAdjustment": 0}]

    alarms = {
        k: a["Properties"] for k, a in synth.resources("AWS::CloudWatch::Alarm").items() if "Metrics" in a["Properties"]
    }
    assert len(alarms) == 2
    queue_ids = {k for k in synth.resources("AWS::SQS::Queue") if "DeadLetter" not in k}
    for alarm in alarms.values():
        stats = [m["MetricStat"]["Metric"] for m in alarm["Metrics"] if "MetricStat" in m]
        assert {m["Dimensions"][0]["Value"]["Fn::GetAtt"][0] for m in stats} == queue_ids
        assert {m["MetricName"] for m in stats} == {
            "ApproximateNumberOfMessagesVisible",
            "ApproximateNumberOfMessagesNotVisible",
        }
    idle = next(a for k, a in alarms.items() if "Idle" in k)
    assert idle["EvaluationPeriods"] == cfg.worker_idle_minutes
    assert idle["Threshold"] == 0 and idle["TreatMissingData"] == "breaching"
