"""Cognito user pool and the web/CLI app client."""

from __future__ import annotations


def test_user_pool(default, alt) -> None:
    pool = default.only("AWS::Cognito::UserPool")
    assert pool["DeletionProtection"] == "ACTIVE"
    assert pool["Policies"]["PasswordPolicy"]["MinimumLength"] >= 12
    assert pool["AdminCreateUserConfig"]["AllowAdminCreateUserOnly"] is True
    assert pool["UsernameAttributes"] == ["email"]
    assert alt.only("AWS::Cognito::UserPool")["DeletionProtection"] == "INACTIVE"


def test_public_client_with_code_flow(default) -> None:
    client = default.only("AWS::Cognito::UserPoolClient")
    assert client.get("GenerateSecret", False) is False
    assert client["AllowedOAuthFlows"] == ["code"]
    assert set(client["AllowedOAuthScopes"]) == {"openid", "email", "profile"}
    assert client["CallbackURLs"] == ["http://localhost:8000/"]
    assert "ALLOW_USER_SRP_AUTH" in client["ExplicitAuthFlows"]
    assert "ALLOW_USER_PASSWORD_AUTH" not in client["ExplicitAuthFlows"]
    assert client["PreventUserExistenceErrors"] == "ENABLED"


def test_custom_domain_becomes_a_callback(alt) -> None:
    client = alt.only("AWS::Cognito::UserPoolClient")
    assert client["CallbackURLs"] == ["https://chat.example.com/", "http://localhost:8000/"]


def test_hosted_domain_is_published_for_the_web_ui(default) -> None:
    assert default.resources("AWS::Cognito::UserPoolDomain")
    assert "CognitoDomain" in default.json["Outputs"]
