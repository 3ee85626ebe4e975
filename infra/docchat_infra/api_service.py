"""The chat/API service: Litestar on ECS Fargate behind an Application Load Balancer.

* The ALB idle timeout is long (``alb_idle_timeout_seconds``) so an SSE answer is never cut mid-stream; the
  app sends a keep-alive comment every ``sse_keepalive_seconds`` well inside it.
* Target health check: ``GET /healthz`` (unauthenticated, cheap).
* Autoscaling on CPU and on requests per target; deployments roll back on failed health checks.
* Deregistration delay leaves running answers time to finish during a deploy or scale-in.
"""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import Duration
from aws_cdk import aws_certificatemanager as acm
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_ecs as ecs
from aws_cdk import aws_ecs_patterns as ecs_patterns
from aws_cdk import aws_elasticloadbalancingv2 as elbv2
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from constructs import Construct

from .config import InfraConfig
from .images import api_image
from .network import Network

HEALTH_CHECK_PATH = "/healthz"
DEREGISTRATION_DELAY = Duration.seconds(120)


class ApiService(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: InfraConfig,
        cluster: ecs.Cluster,
        network: Network,
        task_role: iam.Role,
        environment: Mapping[str, str],
        log_group: logs.LogGroup,
    ) -> None:
        super().__init__(scope, construct_id)
        port = config.settings.server.port
        certificate = (
            acm.Certificate.from_certificate_arn(self, "Certificate", config.certificate_arn)
            if config.certificate_arn
            else None
        )
        lb_security_group = ec2.SecurityGroup(
            self, "LoadBalancerSecurityGroup", vpc=network.vpc, description="docchat ALB", allow_all_outbound=False
        )
        listener_port = 443 if certificate else 80
        lb_security_group.add_ingress_rule(ec2.Peer.ipv4(config.allowed_cidr), ec2.Port.tcp(listener_port), "clients")
        if certificate:
            lb_security_group.add_ingress_rule(
                ec2.Peer.ipv4(config.allowed_cidr), ec2.Port.tcp(80), "redirect to HTTPS"
            )
        load_balancer = elbv2.ApplicationLoadBalancer(
            self,
            "LoadBalancer",
            vpc=network.vpc,
            internet_facing=True,
            security_group=lb_security_group,
            idle_timeout=Duration.seconds(config.alb_idle_timeout_seconds),
            drop_invalid_header_fields=True,
        )
        self.service = ecs_patterns.ApplicationLoadBalancedFargateService(
            self,
            "Service",
            cluster=cluster,
            load_balancer=load_balancer,
            open_listener=False,
            certificate=certificate,
            protocol=elbv2.ApplicationProtocol.HTTPS if certificate else elbv2.ApplicationProtocol.HTTP,
            redirect_http=certificate is not None,
            ssl_policy=elbv2.SslPolicy.RECOMMENDED_TLS if certificate else None,
            domain_name=None,
            cpu=config.api_cpu,
            memory_limit_mib=config.api_memory_mib,
            desired_count=config.api_min_tasks,
            min_healthy_percent=100,
            max_healthy_percent=200,
            circuit_breaker=ecs.DeploymentCircuitBreaker(enable=True, rollback=True),
            runtime_platform=ecs.RuntimePlatform(
                cpu_architecture=ecs.CpuArchitecture.X86_64,
                operating_system_family=ecs.OperatingSystemFamily.LINUX,
            ),
            task_subnets=network.private_subnets,
            security_groups=[network.api_security_group],
            assign_public_ip=False,
            health_check_grace_period=Duration.seconds(60),
            task_image_options=ecs_patterns.ApplicationLoadBalancedTaskImageOptions(
                image=api_image(),
                container_name="api",
                container_port=port,
                environment=dict(environment),
                task_role=task_role,
                log_driver=ecs.LogDrivers.aws_logs(stream_prefix="api", log_group=log_group),
            ),
        )
        # The pattern publishes its own DNS/URL outputs; the stack publishes ServiceUrl instead (one name for
        # it, whether or not a custom domain is configured).
        for pattern_output in ("LoadBalancerDNS", "ServiceURL"):
            self.service.node.try_remove_child(pattern_output)
        target_group = self.service.target_group
        target_group.configure_health_check(
            path=HEALTH_CHECK_PATH,
            healthy_http_codes="200",
            interval=Duration.seconds(15),
            timeout=Duration.seconds(5),
            healthy_threshold_count=2,
            unhealthy_threshold_count=3,
        )
        target_group.set_attribute("deregistration_delay.timeout_seconds", str(DEREGISTRATION_DELAY.to_seconds()))
        network.api_security_group.add_ingress_rule(lb_security_group, ec2.Port.tcp(port), "from the ALB")
        lb_security_group.add_egress_rule(network.api_security_group, ec2.Port.tcp(port), "to the API tasks")

        scaling = self.service.service.auto_scale_task_count(
            min_capacity=config.api_min_tasks, max_capacity=config.api_max_tasks
        )
        scaling.scale_on_cpu_utilization(
            "CpuScaling",
            target_utilization_percent=config.api_cpu_target_percent,
            scale_in_cooldown=Duration.minutes(5),
            scale_out_cooldown=Duration.minutes(1),
        )
        scaling.scale_on_request_count(
            "RequestScaling",
            requests_per_target=config.api_requests_per_target,
            target_group=target_group,
            scale_in_cooldown=Duration.minutes(5),
            scale_out_cooldown=Duration.minutes(1),
        )
        self.load_balancer = load_balancer
        scheme = "https" if certificate else "http"
        host = config.domain_name or load_balancer.load_balancer_dns_name
        self.url = f"{scheme}://{host}"
