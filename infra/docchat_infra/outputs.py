"""Stack outputs <-> ``DOCCHAT_*`` settings.

Every setting the stack decides (table names, bucket names, queue URLs, the search endpoint, Cognito ids, …)
is both injected into the containers' environment and published as a stack output whose key is the
``Settings`` field name in PascalCase (``workflow_table`` -> ``WorkflowTable``). A few extra outputs
(``EXTRA_OUTPUTS``) are for people, not for ``Settings``.

``python -m docchat_infra.outputs cdk-outputs.json`` turns the file written by
``cdk deploy --outputs-file cdk-outputs.json`` into ``DOCCHAT_X=value`` lines (a dotenv file), so a CLI on a
laptop (``docchat ask``, ``docchat ingest``) talks to the deployed stack with exactly the service's settings.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from store.config import Settings

from .config import SETTINGS_FIELDS

#: Outputs that are not settings: where to point a browser, where failed jobs land.
EXTRA_OUTPUTS = frozenset(
    {"ServiceUrl", "HighDeadLetterQueueUrl", "LowDeadLetterQueueUrl", "ApiLogGroup", "WorkerLogGroup"}
)


def output_key(setting: str) -> str:
    """``workflow_table`` -> ``WorkflowTable`` (CloudFormation output ids are alphanumeric)."""
    if setting not in SETTINGS_FIELDS:
        raise KeyError(f"{setting!r} is not a Settings field")
    return "".join(part.capitalize() for part in setting.split("_"))


def setting_for_output(key: str) -> str | None:
    """``WorkflowTable`` -> ``workflow_table``; ``None`` for keys that are not a Settings field."""
    out: list[str] = []
    for ch in key:
        if ch.isupper() and out:
            out.append("_")
        out.append(ch.lower())
    name = "".join(out)
    return name if name in SETTINGS_FIELDS else None


def env_var(setting: str) -> str:
    if setting not in SETTINGS_FIELDS:
        raise KeyError(f"{setting!r} is not a Settings field")
    return "DOCCHAT_" + setting.upper()


def settings_env_from_outputs(outputs: Mapping[str, str]) -> dict[str, str]:
    """Stack outputs (key -> value) -> ``DOCCHAT_*`` environment; extra outputs are skipped."""
    env: dict[str, str] = {}
    for key, value in sorted(outputs.items()):
        name = setting_for_output(key)
        if name is not None:
            env[env_var(name)] = str(value)
    Settings.from_env(env)  # fail here, not at start-up, if a value does not parse
    return env


def _stack_outputs(document: Mapping[str, object], stack: str | None) -> Mapping[str, str]:
    """``cdk deploy --outputs-file`` writes ``{stack_name: {key: value}}``."""
    if stack is not None:
        found = document.get(stack)
        if not isinstance(found, dict):
            raise SystemExit(f"no outputs for stack {stack!r} (have: {', '.join(document)})")
        return found
    if len(document) != 1:
        raise SystemExit(f"several stacks in the file, pick one with --stack ({', '.join(document)})")
    only = next(iter(document.values()))
    if not isinstance(only, dict):
        raise SystemExit("unexpected outputs file layout")
    return only


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print DOCCHAT_* settings from `cdk deploy --outputs-file` JSON.")
    parser.add_argument("outputs_file", type=Path)
    parser.add_argument("--stack", default=None)
    args = parser.parse_args(argv)
    document = json.loads(args.outputs_file.read_text(encoding="utf-8"))
    env = settings_env_from_outputs(_stack_outputs(document, args.stack))
    for key, value in env.items():
        sys.stdout.write(f"{key}={value}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
