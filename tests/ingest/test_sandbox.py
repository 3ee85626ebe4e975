from __future__ import annotations

import ctypes
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from ingest.sandbox import Limits, _from_wire, _to_wire, iter_sandboxed, run_sandboxed, wire_type
from store.errors import InvalidInput, PermanentError

FAST = Limits(timeout_s=20.0, memory_mb=1024)


@wire_type
@dataclass(frozen=True, slots=True)
class Thing:
    name: str
    data: bytes
    pair: tuple[int, int]


@dataclass(frozen=True, slots=True)
class NotAllowed:
    x: int


# --- functions run in the child (module-level, so the child can import them) -------------------------


def add(a: int, b: int) -> int:
    return a + b


def make_thing() -> Thing:
    return Thing(name="ü", data=b"\x00\xff", pair=(1, 2))


def sleep_forever() -> None:
    time.sleep(3600)


def segfault() -> None:
    ctypes.string_at(0)


def kill_self() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def allocate(mb: int) -> int:
    block = bytearray(mb * 1024 * 1024)
    return len(block)


def refuse() -> None:
    raise InvalidInput("the PDF is encrypted with a password")


def library_bug() -> None:
    raise ValueError("xref table is broken")


def count(n: int) -> Iterator[int]:
    yield from range(n)


def count_then_hang(n: int) -> Iterator[int]:
    yield from range(n)
    time.sleep(3600)


def unregistered() -> NotAllowed:
    return NotAllowed(1)


# --- tests -----------------------------------------------------------------------------------------------


def test_returns_the_result() -> None:
    assert run_sandboxed(add, 2, 3, limits=FAST) == 5
    assert run_sandboxed(make_thing, limits=FAST) == Thing(name="ü", data=b"\x00\xff", pair=(1, 2))


def test_timeout_kills_the_child_and_says_so() -> None:
    started = time.monotonic()
    with pytest.raises(PermanentError, match=r"took longer than 1 s"):
        run_sandboxed(sleep_forever, limits=Limits(timeout_s=1.0), what="reading the file")
    assert time.monotonic() - started < 10


def test_crash_becomes_a_permanent_error() -> None:
    with pytest.raises(PermanentError, match=r"crashed on this file \(SIGSEGV\)"):
        run_sandboxed(segfault, limits=FAST)


def test_killed_child_mentions_memory() -> None:
    with pytest.raises(PermanentError, match=r"SIGKILL.*MB"):
        run_sandboxed(kill_self, limits=FAST)


def test_memory_limit_is_enforced() -> None:
    assert run_sandboxed(allocate, 50, limits=Limits(timeout_s=20, memory_mb=400)) == 50 * 1024 * 1024
    with pytest.raises(PermanentError, match=r"memory limit"):
        run_sandboxed(allocate, 2000, limits=Limits(timeout_s=20, memory_mb=400))


def test_docchat_errors_keep_their_class_and_the_chosen_class_wraps_the_rest() -> None:
    with pytest.raises(InvalidInput, match="encrypted"):
        run_sandboxed(refuse, limits=FAST)
    with pytest.raises(InvalidInput, match=r"could not be parsed \(ValueError: xref table is broken\)"):
        run_sandboxed(library_bug, limits=FAST, error=InvalidInput)


def test_streaming_yields_each_item_and_times_out_per_item() -> None:
    assert list(iter_sandboxed(count, 5, limits=FAST)) == [0, 1, 2, 3, 4]
    got: list[int] = []
    with pytest.raises(PermanentError, match="took longer"):
        for item in iter_sandboxed(count_then_hang, 3, limits=Limits(timeout_s=1.0)):
            got.append(item)
    assert got == [0, 1, 2]


def test_results_are_json_not_pickle_and_types_are_allow_listed() -> None:
    wire = _to_wire(Thing(name="a", data=b"\x01", pair=(3, 4)))
    assert wire["__type__"].endswith("Thing")
    assert _from_wire(wire) == Thing(name="a", data=b"\x01", pair=(3, 4))
    with pytest.raises(PermanentError, match="unexpected result type"):
        _from_wire({"__type__": "os.system", "fields": {}})
    with pytest.raises(PermanentError, match="unexpected result type"):
        run_sandboxed(unregistered, limits=FAST)  # not allow-listed: refused by the parent
