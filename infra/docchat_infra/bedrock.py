"""Which Bedrock ARNs a role may invoke: exactly the configured models, nothing else.

A model id is either a foundation model (``amazon.titan-embed-text-v2:0``) or a cross-region inference
profile (``us.anthropic.claude-sonnet-4-5-20250929-v1:0``). Invoking through a profile needs permission on the
profile *and* on the underlying foundation model in every region the profile may route to; the latter is
granted only when the call comes through that profile (``bedrock:InferenceProfileArn`` condition), which is
the pattern the Bedrock user guide recommends.
"""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import Aws
from aws_cdk import aws_iam as iam

INVOKE_ACTIONS = ("bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream")

#: Destination regions of the geographic inference profiles (Bedrock user guide, "Supported Regions and
#: models for inference profiles"). Override with the ``bedrock_profile_regions`` context key when a model's
#: profile routes elsewhere. ``global`` profiles may route to any commercial region.
PROFILE_REGIONS: dict[str, tuple[str, ...]] = {
    "us": ("us-east-1", "us-east-2", "us-west-1", "us-west-2"),
    "eu": ("eu-central-1", "eu-north-1", "eu-south-1", "eu-south-2", "eu-west-1", "eu-west-3"),
    "apac": (
        "ap-northeast-1",
        "ap-northeast-2",
        "ap-northeast-3",
        "ap-south-1",
        "ap-south-2",
        "ap-southeast-1",
        "ap-southeast-2",
        "ap-southeast-4",
    ),
    "jp": ("ap-northeast-1", "ap-northeast-3"),
    "au": ("ap-southeast-2", "ap-southeast-4"),
    "ca": ("ca-central-1", "ca-west-1"),
    "global": ("*",),
}


@dataclass(frozen=True, slots=True)
class ModelTarget:
    """The ARNs one model id needs."""

    model_id: str
    profile_arn: str | None
    foundation_arns: tuple[str, ...]


def split_profile(model_id: str) -> tuple[str | None, str]:
    """``us.anthropic.x`` -> ``("us", "anthropic.x")``; ``amazon.titan…`` -> ``(None, "amazon.titan…")``."""
    head, _, rest = model_id.partition(".")
    if head in PROFILE_REGIONS and rest:
        return head, rest
    return None, model_id


def model_target(model_id: str, *, region: str, account: str, profile_regions: tuple[str, ...] = ()) -> ModelTarget:
    geo, base = split_profile(model_id)
    if geo is None:
        return ModelTarget(model_id, None, (f"arn:aws:bedrock:{region}::foundation-model/{base}",))
    regions = profile_regions or PROFILE_REGIONS[geo]
    profile = f"arn:aws:bedrock:{region}:{account}:inference-profile/{model_id}"
    return ModelTarget(model_id, profile, tuple(f"arn:aws:bedrock:{r}::foundation-model/{base}" for r in regions))


def invoke_statements(
    model_ids: tuple[str, ...], *, region: str | None = None, profile_regions: tuple[str, ...] = ()
) -> list[iam.PolicyStatement]:
    """Policy statements allowing ``InvokeModel*`` on ``model_ids`` only (deduplicated, ordered)."""
    region = region or Aws.REGION
    statements: list[iam.PolicyStatement] = []
    direct: list[str] = []
    for model_id in dict.fromkeys(model_ids):
        target = model_target(model_id, region=region, account=Aws.ACCOUNT_ID, profile_regions=profile_regions)
        if target.profile_arn is None:
            direct.extend(target.foundation_arns)
            continue
        statements.append(iam.PolicyStatement(actions=list(INVOKE_ACTIONS), resources=[target.profile_arn]))
        statements.append(
            iam.PolicyStatement(
                actions=list(INVOKE_ACTIONS),
                resources=list(target.foundation_arns),
                conditions={"StringEquals": {"bedrock:InferenceProfileArn": target.profile_arn}},
            )
        )
    if direct:
        statements.insert(0, iam.PolicyStatement(actions=list(INVOKE_ACTIONS), resources=direct))
    return statements
