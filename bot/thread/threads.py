"""Reaching a game's thread and its players: channels, locales, nonces, direct messages."""

from __future__ import annotations

import hashlib
import logging

import discord

from bot.context import Himiko
from bot.present import NO_MENTIONS, clip

log = logging.getLogger(__name__)


def message_nonce(game_id: int, version: int, part: str = "") -> str:
    """The nonce of a game's message for one version (and ``part``): the same on every retry.

    Discord allows 25 characters; it returns the existing message for a repeated nonce
    (``enforce_nonce``, which discord.py sends with every nonce) for a few minutes.
    """
    key = f"himiko:{game_id}:{version}" + (f":{part}" if part else "")
    return hashlib.sha256(key.encode()).hexdigest()[:25]


async def fetch_thread(bot: Himiko, channel_id: int) -> discord.abc.Messageable:
    """The channel (a game's thread) to post in, from the cache or fetched."""
    channel = bot.client.get_channel(channel_id)
    if channel is None:
        channel = await bot.client.fetch_channel(channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        raise TypeError(f"channel {channel_id} cannot receive messages")
    return channel


def channel_locale(channel: discord.abc.Messageable) -> str | None:
    """The locale of the server a channel is in (None outside a server)."""
    if not isinstance(
        channel, discord.Thread | discord.abc.GuildChannel | discord.PartialMessageable
    ):
        return None  # a direct message
    guild = channel.guild
    return None if guild is None else str(guild.preferred_locale)


def game_locale(language: str | None, channel: discord.abc.Messageable) -> str | None:
    """The locale of a game's public messages: its language, else (games made before the
    choice) the preferred locale of the server the channel is in."""
    return language or channel_locale(channel)


async def send_dm(bot: Himiko, user_id: int, content: str) -> bool:
    """A direct message to a player, best effort: False (logged) if it could not be sent."""
    try:
        user = bot.client.get_user(user_id) or await bot.client.fetch_user(user_id)
        await user.send(clip(content), allowed_mentions=NO_MENTIONS)
    except Exception:
        log.warning("could not send a direct message to user %s", user_id, exc_info=True)
        return False
    return True


class NotRecorded(Exception):
    """The message was posted, but recording it as announced failed (retry the recording only)."""
