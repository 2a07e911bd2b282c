"""systemd's notifications and watchdog, without libsystemd: datagrams to ``$NOTIFY_SOCKET``.

Under ``Type=notify`` systemd sets ``NOTIFY_SOCKET`` (a unix datagram socket's path, or an
abstract name starting with ``@``); with ``WatchdogSec=`` also ``WATCHDOG_USEC`` (and
``WATCHDOG_PID``, the process meant). The bot says ``READY=1`` once connected to Discord,
``WATCHDOG=1`` every half watchdog period from a task of its event loop (so a loop that hangs
stops the pings and systemd restarts the process) and ``STOPPING=1`` when a stop begins.
Without ``NOTIFY_SOCKET`` nothing is sent.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)

__all__ = ["Systemd"]


def _address(value: str) -> str:
    """The socket address of ``NOTIFY_SOCKET``: ``@name`` is the abstract socket ``\\0name``."""
    return "\0" + value[1:] if value.startswith("@") else value


class Systemd:
    """The notification socket (``address``) and the watchdog's period (None: no watchdog)."""

    def __init__(self, address: str, watchdog_seconds: float | None = None) -> None:
        self.address = address
        self.watchdog_seconds = watchdog_seconds
        self._failed = False  # the first failure to send is logged, the others are not

    @classmethod
    def from_environ(cls, environ: Mapping[str, str], pid: int) -> Systemd | None:
        """The notifier systemd set up for process ``pid``, or None (not run by systemd with
        ``Type=notify``). A malformed ``WATCHDOG_USEC`` means no watchdog (logged)."""
        path = environ.get("NOTIFY_SOCKET", "")
        if not path:
            return None
        seconds: float | None = None
        usec = environ.get("WATCHDOG_USEC", "")
        meant = environ.get("WATCHDOG_PID", "")
        if usec and (not meant or meant == str(pid)):
            try:
                seconds = int(usec) / 1_000_000
            except ValueError:
                log.warning("systemd: WATCHDOG_USEC is not a number (%r); no watchdog", usec)
            else:
                seconds = seconds if seconds > 0 else None
        return cls(_address(path), seconds)

    def notify(self, state: str) -> bool:
        """Send one notification (``READY=1``, ``WATCHDOG=1``, ``STOPPING=1``...); whether it
        was sent. Never waits: with systemd's queue full (it stopped reading), the notification
        is dropped rather than the event loop stopped."""
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.setblocking(False)
                sock.sendto(state.encode(), self.address)
        except OSError as error:
            if not self._failed:
                self._failed = True
                log.warning("systemd: cannot notify %s (%s)", self.address.lstrip("\0"), error)
            return False
        self._failed = False
        return True

    async def ready(self) -> None:
        """Tell systemd the bot is up (connected to Discord); an ``on_ready`` listener."""
        self.notify("READY=1")

    def stopping(self) -> None:
        """Tell systemd the bot is stopping (its stop may take a few seconds)."""
        self.notify("STOPPING=1")

    async def keep_alive(self) -> None:
        """Ping the watchdog every half period while the event loop runs (until cancelled);
        returns at once without a watchdog."""
        if self.watchdog_seconds is None:
            return
        while True:
            self.notify("WATCHDOG=1")
            await asyncio.sleep(self.watchdog_seconds / 2)
