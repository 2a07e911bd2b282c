"""REST routes: users, gateway discovery, application, commands, guilds."""

from __future__ import annotations

from . import errors, payloads
from .records import ChannelRecord
from .rest import Ctx, Req, Result, Route


async def get_me(ctx: Ctx, req: Req) -> Result:
    """GET /users/@me."""
    return 200, payloads.self_user_payload(ctx.state.bot)


async def get_user(ctx: Ctx, req: Req) -> Result:
    """GET /users/{user_id}."""
    return 200, payloads.user_payload(ctx.state.user(req.int("user_id")))


async def create_dm(ctx: Ctx, req: Req) -> Result:
    """POST /users/@me/channels: open (or reuse) a DM channel."""
    state = ctx.state
    user = state.user(int(req.json().get("recipient_id", 0)))
    channel = next(
        (c for c in state.channels.values() if c.type == 1 and c.recipient_ids == [user.id]), None
    )
    if channel is None:
        channel = ChannelRecord(
            id=state.next_id(), type=1, guild_id=None, name="", recipient_ids=[user.id]
        )
        state.channels[channel.id] = channel
    data = payloads.channel_payload(channel)
    data["recipients"] = [payloads.user_payload(user)]
    return 200, data


async def get_gateway(ctx: Ctx, req: Req) -> Result:
    """GET /gateway."""
    return 200, {"url": ctx.gateway.url}


async def get_gateway_bot(ctx: Ctx, req: Req) -> Result:
    """GET /gateway/bot."""
    limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
    return 200, {"url": ctx.gateway.url, "shards": 1, "session_start_limit": limit}


async def get_application(ctx: Ctx, req: Req) -> Result:
    """GET /oauth2/applications/@me and /applications/@me."""
    s = ctx.state
    return 200, payloads.application_payload(s.app_id, s.bot, s.owner, s.application_flags)


def _check_app(ctx: Ctx, req: Req) -> None:
    if req.params.get("app_id") != str(ctx.state.app_id):
        raise errors.ApiError(403, 50001, "Missing Access")


def _guild_param(ctx: Ctx, req: Req) -> int | None:
    if "guild_id" not in req.params:
        return None
    guild_id = req.int("guild_id")
    ctx.state.guild(guild_id)
    return guild_id


async def get_commands(ctx: Ctx, req: Req) -> Result:
    """GET global or guild application commands."""
    _check_app(ctx, req)
    guild_id = _guild_param(ctx, req)
    s = ctx.state
    return 200, s.global_commands if guild_id is None else s.guild_commands.get(guild_id, [])


async def put_commands(ctx: Ctx, req: Req) -> Result:
    """PUT (bulk overwrite) global or guild application commands."""
    _check_app(ctx, req)
    guild_id = _guild_param(ctx, req)
    if not isinstance(req.body, list):
        raise errors.invalid_form("_", "LIST_TYPE_CONVERT", "Must be an array.")
    return 200, ctx.state.set_commands(guild_id, req.body)


async def get_guild(ctx: Ctx, req: Req) -> Result:
    """GET /guilds/{guild_id}."""
    s = ctx.state
    guild = s.guild(req.int("guild_id"))
    return 200, payloads.guild_rest_payload(guild, s.bot, s.bot_permissions)


async def get_guild_channels(ctx: Ctx, req: Req) -> Result:
    """GET /guilds/{guild_id}/channels (no threads)."""
    s = ctx.state
    guild = s.guild(req.int("guild_id"))
    return 200, [payloads.channel_payload(c) for c in s.guild_channels(guild.id) if not c.is_thread]


async def get_active_threads(ctx: Ctx, req: Req) -> Result:
    """GET /guilds/{guild_id}/threads/active."""
    s = ctx.state
    guild = s.guild(req.int("guild_id"))
    threads = [c for c in s.guild_channels(guild.id) if c.is_thread and not c.archived]
    return 200, {"threads": [payloads.channel_payload(t) for t in threads], "members": []}


async def get_member(ctx: Ctx, req: Req) -> Result:
    """GET /guilds/{guild_id}/members/{user_id}."""
    s = ctx.state
    guild = s.guild(req.int("guild_id"))
    user_id = req.int("user_id")
    if user_id == s.bot.id:
        return 200, payloads.member_payload(s.bot)
    member = guild.member(user_id)
    if member is None:
        raise errors.unknown("Member", 10007)
    return 200, payloads.member_payload(member)


async def list_members(ctx: Ctx, req: Req) -> Result:
    """GET /guilds/{guild_id}/members."""
    s = ctx.state
    guild = s.guild(req.int("guild_id"))
    limit = int(req.query.get("limit", "1"))
    members = [s.bot, *guild.members][:limit]
    return 200, [payloads.member_payload(m) for m in members]


async def get_roles(ctx: Ctx, req: Req) -> Result:
    """GET /guilds/{guild_id}/roles."""
    guild = ctx.state.guild(req.int("guild_id"))
    roles = [payloads.everyone_role(guild), *guild.roles]
    return 200, [payloads.role_payload(r) for r in roles]


ROUTES = [
    Route("GET", "/users/@me", get_me),
    Route("POST", "/users/@me/channels", create_dm),
    Route("GET", "/users/{user_id}", get_user),
    Route("GET", "/gateway", get_gateway, auth=False),
    Route("GET", "/gateway/bot", get_gateway_bot),
    Route("GET", "/oauth2/applications/@me", get_application),
    Route("GET", "/applications/@me", get_application),
    Route("GET", "/applications/{app_id}/commands", get_commands),
    Route("PUT", "/applications/{app_id}/commands", put_commands),
    Route("GET", "/applications/{app_id}/guilds/{guild_id}/commands", get_commands),
    Route("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", put_commands),
    Route("GET", "/guilds/{guild_id}", get_guild),
    Route("GET", "/guilds/{guild_id}/channels", get_guild_channels),
    Route("GET", "/guilds/{guild_id}/threads/active", get_active_threads),
    Route("GET", "/guilds/{guild_id}/members", list_members),
    Route("GET", "/guilds/{guild_id}/members/{user_id}", get_member),
    Route("GET", "/guilds/{guild_id}/roles", get_roles),
]
