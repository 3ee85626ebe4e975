"""The stack's readiness probe: only a real HTTP answer counts as ready."""
from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from chat.cli.aws_local import _http_ok, _self_connected


def test_a_socket_connected_to_itself_is_recognised() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.connect(("127.0.0.1", port))  # TCP simultaneous open with itself: what an ephemeral port can meet
        assert _self_connected(s)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        with socket.create_connection(listener.getsockname()) as c:
            assert not _self_connected(c)


@pytest.fixture
def echo_server() -> Iterator[int]:
    """A port that answers a request with the request itself (as a self-connected socket does)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            with conn:
                conn.sendall(conn.recv(4096))

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    yield listener.getsockname()[1]
    stop.set()
    t.join()
    listener.close()


def test_an_echoed_request_is_not_ready_rather_than_a_crash(echo_server: int) -> None:
    assert _http_ok(f"http://127.0.0.1:{echo_server}/healthz")() is False


def test_nobody_listening_is_not_ready() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert _http_ok(f"http://127.0.0.1:{port}/healthz")() is False
