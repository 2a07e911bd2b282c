"""The coach's hint in the turn panel (D151, D211): the Hint button
(``himiko:panel:hint:<game>:<version>``) answers with the strong player's three best choices,
highest chance first, each with where the panel has it and a Play button
(``himiko:coach:play:<game>:<version>:<crc32>``) that shows the panel focused on that choice,
whose own button plays it. The panel makes its Hint button through ``bot.buttons`` so that it
does not import this module, which shows the panel."""

from __future__ import annotations

import re
from typing import ClassVar, Self

from discord import ui

from bot.admission import one_in_flight
from bot.context import Himiko
from bot.custom_ids import COACH_PLAY, PANEL_HINT
from bot.internals import Interaction
from bot.present import busy_notice, guarded, send, t
from bot.service.panel import END_GROUP, checksum
from bot.views.base import PersistentItem, button
from bot.views.panel import gated, show_focused
from bot.views.panel_words import hint_text, where
from bot.views.words import choice_label


class HintButton(ui.DynamicItem[ui.Button[ui.View]], template=PANEL_HINT.template):
    """Asks the coach what the strong player would do in this step."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, game_id: int, version: int, label: str = "Hint") -> None:
        self.game_id, self.version = game_id, version
        custom_id = PANEL_HINT.format(game=game_id, version=version)
        super().__init__(button(custom_id, "💡 " + label))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: Interaction) -> None:
        """Answer privately with the three best choices and their chances; through the
        admission gate as the panel's other clicks, one hint in flight per player (D151)."""
        bot = self.bot
        await guarded(
            interaction,
            lambda: one_in_flight(
                bot.admission,
                interaction,
                ("hint", interaction.user.id),
                lambda: show_hint(bot, interaction, self),
                busy_notice,
                busy="coach.hint_in_flight",
            ),
        )


class HintPlayButton(ui.DynamicItem[ui.Button[ui.View]], template=COACH_PLAY.template):
    """Under a hint: shows the panel focused on that choice, whose own button plays it."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, game_id: int, version: int, crc: str, label: str = "Play") -> None:
        self.game_id, self.version, self.crc = game_id, version, crc
        custom_id = COACH_PLAY.format(game=game_id, version=version, crc=crc)
        super().__init__(button(custom_id, "▶ " + label))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), int(match["version"]), match["crc"])

    async def callback(self, interaction: Interaction) -> None:
        """The hint's message becomes the panel at this choice (as the panel's clicks, through
        the admission gate); refused, changing nothing, out of turn or once the step passed."""
        await gated(self.bot, interaction, lambda: show_hinted(self.bot, interaction, self))


async def show_hint(bot: Himiko, interaction: Interaction, clicked: HintButton) -> None:
    """The strong player's top three choices for the step, highest chance first, each in words
    with its chance and its place in the panel, and a Play button per choice."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await bot.rooms.coach.hint(interaction.user.id, clicked.game_id, clicked.version)
    view = ui.View(timeout=None)
    play = bot.bound(HintPlayButton)
    for rank, (action, _) in enumerate(found.choices, start=1):
        label = t(interaction, "coach.hint_play", rank=rank)
        view.add_item(play(clicked.game_id, clicked.version, checksum(action), label))
    await send(interaction, hint_text(interaction, found), view=view)


async def show_hinted(bot: Himiko, interaction: Interaction, clicked: HintPlayButton) -> None:
    """The panel focused on the hinted choice, the coach's words above: the panel's own button
    plays it (its usual path), its menus and Other choices let the player choose otherwise."""
    await interaction.response.defer()
    user = interaction.user.id
    hinted = await bot.rooms.coach.hinted(user, clicked.game_id, clicked.version, clicked.crc)
    state = await bot.rooms.playing.panel(
        user,
        game_id=clicked.game_id,
        version=clicked.version,
        category=hinted.group,
        prefix="" if hinted.group == END_GROUP else hinted.action,
        picture=False,
    )
    said = t(
        interaction,
        "coach.hint_focus",
        action=choice_label(interaction, hinted.game, state.view, hinted.action),
        where=where(interaction, hinted.game, hinted.group),
    )
    await show_focused(bot, interaction, state, hinted.action, said)


PANEL_HINT_ITEMS: tuple[type[PersistentItem], ...] = (HintButton, HintPlayButton)
