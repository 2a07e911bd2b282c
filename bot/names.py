"""Player names: kept raw for the engine, escaped only where a message shows them."""

from __future__ import annotations

import re

import discord

from render.text import without_bidi_controls

NAME_LIMIT = 32


def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A user-given name on one line, short and without direction controls (what the engine
    stores)."""
    name = " ".join(without_bidi_controls(name).split()) or "?"
    return name if len(name) <= limit else name[: limit - 1] + "…"


def display_name(name: str) -> str:
    """A name ready for a message: short, with markdown and mentions neutralized."""
    escaped = discord.utils.escape_markdown(short_name(name), ignore_links=False)
    return discord.utils.escape_mentions(escaped)


# Every character Discord's markdown gives a meaning to (emphasis, code, spoilers, quotes,
# headings, lists, masked links, mentions, emoji, timestamps, links): escaped, a backslash
# before punctuation shows the punctuation alone.
_MARKUP = re.compile(r"([\\*_~`|>#\-\[\]()<@:/])")


def league_name(name: str) -> str:
    """A league name ready for a message: every markdown character escaped (no emphasis, no
    masked link, no mention, no emoji) and direction controls removed, never shortened."""
    return discord.utils.escape_mentions(_MARKUP.sub(r"\\\1", without_bidi_controls(name)))
