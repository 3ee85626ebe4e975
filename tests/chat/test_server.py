"""``docchat up`` / ``docchat serve`` cap glibc malloc arenas (from settings) before the app starts."""

from __future__ import annotations

from typing import Any

import pytest

import chat.server as server
from store.config import Settings
from store.errors import ConfigError


@pytest.mark.parametrize("run", ["run_up", "run_serve"])
@pytest.mark.parametrize("arenas", [2, 0])
def test_arena_cap_comes_first_and_follows_settings(monkeypatch, tmp_path, run: str, arenas: int) -> None:
    calls: list[tuple[str, Any]] = []
    monkeypatch.setattr(server, "limit_malloc_arenas", lambda n: calls.append(("arenas", n)) or True)
    monkeypatch.setattr(server, "create_app", lambda s: calls.append(("app", s)) or "app")
    monkeypatch.setattr(server.uvicorn, "run", lambda app, **kw: calls.append(("uvicorn", app)))
    settings = Settings.from_env(env={"DOCCHAT_MALLOC_ARENA_MAX": str(arenas)}, data_dir=tmp_path / "d")
    assert getattr(server, run)(settings) == 0
    assert [c[0] for c in calls] == ["arenas", "app", "uvicorn"]
    assert calls[0][1] == arenas


def test_a_negative_arena_count_is_refused() -> None:
    with pytest.raises(ConfigError):
        Settings.from_env(env={"DOCCHAT_MALLOC_ARENA_MAX": "-1"})
