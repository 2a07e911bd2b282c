"""A local double of the Discord REST API and gateway for end-to-end tests of the real client."""

from .api import DiscordDouble
from .faults import DROP, Fault, Faults
from .records import (
    AttachmentRecord,
    CallbackRecord,
    ChannelRecord,
    InteractionEvent,
    InteractionRecord,
    MessageRecord,
    RequestRecord,
)
from .specs import BOT_PERMISSIONS, MEMBER_PERMISSIONS, GuildSpec, RoleSpec, UserSpec

__all__ = [
    "BOT_PERMISSIONS",
    "DROP",
    "MEMBER_PERMISSIONS",
    "AttachmentRecord",
    "CallbackRecord",
    "ChannelRecord",
    "DiscordDouble",
    "Fault",
    "Faults",
    "GuildSpec",
    "InteractionEvent",
    "InteractionRecord",
    "MessageRecord",
    "RequestRecord",
    "RoleSpec",
    "UserSpec",
]
