"""docchat's AWS deployment (CDK v2): ``build_app`` is what ``app.py`` and the tests synthesise."""

from __future__ import annotations

from .app_factory import build_app

__all__ = ["build_app"]
