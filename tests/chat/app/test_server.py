"""``docchat up`` / ``docchat serve``: malloc arenas capped before the app starts, GC tuned right before serving."""

from __future__ import annotations

import gc
from typing import Any

import pytest

import chat.app.server as server
from store.config import Settings
from store.errors import ConfigError


@pytest.mark.parametrize("run", ["run_up", "run_serve"])
@pytest.mark.parametrize("arenas", [2, 0])
def test_arena_cap_comes_first_and_follows_settings(monkeypatch, tmp_path, run: str, arenas: int) -> None:
    calls: list[tuple[str, Any]] = []
    monkeypatch.setattr(server, "limit_malloc_arenas", lambda n: calls.append(("arenas", n)) or True)
    monkeypatch.setattr(server, "create_app", lambda s: calls.append(("app", s)) or "app")
    monkeypatch.setattr(server, "tune_gc", lambda n: calls.append(("gc", n)))
    monkeypatch.setattr(server.uvicorn, "run", lambda app, **kw: calls.append(("uvicorn", app)))
    settings = Settings.from_env(env={"DOCCHAT_MALLOC_ARENA_MAX": str(arenas)}, data_dir=tmp_path / "d")
    assert getattr(server, run)(settings) == 0
    assert [c[0] for c in calls] == ["arenas", "app", "gc", "uvicorn"]
    assert ("gc", settings.server.gc_gen0_threshold) in calls
    assert calls[0][1] == arenas


def test_a_negative_arena_count_is_refused() -> None:
    with pytest.raises(ConfigError):
        Settings.from_env(env={"DOCCHAT_MALLOC_ARENA_MAX": "-1"})


def test_tune_gc_freezes_start_up_objects_and_widens_the_young_generation() -> None:
    before = gc.get_threshold()
    try:
        server.tune_gc(0)
        assert gc.get_threshold() == before  # 0 = Python's defaults untouched
        server.tune_gc(12_345)
        assert gc.get_threshold() == (12_345, before[1], before[2])
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_redact_query_keeps_names_drops_values() -> None:
    assert server.redact_query("/v1/sessions/s1/stream?access_token=dev%3Aalice&x=1") == \
        "/v1/sessions/s1/stream?access_token=…&x=…"
    assert server.redact_query("/v1/sessions") == "/v1/sessions"


def test_aws_access_log_never_shows_query_values(tmp_path) -> None:
    import logging
    import logging.config

    aws = Settings(data_dir=tmp_path, backend="aws")
    config = server.log_config(aws)
    assert config["handlers"]["access"]["filters"] == ["redact_query"]
    assert "filters" not in server.log_config(Settings(data_dir=tmp_path))["handlers"]["access"]
    logging.config.dictConfig(config)
    handler = logging.getLogger("uvicorn.access").handlers[0]
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("1.2.3.4:5", "GET", "/v1/workflows/w/events?access_token=eyJsecret", "1.1", 200),
                               None)
    assert all(f.filter(record) for f in handler.filters)
    assert "eyJsecret" not in record.getMessage() and "access_token=…" in record.getMessage()


def test_uvicorn_options_follow_settings(tmp_path) -> None:
    s = Settings(data_dir=tmp_path, port=8123, keep_alive_timeout_seconds=75, header_timeout_seconds=3.0)
    opts = server.uvicorn_options(s)
    assert (opts["host"], opts["port"], opts["timeout_keep_alive"]) == ("127.0.0.1", 8123, 75)
    protocol = opts["http"]
    assert issubclass(protocol, server.HttpToolsProtocol) and hasattr(protocol, "on_headers_complete")
