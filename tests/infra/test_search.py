"""OpenSearch Serverless collection with its three policies; the managed-domain option."""

from __future__ import annotations

import json
from typing import Any

from docchat_infra.search import INDEX_PERMISSIONS


def _policy(synth, type_name: str, kind: str) -> tuple[dict[str, Any], Any]:
    found = [r["Properties"] for r in synth.resources(type_name).values() if r["Properties"]["Type"] == kind]
    assert len(found) == 1
    return found[0], found[0]["Policy"]


def _resolve_join(value: Any) -> str:
    """Render a ``Fn::Join`` of literals and intrinsics as text (intrinsics as their JSON)."""
    if isinstance(value, str):
        return value
    sep, parts = value["Fn::Join"]
    return sep.join(p if isinstance(p, str) else json.dumps(p) for p in parts)


def test_vector_search_collection_with_standby_replicas(default) -> None:
    props = default.only("AWS::OpenSearchServerless::Collection")
    assert props["Type"] == "VECTORSEARCH"
    assert props["Name"] == default.config.search_name
    assert props["StandbyReplicas"] == "ENABLED"
    collection_id = next(iter(default.resources("AWS::OpenSearchServerless::Collection")))
    depends = default.json["Resources"][collection_id]["DependsOn"]
    assert len(depends) == 2  # encryption and network policies exist before the collection


def test_encryption_policy_covers_the_collection(default) -> None:
    _, policy = _policy(default, "AWS::OpenSearchServerless::SecurityPolicy", "encryption")
    document = json.loads(policy)
    assert document == {
        "Rules": [{"ResourceType": "collection", "Resource": [f"collection/{default.config.search_name}"]}],
        "AWSOwnedKey": True,
    }


def test_network_policy_admits_only_the_vpc_endpoint(default) -> None:
    _, policy = _policy(default, "AWS::OpenSearchServerless::SecurityPolicy", "network")
    text = _resolve_join(policy)
    assert '"AllowFromPublic":false' in text
    endpoint_id = next(iter(default.resources("AWS::OpenSearchServerless::VpcEndpoint")))
    assert json.dumps({"Fn::GetAtt": [endpoint_id, "Id"]}) in text


def test_data_access_policy_names_exactly_the_two_task_roles(default) -> None:
    _, policy = _policy(default, "AWS::OpenSearchServerless::AccessPolicy", "data")
    text = _resolve_join(policy)
    roles = [k for k in default.resources("AWS::IAM::Role") if k.startswith("Roles")]
    assert sorted(roles) == sorted(k for k in roles if "TaskRole" in k) and len(roles) == 2
    for role in roles:
        assert json.dumps({"Fn::GetAtt": [role, "Arn"]}) in text
    assert text.count('"Fn::GetAtt"') == 2
    index = f"index/{default.config.search_name}/{default.config.settings.retrieval.opensearch_index}*"
    assert index in text
    for permission in INDEX_PERMISSIONS:
        assert permission in text
    assert "aoss:*" not in text and "aoss:DeleteIndex" not in text


def test_search_endpoint_accepts_https_from_the_app_tasks_only(default) -> None:
    rules = [r["Properties"] for r in default.resources("AWS::EC2::SecurityGroupIngress").values()]
    search_rules = [r for r in rules if r["GroupId"]["Fn::GetAtt"][0].startswith("SearchSecurityGroup")]
    assert {r["FromPort"] for r in search_rules} == {443}
    sources = {r["SourceSecurityGroupId"]["Fn::GetAtt"][0] for r in search_rules}
    assert len(sources) == 2 and all(
        s.startswith(("NetworkApiSecurityGroup", "NetworkWorkerSecurityGroup")) for s in sources
    )


def test_managed_domain_option_is_private_and_encrypted(alt) -> None:
    assert not alt.resources("AWS::OpenSearchServerless::Collection")
    props = alt.only("AWS::OpenSearchService::Domain")
    assert props["EncryptionAtRestOptions"]["Enabled"] is True
    assert props["NodeToNodeEncryptionOptions"]["Enabled"] is True
    assert props["DomainEndpointOptions"]["EnforceHTTPS"] is True
    assert props["DomainEndpointOptions"]["TLSSecurityPolicy"] == "Policy-Min-TLS-1-2-2019-07"
    assert props["VPCOptions"]["SubnetIds"]
    assert props["EngineVersion"].startswith("OpenSearch_")
    assert "AccessPolicies" not in props  # identity policies of the two task roles decide
