"""systemd's notifications, sent to a real unix datagram socket as systemd would receive them."""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from pathlib import Path

import pytest

from bot.ops.watchdog import Systemd


def _receiver(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(5)
    return sock


def test_notifications_reach_the_socket(tmp_path: Path) -> None:
    path = tmp_path / "notify"
    with _receiver(path) as sock:
        systemd = Systemd.from_environ({"NOTIFY_SOCKET": str(path)}, os.getpid())
        assert systemd is not None and systemd.watchdog_seconds is None
        asyncio.run(systemd.ready())
        systemd.stopping()
        assert [sock.recv(100), sock.recv(100)] == [b"READY=1", b"STOPPING=1"]


def test_an_abstract_socket_is_named_with_an_at_sign(tmp_path: Path) -> None:
    name = f"himiko-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        systemd = Systemd.from_environ({"NOTIFY_SOCKET": "@" + name}, os.getpid())
        assert systemd is not None and systemd.notify("WATCHDOG=1")
        assert sock.recv(100) == b"WATCHDOG=1"


def test_the_watchdog_is_pinged_from_the_running_loop(tmp_path: Path) -> None:
    path = tmp_path / "notify"
    environ = {"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "20000"}
    with _receiver(path) as sock:
        systemd = Systemd.from_environ(environ, os.getpid())
        assert systemd is not None and systemd.watchdog_seconds == 0.02

        async def body() -> list[bytes]:
            pings = asyncio.create_task(systemd.keep_alive())
            loop = asyncio.get_running_loop()
            sock.setblocking(False)
            got = [await asyncio.wait_for(loop.sock_recv(sock, 100), 5) for _ in range(3)]
            pings.cancel()
            return got

        assert asyncio.run(body()) == [b"WATCHDOG=1"] * 3


@pytest.mark.parametrize(
    ("environ", "seconds"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 30.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, None),  # meant for another process
        ({"WATCHDOG_USEC": "soon"}, None),
        ({}, None),
    ],
)
def test_the_watchdog_period_is_read_for_this_process_only(
    environ: dict[str, str], seconds: float | None
) -> None:
    systemd = Systemd.from_environ({"NOTIFY_SOCKET": "/run/x", **environ}, 4242)
    assert systemd is not None and systemd.watchdog_seconds == seconds


def test_without_notify_socket_nothing_is_sent() -> None:
    assert Systemd.from_environ({"WATCHDOG_USEC": "1000"}, os.getpid()) is None


def test_a_missing_socket_is_logged_once_and_never_raises(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    systemd = Systemd(str(tmp_path / "nobody"))
    assert not systemd.notify("WATCHDOG=1") and not systemd.notify("WATCHDOG=1")
    assert len([r for r in caplog.records if "cannot notify" in r.getMessage()]) == 1


def test_a_receiver_that_stops_reading_costs_pings_not_the_event_loop(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """systemd not reading (its queue of datagrams full): a notification is dropped and said
    once in the log; sending never waits for room, which would stop the bot's event loop."""
    path = tmp_path / "notify"
    with _receiver(path) as sock:
        systemd = Systemd.from_environ({"NOTIFY_SOCKET": str(path)}, os.getpid())
        assert systemd is not None
        sent: list[bool] = []
        sending = threading.Thread(
            target=lambda: sent.extend(systemd.notify("WATCHDOG=1") for _ in range(100))
        )
        sending.start()
        sending.join(30)  # a bound for a broken test: a blocking send never returns
        assert not sending.is_alive(), "notify waited for the receiver to read"
        assert len(sent) == 100 and sent[0] and not all(sent)
        assert sum("cannot notify" in r.getMessage() for r in caplog.records) == 1
        assert sock.recv(100) == b"WATCHDOG=1"
