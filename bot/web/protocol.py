"""The web server's connections, bounded: a cap on how many are open, a time limit for each
request to arrive (headers and all) and for an idle keep-alive, and plain answers to requests
the HTTP parser refuses (issue 35 items 3 and 12; D146, D147).

aiohttp alone keeps a half-sent request open for ever and answers its parser's errors with
the error's own text (echoing the request's bytes) and none of our headers. This module is the
one place that reaches into aiohttp's request handler (``RequestHandler``, ``web.Server``,
``AppRunner._make_server``); tests/web/test_protocol.py pins each of those seams.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest

log = logging.getLogger(__name__)

SERVER_NAME = "Himiko"  # the Server header: no software or version announced
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 10\r\nConnection: close\r\n"
    b"Content-Length: 0\r\n\r\n"
)


class Connections:
    """How many connections are open, against a cap; refused connections are counted."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open = 0
        self.refused = 0

    def admit(self) -> bool:
        """Count one more connection, or refuse it when the cap is reached."""
        if self.open >= self.cap:
            self.refused += 1
            return False
        self.open += 1
        return True

    def release(self) -> None:
        """One admitted connection closed."""
        self.open -= 1


class BoundedHandler(RequestHandler):
    """One connection: admitted under the cap, closed when a request takes longer than
    ``timeout`` seconds to arrive (from the connection's start or the last answer), and
    answering parser errors plainly with ``headers``."""

    def __init__(
        self,
        manager: web.Server,
        *,
        connections: Connections,
        timeout: float,
        headers: Mapping[str, str],
        **kwargs: Any,
    ) -> None:
        super().__init__(manager, **kwargs)
        self._connections = connections
        self._request_timeout = timeout
        self._plain_headers = {**headers, "Server": SERVER_NAME}
        self._admitted = False
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Admit the connection under the cap (else close it at once) and start its clock."""
        if not self._connections.admit():
            if isinstance(transport, asyncio.WriteTransport):
                transport.write(BUSY)
            transport.close()
            return
        self._admitted = True
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: BaseException | None) -> None:
        """Release the connection's place."""
        self._disarm()
        if self._admitted:
            self._admitted = False
            self._connections.release()
            super().connection_lost(exc)

    async def _handle_request(
        self,
        request: BaseRequest,
        start_time: float | None,
        request_handler: Callable[[BaseRequest], Awaitable[web.StreamResponse]],
    ) -> tuple[web.StreamResponse, bool]:
        self._disarm()  # the request arrived whole: its handling is not timed here
        try:
            return await super()._handle_request(request, start_time, request_handler)
        finally:
            self._arm()  # the next request (keep-alive) has the same time to arrive

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        """The parser's (or an unexpected) error: its status in words, our headers, nothing
        of the request echoed; the connection is closed after it."""
        if status >= 500:
            log.error("web: error handling a request", exc_info=exc)
        else:  # a client's malformed request: its business, not an error of ours
            log.debug("web: refused a malformed request (%s)", status, exc_info=exc)
        if request.writer.output_size > 0:
            raise ConnectionError("an answer was already under way; the connection is dropped")
        phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else ""
        response = web.Response(
            status=status, text=f"{phrase or 'Error'}\n", headers=self._plain_headers
        )
        response.force_close()
        return response

    def _arm(self) -> None:
        self._disarm()
        loop = asyncio.get_running_loop()
        self._deadline = loop.call_later(self._request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport is not None:
            log.debug("web: closing a connection whose request did not arrive in time")
            self.transport.close()


class BoundedServer(web.Server):
    """aiohttp's low-level server making ``BoundedHandler`` connections."""

    def __init__(self, *args: Any, bounds: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._bounds = bounds

    def __call__(self) -> RequestHandler:
        """A new connection's handler."""
        return BoundedHandler(self, loop=self._loop, **self._bounds, **self._kwargs)


class BoundedRunner(web.AppRunner):
    """An ``AppRunner`` whose server bounds its connections (see ``BoundedHandler``)."""

    def __init__(
        self,
        app: web.Application,
        *,
        connections: Connections,
        timeout: float,
        headers: Mapping[str, str],
        **kwargs: Any,
    ) -> None:
        super().__init__(app, **kwargs)
        self._bounds: dict[str, Any] = {
            "connections": connections,
            "timeout": timeout,
            "headers": headers,
        }

    async def _make_server(self) -> web.Server:
        made = await super()._make_server()
        return BoundedServer(
            made.request_handler,
            request_factory=made.request_factory,
            handler_cancellation=made.handler_cancellation,
            loop=made._loop,
            bounds=self._bounds,
            **made._kwargs,
        )
