"""Synthesise the CDK app ONCE per test session (jsii start-up + synthesis take tens of seconds).

Two stacks in one app, one synthesis:

* ``default`` — exactly what ``make synth`` / ``cdk deploy`` produce from ``infra/cdk.json``;
* ``alt`` — every other branch: managed OpenSearch domain, HTTPS with a custom domain, spot workers,
  deletion protection off, a few ``Settings`` overridden through context.
"""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
INFRA = ROOT / "infra"

if str(INFRA) not in sys.path:
    sys.path.insert(0, str(INFRA))

from aws_cdk.assertions import Template  # noqa: E402
from docchat_infra.app_factory import build_app, cdk_json_context  # noqa: E402
from docchat_infra.config import InfraConfig, config_from_mapping  # noqa: E402
from docchat_infra.stack import DocchatStack  # noqa: E402

ALT_CONTEXT: dict[str, Any] = {
    "stack_name": "DocchatAlt",
    "search": "domain",
    "search_name": "docchat-alt",
    "deletion_protection": "false",
    "domain_name": "chat.example.com",
    "certificate_arn": "arn:aws:acm:us-east-1:111122223333:certificate/00000000-0000-0000-0000-000000000000",
    "worker_spot": "true",
    "worker_max_tasks": "3",
    "session_ttl_days": "30",
    "queue_max_receives": "3",
    "max_pages": "500",
    "bedrock_model_id": "eu.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "bedrock_title_model_id": "anthropic.claude-3-haiku-20240307-v1:0",
}


@dataclass(frozen=True)
class Synth:
    """One synthesised variant: its config, CDK stack, template (dict + assertions wrapper) and file."""

    config: InfraConfig
    stack: DocchatStack
    template: Template
    json: dict[str, Any]
    template_file: Path
    assembly_dir: Path

    def resources(self, type_name: str) -> dict[str, dict[str, Any]]:
        return {k: v for k, v in self.json["Resources"].items() if v["Type"] == type_name}

    def only(self, type_name: str) -> dict[str, Any]:
        found = self.resources(type_name)
        assert len(found) == 1, f"expected one {type_name}, found {sorted(found)}"
        return next(iter(found.values()))["Properties"]


@pytest.fixture(scope="session")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Synth]:
    if shutil.which("node") is None:
        pytest.skip("the CDK needs Node.js (jsii) to synthesise; install node to run these tests")
    outdir = tmp_path_factory.mktemp("cdk.out")
    context = cdk_json_context()
    app, default_stack = build_app(context, outdir=str(outdir))
    alt_config = config_from_mapping({**context, **ALT_CONTEXT})
    alt_stack = DocchatStack(app, alt_config.stack_name, config=alt_config)
    assembly = app.synth()
    out: dict[str, Synth] = {}
    for key, stack in (("default", default_stack), ("alt", alt_stack)):
        artifact = assembly.get_stack_by_name(stack.stack_name)
        path = Path(assembly.directory) / artifact.template_file
        document = json.loads(path.read_text(encoding="utf-8"))
        out[key] = Synth(
            config=stack.config,
            stack=stack,
            template=Template.from_json(document),
            json=document,
            template_file=path,
            assembly_dir=Path(assembly.directory),
        )
    return out


@pytest.fixture(scope="session")
def default(synthesized: dict[str, Synth]) -> Synth:
    return synthesized["default"]


@pytest.fixture(scope="session")
def alt(synthesized: dict[str, Synth]) -> Synth:
    return synthesized["alt"]
