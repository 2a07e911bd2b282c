"""Thread messages: the opening board, each completed turn (picture, summary, next player ping)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.names import display_name
from bot.present import NO_MENTIONS, clip, only, picture, users
from bot.service import Created, PlayResult, TurnReport
from bot.summary import Summary

if TYPE_CHECKING:
    from bot.app import HimikoBot

log = logging.getLogger(__name__)


async def fetch_thread(bot: HimikoBot, channel_id: int) -> discord.abc.Messageable:
    """The channel (a game's thread) to post in, from the cache or fetched."""
    channel = bot.get_channel(channel_id)
    if channel is None:
        channel = await bot.fetch_channel(channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        raise TypeError(f"channel {channel_id} cannot receive messages")
    return channel


def _locale(channel: Any) -> str | None:
    guild = getattr(channel, "guild", None)
    return None if guild is None else str(guild.preferred_locale)


def turn_message(bot: HimikoBot, report: TurnReport, locale: str | None) -> str:
    """The text of a completed turn's thread message."""
    summary = Summary(bot.catalog, locale)
    names = [p.name for p in report.players]
    lines = [summary.turn(report.player.name, report.events, names)]
    if report.final is not None:
        winner = report.final.winner
        lines.append(
            bot.catalog.text("game.final_title", locale, winner=f"**{display_name(winner.name)}**")
        )
        lines += summary.final(report.final)
    elif report.next_player is not None and report.next_player.user_id is not None:
        mention = f"<@{report.next_player.user_id}>"
        lines.append(bot.catalog.text("game.your_turn", locale, mention=mention))
    elif report.next_player is not None:
        lines.append(
            bot.catalog.text(
                "game.computer_turn", locale, player=display_name(report.next_player.name)
            )
        )
    return clip("\n".join(lines))


async def post_turn(bot: HimikoBot, report: TurnReport) -> None:
    """Post one completed turn in its thread: picture, words, a ping for the next player only."""
    from bot.views.play import turn_button_view

    channel = await fetch_thread(bot, report.thread_id)
    locale = _locale(channel)
    nxt = report.next_player
    human_next = report.final is None and nxt is not None and nxt.user_id is not None
    view = (
        turn_button_view(bot, report.game_id, report.version, report.next_turn, locale)
        if human_next
        else None
    )
    kwargs: dict[str, Any] = {}
    if view is not None:
        kwargs["view"] = view
    await channel.send(
        turn_message(bot, report, locale),
        file=picture(report.picture),
        allowed_mentions=only(nxt.user_id) if human_next and nxt is not None else NO_MENTIONS,
        **kwargs,
    )


async def post_opening(bot: HimikoBot, thread: discord.abc.Messageable, created: Created) -> None:
    """The first message of a game's thread: players, the board, who starts."""
    from bot.views.play import turn_button_view

    locale = _locale(thread)
    humans = [p.user_id for p in created.players if p.user_id is not None]
    names = ", ".join(
        f"<@{p.user_id}>" if p.user_id is not None else f"**{display_name(p.name)}**"
        for p in created.players
    )
    first = created.first
    starter = (
        f"<@{first.user_id}>" if first.user_id is not None else f"**{display_name(first.name)}**"
    )
    text = bot.catalog.text("game.opening", locale, players=names, first=starter)
    kwargs: dict[str, Any] = {}
    if first.user_id is not None:
        kwargs["view"] = turn_button_view(
            bot, created.game_id, created.version, created.turn, locale
        )
    await thread.send(
        clip(text), file=picture(created.picture), allowed_mentions=users(humans), **kwargs
    )


async def announce(bot: HimikoBot, result: PlayResult) -> bool:
    """After a saved play: post the completed turn and wake computer players; False if unposted.

    A message that could not be posted stays in the outbox; the runner retries it.
    """
    posted = False
    try:
        if result.turn is not None:
            await bot.outbox.deliver(result.turn)
        posted = True
    except Exception:  # the move is saved: log, tell the player, never pretend nothing changed
        log.warning("game %s: could not post the turn message", result.game_id, exc_info=True)
    finally:
        if result.computers_next or not posted:
            bot.runner.kick(result.game_id)
    return posted
