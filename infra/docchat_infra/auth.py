"""Cognito: the user pool whose JWTs the API verifies (``chat/app/jwt_auth.py``) and the web UI's app client.

The app client is public (no secret: it runs in a browser and in the CLI) and uses the authorization-code
flow with PKCE through the Cognito hosted domain; SRP is allowed for the CLI. Tokens are short-lived.
"""

from __future__ import annotations

from aws_cdk import Aws, Duration, RemovalPolicy
from aws_cdk import aws_cognito as cognito
from constructs import Construct

from .config import InfraConfig

LOCAL_CALLBACK = "http://localhost:8000/"


class Auth(Construct):
    def __init__(self, scope: Construct, construct_id: str, *, config: InfraConfig) -> None:
        super().__init__(scope, construct_id)
        self.user_pool = cognito.UserPool(
            self,
            "UserPool",
            feature_plan=cognito.FeaturePlan.ESSENTIALS,
            self_sign_up_enabled=config.self_sign_up,
            sign_in_aliases=cognito.SignInAliases(email=True),
            auto_verify=cognito.AutoVerifiedAttrs(email=True),
            standard_attributes=cognito.StandardAttributes(
                email=cognito.StandardAttribute(required=True, mutable=True)
            ),
            password_policy=cognito.PasswordPolicy(
                min_length=12,
                require_lowercase=True,
                require_uppercase=True,
                require_digits=True,
                require_symbols=False,
                temp_password_validity=Duration.days(3),
            ),
            mfa=cognito.Mfa.OPTIONAL,
            mfa_second_factor=cognito.MfaSecondFactor(otp=True, sms=False),
            account_recovery=cognito.AccountRecovery.EMAIL_ONLY,
            deletion_protection=config.deletion_protection,
            removal_policy=RemovalPolicy.RETAIN if config.deletion_protection else RemovalPolicy.DESTROY,
        )
        prefix = config.cognito_domain_prefix or f"{config.stack_name.lower()}-{Aws.ACCOUNT_ID}"
        self.domain = self.user_pool.add_domain(
            "HostedDomain", cognito_domain=cognito.CognitoDomainOptions(domain_prefix=prefix)
        )
        callbacks = list(config.callback_urls)
        if not callbacks:
            # Cognito accepts plain http only for localhost; a deployed origin needs HTTPS (domain_name).
            callbacks = [f"https://{config.domain_name}/"] if config.domain_name else []
            callbacks.append(LOCAL_CALLBACK)
        self.client = self.user_pool.add_client(
            "WebClient",
            generate_secret=False,
            auth_flows=cognito.AuthFlow(user_srp=True),
            o_auth=cognito.OAuthSettings(
                flows=cognito.OAuthFlows(authorization_code_grant=True),
                scopes=[cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
                callback_urls=callbacks,
                logout_urls=callbacks,
            ),
            supported_identity_providers=[cognito.UserPoolClientIdentityProvider.COGNITO],
            prevent_user_existence_errors=True,
            enable_token_revocation=True,
            access_token_validity=Duration.hours(1),
            id_token_validity=Duration.hours(1),
            refresh_token_validity=Duration.days(30),
        )
        self.domain_url = self.domain.base_url()
