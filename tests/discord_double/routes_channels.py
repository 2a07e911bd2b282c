"""REST routes: channels, messages, threads, pins, reactions, typing."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from . import errors, payloads, validate
from .records import EPHEMERAL, IS_COMPONENTS_V2, LOADING, ChannelRecord, MessageRecord
from .rest import Ctx, Req, Result, Route

JSON = dict[str, Any]


def edit_body(msg: MessageRecord, body: JSON) -> JSON:
    """The edit as Discord applies it: without ``flags`` a V2 message keeps IS_COMPONENTS_V2
    (it cannot be removed), so the edit is judged as a layout; the request's body is not changed.
    """
    if msg.is_v2 and body.get("flags") is None:
        return {**body, "flags": (msg.flags & ~LOADING) | IS_COMPONENTS_V2}
    return body


def _visible(ctx: Ctx, req: Req) -> MessageRecord:
    msg = ctx.state.message(req.int("channel_id"), req.int("message_id"))
    if msg.ephemeral:
        raise errors.unknown_message()
    return msg


async def channel_event(ctx: Ctx, channel: ChannelRecord, created: bool = False) -> None:
    """Dispatch THREAD_CREATE / THREAD_UPDATE / CHANNEL_UPDATE for a channel."""
    data = payloads.channel_payload(channel)
    if channel.is_thread:
        if created:
            data["newly_created"] = True
            data["member"] = {
                "id": str(channel.id),
                "user_id": str(channel.owner_id),
                "join_timestamp": payloads.iso(channel.created_at),
                "flags": 0,
            }
        await ctx.gateway.dispatch("THREAD_CREATE" if created else "THREAD_UPDATE", data)
    else:
        await ctx.gateway.dispatch("CHANNEL_UPDATE", data)


async def message_event(ctx: Ctx, kind: str, msg: MessageRecord) -> None:
    """Dispatch MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE unless ephemeral."""
    if msg.ephemeral:
        return
    if kind == "MESSAGE_DELETE":
        data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        await ctx.gateway.dispatch(kind, data)
    else:
        await ctx.gateway.dispatch(kind, ctx.state.message_event(msg))


async def get_channel(ctx: Ctx, req: Req) -> Result:
    """GET /channels/{channel_id}."""
    return 200, payloads.channel_payload(ctx.state.channel(req.int("channel_id")))


async def edit_channel(ctx: Ctx, req: Req) -> Result:
    """PATCH /channels/{channel_id}: name, topic, and thread archived/locked/etc."""
    channel = ctx.state.channel(req.int("channel_id"))
    body = req.json()
    for key in ("name", "topic", "rate_limit_per_user"):
        if key in body:
            setattr(channel, key, body[key])
    if channel.is_thread:
        for key in ("archived", "locked", "auto_archive_duration", "invitable"):
            if key in body:
                setattr(channel, key, body[key])
    ctx.state.changed()
    await channel_event(ctx, channel)
    return 200, payloads.channel_payload(channel)


async def create_message(ctx: Ctx, req: Req) -> Result:
    """POST /channels/{channel_id}/messages (JSON or multipart)."""
    body = req.json()
    ref = body.get("message_reference")
    if ref and ref.get("fail_if_not_exists", True) and ref.get("message_id"):
        ch = int(ref.get("channel_id") or req.int("channel_id"))
        try:
            ctx.state.message(ch, int(ref["message_id"]))
        except errors.ApiError:
            raise errors.invalid_form(
                "message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"
            ) from None
    repeated = ctx.state.same_nonce(req.int("channel_id"), body, ctx.state.bot.id)
    if repeated is not None:
        return 200, ctx.state.message_json(repeated)
    if int(body.get("flags") or 0) & EPHEMERAL:  # only interactions may answer ephemerally
        body["flags"] = int(body["flags"]) & ~EPHEMERAL
    validate.check_v2_request(body, req.files)
    msg = ctx.state.create_message(req.int("channel_id"), body, req.files)
    await message_event(ctx, "MESSAGE_CREATE", msg)
    return 200, ctx.state.message_json(msg)


async def get_message(ctx: Ctx, req: Req) -> Result:
    """GET /channels/{channel_id}/messages/{message_id}."""
    return 200, ctx.state.message_json(_visible(ctx, req))


async def history(ctx: Ctx, req: Req) -> Result:
    """GET /channels/{channel_id}/messages: newest first, with before/after/limit."""
    state = ctx.state
    state.channel(req.int("channel_id"))
    msgs = state.live_messages(req.int("channel_id"), include_ephemeral=False)
    if "before" in req.query:
        msgs = [m for m in msgs if m.id < int(req.query["before"])]
    if "after" in req.query:
        msgs = [m for m in msgs if m.id > int(req.query["after"])]
    limit = int(req.query.get("limit", "50"))
    newest = list(reversed(msgs))
    if "after" in req.query:
        newest = list(reversed(msgs[:limit]))
    return 200, [state.message_json(m) for m in newest[:limit]]


async def edit_message(ctx: Ctx, req: Req) -> Result:
    """PATCH /channels/{channel_id}/messages/{message_id}."""
    msg = _visible(ctx, req)
    body = req.json()
    if msg.author_id != ctx.state.bot.id and set(body) - {"flags"}:
        raise errors.ApiError(403, 50005, "Cannot edit a message authored by another user")
    validate.check_v2_request(body, req.files, msg)
    ctx.state.edit_message(msg, edit_body(msg, body), req.files)
    await message_event(ctx, "MESSAGE_UPDATE", msg)
    return 200, ctx.state.message_json(msg)


async def delete_message(ctx: Ctx, req: Req) -> Result:
    """DELETE /channels/{channel_id}/messages/{message_id}."""
    msg = _visible(ctx, req)
    ctx.state.delete_message(msg)
    await message_event(ctx, "MESSAGE_DELETE", msg)
    return 204, None


async def start_thread(ctx: Ctx, req: Req) -> Result:
    """POST /channels/{channel_id}/threads (a thread without a starter message)."""
    thread = ctx.state.create_thread(req.int("channel_id"), req.json(), owner_id=ctx.state.bot.id)
    await channel_event(ctx, thread, created=True)
    return 201, payloads.channel_payload(thread)


async def start_thread_from_message(ctx: Ctx, req: Req) -> Result:
    """POST /channels/{channel_id}/messages/{message_id}/threads."""
    starter = _visible(ctx, req)
    body = {**req.json(), "type": 11}
    thread = ctx.state.create_thread(
        req.int("channel_id"), body, owner_id=ctx.state.bot.id, starter=starter
    )
    await channel_event(ctx, thread, created=True)
    await message_event(ctx, "MESSAGE_UPDATE", starter)
    return 201, payloads.channel_payload(thread)


async def pin(ctx: Ctx, req: Req) -> Result:
    """PUT /channels/{channel_id}/messages/pins/{message_id} (and the legacy /pins/ path)."""
    msg = _visible(ctx, req)
    channel = ctx.state.channel(msg.channel_id)
    if not msg.pinned:
        msg.pinned = True
        channel.pinned_ids.append(msg.id)
    ctx.state.changed()
    return 204, None


async def unpin(ctx: Ctx, req: Req) -> Result:
    """DELETE /channels/{channel_id}/messages/pins/{message_id} (and the legacy path)."""
    msg = _visible(ctx, req)
    channel = ctx.state.channel(msg.channel_id)
    msg.pinned = False
    if msg.id in channel.pinned_ids:
        channel.pinned_ids.remove(msg.id)
    ctx.state.changed()
    return 204, None


async def list_pins(ctx: Ctx, req: Req) -> Result:
    """GET /channels/{channel_id}/messages/pins (new shape)."""
    state = ctx.state
    channel = state.channel(req.int("channel_id"))
    items = [
        {
            "pinned_at": payloads.iso(state.messages[m].timestamp),
            "message": state.message_json(state.messages[m]),
        }
        for m in reversed(channel.pinned_ids)
        if not state.messages[m].deleted
    ]
    return 200, {"items": items, "has_more": False}


async def list_pins_legacy(ctx: Ctx, req: Req) -> Result:
    """GET /channels/{channel_id}/pins (legacy shape: a list of messages)."""
    _, data = await list_pins(ctx, req)
    return 200, [item["message"] for item in data["items"]]


async def add_reaction(ctx: Ctx, req: Req) -> Result:
    """PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me."""
    msg = _visible(ctx, req)
    emoji = unquote(req.params["emoji"])
    if emoji not in msg.reactions:
        msg.reactions.append(emoji)
    ctx.state.changed()
    return 204, None


async def remove_reaction(ctx: Ctx, req: Req) -> Result:
    """DELETE /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me."""
    msg = _visible(ctx, req)
    emoji = unquote(req.params["emoji"])
    if emoji in msg.reactions:
        msg.reactions.remove(emoji)
    ctx.state.changed()
    return 204, None


async def typing(ctx: Ctx, req: Req) -> Result:
    """POST /channels/{channel_id}/typing."""
    ctx.state.channel(req.int("channel_id"))
    return 204, None


async def join_thread(ctx: Ctx, req: Req) -> Result:
    """PUT /channels/{channel_id}/thread-members/{user_id} (or @me)."""
    channel = ctx.state.channel(req.int("channel_id"))
    if not channel.is_thread:
        raise errors.ApiError(400, 50024, "Cannot execute action on this channel type")
    user = req.params["user_id"]
    channel.member_ids.add(ctx.state.bot.id if user == "@me" else int(user))
    ctx.state.changed()
    return 204, None


async def leave_thread(ctx: Ctx, req: Req) -> Result:
    """DELETE /channels/{channel_id}/thread-members/{user_id} (or @me)."""
    channel = ctx.state.channel(req.int("channel_id"))
    user = req.params["user_id"]
    channel.member_ids.discard(ctx.state.bot.id if user == "@me" else int(user))
    ctx.state.changed()
    return 204, None


_M = "/channels/{channel_id}/messages/{message_id}"
ROUTES = [
    Route("GET", "/channels/{channel_id}", get_channel),
    Route("PATCH", "/channels/{channel_id}", edit_channel),
    Route("GET", "/channels/{channel_id}/messages/pins", list_pins),
    Route("PUT", "/channels/{channel_id}/messages/pins/{message_id}", pin),
    Route("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", unpin),
    Route("GET", "/channels/{channel_id}/pins", list_pins_legacy),
    Route("PUT", "/channels/{channel_id}/pins/{message_id}", pin),
    Route("DELETE", "/channels/{channel_id}/pins/{message_id}", unpin),
    Route("GET", "/channels/{channel_id}/messages", history),
    Route("POST", "/channels/{channel_id}/messages", create_message),
    Route("GET", _M, get_message),
    Route("PATCH", _M, edit_message),
    Route("DELETE", _M, delete_message),
    Route("POST", _M + "/threads", start_thread_from_message),
    Route("PUT", _M + "/reactions/{emoji}/@me", add_reaction),
    Route("DELETE", _M + "/reactions/{emoji}/@me", remove_reaction),
    Route("POST", "/channels/{channel_id}/threads", start_thread),
    Route("POST", "/channels/{channel_id}/typing", typing),
    Route("PUT", "/channels/{channel_id}/thread-members/{user_id}", join_thread),
    Route("DELETE", "/channels/{channel_id}/thread-members/{user_id}", leave_thread),
]
