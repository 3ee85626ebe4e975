"""The docchat stack: storage, queues, search, auth, the API service and the GPU ingest workers.

Environment-agnostic (no account/region baked in): ``cdk synth`` runs offline, ``cdk deploy`` targets the
account and region of the caller's credentials.
"""

from __future__ import annotations

from aws_cdk import Aws, CfnOutput, Duration, Environment, RemovalPolicy, Stack
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_ecs as ecs
from aws_cdk import aws_logs as logs
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from constructs import Construct

from store.config import Settings, setting_fields
from store.schema import SESSIONS_TABLE, WORKFLOW_TABLE

from .api_service import ApiService
from .auth import Auth
from .bedrock import invoke_statements
from .config import STACK_OWNED_SETTINGS, InfraConfig
from .network import Network
from .observability import Observability
from .outputs import env_var, output_key
from .queues import IngestQueues
from .roles import AppRoles, allow_consume, allow_items, allow_objects, allow_send, allow_statements
from .search import SearchBackend
from .storage import Storage
from .workers import IngestWorkers

#: Settings every container gets spelled out, even at their default, so a deployment is self-describing and
#: the infrastructure's assumptions (visibility, redrive count, TTL, models) are visible next to each other.
ALWAYS_EXPLICIT = (
    "session_ttl_days",
    "queue_max_receives",
    "embedding_model_id",
    "embedding_dimension",
    "opensearch_index",
    "bedrock_model_id",
    "bedrock_title_model_id",
)


#: Settings that describe the container itself, not the deployment: not published as outputs.
CONTAINER_ONLY = frozenset({"host", "port", "log_json"})


def _env_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def settings_environment(config: InfraConfig, resources: dict[str, str]) -> dict[str, str]:
    """``DOCCHAT_*`` for the containers: the stack's resources, then every tunable setting that differs from
    its default (so ``-c max_pages=500`` reaches the service), then the ones always spelled out."""
    env = {env_var(name): value for name, value in resources.items()}
    defaults = Settings()
    for f in setting_fields():
        if f.name in STACK_OWNED_SETTINGS:
            continue
        value = config.settings.get(f.name)
        if value is None:
            continue
        if f.name in ALWAYS_EXPLICIT or value != defaults.get(f.name):
            env[env_var(f.name)] = _env_value(value)
    env[env_var("queue_visibility_seconds")] = str(config.queue_visibility_seconds)
    env[env_var("log_json")] = "true"
    return dict(sorted(env.items()))


class DocchatStack(Stack):
    def __init__(
        self, scope: Construct, construct_id: str, *, config: InfraConfig, env: Environment | None = None
    ) -> None:
        super().__init__(scope, construct_id, description="docchat: chat with your documents", env=env)
        self.config = config
        s = config.settings
        network = Network(self, "Network", config=config)
        roles = AppRoles(self, "Roles")
        storage = Storage(self, "Storage", config=config)
        queues = IngestQueues(self, "Queues", config=config)
        search = SearchBackend(self, "Search", config=config, network=network, roles=roles)
        auth = Auth(self, "Auth", config=config)

        # --- least privilege: what each process touches, nothing more -------------------------------------
        allow_items(roles.api, [(storage.workflow_table, WORKFLOW_TABLE), (storage.sessions_table, SESSIONS_TABLE)])
        allow_items(roles.worker, [(storage.workflow_table, WORKFLOW_TABLE)])
        allow_objects(roles.api, [storage.documents_bucket, storage.sessions_bucket])
        allow_objects(roles.worker, [storage.documents_bucket])
        allow_send(roles.api, queues.queues)
        allow_consume(roles.worker, queues.queues)
        allow_consume(roles.api, queues.dead_letter_queues)  # the operators' /v1/ops/dlq list and redrive
        bedrock_region = s.aws.bedrock_region
        allow_statements(
            roles.api,
            invoke_statements(
                (s.chat.bedrock_model_id, s.chat.bedrock_title_model_id, s.retrieval.embedding_model_id),
                region=bedrock_region,
                profile_regions=config.bedrock_profile_regions,
            ),
        )
        allow_statements(
            roles.worker,
            invoke_statements(
                (s.retrieval.embedding_model_id,),
                region=bedrock_region,
                profile_regions=config.bedrock_profile_regions,
            ),
        )

        # --- settings: one dict feeds the containers and the outputs ---------------------------------------
        resources = {
            "backend": "aws",
            "host": "0.0.0.0",  # noqa: S104 - inside the task's network namespace, behind the ALB
            "port": str(s.server.port),
            "aws_region": Aws.REGION,
            "workflow_table": storage.workflow_table.table_name,
            "sessions_table": storage.sessions_table.table_name,
            "documents_bucket": storage.documents_bucket.bucket_name,
            "sessions_bucket": storage.sessions_bucket.bucket_name,
            "queue_high_url": queues.high.queue_url,
            "queue_low_url": queues.low.queue_url,
            "embedder": "bedrock",
            "index_backend": "opensearch",
            "opensearch_endpoint": search.endpoint,
            "opensearch_service": search.service,
            "chat_model": "bedrock",
            "cognito_region": Aws.REGION,
            "cognito_user_pool_id": auth.user_pool.user_pool_id,
            "cognito_client_id": auth.client.user_pool_client_id,
            "cognito_domain": auth.domain_url,
        }
        environment = settings_environment(config, resources)
        self.settings_env = environment

        cluster = ecs.Cluster(self, "Cluster", vpc=network.vpc, container_insights_v2=ecs.ContainerInsights.DISABLED)
        retention = _retention(config.log_retention_days)
        api_logs = logs.LogGroup(self, "ApiLogs", retention=retention, removal_policy=RemovalPolicy.DESTROY)
        worker_logs = logs.LogGroup(self, "WorkerLogs", retention=retention, removal_policy=RemovalPolicy.DESTROY)
        api = ApiService(
            self,
            "Api",
            config=config,
            cluster=cluster,
            network=network,
            task_role=roles.api,
            environment=environment,
            log_group=api_logs,
        )
        worker_env = dict(environment)
        worker_env[env_var("worker_concurrency")] = str(s.queue.worker_concurrency)
        worker_env[env_var("ocr_engine")] = "paddle"  # the worker image ships PaddleOCR on the GPU
        IngestWorkers(
            self,
            "Workers",
            config=config,
            cluster=cluster,
            network=network,
            queues=queues,
            task_role=roles.worker,
            environment=worker_env,
            log_group=worker_logs,
        )
        topic = self._dead_letter_alarms(config, queues)
        Observability(self, "Observability", queues=queues, api_logs=api_logs, worker_logs=worker_logs,
                      topic=topic)  # the operations dashboard and alarms (issue 17)

        # --- outputs ---------------------------------------------------------------------------------------
        # every setting the service runs with, except the container's own (where it listens, log format), so
        # `python -m docchat_infra.outputs` reproduces the service's settings on a laptop
        for key, value in environment.items():
            name = key.removeprefix("DOCCHAT_").lower()
            if name not in CONTAINER_ONLY:
                CfnOutput(self, output_key(name), value=value, description=key)
        CfnOutput(self, "ServiceUrl", value=api.url, description="the web UI and API")
        CfnOutput(self, "HighDeadLetterQueueUrl", value=queues.high_dlq.queue_url, description="failed high jobs")
        CfnOutput(self, "LowDeadLetterQueueUrl", value=queues.low_dlq.queue_url, description="failed low jobs")
        CfnOutput(self, "ApiLogGroup", value=api_logs.log_group_name, description="API logs")
        CfnOutput(self, "WorkerLogGroup", value=worker_logs.log_group_name, description="worker logs")

    def _dead_letter_alarms(self, config: InfraConfig, queues: IngestQueues) -> sns.Topic:
        topic = sns.Topic(self, "AlarmTopic", enforce_ssl=True)
        if config.alarm_email:
            topic.add_subscription(subscriptions.EmailSubscription(config.alarm_email))
        for name, dlq in (("High", queues.high_dlq), ("Low", queues.low_dlq)):
            alarm = cloudwatch.Alarm(
                self,
                f"{name}DeadLetterAlarm",
                metric=dlq.metric_approximate_number_of_messages_visible(
                    period=Duration.minutes(5), statistic="Maximum"
                ),
                threshold=1,
                comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                evaluation_periods=1,
                treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
                alarm_description=f"ingest jobs reached the {name.lower()} dead-letter queue",
            )
            alarm.add_alarm_action(cw_actions.SnsAction(topic))
        return topic


_RETENTION = {
    1: logs.RetentionDays.ONE_DAY,
    3: logs.RetentionDays.THREE_DAYS,
    7: logs.RetentionDays.ONE_WEEK,
    14: logs.RetentionDays.TWO_WEEKS,
    30: logs.RetentionDays.ONE_MONTH,
    90: logs.RetentionDays.THREE_MONTHS,
    180: logs.RetentionDays.SIX_MONTHS,
    365: logs.RetentionDays.ONE_YEAR,
}


def _retention(days: int) -> logs.RetentionDays:
    """The shortest CloudWatch retention that keeps at least ``days`` days (capped at a year)."""
    for limit, value in _RETENTION.items():
        if limit >= days:
            return value
    return logs.RetentionDays.ONE_YEAR
