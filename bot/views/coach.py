"""The coach's My turning points button on a coached game's final message: it answers
ephemerally, in the clicker's language, with the actions in the panel's words. (The Hint
button and a hint's Play buttons belong to the turn panel, ``bot.views.panel``.)

Custom id: ``himiko:coach:points:<game>``.
"""

from __future__ import annotations

from typing import ClassVar

from discord import ui

from bot.context import Himiko
from bot.custom_ids import COACH_POINTS
from bot.games import presentation
from bot.internals import Interaction
from bot.present import guarded, send, t
from bot.service.thinking import percent as percent  # the panel's hints say it too
from bot.views.base import OneGameButton, PersistentItem, button
from bot.views.words import choice_label


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


async def show_turning_points(bot: Himiko, interaction: Interaction, game_id: int) -> None:
    """The clicker's turning points: what they played, what the strong player would have."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await bot.rooms.coach.turning_points(interaction.user.id, game_id)
    if not found.points:  # none, or no decision at all (one said in the singular: its forms)
        key = "coach.no_turning_points" if found.looked_at else "coach.no_decisions"
        await send(interaction, t(interaction, key, count=found.looked_at))
        return
    lines = [t(interaction, "coach.turning_points_title", count=found.looked_at)]
    counts = presentation(found.game).counts  # a game may count turns, not rounds (D83)
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


COACH_ITEMS: tuple[type[PersistentItem], ...] = (TurningPointsButton,)
