"""Static configuration of the double: the bot user, guilds, channels and members."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

# Permission bits (https://discord.com/developers/docs/topics/permissions).
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
ADD_REACTIONS = 1 << 6
ADMINISTRATOR = 1 << 3
MANAGE_MESSAGES = 1 << 13
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
USE_APPLICATION_COMMANDS = 1 << 31

MEMBER_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
    | USE_APPLICATION_COMMANDS
)
"""Permissions of an ordinary member (and of @everyone) unless a spec says otherwise."""

BOT_PERMISSIONS = MEMBER_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS | MENTION_EVERYONE
"""Permissions the bot has in every channel (sent as ``app_permissions``)."""


@dataclass(frozen=True)
class UserSpec:
    """A Discord user; in a guild also a member with ``roles`` and ``permissions``."""

    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    roles: tuple[int, ...] = ()
    permissions: int = MEMBER_PERMISSIONS
    nick: str | None = None
    locale: str = "en-US"


@dataclass(frozen=True)
class RoleSpec:
    """A guild role (the @everyone role, id == guild id, is always added)."""

    id: int
    name: str
    permissions: int = MEMBER_PERMISSIONS
    position: int = 1
    color: int = 0


@dataclass(frozen=True)
class GuildSpec:
    """A guild the bot is in: text channels (ids, optional names), members and roles."""

    id: int
    name: str
    text_channel_ids: Sequence[int] = ()
    members: Sequence[UserSpec] = ()
    roles: Sequence[RoleSpec] = ()
    channel_names: Mapping[int, str] = field(default_factory=dict)
    owner_id: int | None = None
    preferred_locale: str = "en-US"

    def channel_name(self, channel_id: int) -> str:
        """Name of a configured text channel (``channel-N`` unless given)."""
        if channel_id in self.channel_names:
            return self.channel_names[channel_id]
        return f"channel-{list(self.text_channel_ids).index(channel_id) + 1}"

    def member(self, user_id: int) -> UserSpec | None:
        """The member spec with this id, if configured."""
        return next((m for m in self.members if m.id == user_id), None)
