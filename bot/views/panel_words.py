"""The turn panel's words (``bot.views.panel``): its step and page, what the others did since
the player's last turn, its groups' names, and the coach's hint with where the panel has each
choice."""

from __future__ import annotations

from bot.cards import MAX_CARD_TEXT
from bot.catalog import default_catalog
from bot.games import presentation
from bot.internals import Interaction
from bot.names import display_name
from bot.present import t
from bot.service import PanelState
from bot.service.coach import Hint
from bot.service.panel import END_GROUP
from bot.summary import Summary
from bot.views.coach import percent
from bot.views.words import choice_label


def category_label(interaction: Interaction, game: str, key: str) -> str:
    """A panel group's name in the user's language."""
    return presentation(game).panel_group_label(lambda k, **p: t(interaction, k, **p), key)


def panel_content(interaction: Interaction, state: PanelState, played: str | None = None) -> str:
    """The panel's text: the step (after what was just played, if anything), the page."""
    step = t(interaction, state.step)
    if played is None:
        text = t(interaction, "panel.title", step=step)
    else:
        text = t(interaction, "panel.played", action=played[:1].upper() + played[1:], step=step)
    if state.pages > 1:
        text += " · " + t(interaction, "panel.page", page=state.page + 1, pages=state.pages)
    return text


def since_text(interaction: Interaction, state: PanelState, room: int) -> str:
    """What the others did since the player's last turn, its title then a line per turn in the
    reader's words, within ``room`` characters (the oldest turns left out first); "" if
    nothing."""
    if not state.since:
        return ""
    words = Summary(default_catalog(), str(interaction.locale), state.game)
    names = [words.name_of(p) for p in state.players]
    lines = [
        t(
            interaction,
            "panel.since_turn",
            player=display_name(names[turn.seat]),
            words=words.actions(turn.events, names),
        )
        for turn in state.since
    ]
    title = t(interaction, "panel.since_start" if state.first_turn else "panel.since")
    while lines and len(title) + sum(len(line) + 1 for line in lines) > room:
        lines.pop(0)
    return title + "".join("\n" + line for line in lines) if lines else ""


def opening_words(interaction: Interaction, state: PanelState) -> list[str]:
    """The texts of a panel as it opens: the step, then what the others did since."""
    step = panel_content(interaction, state)
    return [step, since_text(interaction, state, MAX_CARD_TEXT - len(step))]


def hint_text(interaction: Interaction, found: Hint) -> str:
    """The hint's lines: a title, then each choice with its chance and where the panel has it."""
    lines = [t(interaction, "coach.hint_title")]
    for rank, (action, chance) in enumerate(found.choices, start=1):
        line = t(
            interaction,
            "coach.hint_line",
            rank=rank,
            action=choice_label(interaction, found.game, found.view, action),
            chance=percent(chance),
            where=where(interaction, found.game, presentation(found.game).panel_group(action)),
        )
        lines.append(line)
    return "\n".join(lines)


def where(interaction: Interaction, game: str, group: str) -> str:
    """Where the turn panel shows an action of ``group``: its menu, or the End the turn button."""
    if group == END_GROUP:
        return t(interaction, "coach.hint_where_end", button=t(interaction, "panel.end"))
    return t(interaction, "coach.hint_where", group=category_label(interaction, game, group))
