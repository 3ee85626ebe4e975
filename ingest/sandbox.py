"""Run an untrusted-file parser in a child process with a wall-clock timeout and a memory bound.

A malformed PDF or image can make a C parser (pdfium, libtiff, libjpeg…) crash, hang or allocate
without bound. Parsing therefore happens in a fresh child interpreter (``python -m ingest.sandbox``):

* ``RLIMIT_AS`` bounds the child's address space (``Settings.parse_memory_mb``), core dumps are off;
* the parent waits at most ``Settings.parse_timeout_seconds`` (for a streaming call: per item) and
  kills the child when it runs over;
* a crash (signal), a timeout, a ``MemoryError`` or any unexpected exception becomes a
  :class:`store.errors.PermanentError` (or the ``error`` class the caller names, e.g. ``InvalidInput``
  at upload time) with a human-readable reason. A :class:`~store.errors.DocchatError` raised on
  purpose inside the child is re-raised unchanged in the parent. A child that cannot start at all (no
  processes or memory left on the machine) is a :class:`~store.errors.RetryableError`: not the file's fault.

Why a fresh interpreter and not ``fork``/``forkserver``: forking a threaded server (asyncio, ONNX Runtime
threads) is unsafe, a forked child inherits the parent's address space (so ``RLIMIT_AS`` cannot bound it),
and ``forkserver``/``spawn`` re-import the caller's ``__main__``. A fresh interpreter costs ~0.15 s per call;
callers therefore sandbox a whole document per call (inspect, render all pages, extract all text layers),
not a page.

The function and its arguments must be picklable (module-level functions, plain values, paths).
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import pickle
import resource
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeVar

import store.errors
from store.config import Settings
from store.errors import DocchatError, PermanentError, RetryableError

T = TypeVar("T")
C = TypeVar("C")

_STARTUP_TIMEOUT_S = 60.0

# Results travel child → parent as JSON, never pickle: a parser exploited by a hostile file must not be
# able to run code in the parent. Dataclasses cross only if registered here (an allow-list).
_WIRE_TYPES: dict[str, type[Any]] = {}


def wire_type(cls: type[C]) -> type[C]:
    """Class decorator: allow this dataclass in sandbox results."""
    _WIRE_TYPES[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return cls


def _to_wire(obj: Any) -> Any:
    if isinstance(obj, bytes | bytearray | memoryview):
        return {"__bytes__": base64.b64encode(bytes(obj)).decode("ascii")}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        name = f"{type(obj).__module__}.{type(obj).__qualname__}"
        fields = {f.name: _to_wire(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
        return {"__type__": name, "fields": fields}
    if isinstance(obj, tuple):
        return {"__tuple__": [_to_wire(v) for v in obj]}
    if isinstance(obj, list):
        return [_to_wire(v) for v in obj]
    if isinstance(obj, dict):
        return {"__dict__": [[_to_wire(k), _to_wire(v)] for k, v in obj.items()]}
    if obj is None or isinstance(obj, str | int | float | bool):
        return obj
    raise TypeError(f"cannot send a {type(obj).__name__} out of the sandbox")


def _from_wire(obj: Any) -> Any:
    if isinstance(obj, list):
        return [_from_wire(v) for v in obj]
    if not isinstance(obj, dict):
        return obj
    if "__bytes__" in obj:
        return base64.b64decode(obj["__bytes__"])
    if "__tuple__" in obj:
        return tuple(_from_wire(v) for v in obj["__tuple__"])
    if "__dict__" in obj:
        return {_from_wire(k): _from_wire(v) for k, v in obj["__dict__"]}
    if "__type__" in obj:
        cls = _WIRE_TYPES.get(str(obj["__type__"]))
        if cls is None:
            raise PermanentError(f"the parser sent an unexpected result type {obj['__type__']!r}")
        return cls(**{str(k): _from_wire(v) for k, v in dict(obj["fields"]).items()})
    raise PermanentError("the parser sent a malformed result")


def _error_from_wire(payload: Any, fallback: type[DocchatError]) -> DocchatError:
    name = str(payload.get("cls", "")) if isinstance(payload, dict) else ""
    message = str(payload.get("message", "")) if isinstance(payload, dict) else str(payload)
    cls = getattr(store.errors, name, None)
    if isinstance(cls, type) and issubclass(cls, DocchatError):
        return cls(message)
    return fallback(message)


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds for one sandboxed call."""

    timeout_s: float = 120.0
    memory_mb: int = 2048
    #: added to the child's nice value: upload-time parsing yields the CPU to the server serving requests
    nice: int = 0

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        ing = settings.ingest
        return cls(timeout_s=float(ing.parse_timeout_seconds), memory_mb=int(ing.parse_memory_mb))


def run_sandboxed(
    fn: Callable[..., T],
    *args: Any,
    limits: Limits,
    what: str = "parsing the file",
    error: type[DocchatError] = PermanentError,
) -> T:
    """``fn(*args)`` in a bounded child process; its return value (pickled) comes back."""
    for kind, payload in _exchange(fn, args, limits, what, error, streaming=False):
        if kind == "ok":
            return payload  # type: ignore[no-any-return]
    raise error(f"{what} failed: the parser returned nothing")  # pragma: no cover - protocol guard


def iter_sandboxed(
    fn: Callable[..., Iterator[T]],
    *args: Any,
    limits: Limits,
    what: str = "parsing the file",
    error: type[DocchatError] = PermanentError,
    on_start: Callable[[int], None] | None = None,
    plain_json: bool = False,
) -> Iterator[T]:
    """Items of the generator ``fn(*args)`` produced in a bounded child, one at a time.

    The pipe between child and parent holds about one item in flight (the child blocks until the parent
    reads), so memory stays flat however many items there are; ``limits.timeout_s`` bounds the wait for
    each item. Closing the iterator early kills the child. ``on_start(pid)`` is told the child's pid once it
    runs (e.g. to lower its priority later). ``plain_json``: the items are plain JSON values (dicts with string
    keys, lists, strings, numbers; tuples arrive as lists) and come back as ``json.loads`` makes them — no
    per-object decoding, no types (issue 18: a page's text layer is a few thousand objects).
    """
    for kind, payload in _exchange(fn, args, limits, what, error, streaming="json" if plain_json else True,
                                   on_start=on_start):
        if kind == "item":
            yield payload


def _ready(receiver: Connection) -> bool:
    """A spare's first frame after its "imported" (``Spares.wait_imported``) is its "ready" (it holds the request);
    False when it sent nothing or something else."""
    try:
        while True:
            kind, _payload = json.loads(receiver.recv_bytes())
            if kind != "imported":
                return bool(kind == "ready")
            if not receiver.poll(_STARTUP_TIMEOUT_S):
                return False
    except (EOFError, OSError, ValueError, TypeError):
        return False


def _start(limits: Limits, what: str, spares: bool = True) -> tuple[subprocess.Popen[bytes], Connection,
                                                                     Connection, bool]:
    """A child for one call: an idle spare (``ingest.sandbox_spares``) or a fresh one; the last item says which."""
    from ingest.sandbox_spares import SPARES

    spare = SPARES.take() if spares else None
    if spare is not None:
        return spare.proc, spare.sender, spare.receiver, True
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ingest.sandbox", str(to_child_r), str(from_child_w), str(limits.memory_mb),
             str(limits.nice)],
            pass_fds=(to_child_r, from_child_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError as exc:
        for fd in (to_child_r, to_child_w, from_child_r, from_child_w):
            os.close(fd)
        # Not the file's fault (process table full, out of memory): worth retrying later.
        raise RetryableError(f"{what} failed: the parser process could not start ({exc.strerror or exc})") from exc
    os.close(to_child_r)
    os.close(from_child_w)
    return proc, Connection(to_child_w, readable=False), Connection(from_child_r, writable=False), False


def _exchange(
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    limits: Limits,
    what: str,
    error: type[DocchatError],
    *,
    streaming: bool | str,
    on_start: Callable[[int], None] | None = None,
    spares: bool = True,
) -> Iterator[tuple[str, Any]]:
    request = pickle.dumps((fn, args, streaming), protocol=pickle.HIGHEST_PROTOCOL)  # parent → child only
    proc, sender, receiver, spare = _start(limits, what, spares)
    try:
        if on_start is not None:
            on_start(proc.pid)
        with sender:
            try:
                if spare:  # it holds the path it imported with; it applies these limits before the request
                    sender.send_bytes(json.dumps([limits.memory_mb, limits.nice]).encode("utf-8"))
                sender.send_bytes(json.dumps(sys.path).encode("utf-8"))
                sender.send_bytes(request)
            except OSError:
                pass  # the child died at once; the receive below reports why
        # Interpreter start-up and imports do not count against the parse timeout (they are not the file's
        # fault and take seconds on a loaded machine); the child says "ready" once it holds the request.
        if not receiver.poll(max(_STARTUP_TIMEOUT_S, limits.timeout_s)):
            raise RetryableError(f"{what} failed: the parser process did not start within {_STARTUP_TIMEOUT_S:g} s")
        if spare and not _ready(receiver):  # a spare that died while it waited: not the file's fault
            proc.kill()
            yield from _exchange(fn, args, limits, what, error, streaming=streaming, on_start=on_start,
                                 spares=False)
            return
        while True:
            if not receiver.poll(limits.timeout_s):
                _log().warning("sandbox_timeout", what=what, timeout_s=limits.timeout_s)
                raise error(f"{what} took longer than {limits.timeout_s:g} s and was stopped")
            try:
                frame = receiver.recv_bytes()
            except (EOFError, OSError):
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    pass
                reason = _death_reason(proc.returncode, limits.memory_mb)
                _log().warning("sandbox_child_died", what=what, exitcode=proc.returncode)
                raise error(f"{what} failed: {reason}") from None
            try:
                kind, payload = json.loads(frame)
            except (ValueError, TypeError):
                raise error(f"{what} failed: the parser sent a malformed result") from None
            if kind == "raise":
                raise _error_from_wire(payload, error)
            if kind == "fail":
                raise error(f"{what} failed: {payload}")
            if kind == "done":
                return
            if kind == "ready":
                continue
            if kind == "json" and streaming == "json":
                yield "item", payload
                continue
            if kind not in ("item", "ok"):
                raise error(f"{what} failed: the parser sent a malformed result")
            yield kind, _from_wire(payload)
            if kind == "ok":
                return
    finally:
        receiver.close()
        if proc.poll() is None:
            proc.kill()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a SIGKILLed process always goes
            _log().error("sandbox_child_unkillable", what=what, pid=proc.pid)
        _refill()


def _refill() -> None:
    """A call ended: start the spares the next calls will take (``ingest.sandbox_spares``; none unless set)."""
    from ingest.sandbox_spares import SPARES

    if SPARES.target:
        SPARES.refill_later()


def _log() -> Any:
    # Imported lazily: the child interpreter must start fast, and structlog (via asyncio) is slow to import.
    from store.logging import get_logger

    return get_logger(__name__)


def _death_reason(exitcode: int | None, memory_mb: int) -> str:
    if exitcode is None:
        return "the parser stopped responding"
    if exitcode < 0:
        sig = -exitcode
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        if sig in (signal.SIGKILL, signal.SIGABRT):
            return f"the parser was killed ({name}); the file probably needs more than {memory_mb} MB or is corrupt"
        return f"the parser crashed on this file ({name}); the file is probably corrupt"
    return f"the parser exited unexpectedly (exit code {exitcode}); the file is probably corrupt"


def _child_main(argv: list[str]) -> None:
    """Entry point of the child: apply limits, read the request, send results; never raise.

    ``argv``: the request and result pipes, then the memory limit and nice increment — or ``spare`` and the
    modules to import while waiting (``ingest.sandbox_spares``): the limits then arrive first on the pipe."""
    request_fd, result_fd = int(argv[0]), int(argv[1])
    spare = argv[2] == "spare"
    memory_mb = 0 if spare else int(argv[2])
    if not spare:
        _apply_limits(memory_mb, int(argv[3]) if len(argv) > 3 else 0)
    # Keep the protocol pipe away from fd 1/2: a C library printing to stdout must not corrupt it.
    conn = Connection(result_fd, readable=False)
    try:
        with Connection(request_fd, writable=False) as req:
            if spare:
                sys.path[:] = [str(p) for p in json.loads(req.recv_bytes())]
                _preimport(argv[3] if len(argv) > 3 else "")
                _safe_send(conn, ("imported", None))  # its start-up is over (``Spares.wait_imported``)
                try:
                    memory_mb, nice = (int(v) for v in json.loads(req.recv_bytes()))
                except EOFError:
                    return  # the parent stopped it (or exited) before it was needed
                _apply_limits(memory_mb, nice)
            sys.path[:] = [str(p) for p in json.loads(req.recv_bytes())]  # the parent's import path
            fn, args, streaming = pickle.loads(req.recv_bytes())  # noqa: S301 - written by our parent
        _send(conn, ("ready", None))
        if streaming == "json":
            for item in fn(*args):
                _send(conn, ("json", item))
            _send(conn, ("done", None))
        elif streaming:
            for item in fn(*args):
                _send(conn, ("item", item))
            _send(conn, ("done", None))
        else:
            _send(conn, ("ok", fn(*args)))
    except DocchatError as exc:
        _send_error(conn, exc)
    except MemoryError:
        _safe_send(conn, ("fail", f"the file needs more than the {memory_mb} MB memory limit to parse"))
    except RecursionError:
        _safe_send(conn, ("fail", "the file's structure is nested too deeply to parse"))
    except Exception as exc:  # any library error: the file is bad, say so in words
        _safe_send(conn, ("fail", f"the file could not be parsed ({type(exc).__name__}: {_short(exc)})"))
    finally:
        conn.close()


def _preimport(modules: str) -> None:
    """A spare's imports while it waits (trusted code of this repository; a failure is left to the call)."""
    import importlib

    for name in filter(None, modules.split(",")):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: S112 - the request's own import reports it
            continue


def _send(conn: Connection, msg: tuple[str, Any]) -> None:
    kind, payload = msg
    if kind in ("ok", "item"):
        payload = _to_wire(payload)
    conn.send_bytes(json.dumps([kind, payload], ensure_ascii=False).encode("utf-8", "replace"))


def _apply_limits(memory_mb: int, nice: int = 0) -> None:
    if nice > 0:
        os.nice(nice)
    limit = memory_mb * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _send_error(conn: Connection, exc: DocchatError) -> None:
    _safe_send(conn, ("raise", {"cls": type(exc).__name__, "message": exc.message}))


def _safe_send(conn: Connection, msg: tuple[str, Any]) -> None:
    try:
        _send(conn, msg)
    except Exception:  # noqa: S110 - the parent is gone or the pipe broke: nothing left to tell
        pass


def _short(exc: BaseException, limit: int = 200) -> str:
    text = " ".join(str(exc).split()) or "no details"
    return text if len(text) <= limit else text[: limit - 1] + "…"


if __name__ == "__main__":
    _child_main(sys.argv[1:])
