"""Player names: kept raw for the engine, escaped only where a message shows them."""

from __future__ import annotations

import discord

NAME_LIMIT = 32


def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A user-given name on one line and short (what the engine stores)."""
    name = " ".join(name.split()) or "?"
    return name if len(name) <= limit else name[: limit - 1] + "…"


def display_name(name: str) -> str:
    """A name ready for a message: short, with markdown and mentions neutralized."""
    escaped = discord.utils.escape_markdown(short_name(name), ignore_links=False)
    return discord.utils.escape_mentions(escaped)
