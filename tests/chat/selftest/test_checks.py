"""The selftest's own checks must catch what they look for (a broken history, an injected fault, a missing
upload body in the schema), and its table must show failures."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from botocore.exceptions import EndpointConnectionError, ReadTimeoutError

from chat.app.factory import create_app
from chat.selftest.appends import Faults
from chat.selftest.client import check_history
from chat.selftest.report import Result, table
from store.blobs import FileBlobStore
from store.config import Settings
from store.schema import SESSIONS_TABLE
from store.sessions import SessionStore
from store.sqlite_items import SqliteItemTable


def _store(tmp_path: Path) -> SessionStore:
    return SessionStore(SqliteItemTable(tmp_path / "s.db", SESSIONS_TABLE), FileBlobStore(tmp_path / "b"))


def _tool_use(i: str) -> dict[str, object]:
    return {"type": "tool_use", "id": i, "name": "search_documents", "input": {"query": "q"}}


def test_a_dangling_tool_call_fails_the_strict_check_and_passes_once_repaired(tmp_path: Path) -> None:
    store = _store(tmp_path)
    sid = store.create_session("u")
    store.append_message(sid, "user", [{"type": "text", "text": "q"}])
    store.append_message(sid, "assistant", [{"type": "text", "text": "let me look"}, _tool_use("t1")])
    problem, _ = check_history(store, sid, strict=True)
    assert problem is not None and "tool" in problem
    problem, repairs = check_history(store, sid, strict=False)  # what a restarted server sends next
    assert problem is None and repairs >= 1


def test_an_unanswered_question_fails_the_strict_check(tmp_path: Path) -> None:
    store = _store(tmp_path)
    sid = store.create_session("u")
    store.append_message(sid, "user", [{"type": "text", "text": "q1"}])
    store.append_message(sid, "assistant", [{"type": "text", "text": "a1"}])
    store.append_message(sid, "user", [{"type": "text", "text": "q2"}])
    problem, _ = check_history(store, sid, strict=True)
    assert problem == f"{sid}: the last question has no answer"
    store.append_message(sid, "assistant", [{"type": "text", "text": "a2"}])
    assert check_history(store, sid, strict=True) == (None, 0)


def test_the_fault_hooks_throttle_refuse_and_lose_responses() -> None:
    model = SimpleNamespace(name="PutItem")
    always = Faults(0, throttle=1.0, refused=0.0, lost=0.0)
    http, parsed = always.before(model=model, context={})
    assert http.status_code == 400 and parsed["Error"]["Code"] == "ProvisionedThroughputExceededException"
    with pytest.raises(EndpointConnectionError):
        Faults(0, throttle=0.0, refused=1.0, lost=0.0).before(model=model, context={})
    lose = Faults(0, throttle=0.0, refused=0.0, lost=1.0)
    with pytest.raises(ReadTimeoutError):
        lose.after(http_response=SimpleNamespace(status_code=200), model=model, context={})
    lose.after(http_response=SimpleNamespace(status_code=200), model=SimpleNamespace(name="GetItem"), context={})
    lose.after(http_response=SimpleNamespace(status_code=400), model=model, context={"selftest_fault": True})
    assert dict(lose.counts) == {"lost_responses": 1}


def test_the_table_shows_attempts_failures_and_examples() -> None:
    bad = Result("x", attempts=3)
    bad.fail("session s1 does not answer")
    out = table([Result("ok one", attempts=5), bad, Result("skipped one", skipped="no java")])
    assert "FAILED" in out and "x: failure: session s1 does not answer" in out
    assert "skipped one: skipped: no java" in out
    assert out.splitlines()[2].split()[-3:] == ["0", "0.0", "ok"]


def test_the_upload_route_declares_its_multipart_body_in_the_openapi_schema(tmp_path: Path) -> None:
    schema = create_app(Settings(data_dir=tmp_path)).openapi_schema.to_schema()
    body = schema["paths"]["/v1/projects/{project_id}/documents"]["post"]["requestBody"]
    form = body["content"]["multipart/form-data"]["schema"]
    assert body["required"] and form["required"] == ["file"]
    assert form["properties"]["file"] == {"type": "string", "format": "binary"}
