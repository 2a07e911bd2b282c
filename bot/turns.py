"""Thread messages: the opening board, each completed turn (picture, summary, next player ping)."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.names import display_name
from bot.present import MAX_CONTENT, NO_MENTIONS, clip, only, picture, users
from bot.service import Created, Ended, FinalResult, PlayResult, TurnReport
from bot.summary import Summary
from engine import games

if TYPE_CHECKING:
    from bot.app import HimikoBot

log = logging.getLogger(__name__)


def message_nonce(game_id: int, version: int, part: str = "") -> str:
    """The nonce of a game's message for one version (and ``part``): the same on every retry.

    Discord allows 25 characters; it returns the existing message for a repeated nonce
    (``enforce_nonce``, which discord.py sends with every nonce) for a few minutes.
    """
    key = f"himiko:{game_id}:{version}" + (f":{part}" if part else "")
    return hashlib.sha256(key.encode()).hexdigest()[:25]


async def fetch_thread(bot: HimikoBot, channel_id: int) -> discord.abc.Messageable:
    """The channel (a game's thread) to post in, from the cache or fetched."""
    channel = bot.get_channel(channel_id)
    if channel is None:
        channel = await bot.fetch_channel(channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        raise TypeError(f"channel {channel_id} cannot receive messages")
    return channel


def channel_locale(channel: Any) -> str | None:
    """The locale of the server a channel is in (None outside a server)."""
    guild = getattr(channel, "guild", None)
    return None if guild is None else str(guild.preferred_locale)


def game_locale(language: str | None, channel: Any) -> str | None:
    """The locale of a game's public messages: its language, else (games made before the
    choice) the preferred locale of the server the channel is in."""
    return language or channel_locale(channel)


def deadline_text(bot: HimikoBot, deadline: int | None, locale: str | None) -> str:
    """`` Deadline: <t:...:R>.`` (each reader sees it in their own time), or nothing."""
    if deadline is None:
        return ""
    return " " + bot.catalog.text("game.deadline", locale, when=f"<t:{int(deadline)}:R>")


def turn_message(
    bot: HimikoBot, report: TurnReport, locale: str | None, deadline: int | None = None
) -> str:
    """The text of a completed turn's thread message (with the next turn's deadline, if any)."""
    summary = Summary(bot.catalog, locale, report.game)
    names = [p.name for p in report.players]
    lines = []
    if report.skipped:  # a computer played for the player: at the deadline, or as stand-in
        player = display_name(report.player.name)
        key = f"stand_in.played.{report.player.stand_in}" if report.player.stand_in else ""
        lines.append(bot.catalog.text(key or "deadline.skipped", locale, player=player))
    head, lines = lines, [summary.turn(report.player.name, report.events, names)]
    earlier = [summary.turn(names[t.seat], t.events, names) for t in report.earlier]
    if report.final is not None:
        lines.append(
            bot.catalog.text("game.final_title", locale, winner=f"**{winners(report.final)}**")
        )
        lines += summary.final(report.final)
        humans = human_ids(report)
        if humans:
            mentions = " ".join(f"<@{u}>" for u in humans)
            lines.append(bot.catalog.text("game.final_players", locale, mentions=mentions))
    elif report.next_player is not None and not report.next_player.computer:
        mention = f"<@{report.next_player.user_id}>"
        lines.append(
            bot.catalog.text("game.your_turn", locale, mention=mention)
            + deadline_text(bot, deadline, locale)
        )
    elif report.next_player is not None and report.next_player.stand_in is not None:
        nxt = report.next_player
        lines.append(
            bot.catalog.text(f"stand_in.next.{nxt.stand_in}", locale, player=display_name(nxt.name))
        )
    elif report.next_player is not None:
        lines.append(
            bot.catalog.text(
                "game.computer_turn", locale, player=display_name(report.next_player.name)
            )
        )
    return clip("\n".join(_fitting(head, earlier, lines)))


def _fitting(head: list[str], earlier: list[str], rest: list[str]) -> list[str]:
    """The message's lines, leaving out the oldest earlier turns (marked "…") so the rest fits
    in one message: this turn, the final scores and the next player are never cut."""
    dropped = False
    while earlier and len("\n".join([*head, "…", *earlier, *rest])) > MAX_CONTENT:
        earlier, dropped = earlier[1:], True
    return [*head, *(["…"] if dropped else []), *earlier, *rest]


def winners(final: FinalResult) -> str:
    """The first-ranked players' names, ready for a message (several if they tie)."""
    best = final.winner.rank
    return ", ".join(display_name(s.name) for s in final.scores if s.rank == best)


def human_ids(report: TurnReport) -> list[int]:
    """The human players of a game, each once, in seat order."""
    return list(dict.fromkeys(p.user_id for p in report.players if p.user_id is not None))


async def post_turn(bot: HimikoBot, report: TurnReport) -> None:
    """Post one completed turn in its thread: picture, words, a ping for the next player only."""
    from bot.views.play import turn_button_view

    channel = await fetch_thread(bot, report.thread_id)
    locale = game_locale(report.language, channel)
    deadline = await bot.service.deadline_for(report.game_id, report.next_turn)
    nxt = report.next_player
    human_next = report.final is None and nxt is not None and not nxt.computer
    how = await bot.service.delivery(nxt.user_id) if human_next and nxt and nxt.user_id else None
    view = (
        turn_button_view(bot, report.game_id, report.version, report.next_turn, locale)
        if human_next
        else None
    )
    kwargs: dict[str, Any] = {}
    if view is not None:
        kwargs["view"] = view
    mentions = only(nxt.user_id) if how and how.ping and nxt else NO_MENTIONS
    if report.final is not None:  # the end of the game pings every human player, once
        mentions = users(human_ids(report))
    await channel.send(
        turn_message(bot, report, locale, deadline),
        file=picture(report.picture),
        allowed_mentions=mentions,
        nonce=message_nonce(report.game_id, report.version),
        **kwargs,
    )
    if how is not None and how.dm and nxt is not None and nxt.user_id is not None:
        text = bot.catalog.text("dm.your_turn", locale, thread=f"<#{report.thread_id}>")
        await send_dm(bot, nxt.user_id, text + deadline_text(bot, deadline, locale))


async def post_opening(bot: HimikoBot, thread: discord.abc.Messageable, created: Created) -> None:
    """The first message of a game's thread: players, the board, who starts."""
    from bot.views.play import turn_button_view

    locale = game_locale(created.language, thread)
    humans = [p.user_id for p in created.players if p.user_id is not None]
    names = ", ".join(
        f"<@{p.user_id}>" if p.user_id is not None else f"**{display_name(p.name)}**"
        for p in created.players
    )
    first = created.first
    starter = (
        f"<@{first.user_id}>" if first.user_id is not None else f"**{display_name(first.name)}**"
    )
    game = games.rules_for(created.game).display_name
    text = bot.catalog.text("game.opening", locale, game=game, players=names, first=starter)
    deadline = await bot.service.deadline_for(created.game_id, created.turn)
    text += deadline_text(bot, deadline, locale)
    kwargs: dict[str, Any] = {}
    if first.user_id is not None:
        kwargs["view"] = turn_button_view(
            bot, created.game_id, created.version, created.turn, locale
        )
    await thread.send(
        clip(text),
        file=picture(created.picture),
        allowed_mentions=users(humans),
        nonce=message_nonce(created.game_id, created.version),
        **kwargs,
    )


async def post_ending(bot: HimikoBot, ended: Ended) -> None:
    """The last message of an abandoned game: who resigned, or why else it ended."""
    channel = await fetch_thread(bot, ended.thread_id)
    locale = game_locale(ended.language, channel)
    await bot.service.deadline_for(ended.game_id, None)  # cancels its reminders
    name = "" if ended.player is None else display_name(ended.player.name)
    winner = "" if ended.winner is None else display_name(ended.winner.name)
    by = "" if ended.by is None else f"<@{ended.by}>"
    text = bot.catalog.text(f"game.{ended.reason}", locale, player=name, winner=winner, by=by)
    await channel.send(
        text, allowed_mentions=NO_MENTIONS, nonce=message_nonce(ended.game_id, ended.version)
    )


Step = tuple[str, Callable[[], Awaitable[None]]]


def result_steps(bot: HimikoBot, report: TurnReport) -> list[Step]:
    """What the end of a game owes besides its thread message: the lobby channel's result line
    and the lobby message's closing note (none for other turns)."""
    if report.final is None or report.channel_id is None:
        return []
    return [
        ("result", lambda: _unless_gone(report, post_result(bot, report))),
        ("lobby", lambda: _unless_gone(report, close_lobby(bot, report))),
    ]


async def _unless_gone(report: TurnReport, step: Awaitable[None]) -> None:
    """Run a step; a channel or lobby message that is gone or closed to the bot is skipped."""
    try:
        await step
    except (discord.NotFound, discord.Forbidden) as error:
        log.warning("game %s: could not tell its lobby channel (%s)", report.game_id, error)


async def post_result(bot: HimikoBot, report: TurnReport) -> None:
    """One line in the lobby's channel: who won which game, the scores, a link to the thread."""
    assert report.final is not None and report.channel_id is not None
    channel = await fetch_thread(bot, report.channel_id)
    locale = game_locale(report.language, channel)
    scores = ", ".join(f"{display_name(s.name)} {s.total}" for s in report.final.scores)
    text = bot.catalog.text(
        "game.result_line",
        locale,
        winner=winners(report.final),
        game=games.rules_for(report.game).display_name,
        thread=f"<#{report.thread_id}>",
        scores=scores,
    )
    nonce = message_nonce(report.game_id, report.version, "result")
    await channel.send(clip(text), allowed_mentions=NO_MENTIONS, nonce=nonce)


async def close_lobby(bot: HimikoBot, report: TurnReport) -> None:
    """Edit the lobby message (its id is the thread's) to say the game ended and who won."""
    assert report.final is not None and report.channel_id is not None
    channel = await fetch_thread(bot, report.channel_id)
    message = await channel.fetch_message(report.thread_id)
    locale = game_locale(report.language, channel)
    note = bot.catalog.text(
        "game.lobby_ended", locale, thread=f"<#{report.thread_id}>", winner=winners(report.final)
    )
    embed = message.embeds[0] if message.embeds else discord.Embed()
    embed.description = note
    await message.edit(embed=embed, view=None)


async def send_dm(bot: HimikoBot, user_id: int, content: str) -> bool:
    """A direct message to a player, best effort: False (logged) if it could not be sent."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(clip(content), allowed_mentions=NO_MENTIONS)
    except Exception:
        log.warning("could not send a direct message to user %s", user_id, exc_info=True)
        return False
    return True


class NotRecorded(Exception):
    """The message was posted, but recording it as announced failed (retry the recording only)."""


async def owed(
    bot: HimikoBot, game_id: int, post: Awaitable[object], *, kick: bool = False
) -> bool:
    """Post a message the game owes; on failure leave it to the runner. False if unposted.

    Never raises: the change behind the message is saved, so a failure here must not reach the
    player as "nothing was changed". A post that went through but was not recorded counts as
    posted (the runner records it later). ``kick``: start the runner anyway (computers next).
    """
    posted, done = True, True
    try:
        await post
    except NotRecorded:
        log.warning("game %s: posted, but not recorded yet", game_id, exc_info=True)
        done = False
    except Exception:
        log.warning("game %s: could not post in its thread; retrying later", game_id, exc_info=True)
        posted = done = False
    if kick or not done:
        bot.runner.kick(game_id)
    return posted


async def announce(bot: HimikoBot, result: PlayResult) -> bool:
    """After a saved play: post the completed turn and wake computer players; False if unposted.

    A message that could not be posted stays in the outbox; the runner retries it.
    """
    if result.turn is None:
        if result.computers_next:
            bot.runner.kick(result.game_id)
        return True
    deliver = bot.outbox.deliver(result.turn)
    return await owed(bot, result.game_id, deliver, kick=result.computers_next)
