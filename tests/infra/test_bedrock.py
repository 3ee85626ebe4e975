"""Bedrock ARNs: exactly the configured models (pure functions)."""

from __future__ import annotations

from docchat_infra.bedrock import PROFILE_REGIONS, model_target, split_profile


def test_foundation_model_is_one_arn_in_the_bedrock_region() -> None:
    target = model_target("amazon.titan-embed-text-v2:0", region="eu-west-1", account="111122223333")
    assert target.profile_arn is None
    assert target.foundation_arns == ("arn:aws:bedrock:eu-west-1::foundation-model/amazon.titan-embed-text-v2:0",)


def test_inference_profile_needs_the_profile_and_the_model_in_each_destination_region() -> None:
    model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    target = model_target(model, region="us-west-2", account="111122223333")
    assert target.profile_arn == f"arn:aws:bedrock:us-west-2:111122223333:inference-profile/{model}"
    assert target.foundation_arns == tuple(
        f"arn:aws:bedrock:{r}::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0"
        for r in PROFILE_REGIONS["us"]
    )


def test_profile_regions_can_be_overridden() -> None:
    target = model_target("eu.m", region="eu-west-1", account="1", profile_regions=("eu-west-1",))
    assert target.foundation_arns == ("arn:aws:bedrock:eu-west-1::foundation-model/m",)


def test_only_known_geographies_are_profiles() -> None:
    assert split_profile("apac.anthropic.x") == ("apac", "anthropic.x")
    assert split_profile("anthropic.claude-3-haiku") == (None, "anthropic.claude-3-haiku")
    assert split_profile("cohere.embed-multilingual-v3") == (None, "cohere.embed-multilingual-v3")
