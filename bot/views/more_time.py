""" "24 h more" (issue 39 item 4): the Ask button on a turn's reminders (its player asks; the
request is posted in the thread for everyone) and the Grant button on that request (another
player of the game grants it once: the turn's deadline and reminders move on a day)."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord
from discord import ui

from bot.context import Himiko
from bot.custom_ids import DEADLINE_TURN, CustomId, spec
from bot.internals import Interaction
from bot.names import display_name
from bot.present import NO_MENTIONS, guarded, public_locale
from bot.service.more_time import MoreTime
from bot.views.base import OneGameButton, button, drop_buttons

MORE_ASK = spec("himiko:more:ask", "game", DEADLINE_TURN)  # a reminder's Ask for 24 h more
MORE_GRANT = spec("himiko:more:grant", "game", DEADLINE_TURN)  # the request's Grant
MORE_NOW = spec("himiko:more:now", "game")  # the turn panel's Ask: the turn being played


class AskMoreButton(ui.DynamicItem[ui.Button[ui.View]], template=MORE_ASK.template):
    """The turn's player asks for 24 h more: the request goes to the thread, for the others."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)
    spec: CustomId = MORE_ASK
    style = discord.ButtonStyle.secondary

    def __init__(self, game_id: int, turn: str, label: str = "+24 h") -> None:
        self.game_id, self.turn = game_id, turn
        custom_id = self.spec.format(game=game_id, turn=turn)
        super().__init__(button(custom_id, label, self.style))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), match["turn"])

    async def callback(self, interaction: Interaction) -> None:
        """Ask, then answer with the public request and its Grant button."""

        async def ask() -> None:
            asked = await self.bot.rooms.more_time.ask(
                interaction.user.id, game_id=self.game_id, turn=self.turn
            )
            await post_request(self.bot, interaction, asked)
            await drop_buttons(interaction)  # asking again would post the same request

        await guarded(interaction, ask)


class GrantMoreButton(AskMoreButton, template=MORE_GRANT.template):
    """Another player grants the 24 h asked: the request becomes the grant, without a button."""

    spec = MORE_GRANT
    style = discord.ButtonStyle.success

    async def callback(self, interaction: Interaction) -> None:
        """Grant, then show the new deadline in place of the request."""

        async def grant() -> None:
            granted = await self.bot.rooms.more_time.grant(
                interaction.user.id, game_id=self.game_id, turn=self.turn
            )
            await interaction.response.edit_message(
                content=public_text(self.bot, interaction, "more.granted", granted),
                view=None,
                allowed_mentions=NO_MENTIONS,
            )

        await guarded(interaction, grant)


class AskNowButton(OneGameButton, ui.DynamicItem[ui.Button[ui.View]], template=MORE_NOW.template):
    """The turn panel's Ask for 24 h more: on the turn being played (its key is not carried:
    a panel is of one turn, and the service checks it is the clicker's)."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, game_id: int, label: str = "+24 h") -> None:
        self.game_id = game_id
        super().__init__(button(MORE_NOW.format(game=game_id), label))

    async def callback(self, interaction: Interaction) -> None:
        """Ask, then answer with the public request in the thread and its Grant button."""

        async def ask() -> None:
            asked = await self.bot.rooms.more_time.ask(interaction.user.id, game_id=self.game_id)
            await post_request(self.bot, interaction, asked)

        await guarded(interaction, ask)


def public_text(bot: Himiko, interaction: Interaction, key: str, told: MoreTime) -> str:
    """A text everyone in the game's thread reads, in the game's language."""
    locale = told.language or public_locale(interaction)
    return bot.catalog.text(
        key,
        locale,
        player=display_name(told.player),
        granter=display_name(told.granted_by or ""),
        when=f"<t:{told.deadline}:R>",
    )


async def post_request(bot: Himiko, interaction: Interaction, asked: MoreTime) -> None:
    """The request, posted in the thread as the click's answer, with the Grant button."""
    locale = asked.language or public_locale(interaction)
    view = ui.View(timeout=None)
    label = bot.catalog.text("more.grant", locale)
    view.add_item(bot.bound(GrantMoreButton)(asked.game_id, asked.turn, label))
    await interaction.response.send_message(
        public_text(bot, interaction, "more.asked", asked),
        view=view,
        allowed_mentions=NO_MENTIONS,
    )


def ask_view(bot: Himiko, game_id: int, turn: str, locale: str | None) -> ui.View:
    """A reminder's button: its player asks for 24 h more."""
    view = ui.View(timeout=None)
    label = bot.catalog.text("more.ask", locale)
    view.add_item(bot.bound(AskMoreButton)(game_id, turn, label))
    return view


MORE_TIME_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    AskMoreButton,
    GrantMoreButton,
    AskNowButton,
)
