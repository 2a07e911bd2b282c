"""The deadline message's buttons: the other players vote to skip the absent player's turn, or to
hand their seat to the computer until they come back (``/back``)."""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar, Self

import discord
from discord import ui

from bot.context import Himiko
from bot.custom_ids import DEADLINE_AWAY, DEADLINE_SKIP, CustomId
from bot.names import display_name
from bot.present import NO_MENTIONS, guarded, send, t
from bot.thread.door import announce
from bot.thread.threads import fetch_thread, game_locale
from bot.views.base import button, drop_buttons

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]


class SkipButton(ui.DynamicItem[ui.Button[ui.View]], template=DEADLINE_SKIP.template):
    """Skip this turn: a computer plays it for the absent player once most others voted.

    The other choice subclasses it with its own ``choice``, custom id and style.
    """

    choice = "skip"
    spec: CustomId = DEADLINE_SKIP
    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)
    style = discord.ButtonStyle.danger

    def __init__(self, game_id: int, turn: str, label: str = "") -> None:
        self.game_id, self.turn = game_id, turn
        custom_id = self.spec.format(game=game_id, turn=turn)
        super().__init__(button(custom_id, label or self.choice, self.style))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), match["turn"])

    async def callback(self, interaction: Interaction) -> None:
        """Count the vote; at a majority the choice is applied and the thread is told."""
        await guarded(
            interaction, lambda: vote(self.bot, interaction, self.game_id, self.turn, self.choice)
        )


class AwayButton(SkipButton, template=DEADLINE_AWAY.template):
    """Hand the seat to the computer until its player uses ``/back``, once most others voted."""

    choice = "away"
    spec = DEADLINE_AWAY
    style = discord.ButtonStyle.secondary


async def vote(
    bot: Himiko, interaction: Interaction, game_id: int, turn: str, choice: str = "skip"
) -> None:
    """Apply one vote and answer the voter privately; at a majority apply the choice."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    result = await bot.rooms.deadlines.vote_skip(
        interaction.user.id, game_id=game_id, turn=turn, choice=choice
    )
    if result.handed is not None:  # stored: the runner plays the seat from now on
        if result.announce:  # this vote handed it over: the thread is told once
            await tell_thread(bot, result.thread_id, "deadline.handed", result.handed.name)
        bot.runner.kick(game_id)
        await send(interaction, t(interaction, "deadline.handed_reply"))
        await drop_buttons(interaction)  # decided: another vote would change nothing
        return
    if result.turn is None:
        key = "deadline.voted" if choice == "skip" else "deadline.voted_away"
        await send(interaction, t(interaction, key, votes=result.votes, needed=result.needed))
        return
    await announce(bot, result)
    await send(interaction, t(interaction, "deadline.skipped_reply"))
    await drop_buttons(interaction)


async def tell_thread(bot: Himiko, thread_id: int, key: str, player: str) -> bool:
    """A short notice in a game's thread about a player's seat, best effort (False, logged).

    The change it reports is already stored; the next turn message shows it too.
    """
    try:
        channel = await fetch_thread(bot, thread_id)
        language = await bot.rooms.reading.game_language(thread_id=thread_id)
        text = bot.catalog.text(key, game_locale(language, channel), player=display_name(player))
        await channel.send(text, allowed_mentions=NO_MENTIONS)
    except Exception:
        log.warning("thread %s: could not post %s", thread_id, key, exc_info=True)
        return False
    return True


def skip_view(bot: Himiko, game_id: int, turn: str, locale: str | None) -> ui.View:
    """The deadline message's buttons: skip the turn, hand the seat to the computer."""
    view = ui.View(timeout=None)
    view.add_item(bot.bound(SkipButton)(game_id, turn, bot.catalog.text("deadline.skip", locale)))
    view.add_item(bot.bound(AwayButton)(game_id, turn, bot.catalog.text("deadline.away", locale)))
    return view


DEADLINE_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (SkipButton, AwayButton)
