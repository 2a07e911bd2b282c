"""A game's actions in words, for the panel's choices and the coach's answers."""

from __future__ import annotations

from bot.games import presentation
from bot.internals import Interaction
from bot.present import t
from bot.service.panel import STAGE
from engine.contract import View

MAX_LABEL = 100


def choice_label(interaction: Interaction, game: str, view: View | None, value: str) -> str:
    """A panel choice in the game's words ("Collect rice on A2 and tea on B4"), cut to fit.

    By default a choice shows its notation; a stage ends with an ellipsis.
    """
    staged = value.endswith(STAGE)
    action = value.removesuffix(STAGE)
    label = presentation(game).panel_label
    action = label(lambda k, **p: t(interaction, k, **p), view or {}, action)
    text = action + STAGE if staged else action
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"
