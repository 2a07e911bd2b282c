"""Thread messages: the opening board, each completed turn (picture, summary, next player ping).

Each message is posted as the services prepared it (``bot.service.messages.Prepared``: its
deadline, how the next player is told, a last message's extras), with the buttons the bot's
views make (``Himiko.buttons``): no service call and no view import here. The helpers to
reach a thread are in ``bot.thread.threads`` (also offered here, under the names callers have used);
what follows a saved change is in ``bot.thread.door``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.context import Himiko
from bot.lobby_state import lobby_note_card
from bot.names import display_name
from bot.present import MAX_CONTENT, NO_MENTIONS, clip, users
from bot.service import Created, Ended, FinalResult, TurnReport
from bot.service.messages import Prepared
from bot.service.notify import Delivery
from bot.summary import Summary
from bot.thread.threads import (
    NotRecorded,
    channel_locale,
    fetch_thread,
    game_locale,
    message_nonce,
    send_dm,
)
from engine import games

log = logging.getLogger(__name__)

__all__ = [
    "NotRecorded",
    "channel_locale",
    "fetch_thread",
    "game_locale",
    "message_nonce",
    "send_dm",
]


def deadline_text(bot: Himiko, deadline: int | None, locale: str | None) -> str:
    """`` Deadline: <t:...:R>.`` (each reader sees it in their own time), or nothing."""
    if deadline is None:
        return ""
    return " " + bot.catalog.text("game.deadline", locale, when=f"<t:{int(deadline)}:R>")


def turn_message(
    bot: Himiko,
    report: TurnReport,
    locale: str | None,
    deadline: int | None = None,
    also: Sequence[int] = (),
) -> str:
    """The text of a completed turn's thread message (with the next turn's deadline, if any;
    ``also``: the players who follow every turn of this game, called at its end)."""
    told = turn_told(bot, report, locale)
    rest = [*told.this, *next_lines(bot, report, locale, deadline)]
    if also:
        mentions = " ".join(f"<@{user}>" for user in also)
        rest.append(bot.catalog.text("pings.every_turn_line", locale, mentions=mentions))
    return clip("\n".join(fitting(told.head, told.earlier, rest)))


@dataclass(frozen=True, kw_only=True)
class Told:
    """A completed turn in words: who played for whom (``head``), the computer turns just
    before it (``earlier``), this turn and a final turn's results (``this``)."""

    head: list[str]
    earlier: list[str]
    this: list[str]


def turn_told(bot: Himiko, report: TurnReport, locale: str | None) -> Told:
    """A completed turn told in words: the stand-in who played it, the computer turns just
    before it, the turn, and a final turn's results."""
    summary = Summary(bot.catalog, locale, report.game)
    names = [p.name for p in report.players]
    head = []
    if report.skipped:  # a computer played for the player: at the deadline, or as stand-in
        player = display_name(report.player.name)
        key = f"stand_in.played.{report.player.stand_in}" if report.player.stand_in else ""
        head.append(bot.catalog.text(key or "deadline.skipped", locale, player=player))
    this = [summary.turn(report.player.name, report.events, names)]
    earlier = [summary.turn(names[t.seat], t.events, names) for t in report.earlier]
    if report.final is not None:
        this.append(
            bot.catalog.text("game.final_title", locale, **winners(bot, locale, report.final, "**"))
        )
        this += summary.final(report.final)
    return Told(head=head, earlier=earlier, this=this)


def next_lines(
    bot: Himiko, report: TurnReport, locale: str | None, deadline: int | None
) -> list[str]:
    """Who is called after a completed turn: the next player (pinged, with the deadline), the
    computer or stand-in playing next, or every human player when the game ended."""
    nxt = report.next_player
    if report.final is not None:
        humans = human_ids(report)
        if not humans:
            return []
        mentions = " ".join(f"<@{u}>" for u in humans)
        return [bot.catalog.text("game.final_players", locale, mentions=mentions)]
    if nxt is None:
        return []
    if not nxt.computer:
        mention = f"<@{nxt.user_id}>"
        return [
            bot.catalog.text("game.your_turn", locale, mention=mention)
            + deadline_text(bot, deadline, locale)
        ]
    if nxt.stand_in is not None:
        key, player = f"stand_in.next.{nxt.stand_in}", display_name(nxt.name)
        return [bot.catalog.text(key, locale, player=player)]
    return [bot.catalog.text("game.computer_turn", locale, player=display_name(nxt.name))]


def fitting(
    head: list[str], earlier: list[str], rest: list[str], limit: int = MAX_CONTENT
) -> list[str]:
    """The message's lines, leaving out the oldest earlier turns (marked "…") so the rest fits
    in ``limit`` characters: this turn, the final scores and the next player are never cut."""
    dropped = False
    while earlier and len("\n".join([*head, "…", *earlier, *rest])) > limit:
        earlier, dropped = earlier[1:], True
    return [*head, *(["…"] if dropped else []), *earlier, *rest]


def winners(bot: Himiko, locale: str | None, final: FinalResult, bold: str = "") -> dict[str, Any]:
    """The first-ranked players as a result's text takes them: ``winner``, their names in
    words ("Mio and Ren" when they tie, each name between ``bold``), and ``count``, how many,
    which picks the verb's plural form."""
    best = final.winner.rank
    names = [f"{bold}{display_name(s.name)}{bold}" for s in final.scores if s.rank == best]
    if len(names) == 1:
        return {"winner": names[0], "count": 1}
    both = bot.catalog.text("summary.and", locale, items=", ".join(names[:-1]), last=names[-1])
    return {"winner": both, "count": len(names)}


def human_ids(report: TurnReport) -> list[int]:
    """The human players of a game, each once, in seat order."""
    return list(dict.fromkeys(p.user_id for p in report.players if p.user_id is not None))


def pinged(report: TurnReport, how: Delivery | None) -> discord.AllowedMentions:
    """Whom a turn message pings: the next player, when they are to be pinged (``how``; None:
    not known, nobody), and the players who chose every turn in this game (``how.also``); or
    every human player at the end of the game, once."""
    if report.final is not None:
        return users(human_ids(report))
    if how is None:
        return NO_MENTIONS
    nxt = report.next_player
    called = [nxt.user_id] if how.ping and nxt is not None and nxt.user_id is not None else []
    return users([*called, *how.also]) if called or how.also else NO_MENTIONS


async def post_turn(
    bot: Himiko, channel: discord.abc.Messageable, report: TurnReport, prepared: Prepared
) -> discord.Message:
    """Post one completed turn in its thread as prepared, in words: a ping for the next player
    only (and the next turn's deadline), or for every human player at the end, with the
    buttons; its card follows once its pictures are drawn (``bot.thread.turn_cards``)."""
    locale = game_locale(report.language, channel)
    nxt = report.next_player
    how = prepared.delivery
    mentions = pinged(report, how)
    view: discord.ui.View | None = None
    if report.final is not None:
        coach = prepared.final is not None and prepared.final.coach
        view = bot.buttons.final_view(report.game_id, locale, coach=coach)
    elif nxt is not None and not nxt.computer:
        view = bot.buttons.turn_view(report.game_id, report.version, report.next_turn, locale)
    view = bot.buttons.web_link(report.game_id, locale, view)
    kwargs: dict[str, Any] = {} if view is None else {"view": view}
    message = await channel.send(
        turn_message(bot, report, locale, prepared.deadline, how.also if how else ()),
        allowed_mentions=mentions,
        nonce=message_nonce(report.game_id, report.version),
        **kwargs,
    )
    if how is not None and how.dm and nxt is not None and nxt.user_id is not None:
        text = bot.catalog.text("dm.your_turn", locale, thread=f"<#{report.thread_id}>")
        await send_dm(bot, nxt.user_id, text + deadline_text(bot, prepared.deadline, locale))
    return message


async def dress_message(
    channel: discord.abc.Messageable,
    message_id: int,
    view: discord.ui.LayoutView,
    files: list[discord.File],
    mentions: discord.AllowedMentions,
) -> None:
    """Turn a posted message into its card (``bot.thread.turn_cards``): its words go, the card
    and its pictures come (the edit replaces the attachments: done twice, it is one card);
    ``mentions`` as its post had them (an edit notifies nobody: they keep it highlighted)."""
    if isinstance(channel, discord.Thread | discord.TextChannel):
        message: discord.PartialMessage | discord.Message = channel.get_partial_message(message_id)
    else:
        message = await channel.fetch_message(message_id)
    await message.edit(content=None, view=view, attachments=files, allowed_mentions=mentions)


def opening_text(bot: Himiko, created: Created, locale: str | None, deadline: int | None) -> str:
    """The words of a game's first message: players, who starts, the first turn's deadline."""
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
    return clip(text + deadline_text(bot, deadline, locale))


def opening_buttons(bot: Himiko, created: Created, locale: str | None) -> discord.ui.View | None:
    """A game's first message's buttons: Take your turn (a human starts), View on the web."""
    turn_view = (
        bot.buttons.turn_view(created.game_id, created.version, created.turn, locale)
        if created.first.user_id is not None
        else None
    )
    return bot.buttons.web_link(created.game_id, locale, turn_view)


Step = tuple[str, Callable[[], Awaitable[None]]]


def result_steps(bot: Himiko, report: TurnReport) -> list[Step]:
    """What the end of a game owes besides its thread message: the lobby channel's result line
    and the lobby message's closing note (none for other turns)."""
    if report.final is None or report.channel_id is None:
        return []
    return [
        ("result", lambda: _unless_gone(report, post_result(bot, report))),
        ("lobby", lambda: _unless_gone(report, close_lobby(bot, report))),
    ]


def ending_steps(bot: Himiko, ended: Ended) -> list[Step]:
    """What an abandoned game owes besides its thread message: the lobby message's closing
    note and, when a resignation left one seat, its winner, the channel's result line."""
    if ended.channel_id is None:
        return []
    steps: list[Step] = [("lobby", lambda: _unless_gone(ended, close_abandoned_lobby(bot, ended)))]
    if ended.winner is not None:
        steps.insert(0, ("result", lambda: _unless_gone(ended, post_resigned_result(bot, ended))))
    return steps


async def post_resigned_result(bot: Himiko, ended: Ended) -> None:
    """One line in the lobby's channel: who won as the one seat a resignation left."""
    assert ended.channel_id is not None and ended.winner is not None
    channel = await fetch_thread(bot, ended.channel_id)
    locale = game_locale(ended.language, channel)
    text = bot.catalog.text(
        "game.result_line_resigned",
        locale,
        winner=display_name(ended.winner.name),
        game=games.rules_for(ended.game).display_name,
        thread=f"<#{ended.thread_id}>",
        player=display_name(ended.player.name if ended.player else ""),
    )
    nonce = message_nonce(ended.game_id, ended.version, "result")
    await channel.send(clip(text), allowed_mentions=NO_MENTIONS, nonce=nonce)


async def close_abandoned_lobby(bot: Himiko, ended: Ended) -> None:
    """Edit the lobby message to say the game ended: who won, or that nobody did."""
    assert ended.channel_id is not None
    channel = await fetch_thread(bot, ended.channel_id)
    locale = game_locale(ended.language, channel)
    thread = f"<#{ended.thread_id}>"
    if ended.winner is None:
        note = bot.catalog.text("game.lobby_ended_no_winner", locale, thread=thread)
    else:
        winner = display_name(ended.winner.name)
        note = bot.catalog.text("game.lobby_ended", locale, thread=thread, winner=winner, count=1)
    await _lobby_note(channel, ended.thread_id, note)


async def _unless_gone(report: TurnReport | Ended, step: Awaitable[None]) -> None:
    """Run a step; a channel or lobby message that is gone or closed to the bot is skipped."""
    try:
        await step
    except (discord.NotFound, discord.Forbidden) as error:
        log.warning("game %s: could not tell its lobby channel (%s)", report.game_id, error)


async def post_result(bot: Himiko, report: TurnReport) -> None:
    """One line in the lobby's channel: who won which game, the scores, a link to the thread."""
    assert report.final is not None and report.channel_id is not None
    channel = await fetch_thread(bot, report.channel_id)
    locale = game_locale(report.language, channel)
    scores = ", ".join(
        bot.catalog.text("game.result_resigned", locale, player=display_name(s.name), total=s.total)
        if s.resigned
        else f"{display_name(s.name)} {s.total}"
        for s in report.final.scores
    )
    text = bot.catalog.text(
        "game.result_line",
        locale,
        **winners(bot, locale, report.final),
        game=games.rules_for(report.game).display_name,
        thread=f"<#{report.thread_id}>",
        scores=scores,
    )
    nonce = message_nonce(report.game_id, report.version, "result")
    await channel.send(clip(text), allowed_mentions=NO_MENTIONS, nonce=nonce)


async def close_lobby(bot: Himiko, report: TurnReport) -> None:
    """Edit the lobby message (its id is the thread's) to say the game ended and who won."""
    assert report.final is not None and report.channel_id is not None
    channel = await fetch_thread(bot, report.channel_id)
    locale = game_locale(report.language, channel)
    note = bot.catalog.text(
        "game.lobby_ended",
        locale,
        thread=f"<#{report.thread_id}>",
        **winners(bot, locale, report.final),
    )
    await _lobby_note(channel, report.thread_id, note)


async def _lobby_note(channel: discord.abc.Messageable, message_id: int, note: str) -> None:
    """Close the lobby message (the message the thread started from) with ``note``: its card
    without menus, or, for a lobby posted before cards, in its embed."""
    message = await channel.fetch_message(message_id)
    closed = lobby_note_card(message, note)
    if closed is not None:
        await message.edit(view=closed)
        return
    embed = message.embeds[0] if message.embeds else discord.Embed()
    embed.description = note
    await message.edit(embed=embed, view=None)
