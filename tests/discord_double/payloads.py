"""Builders for the JSON payloads Discord sends (users, members, channels, guilds, messages)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from .records import AttachmentRecord, ChannelRecord, MessageRecord
from .specs import GuildSpec, RoleSpec, UserSpec

JSON = dict[str, Any]

JOINED_AT = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)


def iso(value: dt.datetime | None) -> str | None:
    """ISO 8601 timestamp as Discord writes it."""
    return None if value is None else value.isoformat()


def user_payload(user: UserSpec) -> JSON:
    """A user object."""
    return {
        "id": str(user.id),
        "username": user.name,
        "discriminator": "0",
        "global_name": user.global_name,
        "avatar": None,
        "bot": user.bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "collectibles": None,
        "primary_guild": None,
    }


def self_user_payload(user: UserSpec) -> JSON:
    """The bot's own user object (GET /users/@me, READY.user)."""
    return {
        **user_payload(user),
        "verified": True,
        "mfa_enabled": False,
        "email": None,
        "locale": "en-US",
    }


def member_payload(
    user: UserSpec, *, with_user: bool = True, permissions: int | None = None
) -> JSON:
    """A guild member object (optionally with ``permissions`` as in interactions)."""
    data: JSON = {
        "roles": [str(r) for r in user.roles],
        "nick": user.nick,
        "avatar": None,
        "banner": None,
        "joined_at": iso(JOINED_AT),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user_payload(user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(role: RoleSpec) -> JSON:
    """A role object."""
    return {
        "id": str(role.id),
        "name": role.name,
        "color": role.color,
        "colors": {"primary_color": role.color, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": False,
        "mentionable": True,
        "flags": 0,
    }


def everyone_role(guild: GuildSpec) -> RoleSpec:
    """The @everyone role of a guild."""
    return RoleSpec(id=guild.id, name="@everyone", position=0)


def channel_payload(ch: ChannelRecord) -> JSON:
    """A channel object: text channel, thread or DM."""
    if ch.type in (1, 3):
        return {
            "id": str(ch.id),
            "type": ch.type,
            "last_message_id": str(ch.last_message_id) if ch.last_message_id else None,
            "recipients": [],
            "flags": 0,
        }
    data: JSON = {
        "id": str(ch.id),
        "type": ch.type,
        "guild_id": str(ch.guild_id),
        "name": ch.name,
        "parent_id": str(ch.parent_id) if ch.parent_id else None,
        "last_message_id": str(ch.last_message_id) if ch.last_message_id else None,
        "rate_limit_per_user": ch.rate_limit_per_user,
        "flags": 0,
        "nsfw": False,
    }
    if ch.is_thread:
        data.update(
            owner_id=str(ch.owner_id),
            message_count=ch.message_count,
            total_message_sent=ch.message_count,
            member_count=len(ch.member_ids),
            thread_metadata={
                "archived": ch.archived,
                "auto_archive_duration": ch.auto_archive_duration,
                "archive_timestamp": iso(ch.created_at),
                "locked": ch.locked,
                "invitable": ch.invitable,
                "create_timestamp": iso(ch.created_at),
            },
            applied_tags=[],
        )
    else:
        data.update(
            position=ch.position,
            topic=ch.topic,
            permission_overwrites=[],
            default_auto_archive_duration=1440,
            default_thread_rate_limit_per_user=0,
        )
    return data


def attachment_payload(att: AttachmentRecord, channel_id: int, base_url: str) -> JSON:
    """An attachment object whose URL the double serves."""
    url = f"{base_url}/attachments/{channel_id}/{att.id}/{att.filename}"
    data: JSON = {
        "id": str(att.id),
        "filename": att.filename,
        "size": att.size,
        "url": url,
        "proxy_url": url,
        "content_type": att.content_type,
        "ephemeral": False,
        "flags": 0,
    }
    if att.description is not None:
        data["description"] = att.description
    return data


def message_payload(
    msg: MessageRecord,
    users: Mapping[int, UserSpec],
    base_url: str,
    *,
    interaction_meta: JSON | None = None,
    referenced: JSON | None = None,
) -> JSON:
    """A message object as REST returns it."""
    author = users[msg.author_id]
    mentions = [user_payload(users[u]) for u in msg.mentioned_user_ids() if u in users]
    data: JSON = {
        "id": str(msg.id),
        "channel_id": str(msg.channel_id),
        "type": msg.type,
        "author": user_payload(author),
        "content": msg.content,
        "timestamp": iso(msg.timestamp),
        "edited_timestamp": iso(msg.edited_timestamp),
        "tts": msg.tts,
        "mention_everyone": msg.pings_everyone(),
        "mentions": mentions,
        "mention_roles": [str(r) for r in msg.mentioned_role_ids()],
        "mention_channels": [],
        "attachments": [attachment_payload(a, msg.channel_id, base_url) for a in msg.attachments],
        "embeds": [{"type": "rich", **e} for e in msg.embeds],
        "components": msg.components,
        "reactions": [
            {"emoji": {"id": None, "name": r}, "count": 1, "me": True} for r in msg.reactions
        ],
        "pinned": msg.pinned,
        "flags": msg.flags,
    }
    if msg.nonce is not None:
        data["nonce"] = msg.nonce
    if msg.webhook_id is not None:
        data["webhook_id"] = str(msg.webhook_id)
        data["application_id"] = str(msg.webhook_id)
    if msg.poll is not None:
        data["poll"] = msg.poll
    if msg.message_reference is not None:
        data["message_reference"] = msg.message_reference
        data["referenced_message"] = referenced
    if interaction_meta is not None:
        data["interaction_metadata"] = interaction_meta
        data["interaction"] = {
            "id": interaction_meta["id"],
            "type": interaction_meta["type"],
            "name": interaction_meta.get("name", ""),
            "user": interaction_meta["user"],
        }
    return data


def bot_role_id(guild_id: int) -> int:
    """Id of the bot's managed role in a guild."""
    return (guild_id << 1) | 1


def guild_create_payload(
    guild: GuildSpec,
    bot: UserSpec,
    channels: list[ChannelRecord],
    bot_permissions: int,
) -> JSON:
    """The GUILD_CREATE payload: the guild with roles, channels, active threads and members."""
    roles = [everyone_role(guild), *guild.roles]
    bot_role = RoleSpec(
        id=bot_role_id(guild.id), name=bot.name, permissions=bot_permissions, position=99
    )
    roles.append(bot_role)
    bot_member = UserSpec(bot.id, bot.name, bot=True, roles=(bot_role.id,))
    members = [member_payload(bot_member), *(member_payload(m) for m in guild.members)]
    text = [channel_payload(c) for c in channels if not c.is_thread]
    threads = [channel_payload(c) for c in channels if c.is_thread and not c.archived]
    for ch in text:
        ch.pop("guild_id", None)
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id or bot.id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "roles": [role_payload(r) for r in roles],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": str(guild.text_channel_ids[0]) if guild.text_channel_ids else None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": guild.preferred_locale,
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": iso(JOINED_AT),
        "large": False,
        "unavailable": False,
        "member_count": len(members),
        "members": members,
        "channels": text,
        "threads": threads,
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "lazy": True,
    }


def guild_rest_payload(guild: GuildSpec, bot: UserSpec, bot_permissions: int) -> JSON:
    """GET /guilds/{id}: the guild without members or channels."""
    full = guild_create_payload(guild, bot, [], bot_permissions)
    for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at"):
        full.pop(key, None)
    full["approximate_member_count"] = full["member_count"]
    return full


def application_payload(app_id: int, bot: UserSpec, owner: UserSpec, flags: int) -> JSON:
    """GET /oauth2/applications/@me."""
    return {
        "id": str(app_id),
        "name": bot.name,
        "icon": None,
        "description": "Discord double application",
        "rpc_origins": [],
        "bot_public": True,
        "bot_require_code_grant": False,
        "bot": user_payload(bot),
        "owner": user_payload(owner),
        "team": None,
        "verify_key": "00" * 32,
        "flags": flags,
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "approximate_guild_count": 1,
        "integration_types_config": {"0": {}},
    }
