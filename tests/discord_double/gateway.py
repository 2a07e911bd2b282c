"""The gateway: HELLO, IDENTIFY/READY, GUILD_CREATE, heartbeats, RESUME, dispatch, compression."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from . import payloads
from .state import DoubleState

JSON = dict[str, Any]
_log = logging.getLogger(__name__)

try:  # zstd-stream needs the optional zstandard package, as in discord.py itself
    import zstandard as _zstd  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the environment
    _zstd = None

# Gateway intents that gate dispatched events (others always pass).
GUILDS = 1 << 0
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
_GUILD_EVENTS = {"THREAD_CREATE", "THREAD_UPDATE", "THREAD_DELETE", "CHANNEL_UPDATE"}
_MESSAGE_EVENTS = {"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"}
BACKLOG = 2000


class _Connection:
    """One websocket connection with its (optional) shared compression context."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.compress = compress
        self._lock = asyncio.Lock()
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._zstd = None
        if compress == "zstd-stream" and _zstd is not None:
            self._zstd = _zstd.ZstdCompressor().compressobj()
        self.session: Session | None = None
        self.sent: int = 0

    async def send(self, payload: JSON) -> None:
        """Serialize, compress if asked, and send one gateway message."""
        text = json.dumps(payload, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                raise ConnectionResetError("gateway connection closed")
            if self._zlib is not None:
                raw = text.encode()
                data = self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            elif self._zstd is not None:
                data = self._zstd.compress(text.encode())
                data += self._zstd.flush(_zstd.COMPRESSOBJ_FLUSH_BLOCK)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(text)
            self.sent += 1


@dataclass
class Session:
    """A gateway session (survives reconnects when the client RESUMEs)."""

    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    backlog: list[tuple[int, JSON]] = field(default_factory=list)
    connection: _Connection | None = None


class Gateway:
    """Serves the websocket endpoint and dispatches events to the connected client."""

    def __init__(self, state: DoubleState, *, heartbeat_interval_ms: int = 41250) -> None:
        self.state = state
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.url = ""
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.connections: list[_Connection] = []
        self.identify_payloads: list[JSON] = []
        self.heartbeats = 0
        self.compression_requested: list[str | None] = []
        self.close_codes: list[int | None] = []
        self._ready = asyncio.Event()

    # -- public ----------------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """True while an identified session with READY and GUILD_CREATEs sent is connected."""
        return self._ready.is_set()

    async def wait_ready(self, timeout: float) -> None:
        """Wait until a client identified and got READY and its GUILD_CREATEs."""
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(f"no client identified within {timeout:.1f}s") from None

    async def dispatch(self, event: str, data: JSON) -> bool:
        """Send (or queue for RESUME) a DISPATCH to the current session; False if none/filtered."""
        session = self.current
        if session is None or not _wanted(event, data, session.intents):
            return False
        return await self._dispatch_to(session, event, data)

    async def send_reconnect(self) -> None:
        """Ask the client to reconnect (op 7); it should RESUME on resume_gateway_url."""
        conn = self.current.connection if self.current else None
        if conn is not None:
            self._ready.clear()
            await conn.send({"op": 7, "d": None})

    async def close(self, code: int = 1001) -> None:
        """Close every open connection."""
        for conn in list(self.connections):
            if not conn.ws.closed:
                await conn.ws.close(code=code, message=b"double stopping")
        self._ready.clear()

    # -- websocket handler -----------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """aiohttp handler for the gateway websocket."""
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        compress = request.query.get("compress")
        self.compression_requested.append(compress)
        conn = _Connection(ws, compress)
        self.connections.append(conn)
        try:
            if request.query.get("encoding", "json") != "json":
                await ws.close(code=4002, message=b"Only JSON encoding is supported by the double")
                return ws
            await conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_message(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.BINARY:
                    await self._on_message(conn, json.loads(zlib.decompress(msg.data)))
                elif msg.type is WSMsgType.ERROR:
                    break
        except ConnectionResetError:
            pass
        finally:
            self.close_codes.append(ws.close_code)
            self.connections.remove(conn)
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
                if self.current is session:
                    self._ready.clear()
                if ws.close_code in (1000, 1001):  # a normal close invalidates the session
                    self.sessions.pop(session.id, None)
                    if self.current is session:
                        self.current = None
        return ws

    async def _on_message(self, conn: _Connection, msg: JSON) -> None:
        op = msg.get("op")
        data: JSON = msg.get("d") or {}
        if op == 1:
            self.heartbeats += 1
            await conn.send({"op": 11})
        elif op == 2:
            await self._identify(conn, data)
        elif op == 6:
            await self._resume(conn, data)
        elif op == 8:
            await self._request_members(conn, data)
        elif op in (3, 4):
            pass  # presence / voice state updates: accepted and ignored
        else:
            await conn.ws.close(code=4001, message=b"Unknown opcode.")

    async def _identify(self, conn: _Connection, data: JSON) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        self.identify_payloads.append(data)
        if data.get("token") != self.state.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        session = Session(
            id=secrets.token_hex(16),
            intents=int(data.get("intents", 0)),
            shard=data.get("shard"),
            connection=conn,
        )
        conn.session = session
        self.sessions[session.id] = session
        self.current = session
        state = self.state
        ready: JSON = {
            "v": 10,
            "user": payloads.self_user_payload(state.bot),
            "guilds": [{"id": str(gid), "unavailable": True} for gid in state.guilds],
            "session_id": session.id,
            "resume_gateway_url": self.url,
            "application": {"id": str(state.app_id), "flags": state.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["discord-double"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await self._dispatch_to(session, "READY", ready)
        for guild in state.guilds.values():
            payload = payloads.guild_create_payload(
                guild, state.bot, state.guild_channels(guild.id), state.bot_permissions
            )
            await self._dispatch_to(session, "GUILD_CREATE", payload)
        self._ready.set()

    async def _resume(self, conn: _Connection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.state.token:
            await conn.send({"op": 9, "d": False})
            return
        old = session.connection
        session.connection = conn
        conn.session = session
        self.current = session
        if old is not None and old is not conn and not old.ws.closed:
            await old.ws.close(code=4000, message=b"Resumed elsewhere")
        last = int(data.get("seq") or 0)
        for seq, payload in list(session.backlog):
            if seq > last:
                await conn.send(payload)
        await self._dispatch_to(session, "RESUMED", {"_trace": ["discord-double"]})
        self._ready.set()

    async def _request_members(self, conn: _Connection, data: JSON) -> None:
        session = conn.session
        guild = self.state.guilds.get(int(data.get("guild_id", 0)))
        if session is None or guild is None:
            return
        members = [self.state.bot, *guild.members]
        query = data.get("query")
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.id in wanted]
        elif query:
            members = [m for m in members if m.name.lower().startswith(str(query).lower())]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [payloads.member_payload(m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._dispatch_to(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _dispatch_to(self, session: Session, event: str, data: JSON) -> bool:
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.backlog.append((session.seq, payload))
        del session.backlog[:-BACKLOG]
        conn = session.connection
        if conn is None:
            return True  # queued: replayed when the client RESUMEs
        try:
            await conn.send(payload)
        except ConnectionResetError:
            _log.debug("gateway: %s queued, connection closed", event)
        return True


def _wanted(event: str, data: JSON, intents: int) -> bool:
    if event in _GUILD_EVENTS:
        return bool(intents & GUILDS)
    if event in _MESSAGE_EVENTS:
        return bool(intents & (GUILD_MESSAGES if data.get("guild_id") else DIRECT_MESSAGES))
    return True
