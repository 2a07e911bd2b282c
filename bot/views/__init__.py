"""Buttons and menus: persistent ``DynamicItem``s whose custom ids carry their state."""

from bot.views.base import PersistentItem
from bot.views.coach import COACH_ITEMS
from bot.views.deadline import DEADLINE_ITEMS
from bot.views.lobby import LOBBY_ITEMS
from bot.views.more_time import MORE_TIME_ITEMS
from bot.views.notes import NOTES_ITEMS
from bot.views.panel import PANEL_ITEMS
from bot.views.panel_hints import PANEL_HINT_ITEMS
from bot.views.play import PLAY_ITEMS
from bot.views.rematch import REMATCH_ITEMS
from bot.views.rules import RULES_ITEMS
from bot.views.server_table import SERVER_TABLE_ITEMS

DYNAMIC_ITEMS: tuple[type[PersistentItem], ...] = (
    LOBBY_ITEMS
    + PANEL_ITEMS
    + PANEL_HINT_ITEMS
    + PLAY_ITEMS
    + DEADLINE_ITEMS
    + COACH_ITEMS
    + REMATCH_ITEMS
    + RULES_ITEMS
    + MORE_TIME_ITEMS
    + NOTES_ITEMS
    + SERVER_TABLE_ITEMS
)

__all__ = ["DYNAMIC_ITEMS"]
