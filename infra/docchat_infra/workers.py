"""Ingest workers: ECS tasks on GPU instances (g6/g5, ECS GPU-optimised AMI), scaled on queue depth.

Two loops, both reaching zero:

* **Tasks** follow the backlog of both queues (visible + in-flight messages): one task as soon as anything
  is waiting, one more per ``worker_backlog_per_task`` messages, up to ``worker_max_tasks``; after
  ``worker_idle_minutes`` with an empty backlog the service goes to zero tasks.
* **Instances** follow the tasks: the ECS capacity provider's managed scaling launches a GPU instance when a
  task cannot be placed and terminates instances with no tasks (the group's minimum is zero). Managed
  termination protection keeps an instance that still runs a task.

Each task takes the instance's one GPU, so tasks = instances. Inside a task, ``worker_concurrency`` jobs run.

Two worker services share the capacity provider (seed 004's starvation rule):

* the **shared pool** (``Service``) takes both lanes (70/30) and scales on both queues, down to zero;
* the **small-document lane** (``SmallService``) runs ``docchat worker --lanes high`` only, never below
  ``worker_small_min_tasks`` (at least one), scaled on the high queue alone up to ``worker_small_max_tasks``.
  However many 500-page PDFs keep the shared pool busy, a 1-page upload has a worker of its own waiting.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aws_cdk import Duration
from aws_cdk import aws_applicationautoscaling as appscaling
from aws_cdk import aws_autoscaling as autoscaling
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_ecs as ecs
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from constructs import Construct

from .config import InfraConfig
from .images import worker_image
from .network import Network
from .queues import IngestQueues

#: How long a stopping worker may finish its current step before SIGKILL (it releases its job on SIGTERM).
STOP_TIMEOUT = Duration.seconds(120)


#: the small-document lane's command: the high queue only
SMALL_LANE_COMMAND = ("docchat", "worker", "--lanes", "high")


def backlog_steps(per_task: int, max_tasks: int, min_tasks: int = 1) -> list[tuple[int, int]]:
    """``(lowest backlog, tasks)`` pairs: ``max(1, min_tasks)`` tasks from 1 message, then one more task per
    ``per_task`` messages beyond what the tasks already running take."""
    first = max(1, min_tasks)
    steps = [(1, first)]
    for tasks in range(first + 1, max_tasks + 1):
        steps.append(((tasks - 1) * per_task, tasks))
    return steps


class IngestWorkers(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: InfraConfig,
        cluster: ecs.Cluster,
        network: Network,
        queues: IngestQueues,
        task_role: iam.Role,
        environment: Mapping[str, str],
        log_group: logs.LogGroup,
    ) -> None:
        super().__init__(scope, construct_id)
        self.capacity_provider = self._capacity(config, cluster, network)
        image = worker_image()
        self.service = self._service("", config, cluster, network, task_role, environment, log_group, image,
                                     command=None, desired=0)
        self.small_service = self._service("Small", config, cluster, network, task_role, environment, log_group,
                                           image, command=SMALL_LANE_COMMAND, desired=config.worker_small_min_tasks)
        self._scale_on_backlog(config, queues)
        self._scale_small_lane(config, queues)

    def _service(
        self,
        prefix: str,
        config: InfraConfig,
        cluster: ecs.Cluster,
        network: Network,
        task_role: iam.Role,
        environment: Mapping[str, str],
        log_group: logs.LogGroup,
        image: ecs.ContainerImage,
        *,
        command: tuple[str, ...] | None,
        desired: int,
    ) -> ecs.Ec2Service:
        task = ecs.Ec2TaskDefinition(
            self, f"{prefix}TaskDefinition", network_mode=ecs.NetworkMode.AWS_VPC, task_role=task_role
        )
        task.add_container(
            "worker",
            image=image,
            cpu=config.worker_cpu,
            memory_reservation_mib=config.worker_memory_mib,
            gpu_count=1,
            command=list(command) if command else None,
            environment=dict(environment),
            logging=ecs.LogDrivers.aws_logs(stream_prefix=f"{prefix.lower()}-worker" if prefix else "worker",
                                            log_group=log_group),
            stop_timeout=STOP_TIMEOUT,
        )
        return ecs.Ec2Service(
            self,
            f"{prefix}Service",
            cluster=cluster,
            task_definition=task,
            desired_count=desired,
            min_healthy_percent=0,
            max_healthy_percent=100,
            capacity_provider_strategies=[
                ecs.CapacityProviderStrategy(capacity_provider=self.capacity_provider.capacity_provider_name, weight=1)
            ],
            vpc_subnets=network.private_subnets,
            security_groups=[network.worker_security_group],
            circuit_breaker=ecs.DeploymentCircuitBreaker(enable=True, rollback=True),
        )

    # ----------------------------------------------------------------------------------------------------
    def _capacity(self, config: InfraConfig, cluster: ecs.Cluster, network: Network) -> ecs.AsgCapacityProvider:
        instance_role = iam.Role(
            self,
            "InstanceRole",
            assumed_by=iam.ServicePrincipal("ec2.amazonaws.com"),
            description="docchat GPU container instances (ECS agent only; tasks use their own role)",
        )
        user_data = ec2.UserData.for_linux()
        user_data.add_commands(
            # Tasks must not borrow the instance role through the instance metadata service.
            "echo ECS_AWSVPC_BLOCK_IMDS=true >> /etc/ecs/ecs.config",
            f"echo ECS_CONTAINER_STOP_TIMEOUT={int(STOP_TIMEOUT.to_seconds())}s >> /etc/ecs/ecs.config",
            "echo ECS_ENABLE_SPOT_INSTANCE_DRAINING=true >> /etc/ecs/ecs.config",
        )
        template = ec2.LaunchTemplate(
            self,
            "LaunchTemplate",
            machine_image=ecs.EcsOptimizedImage.amazon_linux2023(hardware_type=ecs.AmiHardwareType.GPU),
            instance_type=ec2.InstanceType(config.worker_instance_types[0]),
            role=instance_role,
            user_data=user_data,
            security_group=network.worker_security_group,
            require_imdsv2=True,
            http_put_response_hop_limit=1,
            block_devices=[
                ec2.BlockDevice(
                    device_name="/dev/xvda",
                    volume=ec2.BlockDeviceVolume.ebs(
                        config.worker_root_volume_gib, volume_type=ec2.EbsDeviceVolumeType.GP3, encrypted=True
                    ),
                )
            ],
        )
        on_demand = 0 if config.worker_spot else 100
        group = autoscaling.AutoScalingGroup(
            self,
            "GpuGroup",
            vpc=network.vpc,
            vpc_subnets=network.private_subnets,
            min_capacity=0,
            # one GPU per task: room for the shared pool and the small-document lane at their maximum
            max_capacity=config.worker_max_tasks + config.worker_small_max_tasks,
            mixed_instances_policy=autoscaling.MixedInstancesPolicy(
                launch_template=template,
                launch_template_overrides=[
                    autoscaling.LaunchTemplateOverrides(instance_type=ec2.InstanceType(t))
                    for t in config.worker_instance_types
                ],
                instances_distribution=autoscaling.InstancesDistribution(
                    on_demand_base_capacity=0,
                    on_demand_percentage_above_base_capacity=on_demand,
                    on_demand_allocation_strategy=autoscaling.OnDemandAllocationStrategy.PRIORITIZED,
                    spot_allocation_strategy=autoscaling.SpotAllocationStrategy.PRICE_CAPACITY_OPTIMIZED,
                ),
            ),
            new_instances_protected_from_scale_in=True,
        )
        provider = ecs.AsgCapacityProvider(
            self,
            "GpuCapacityProvider",
            auto_scaling_group=group,
            enable_managed_scaling=True,
            enable_managed_termination_protection=True,
            target_capacity_percent=100,
            instance_warmup_period=300,
        )
        cluster.add_asg_capacity_provider(provider)
        self.auto_scaling_group = group
        return provider

    # ----------------------------------------------------------------------------------------------------
    def _scale_on_backlog(self, config: InfraConfig, queues: IngestQueues) -> None:
        """The main pool: zero tasks when idle, more on the backlog of both lanes."""
        target = self.service.auto_scale_task_count(min_capacity=0, max_capacity=config.worker_max_tasks)
        self._backlog_scaling(
            config, target, queues.backlog(), low=0, high=config.worker_max_tasks,
            ids=("ScaleOut", "BacklogAlarm", "ScaleToZero", "IdleAlarm"),
            out_text="ingest backlog: run workers", idle_text="ingest backlog empty: scale workers to zero",
        )

    def _scale_small_lane(self, config: InfraConfig, queues: IngestQueues) -> None:
        """The small-document lane: ``worker_small_min_tasks`` always, more on the high queue's backlog alone."""
        low, high = config.worker_small_min_tasks, config.worker_small_max_tasks
        target = self.small_service.auto_scale_task_count(min_capacity=low, max_capacity=high)
        self._backlog_scaling(
            config, target, queues.backlog(lanes=("high",)), low=low, high=high,
            ids=("SmallScaleOut", "SmallBacklogAlarm", "SmallScaleIn", "SmallIdleAlarm"),
            out_text="small-document backlog: grow the small-document lane",
            idle_text="small-document backlog empty: back to the lane's minimum (never zero)",
        )

    def _backlog_scaling(self, config: InfraConfig, target: Any, backlog: cloudwatch.IMetric, *, low: int, high: int,
                         ids: tuple[str, str, str, str], out_text: str, idle_text: str) -> None:
        """Step scaling on ``backlog``: exact task counts by backlog step, back to ``low`` after the idle minutes."""
        out_id, out_alarm_id, in_id, idle_alarm_id = ids
        steps = backlog_steps(config.worker_backlog_per_task, high, low)  # from max(1, low) tasks up
        scale_out = appscaling.StepScalingAction(
            self,
            out_id,
            scaling_target=target,
            adjustment_type=appscaling.AdjustmentType.EXACT_CAPACITY,
            metric_aggregation_type=appscaling.MetricAggregationType.MAXIMUM,
            cooldown=Duration.seconds(60),
        )
        threshold = steps[0][0]
        for i, (lowest, tasks) in enumerate(steps):
            upper = steps[i + 1][0] - threshold if i + 1 < len(steps) else None
            scale_out.add_adjustment(adjustment=tasks, lower_bound=lowest - threshold, upper_bound=upper)
        out_alarm = cloudwatch.Alarm(
            self,
            out_alarm_id,
            metric=backlog,
            threshold=threshold,
            comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            evaluation_periods=1,
            treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
            alarm_description=out_text,
        )
        out_alarm.add_alarm_action(cw_actions.ApplicationScalingAction(scale_out))
        scale_in = appscaling.StepScalingAction(
            self,
            in_id,
            scaling_target=target,
            adjustment_type=appscaling.AdjustmentType.EXACT_CAPACITY,
            metric_aggregation_type=appscaling.MetricAggregationType.MAXIMUM,
            cooldown=Duration.seconds(60),
        )
        scale_in.add_adjustment(adjustment=low, upper_bound=0)
        idle_alarm = cloudwatch.Alarm(
            self,
            idle_alarm_id,
            metric=backlog,
            threshold=0,
            comparison_operator=cloudwatch.ComparisonOperator.LESS_THAN_OR_EQUAL_TO_THRESHOLD,
            evaluation_periods=config.worker_idle_minutes,
            # SQS stops publishing metrics for a queue idle for hours: no data means nothing to do.
            treat_missing_data=cloudwatch.TreatMissingData.BREACHING,
            alarm_description=idle_text,
        )
        idle_alarm.add_alarm_action(cw_actions.ApplicationScalingAction(scale_in))
