"""The REST side: one aiohttp app, a small route table, auth, body parsing, request log."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, hdrs, web

from . import errors
from .faults import DROP, Fault, Faults
from .gateway import Gateway
from .records import RequestRecord
from .state import DoubleState, UploadedFile

JSON = dict[str, Any]
Result = tuple[int, Any]


@dataclass
class Req:
    """A parsed REST request."""

    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[UploadedFile] = field(default_factory=list)

    def json(self) -> JSON:
        """The body as a JSON object ({} if none)."""
        return self.body if isinstance(self.body, dict) else {}

    def int(self, name: str) -> int:
        """A path parameter as an int (404 Unknown if not a snowflake)."""
        try:
            return int(self.params[name])
        except ValueError:
            raise errors.ApiError(404, 0, "404: Not Found") from None


@dataclass
class Ctx:
    """What handlers work on."""

    state: DoubleState
    gateway: Gateway
    response_deadline: float | None = None
    faults: Faults = field(default_factory=Faults)


Handler = Callable[[Ctx, Req], Awaitable[Result]]


@dataclass(frozen=True)
class Route:
    """One REST route: method, path template ({name} segments), handler, bot auth needed."""

    method: str
    template: str
    handler: Handler
    auth: bool = True

    def pattern(self) -> re.Pattern[str]:
        """The template as a regex over the path below the API base."""
        regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", self.template)
        return re.compile(f"^{regex}$")


class RestApi:
    """Routes requests under ``/api/v{9,10}`` to handlers and records every request."""

    def __init__(self, ctx: Ctx, routes: list[Route]) -> None:
        self.ctx = ctx
        self.routes = [(r, r.pattern()) for r in routes]

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """aiohttp catch-all handler for the API."""
        state = self.ctx.state
        path = re.sub(r"^/api(/v\d+)?", "", request.path) or "/"
        started = time.perf_counter()
        body: Any = None
        files: list[UploadedFile] = []
        route_name: str | None = None
        fault: Fault | None = None
        try:
            body, files = await _parse_body(request)
            route, params, allowed = self._match(request.method, path)
            if route is None:
                if allowed:
                    raise errors.ApiError(405, 0, "405: Method Not Allowed")
                raise errors.ApiError(404, 0, "404: Not Found")
            route_name = f"{route.method} {route.template}"
            if route.auth and request.headers.get(hdrs.AUTHORIZATION) != f"Bot {state.token}":
                raise errors.ApiError(401, 0, "401: Unauthorized")
            fault = self.ctx.faults.take(route_name, params, after_effect=False)
            if fault is None:
                req = Req(request.method, path, params, dict(request.query), body, files)
                status, data = await route.handler(self.ctx, req)
                fault = self.ctx.faults.take(route_name, params, after_effect=True)
                if fault is not None and fault.held:  # done; the answer waits for the test
                    fault.reached.set()
                    await fault.released.wait()
                    fault = None
        except errors.ApiError as exc:
            status, data = exc.status, exc.body()
        if fault is not None:
            status, data = fault.status, fault.body()
        state.requests.append(
            RequestRecord(request.method, path, status, route_name, body, len(files), started)
        )
        state.changed()
        if fault is not None:
            return _faulty(request, fault)
        if status == 204 or data is None:
            return web.Response(status=204)
        # discord.py parses JSON only when Content-Type is exactly "application/json", as
        # Discord sends it (no charset parameter).
        return web.Response(
            body=_dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
        )

    def _match(self, method: str, path: str) -> tuple[Route | None, dict[str, str], bool]:
        path_matched = False
        for route, pattern in self.routes:
            m = pattern.match(path)
            if m is None:
                continue
            path_matched = True
            if route.method == method:
                return route, m.groupdict(), True
        return None, {}, path_matched


def _faulty(request: web.Request, fault: Fault) -> web.Response:
    """The answer of an injected fault; a lost response closes the connection instead."""
    if fault.status == DROP:
        if request.transport is not None:
            request.transport.close()
        return web.Response(status=204)  # never reaches the client
    return web.Response(
        body=_dumps(fault.body()).encode(),
        status=fault.status,
        headers={"Content-Type": "application/json", **fault.headers()},
    )


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


async def _parse_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    if request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        body: Any = None
        files: list[UploadedFile] = []
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):
                continue
            data = bytes(await part.read(decode=False))
            name = part.name or ""
            if name == "payload_json":
                body = json.loads(data)
            elif name.startswith("files[") or name.startswith("file"):
                digits = re.sub(r"\D", "", name)
                index = int(digits) if digits else len(files)
                content_type = part.headers.get(hdrs.CONTENT_TYPE, "application/octet-stream")
                files.append(
                    UploadedFile(index, part.filename or f"file{index}", data, content_type)
                )
        return body, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        raise errors.ApiError(400, 50109, "The request body contains invalid JSON.") from None
