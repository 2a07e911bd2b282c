"""Where a game from the queue can open (issue 39 item 1): a text channel, or the text channel of
the thread a player joined in; nowhere from a voice channel's chat or a forum's post."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast
from unittest.mock import MagicMock

import discord

from bot.views.server_table import opening_channel


def thread_of(parent: Any) -> Any:
    """A thread (channel 5's) under ``parent``."""
    thread = MagicMock(spec=discord.Thread)
    thread.parent, thread.parent_id = parent, 5
    return thread


def joined_in(channel: Any, channel_id: int = 7) -> Any:
    """An interaction in ``channel`` (only what ``opening_channel`` reads)."""
    return cast(Any, SimpleNamespace(channel=channel, channel_id=channel_id))


def test_a_text_channel_or_a_text_channel_s_thread_opens_games() -> None:
    text = MagicMock(spec=discord.TextChannel)
    assert opening_channel(joined_in(text)) == 7
    assert opening_channel(joined_in(thread_of(text))) == 5


def test_no_game_opens_from_a_voice_channel_or_a_forum_post() -> None:
    assert opening_channel(joined_in(MagicMock(spec=discord.VoiceChannel))) is None
    assert opening_channel(joined_in(thread_of(MagicMock(spec=discord.ForumChannel)))) is None
