"""The buttons of thread messages, for the code that posts them (``bot.context.Buttons``).

The outbox, the turn messages and the reminder scheduler ask the bot's ``buttons`` for them, so
they import no view: the views import the door, never the other way round.
"""

from __future__ import annotations

from discord import ui

from bot.context import Himiko
from bot.service import TurnId
from bot.views.deadline import skip_view
from bot.views.more_time import ask_view
from bot.views.panel_hints import HintButton
from bot.views.play import turn_button_view
from bot.views.rematch import final_view
from bot.views.rules import rules_button
from bot.views.web import web_link_view


class ViewButtons:
    """``bot.context.Buttons`` made by the views of one bot."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot

    def turn_view(
        self, game_id: int, version: int, turn: TurnId | None, locale: str | None
    ) -> ui.View:
        """A turn message's button that opens the turn panel."""
        return turn_button_view(self.bot, game_id, version, turn, locale)

    def final_view(self, game_id: int, locale: str | None, *, coach: bool) -> ui.View:
        """A game's last message's buttons: the coach's turning points (``coach``), Rematch."""
        return final_view(self.bot, game_id, locale, coach=coach)

    def web_link(
        self, game_id: int, locale: str | None, around: ui.View | None = None
    ) -> ui.View | None:
        """``around`` (or a new view) with the game's web page link; ``around`` unchanged when
        no web view is configured."""
        return web_link_view(self.bot, game_id, locale, around)

    def rules(self, game: str, locale: str | None) -> ui.Item[ui.View]:
        """A card's Rules button: the game's overview and ``/rules`` topics, privately."""
        return rules_button(self.bot, game, locale)

    def skip_view(self, game_id: int, turn: str, locale: str | None) -> ui.View:
        """A deadline message's votes: skip the turn, hand the seat to the computer."""
        return skip_view(self.bot, game_id, turn, locale)

    def more_time_view(self, game_id: int, turn: str, locale: str | None) -> ui.View:
        """A reminder's button: its player asks for 24 h more on the turn."""
        return ask_view(self.bot, game_id, turn, locale)

    def hint_button(
        self, game_id: int, version: int, label: str
    ) -> ui.DynamicItem[ui.Button[ui.View]]:
        """The turn panel's Hint button of a coached game."""
        return self.bot.bound(HintButton)(game_id, version, label)
