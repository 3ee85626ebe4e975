"""The retrieval index: an OpenSearch Serverless vector-search collection (default) or a managed domain.

Serverless: an encryption policy (AWS-owned key), a network policy that admits only this VPC's interface
endpoint (no public access), and a data-access policy naming exactly the two task roles, limited to the
collection and to indexes named after ``Settings.opensearch_index``.

Managed domain (``-c search=domain``): cheaper when idle (one small node instead of the serverless OCU
floor), in the private subnets, encrypted at rest and in transit, HTTPS only, IAM-signed requests from the
two task roles only.
"""

from __future__ import annotations

from aws_cdk import RemovalPolicy, Stack
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_iam as iam
from aws_cdk import aws_opensearchserverless as aoss
from aws_cdk import aws_opensearchservice as opensearch
from constructs import Construct

from .config import InfraConfig
from .network import Network
from .roles import AppRoles

COLLECTION_PERMISSIONS = ("aoss:DescribeCollectionItems", "aoss:CreateCollectionItems", "aoss:UpdateCollectionItems")
INDEX_PERMISSIONS = (
    "aoss:CreateIndex",
    "aoss:DescribeIndex",
    "aoss:UpdateIndex",
    "aoss:ReadDocument",
    "aoss:WriteDocument",
)
DOMAIN_HTTP_ACTIONS = ("es:ESHttpGet", "es:ESHttpHead", "es:ESHttpPost", "es:ESHttpPut", "es:ESHttpDelete")


class SearchBackend(Construct):
    """Exposes ``endpoint`` (``https://…``) and ``service`` (``aoss`` | ``es``) for the settings."""

    endpoint: str
    service: str

    def __init__(
        self, scope: Construct, construct_id: str, *, config: InfraConfig, network: Network, roles: AppRoles
    ) -> None:
        super().__init__(scope, construct_id)
        self.security_group = ec2.SecurityGroup(
            self, "SecurityGroup", vpc=network.vpc, description="docchat search endpoint (HTTPS from app tasks)"
        )
        for group in network.app_security_groups:
            self.security_group.add_ingress_rule(group, ec2.Port.tcp(443), "HTTPS from docchat tasks")
        if config.search == "domain":
            self._domain(config, network, roles)
        else:
            self._serverless(config, network, roles)

    # ----------------------------------------------------------------------------------------------------
    def _serverless(self, config: InfraConfig, network: Network, roles: AppRoles) -> None:
        name = config.search_name
        stack = Stack.of(self)
        collection_rule = {"ResourceType": "collection", "Resource": [f"collection/{name}"]}
        encryption = aoss.CfnSecurityPolicy(
            self,
            "EncryptionPolicy",
            name=f"{name}-enc",
            type="encryption",
            policy=stack.to_json_string({"Rules": [collection_rule], "AWSOwnedKey": True}),
        )
        subnet_ids = network.vpc.select_subnets(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS).subnet_ids
        self.vpc_endpoint = aoss.CfnVpcEndpoint(
            self,
            "VpcEndpoint",
            name=f"{name}-vpce",
            vpc_id=network.vpc.vpc_id,
            subnet_ids=subnet_ids,
            security_group_ids=[self.security_group.security_group_id],
        )
        network_policy = aoss.CfnSecurityPolicy(
            self,
            "NetworkPolicy",
            name=f"{name}-net",
            type="network",
            policy=stack.to_json_string(
                [{"Rules": [collection_rule], "AllowFromPublic": False, "SourceVPCEs": [self.vpc_endpoint.attr_id]}]
            ),
        )
        self.collection = aoss.CfnCollection(
            self,
            "Collection",
            name=name,
            type="VECTORSEARCH",
            standby_replicas="ENABLED" if config.search_standby_replicas else "DISABLED",
            description="docchat chunk index (k-NN + BM25)",
        )
        self.collection.node.add_dependency(encryption)
        self.collection.node.add_dependency(network_policy)
        self.collection.apply_removal_policy(
            RemovalPolicy.RETAIN if config.deletion_protection else RemovalPolicy.DESTROY
        )
        index_prefix = config.settings.retrieval.opensearch_index
        aoss.CfnAccessPolicy(
            self,
            "DataAccessPolicy",
            name=f"{name}-access",
            type="data",
            description="docchat task roles: the collection and its chunk indexes only",
            policy=stack.to_json_string(
                [
                    {
                        "Rules": [
                            {**collection_rule, "Permission": list(COLLECTION_PERMISSIONS)},
                            {
                                "ResourceType": "index",
                                "Resource": [f"index/{name}/{index_prefix}*"],
                                "Permission": list(INDEX_PERMISSIONS),
                            },
                        ],
                        "Principal": [role.role_arn for role in roles.all],
                    }
                ]
            ),
        )
        for role in roles.all:
            role.add_to_policy(iam.PolicyStatement(actions=["aoss:APIAccessAll"], resources=[self.collection.attr_arn]))
        self.endpoint = self.collection.attr_collection_endpoint
        self.service = "aoss"

    # ----------------------------------------------------------------------------------------------------
    def _domain(self, config: InfraConfig, network: Network, roles: AppRoles) -> None:
        nodes = config.domain_data_nodes
        private = network.vpc.select_subnets(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS).subnets
        self.domain = opensearch.Domain(
            self,
            "Domain",
            version=opensearch.EngineVersion.OPENSEARCH_2_19,
            capacity=opensearch.CapacityConfig(
                data_nodes=nodes,
                data_node_instance_type=config.domain_instance_type,
                multi_az_with_standby_enabled=False,
            ),
            ebs=opensearch.EbsOptions(volume_size=config.domain_volume_gib, volume_type=ec2.EbsDeviceVolumeType.GP3),
            zone_awareness=opensearch.ZoneAwarenessConfig(enabled=nodes > 1, availability_zone_count=2)
            if nodes > 1
            else None,
            vpc=network.vpc,
            vpc_subnets=[ec2.SubnetSelection(subnets=private[: min(nodes, len(private))])],
            security_groups=[self.security_group],
            encryption_at_rest=opensearch.EncryptionAtRestOptions(enabled=True),
            node_to_node_encryption=True,
            enforce_https=True,
            tls_security_policy=opensearch.TLSSecurityPolicy.TLS_1_2,
            removal_policy=RemovalPolicy.RETAIN if config.deletion_protection else RemovalPolicy.DESTROY,
        )
        paths = [self.domain.domain_arn, f"{self.domain.domain_arn}/*"]
        # No resource policy: in a VPC domain, access is then decided by identity policies alone, and only the
        # two task roles hold one for this domain.
        for role in roles.all:
            role.add_to_policy(iam.PolicyStatement(actions=list(DOMAIN_HTTP_ACTIONS), resources=paths))
        self.endpoint = f"https://{self.domain.domain_endpoint}"
        self.service = "es"
