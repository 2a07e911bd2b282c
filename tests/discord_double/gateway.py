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
from .waiting import Notifier

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
    ready: bool = False  # READY (or RESUMED) sent on the current connection


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
        self._changed = Notifier()  # sessions identified, resumed or disconnected

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

    async def wait_shard_ready(self, shard_id: int, shard_count: int, timeout: float) -> None:
        """Wait until a client identified as shard ``shard_id`` of ``shard_count`` is connected
        and was sent READY and its guilds' GUILD_CREATEs."""
        await self._changed.wait_for(
            lambda: self._shard_live(shard_id, shard_count) or None,
            timeout,
            f"shard {shard_id} of {shard_count}",
        )

    async def wait_shard_gone(self, shard_id: int, shard_count: int, timeout: float) -> None:
        """Wait until no client is connected as shard ``shard_id`` of ``shard_count``."""
        await self._changed.wait_for(
            lambda: None if self._shard_live(shard_id, shard_count) else True,
            timeout,
            f"shard {shard_id} of {shard_count} to disconnect",
        )

    def _shard_live(self, shard_id: int, shard_count: int) -> bool:
        return any(
            s.connection is not None and s.ready and s.shard == [shard_id, shard_count]
            for s in self.sessions.values()
        )

    async def dispatch(self, event: str, data: JSON) -> bool:
        """Send (or queue for RESUME) a DISPATCH to the session of the event's guild (its
        shard's, as Discord routes them; else the current one); False if none/filtered."""
        session = self._session_for(data)
        if session is None or not _wanted(event, data, session.intents):
            return False
        return await self._dispatch_to(session, event, data)

    def _session_for(self, data: JSON) -> Session | None:
        """The latest connected session whose shard has the event's guild (else the latest)."""
        guild_id = data.get("guild_id")
        if guild_id is None:
            return self.current
        serving = [s for s in self.sessions.values() if _serves(s.shard, int(guild_id))]
        live = [s for s in serving if s.connection is not None]
        found = live or serving
        return found[-1] if found else None

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
                session.ready = False
                self._changed.bump()
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
        shard = data.get("shard")
        if shard is not None and not _valid_shard(shard):
            await conn.ws.close(code=4010, message=b"Invalid shard.")
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
        guilds = [g for g in state.guilds.values() if _serves(session.shard, g.id)]
        ready: JSON = {
            "v": 10,
            "user": payloads.self_user_payload(state.bot),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
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
        for guild in guilds:
            payload = payloads.guild_create_payload(
                guild, state.bot, state.guild_channels(guild.id), state.bot_permissions
            )
            await self._dispatch_to(session, "GUILD_CREATE", payload)
        session.ready = True
        self._ready.set()
        self._changed.bump()

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
        session.ready = True
        self.sessions[session.id] = self.sessions.pop(session.id)  # the latest for its shard
        self._ready.set()
        self._changed.bump()

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


def _valid_shard(shard: Any) -> bool:
    """Whether IDENTIFY's ``shard`` is ``[shard_id, num_shards]`` with 0 <= id < num."""
    if not isinstance(shard, list) or len(shard) != 2:
        return False
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in shard):
        return False
    return bool(0 <= shard[0] < shard[1])


def _serves(shard: list[int] | None, guild_id: int) -> bool:
    """Whether a session identified with ``shard`` gets the guild's events (Discord's rule:
    ``(guild_id >> 22) % num_shards == shard_id``; no shard: every guild)."""
    if shard is None:
        return True
    return (guild_id >> 22) % shard[1] == shard[0]


def _wanted(event: str, data: JSON, intents: int) -> bool:
    if event in _GUILD_EVENTS:
        return bool(intents & GUILDS)
    if event in _MESSAGE_EVENTS:
        return bool(intents & (GUILD_MESSAGES if data.get("guild_id") else DIRECT_MESSAGES))
    return True
