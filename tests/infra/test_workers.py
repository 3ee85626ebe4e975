"""GPU ingest workers: ECS capacity provider on g6/g5 with the GPU AMI, queue-depth scaling to zero."""

from __future__ import annotations

import json

import pytest
from docchat_infra.workers import backlog_steps


def test_backlog_steps() -> None:
    assert backlog_steps(10, 1) == [(1, 1)]
    assert backlog_steps(10, 4) == [(1, 1), (10, 2), (20, 3), (30, 4)]
    assert backlog_steps(10, 4, 2) == [(1, 2), (20, 3), (30, 4)]  # two run anyway: the third from 20 messages


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
    assert group["MaxSize"] == str(default.config.worker_max_tasks + default.config.worker_small_max_tasks)
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
    assert len(tasks) == 2  # the shared pool and the small-document lane
    for task in tasks:
        container = task["ContainerDefinitions"][0]
        assert container["ResourceRequirements"] == [{"Type": "GPU", "Value": "1"}]
        env = {e["Name"]: e["Value"] for e in container["Environment"]}
        assert env["DOCCHAT_OCR_ENGINE"] == "paddle"
    shared, _ = _worker_services(default)
    assert shared["DesiredCount"] == 0
    provider_id = next(iter(default.resources("AWS::ECS::CapacityProvider")))
    assert shared["CapacityProviderStrategy"][0]["CapacityProvider"] == {"Ref": provider_id}


def _worker_services(synth) -> tuple[dict, dict]:
    """(shared pool, small-document lane): the two ECS services on the GPU capacity provider."""
    services = {k: s["Properties"] for k, s in synth.resources("AWS::ECS::Service").items()
                if "CapacityProviderStrategy" in s["Properties"]}
    assert len(services) == 2, sorted(services)
    small = next(v for k, v in services.items() if "SmallService" in k)
    shared = next(v for k, v in services.items() if "SmallService" not in k)
    return shared, small


def _command(synth, service: dict) -> list[str] | None:
    task = synth.json["Resources"][service["TaskDefinition"]["Ref"]]["Properties"]
    return task["ContainerDefinitions"][0].get("Command")


@pytest.mark.parametrize("variant", ["default", "alt"])
def test_a_small_document_lane_of_its_own_never_below_its_minimum(variant: str, synthesized) -> None:
    """Seed 004's starvation rule: a worker service on the high queue only, always running, scaled on that queue
    alone — so a big PDF on the shared pool never holds up a small upload until autoscaling adds a task."""
    synth = synthesized[variant]
    cfg = synth.config
    assert cfg.worker_small_min_tasks >= 1
    shared, small = _worker_services(synth)
    assert _command(synth, small) == ["docchat", "worker", "--lanes", "high"]
    assert _command(synth, shared) is None  # the image's `docchat worker`: both lanes, 70/30
    assert small["DesiredCount"] == cfg.worker_small_min_tasks
    assert small["CapacityProviderStrategy"] == shared["CapacityProviderStrategy"]
    targets = [t["Properties"] for t in synth.resources("AWS::ApplicationAutoScaling::ScalableTarget").values()]
    small_target = next(t for t in targets if "SmallService" in json.dumps(t["ResourceId"]))
    assert small_target["MinCapacity"] == cfg.worker_small_min_tasks >= 1
    assert small_target["MaxCapacity"] == cfg.worker_small_max_tasks
    policies = _step_policies(synth)
    small_in = next(p for k, p in policies.items() if "SmallScaleIn" in k)
    assert small_in["StepAdjustments"] == [{"MetricIntervalUpperBound": 0,
                                            "ScalingAdjustment": cfg.worker_small_min_tasks}]  # never to zero
    small_out = next(p for k, p in policies.items() if "SmallScaleOut" in k)
    assert small_out["StepAdjustments"][0]["ScalingAdjustment"] >= cfg.worker_small_min_tasks
    high = {k for k in synth.resources("AWS::SQS::Queue") if "HighQueue" in k}
    small_alarms = {k: a for k, a in _backlog_alarms(synth).items() if "Small" in k}
    assert len(small_alarms) == 2 and len(high) == 1
    for alarm in small_alarms.values():  # the lane scales on the high queue only
        assert _alarm_queues(alarm) == high


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
        if t["Properties"]["MinCapacity"] == 0 and "SmallService" not in json.dumps(t["Properties"]["ResourceId"])
    )
    assert target["MaxCapacity"] == cfg.worker_max_tasks
    policies = _step_policies(synth)
    out = next(p for k, p in policies.items() if "ScaleOut" in k and "Small" not in k)
    zero = next(p for k, p in policies.items() if "ScaleToZero" in k)
    assert out["AdjustmentType"] == zero["AdjustmentType"] == "ExactCapacity"
    assert [s["ScalingAdjustment"] for s in out["StepAdjustments"]] == list(range(1, cfg.worker_max_tasks + 1))
    assert zero["StepAdjustments"] == [{"MetricIntervalUpperBound": 0, "ScalingAdjustment": 0}]

    alarms = {k: a for k, a in _backlog_alarms(synth).items() if "Small" not in k}
    assert len(alarms) == 2
    queue_ids = {k for k in synth.resources("AWS::SQS::Queue") if "DeadLetter" not in k}
    for alarm in alarms.values():
        assert _alarm_queues(alarm) == queue_ids
        stats = [m["MetricStat"]["Metric"] for m in alarm["Metrics"] if "MetricStat" in m]
        assert {m["MetricName"] for m in stats} == {
            "ApproximateNumberOfMessagesVisible",
            "ApproximateNumberOfMessagesNotVisible",
        }
    idle = next(a for k, a in alarms.items() if "Idle" in k)
    assert idle["EvaluationPeriods"] == cfg.worker_idle_minutes
    assert idle["Threshold"] == 0 and idle["TreatMissingData"] == "breaching"


def _backlog_alarms(synth) -> dict[str, dict]:
    return {k: a["Properties"] for k, a in synth.resources("AWS::CloudWatch::Alarm").items()
            if "Metrics" in a["Properties"] and k.startswith("Workers")}  # not the dashboard's failure-rate alarm


def _alarm_queues(alarm: dict) -> set[str]:
    stats = [m["MetricStat"]["Metric"] for m in alarm["Metrics"] if "MetricStat" in m]
    return {m["Dimensions"][0]["Value"]["Fn::GetAtt"][0] for m in stats}
