"""After a saved change: post what the game owes its thread and wake its computer players.

Every command, button and worker goes out through ``settle`` (``announce`` after a play or a
skip that carries its turn report): the owed message, read from the store unless the change
just made it, is posted once with its turn's reminders, and the runner is woken. A change that
ended the game also tells the league runner (``after_game``: ratings, the game's league), in the
background: no command waits for a league.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Protocol

import discord

from bot.context import Himiko, Owed
from bot.service import Ended, TurnReport
from bot.thread.threads import NotRecorded

log = logging.getLogger(__name__)


async def _owed(bot: Himiko, game_id: int, post: Awaitable[object], *, kick: bool = False) -> bool:
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


def _ends_game(known: Owed | None) -> bool:
    """Whether the message owed may end its game: a final turn, an ending, or one read from the
    store (a resignation that ended the game, an abandon, a cancel: told either way, as telling
    the league runner of a game still on changes nothing)."""
    if isinstance(known, TurnReport):
        return known.final is not None
    return known is None or isinstance(known, Ended)


class Saved(Protocol):
    """A saved change that may complete a turn (a play, a skip at a deadline)."""

    @property
    def game_id(self) -> int:
        """The game changed."""
        ...

    @property
    def turn(self) -> TurnReport | None:
        """The turn the change completed, if any."""
        ...

    @property
    def computers_next(self) -> bool:
        """Whether the computer plays next."""
        ...


async def settle(
    bot: Himiko,
    game_id: int,
    *,
    computers: bool = False,
    known: Owed | None = None,
    thread: discord.abc.Messageable | None = None,
) -> bool:
    """After a saved change: post what the game owes its thread (a turn, an ending, an
    opening: read from the store, unless the change just made it, ``known``), with the
    reminders of its new turn, and wake the runner if ``computers`` play next or the post
    failed. ``thread``: a new game's thread, in hand. False if unposted (the runner retries it).
    A game that ended is told to the league runner once its message was tried, posted or not.
    """
    posted = await _owed(bot, game_id, bot.outbox.flush(game_id, known, thread), kick=computers)
    if _ends_game(known):
        bot.leagues.after_game(game_id)
    return posted


async def announce(bot: Himiko, result: Saved) -> bool:
    """After a saved play: post the completed turn and wake computer players; False if unposted.

    A change that completed no turn owes no message: only the computers are woken, if next.
    """
    if result.turn is None:
        if result.computers_next:
            bot.runner.kick(result.game_id)
        return True
    return await settle(bot, result.game_id, computers=result.computers_next, known=result.turn)
