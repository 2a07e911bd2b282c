"""The coach's buttons: Hint in a coached game's turn panel, My turning points on its final
message. Both answer ephemerally, in the clicker's language, with the actions in the panel's
words. Hint passes the admission gate, one in flight per player (D151).

Custom ids: ``himiko:panel:hint:<game>:<version>`` and ``himiko:coach:points:<game>``.
"""

from __future__ import annotations

import re
from typing import ClassVar, Self

from discord import ui

from bot.admission import one_in_flight
from bot.context import Himiko
from bot.custom_ids import COACH_POINTS, PANEL_HINT
from bot.games import presentation
from bot.internals import Interaction
from bot.present import busy_notice, guarded, send, t
from bot.views.base import OneGameButton, PersistentItem, button
from bot.views.words import choice_label


def percent(chance: float) -> int:
    """A chance to win (0..1) as a whole percentage ("about 62%")."""
    return round(max(0.0, min(1.0, chance)) * 100)


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


class TurningPointsButton(
    OneGameButton, ui.DynamicItem[ui.Button[ui.View]], template=COACH_POINTS.template
):
    """Asks the coach for the clicker's three turning points of the finished game."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, game_id: int, label: str = "My turning points") -> None:
        self.game_id = game_id
        super().__init__(button(COACH_POINTS.format(game=game_id), "🔎 " + label))

    async def callback(self, interaction: Interaction) -> None:
        """Answer privately with the player's turning points."""
        await guarded(interaction, lambda: show_turning_points(self.bot, interaction, self.game_id))


async def show_hint(bot: Himiko, interaction: Interaction, clicked: HintButton) -> None:
    """The strong player's top three choices for the step, each in words with its chance."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await bot.rooms.coach.hint(interaction.user.id, clicked.game_id, clicked.version)
    lines = [t(interaction, "coach.hint_title")]
    for rank, (action, chance) in enumerate(found.choices, start=1):
        words = choice_label(interaction, found.game, found.view, action)
        lines.append(
            t(interaction, "coach.hint_line", rank=rank, action=words, chance=percent(chance))
        )
    await send(interaction, "\n".join(lines))


async def show_turning_points(bot: Himiko, interaction: Interaction, game_id: int) -> None:
    """The clicker's turning points: what they played, what the strong player would have."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await bot.rooms.coach.turning_points(interaction.user.id, game_id)
    if not found.points:
        await send(interaction, t(interaction, "coach.no_turning_points", count=found.looked_at))
        return
    lines = [t(interaction, "coach.turning_points_title", count=found.looked_at)]
    counts = presentation(found.game).counts  # Namiji counts turns, not rounds (D83)
    key = "coach.turning_point_line" if counts == "round" else f"coach.turning_point_line_{counts}"
    for rank, point in enumerate(found.points, start=1):
        line = t(
            interaction,
            key,
            rank=rank,
            round=point.round,
            played=choice_label(interaction, found.game, point.view, point.played),
            mine=percent(point.played_chance),
            best=choice_label(interaction, found.game, point.view, point.best),
            chance=percent(point.best_chance),
        )
        lines.append(line)
    await send(interaction, "\n".join(lines))


def turning_points_view(bot: Himiko, game_id: int, locale: str | None) -> ui.View:
    """The final message's button of a coached game."""
    view = ui.View(timeout=None)
    label = bot.catalog.text("coach.turning_points", locale)
    view.add_item(bot.bound(TurningPointsButton)(game_id, label))
    return view


COACH_ITEMS: tuple[type[PersistentItem], ...] = (HintButton, TurningPointsButton)
