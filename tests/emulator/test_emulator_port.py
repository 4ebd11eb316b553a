"""The emulator's port probe binds as its server does (``SO_REUSEADDR``): a port whose
last connection is in TIME_WAIT after a restart is free, so the default port is kept."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from hermes_gbrain.emulator import Emulator
from hermes_gbrain.emulator.cli import choose_port, listen


def _port_in_time_wait() -> int:
    """A port whose server side closed a connection first (so it sits in TIME_WAIT)."""
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = int(server.getsockname()[1])
        client = socket.create_connection(("127.0.0.1", port))
        accepted, _ = server.accept()
        accepted.close()  # the server closes first: its side goes to TIME_WAIT
        client.recv(1)
        client.close()
    return port


def test_a_port_in_time_wait_is_free_for_the_emulator() -> None:
    port = _port_in_time_wait()
    with socket.socket() as plain:  # what the old probe did: refused
        try:
            plain.bind(("127.0.0.1", port))
            plain_refused = False
        except OSError:
            plain_refused = True
    assert plain_refused  # the situation is real, not a free port by luck
    assert choose_port("127.0.0.1", None, default=port) == port


@contextmanager
def _listened_on() -> Iterator[int]:
    """A port someone listens on (bound as the emulator binds, ``SO_REUSEADDR``)."""
    with socket.socket() as busy:
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        yield int(busy.getsockname()[1])


def test_a_port_someone_listens_on_is_taken() -> None:
    with _listened_on() as port:
        assert choose_port("127.0.0.1", None, default=port) == 0


def test_the_default_port_taken_after_the_probe_gives_any_free_port() -> None:
    """Two emulators starting at once: both probe the default port free, one binds it."""
    with _listened_on() as port:
        late = Emulator(port=port)
        listen(late, any_port_instead=True)
        try:
            assert late.port not in (0, port)
        finally:
            late.stop()
        # a port asked for by name is that port or nothing
        named = Emulator(port=port)
        with pytest.raises(OSError):
            listen(named, any_port_instead=False)
