"""DiscordDouble: the test-facing API that starts the server and simulates users."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from types import TracebackType
from typing import Any

from aiohttp import web

from . import interactions, payloads
from .faults import Faults
from .gateway import Gateway
from .records import ChannelRecord, InteractionRecord, MessageRecord, RequestRecord
from .rest import Ctx, RestApi
from .routes_channels import ROUTES as CHANNEL_ROUTES
from .routes_channels import message_event
from .routes_interactions import ROUTES as INTERACTION_ROUTES
from .routes_meta import ROUTES as META_ROUTES
from .specs import BOT_PERMISSIONS, GuildSpec, UserSpec
from .state import DoubleState

JSON = dict[str, Any]
UserRef = UserSpec | int

GATEWAY_PRESENCE = 1 << 12
GATEWAY_GUILD_MEMBERS_LIMITED = 1 << 15
GATEWAY_MESSAGE_CONTENT_LIMITED = 1 << 19
DEFAULT_APP_FLAGS = GATEWAY_GUILD_MEMBERS_LIMITED | GATEWAY_MESSAGE_CONTENT_LIMITED


class DiscordDouble:
    """A local Discord REST API + gateway on 127.0.0.1 for the real discord.py client."""

    def __init__(
        self,
        *,
        token: str = "test-token",
        app_id: int = 900_000_000_000_000_001,
        bot: UserSpec | None = None,
        owner: UserSpec | None = None,
        guilds: Iterable[GuildSpec] = (),
        application_flags: int = DEFAULT_APP_FLAGS,
        bot_permissions: int = BOT_PERMISSIONS,
        max_upload_bytes: int = 10 * 1024 * 1024,
        heartbeat_interval_ms: int = 41250,
        response_deadline: float | None = None,
        nonce_window: float = 300.0,
    ) -> None:
        bot = bot or UserSpec(app_id, "Himiko", bot=True)
        owner = owner or UserSpec(900_000_000_000_000_002, "owner")
        self.state = DoubleState(
            token=token,
            app_id=app_id,
            bot=bot,
            owner=owner,
            guilds=guilds,
            application_flags=application_flags,
            bot_permissions=bot_permissions,
            max_upload_bytes=max_upload_bytes,
            nonce_window=nonce_window,
        )
        self.gateway = Gateway(self.state, heartbeat_interval_ms=heartbeat_interval_ms)
        self._ctx = Ctx(self.state, self.gateway, response_deadline)
        self._rest = RestApi(self._ctx, [*META_ROUTES, *CHANNEL_ROUTES, *INTERACTION_ROUTES])
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind 127.0.0.1 on a free port and serve REST and gateway."""
        app = web.Application(client_max_size=self.state.max_upload_bytes * 11)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment)
        app.router.add_route("*", "/{tail:.*}", self._rest.handle)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self.state.base_url = f"http://127.0.0.1:{self.port}"
        self.gateway.url = f"ws://127.0.0.1:{self.port}/gateway"

    async def stop(self) -> None:
        """Close gateway connections and the server (close the client first)."""
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordDouble:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return self.state.base_url

    @property
    def api_base(self) -> str:
        """The value for ``discord.http.Route.BASE`` (``http://127.0.0.1:PORT/api/v10``)."""
        return f"{self.state.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The gateway URL (``ws://127.0.0.1:PORT/gateway``), also served by GET /gateway/bot."""
        return self.gateway.url

    @property
    def token(self) -> str:
        """The bot token the double accepts."""
        return self.state.token

    @property
    def app_id(self) -> int:
        """The application id (also the bot user id unless ``bot`` was given)."""
        return self.state.app_id

    @property
    def bot_user(self) -> UserSpec:
        """The bot's user."""
        return self.state.bot

    async def wait_ready(self, timeout: float = 10.0) -> None:
        """Wait until a client identified and was sent READY and every GUILD_CREATE."""
        await self.gateway.wait_ready(timeout)

    async def wait_shard_ready(
        self, shard_id: int, shard_count: int, timeout: float = 10.0
    ) -> None:
        """Wait until a client runs shard ``shard_id`` of ``shard_count`` (READY and its guilds)."""
        await self.gateway.wait_shard_ready(shard_id, shard_count, timeout)

    async def wait_shard_gone(self, shard_id: int, shard_count: int, timeout: float = 10.0) -> None:
        """Wait until no client is connected as shard ``shard_id`` of ``shard_count``."""
        await self.gateway.wait_shard_gone(shard_id, shard_count, timeout)

    @property
    def faults(self) -> Faults:
        """Injected REST failures: ``fail``, ``rate_limit``, ``lose_response`` (see faults.py)."""
        return self._ctx.faults

    async def reconnect(self) -> None:
        """Send op 7 RECONNECT; the client reconnects and RESUMEs (missed events replayed)."""
        await self.gateway.send_reconnect()

    # -- inspection ------------------------------------------------------------------------------

    @property
    def requests(self) -> list[RequestRecord]:
        """Every REST request served, in order."""
        return list(self.state.requests)

    @property
    def unexpected_requests(self) -> list[RequestRecord]:
        """Requests to routes the double does not implement (answered 404/405)."""
        return [r for r in self.state.requests if r.route is None]

    @property
    def interactions(self) -> list[InteractionRecord]:
        """Every interaction dispatched, in order."""
        return list(self.state.interactions.values())

    def commands(self, guild_id: int | None = None) -> list[JSON]:
        """The synced application commands (global, or of one guild)."""
        if guild_id is None:
            return list(self.state.global_commands)
        return list(self.state.guild_commands.get(guild_id, []))

    def command(self, name: str, guild_id: int | None = None) -> JSON | None:
        """A synced chat-input command by name (guild first, then global)."""
        found = self.state.find_command(name, guild_id)
        return None if found is None else found[0]

    async def wait_for_commands(
        self, guild_id: int | None = None, timeout: float = 10.0
    ) -> list[JSON]:
        """Wait until the client has synced (bulk overwritten) commands there; return them."""

        def probe() -> list[JSON] | None:
            if any(g == guild_id for g, _ in self.state.command_syncs):
                return self.commands(guild_id)
            return None

        where = "global" if guild_id is None else f"guild {guild_id}"
        return await self.state.notifier.wait_for(probe, timeout, f"a {where} command sync")

    def channel(self, channel_id: int) -> ChannelRecord:
        """A channel or thread record."""
        return self.state.channel(channel_id)

    def messages(self, channel_id: int, *, include_ephemeral: bool = True) -> list[MessageRecord]:
        """Live (not deleted) messages of a channel or thread, oldest first."""
        return self.state.live_messages(channel_id, include_ephemeral=include_ephemeral)

    def message(self, message_id: int) -> MessageRecord:
        """A message record by id (deleted ones too)."""
        return self.state.messages[message_id]

    def threads(self, parent_id: int | None = None) -> list[ChannelRecord]:
        """Threads created (under one parent channel, or all), in creation order."""
        return [
            c
            for c in self.state.channels.values()
            if c.is_thread and (parent_id is None or c.parent_id == parent_id)
        ]

    async def wait_for_message(
        self,
        channel_id: int,
        predicate: Callable[[MessageRecord], bool] | None = None,
        timeout: float = 5.0,
        *,
        besides: Collection[int] = (),
    ) -> MessageRecord:
        """First live, non-loading message in the channel that matches (re-checked on change),
        other than the ``besides`` ids (the messages seen before the action that posts it)."""

        def probe() -> MessageRecord | None:
            for msg in self.state.live_messages(channel_id):
                if msg.id in besides or msg.loading:
                    continue
                if predicate is None or predicate(msg):
                    return msg
            return None

        return await self.state.notifier.wait_for(probe, timeout, f"a message in {channel_id}")

    async def wait_for_thread(
        self,
        parent_id: int,
        predicate: Callable[[ChannelRecord], bool] | None = None,
        timeout: float = 5.0,
    ) -> ChannelRecord:
        """First thread under ``parent_id`` that matches."""
        return await self.state.notifier.wait_for(
            lambda: next(
                (t for t in self.threads(parent_id) if predicate is None or predicate(t)), None
            ),
            timeout,
            f"a thread under {parent_id}",
        )

    # -- simulated users -------------------------------------------------------------------------

    def _user(self, user: UserRef) -> UserSpec:
        return user if isinstance(user, UserSpec) else self.state.user(int(user))

    async def _dispatch(self, payload: JSON) -> InteractionRecord:
        rec = InteractionRecord(payload, self.state.notifier, self.state.messages)
        self.state.interactions[rec.id] = rec
        self.state.interactions_by_token[rec.token] = rec
        rec.dispatched_at = time.perf_counter()
        if not await self.gateway.dispatch("INTERACTION_CREATE", payload):
            del self.state.interactions[rec.id]
            del self.state.interactions_by_token[rec.token]
            raise RuntimeError("no client has identified on the gateway")
        self.state.changed()
        return rec

    async def slash(
        self,
        user: UserRef,
        channel_id: int,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        locale: str | None = None,
    ) -> InteractionRecord:
        """Run ``/name`` (``"group sub"`` for subcommands), options typed by the synced schema."""
        spec = self._user(user)
        channel = self.state.channel(channel_id)
        parts = name.split()
        command, command_guild = self._synced(parts[0], channel.guild_id)
        data = interactions.command_data(
            self.state, command, command_guild, parts[1:], options or {}, channel_id=channel_id
        )
        payload = interactions.interaction_payload(
            self.state, itype=2, user=spec, channel=channel, data=data, locale=locale
        )
        return await self._dispatch(payload)

    def _synced(self, name: str, guild_id: int | None) -> tuple[JSON, int | None]:
        """The synced command ``name`` (global or for the guild) and the guild it was synced to."""
        found = self.state.find_command(name, guild_id)
        if found is None:
            raise LookupError(f"/{name} was not synced (global or for this guild)")
        return found

    async def autocomplete(
        self,
        user: UserRef,
        channel_id: int,
        name: str,
        options: Mapping[str, Any],
        focused: str,
        *,
        timeout: float = 5.0,
        locale: str | None = None,
    ) -> list[JSON]:
        """Type into option ``focused`` of ``/name``; return the choices the bot answered."""
        rec = await self.autocomplete_interaction(
            user, channel_id, name, options, focused, locale=locale
        )
        response = await rec.response(timeout)
        if response.type != 8:
            raise AssertionError(f"autocomplete answered with callback type {response.type}")
        return list(response.data.get("choices", []))

    async def autocomplete_interaction(
        self,
        user: UserRef,
        channel_id: int,
        name: str,
        options: Mapping[str, Any],
        focused: str,
        *,
        locale: str | None = None,
    ) -> InteractionRecord:
        """Dispatch an autocomplete interaction (type 4) and return its record."""
        spec = self._user(user)
        channel = self.state.channel(channel_id)
        parts = name.split()
        command, command_guild = self._synced(parts[0], channel.guild_id)
        data = interactions.command_data(
            self.state,
            command,
            command_guild,
            parts[1:],
            options,
            channel_id=channel_id,
            focused=focused,
        )
        payload = interactions.interaction_payload(
            self.state, itype=4, user=spec, channel=channel, data=data, locale=locale
        )
        return await self._dispatch(payload)

    async def click(
        self,
        user: UserRef,
        channel_id: int,
        message_id: int,
        custom_id: str,
        values: list[str] | None = None,
        *,
        locale: str | None = None,
    ) -> InteractionRecord:
        """Click a button (or choose ``values`` in a select menu) on a message the bot posted."""
        spec = self._user(user)
        msg = self.state.message(channel_id, message_id)
        comp = msg.component(custom_id)
        if comp is None:
            raise LookupError(f"message {message_id} has no component {custom_id!r}")
        if comp.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        ctype = int(comp["type"])
        data: JSON = {"custom_id": custom_id, "component_type": ctype}
        if ctype == 2:
            if values:
                raise ValueError("buttons take no values")
        else:
            chosen = list(values or [])
            if ctype == 3:
                allowed = {o["value"] for o in comp.get("options", [])}
                bad = [v for v in chosen if v not in allowed]
                if bad:
                    raise ValueError(f"values {bad} are not options of {custom_id!r}")
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if not lo <= len(chosen) <= hi:
                raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values")
            data["values"] = chosen
        payload = interactions.interaction_payload(
            self.state,
            itype=3,
            user=spec,
            channel=self.state.channel(channel_id),
            data=data,
            message=self.state.message_json(msg),
            locale=locale,
        )
        return await self._dispatch(payload)

    async def forged_click(
        self,
        user: UserRef,
        channel_id: int,
        message_id: int,
        custom_id: str,
        values: list[str] | None = None,
    ) -> InteractionRecord:
        """A click with a custom id the message does not have (a tampered client sends one).

        A select menu is assumed when ``values`` is given, else a button; nothing is checked.
        """
        msg = self.state.message(channel_id, message_id)
        data: JSON = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
        if values is not None:
            data["values"] = list(values)
        payload = interactions.interaction_payload(
            self.state,
            itype=3,
            user=self._user(user),
            channel=self.state.channel(channel_id),
            data=data,
            message=self.state.message_json(msg),
        )
        return await self._dispatch(payload)

    async def submit_modal(
        self, user: UserRef, opened_by: InteractionRecord, values: Mapping[str, Any]
    ) -> InteractionRecord:
        """Submit the modal the bot opened in answer to ``opened_by`` with text input values."""
        modal = opened_by.modal
        if modal is None:
            raise LookupError(f"interaction {opened_by.id} did not open a modal")
        data = {
            "custom_id": modal["custom_id"],
            "components": interactions.modal_components(modal, values),
        }
        message = None
        if opened_by.component_message_id is not None:
            message = self.state.message_json(self.state.messages[opened_by.component_message_id])
        payload = interactions.interaction_payload(
            self.state,
            itype=5,
            user=self._user(user),
            channel=self.state.channel(opened_by.channel_id),
            data=data,
            message=message,
        )
        return await self._dispatch(payload)

    async def post_user_message(
        self, user: UserRef, channel_id: int, content: str
    ) -> MessageRecord:
        """A user writes a message in a channel (stored and dispatched as MESSAGE_CREATE)."""
        spec = self._user(user)
        msg = self.state.create_message(
            channel_id, {"content": content}, [], author_id=spec.id, validate_body=False
        )
        await message_event(self._ctx, "MESSAGE_CREATE", msg)
        return msg

    # -- attachments -----------------------------------------------------------------------------

    async def _attachment(self, request: web.Request) -> web.Response:
        found = self.state.find_attachment(int(request.match_info["attachment_id"]))
        if found is None:
            return web.Response(status=404)
        _, att = found
        return web.Response(body=att.data, content_type=att.content_type)


def user_json(user: UserSpec) -> JSON:
    """The user payload the double would send for this spec (handy in assertions)."""
    return payloads.user_payload(user)
