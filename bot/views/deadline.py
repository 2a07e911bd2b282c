"""The deadline message's button: the other players vote to skip the absent player's turn."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import ui

from bot.custom_ids import DEADLINE_SKIP
from bot.present import guarded, himiko, send, t
from bot.turns import owed
from bot.views.base import button

if TYPE_CHECKING:
    from bot.app import HimikoBot

Interaction = discord.Interaction[Any]


class SkipButton(ui.DynamicItem[ui.Button[ui.View]], template=DEADLINE_SKIP.template):
    """Skip this turn: a computer plays it for the absent player once most others voted."""

    def __init__(self, game_id: int, turn: str, label: str = "Skip the turn") -> None:
        self.game_id, self.turn = game_id, turn
        custom_id = DEADLINE_SKIP.format(game=game_id, turn=turn)
        super().__init__(button(custom_id, label, discord.ButtonStyle.danger))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), match["turn"])

    async def callback(self, interaction: Interaction) -> None:
        """Count the vote; at a majority the computer plays the turn and the board is posted."""
        await guarded(interaction, lambda: vote(interaction, self.game_id, self.turn))


async def vote(interaction: Interaction, game_id: int, turn: str) -> None:
    """Apply one vote to skip and answer the voter privately."""
    bot = himiko(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    result = await bot.service.vote_skip(interaction.user.id, game_id=game_id, turn=turn)
    if result.turn is None:
        await send(
            interaction, t(interaction, "deadline.voted", votes=result.votes, needed=result.needed)
        )
        return
    await owed(bot, game_id, bot.outbox.deliver(result.turn), kick=result.computers_next)
    await send(interaction, t(interaction, "deadline.skipped_reply"))


def skip_view(bot: HimikoBot, game_id: int, turn: str, locale: str | None) -> ui.View:
    """The deadline message's button."""
    view = ui.View(timeout=None)
    view.add_item(SkipButton(game_id, turn, bot.catalog.text("deadline.skip", locale)))
    return view


DEADLINE_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (SkipButton,)
