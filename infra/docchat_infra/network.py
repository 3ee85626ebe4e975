"""VPC: public subnets for the load balancer and NAT, private subnets for every task and instance.

S3 and DynamoDB are reached through (free) gateway endpoints, so document bytes and item traffic never pay
NAT data processing; Bedrock, SQS, ECR, CloudWatch Logs and Cognito's JWKS go out through the NAT gateway.
"""

from __future__ import annotations

from aws_cdk import aws_ec2 as ec2
from constructs import Construct

from .config import InfraConfig


class Network(Construct):
    def __init__(self, scope: Construct, construct_id: str, *, config: InfraConfig) -> None:
        super().__init__(scope, construct_id)
        self.vpc = ec2.Vpc(
            self,
            "Vpc",
            max_azs=config.max_azs,
            nat_gateways=config.nat_gateways,
            subnet_configuration=[
                ec2.SubnetConfiguration(name="public", subnet_type=ec2.SubnetType.PUBLIC, cidr_mask=24),
                ec2.SubnetConfiguration(name="private", subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS, cidr_mask=20),
            ],
            gateway_endpoints={
                "S3": ec2.GatewayVpcEndpointOptions(service=ec2.GatewayVpcEndpointAwsService.S3),
                "DynamoDB": ec2.GatewayVpcEndpointOptions(service=ec2.GatewayVpcEndpointAwsService.DYNAMODB),
            },
        )
        self.private_subnets = ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS)
        #: The API tasks (inbound only from the load balancer, added by the API construct).
        self.api_security_group = ec2.SecurityGroup(
            self, "ApiSecurityGroup", vpc=self.vpc, description="docchat API tasks"
        )
        #: The ingest worker tasks: no inbound at all.
        self.worker_security_group = ec2.SecurityGroup(
            self, "WorkerSecurityGroup", vpc=self.vpc, description="docchat ingest worker tasks"
        )

    @property
    def app_security_groups(self) -> tuple[ec2.SecurityGroup, ec2.SecurityGroup]:
        """Everything that may call the search backend."""
        return (self.api_security_group, self.worker_security_group)
