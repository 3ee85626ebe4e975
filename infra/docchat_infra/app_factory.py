"""Build the CDK app the same way for ``cdk synth``/``deploy``, ``make synth`` and the tests."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import aws_cdk as cdk

from .config import config_from_context
from .stack import DocchatStack

CDK_JSON = Path(__file__).resolve().parents[1] / "cdk.json"


def cdk_json_context(path: Path = CDK_JSON) -> dict[str, Any]:
    """The ``context`` block of ``cdk.json`` (defaults and feature flags)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    context = document.get("context", {})
    if not isinstance(context, dict):
        raise ValueError(f"{path}: 'context' must be an object")
    return context


def build_app(context: Mapping[str, Any] | None = None, *, outdir: str | None = None) -> tuple[cdk.App, DocchatStack]:
    """The app with its one stack. ``context=None`` means "the CDK CLI supplies it" (``cdk.json`` + ``-c``)."""
    app = cdk.App(context=dict(context) if context is not None else None, outdir=outdir)
    config = config_from_context(app.node.try_get_context)
    stack = DocchatStack(app, config.stack_name, config=config)
    cdk.Tags.of(stack).add("application", "docchat")
    return app, stack
