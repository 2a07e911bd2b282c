"""The notes modal (issue 39 item 3): a player's private note on a game, opened by ``/notes``
in the game's thread or the panel's Notes button, answered only to its author.

Its submission is handled by ``bot.cogs.notes.NotesCog.on_interaction`` from the modal's
custom id (``himiko:notes:<game>``), never by the modal object, so a note written while the bot
restarted is still saved: discord.py forgets the modal objects of a process that stopped.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import discord
from discord import ui

from bot.context import Himiko
from bot.custom_ids import spec
from bot.internals import Interaction
from bot.present import guarded, t
from bot.service.notes import MAX_NOTE, Note
from bot.views.base import OneGameButton, button

NOTES = spec("himiko:notes", "game")  # the modal; its one text input is TEXT
NOTES_OPEN = spec("himiko:notes:open", "game")  # the turn panel's Notes button
TEXT = "himiko:notes:text"
MODAL_MINUTES = 15  # the modal object is kept this long (its submission needs none of it)
TITLE_LIMIT, LABEL_LIMIT, PLACEHOLDER_LIMIT = 45, 45, 100  # Discord's


class NotesModal(ui.Modal):
    """The modal with the player's note in one long text input, up to ``MAX_NOTE``."""

    def __init__(self, interaction: Interaction, note: Note) -> None:
        super().__init__(
            title=t(interaction, "notes.title")[:TITLE_LIMIT],
            custom_id=NOTES.format(game=note.game_id),
            timeout=MODAL_MINUTES * 60,
        )
        self.add_item(
            ui.TextInput[Any](
                label=t(interaction, "notes.label")[:LABEL_LIMIT],
                style=discord.TextStyle.paragraph,
                placeholder=t(interaction, "notes.placeholder")[:PLACEHOLDER_LIMIT],
                default=note.body or None,
                required=False,
                max_length=MAX_NOTE,
                custom_id=TEXT,
            )
        )

    async def on_submit(self, interaction: Interaction) -> None:
        """Nothing: the notes cog answers every submission (see the module's docstring)."""


class NotesButton(OneGameButton, ui.DynamicItem[ui.Button[ui.View]], template=NOTES_OPEN.template):
    """The turn panel's Notes button: the player's note on the game, in the modal."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, game_id: int, label: str = "Notes") -> None:
        self.game_id = game_id
        super().__init__(button(NOTES_OPEN.format(game=game_id), "📝 " + label))

    async def callback(self, interaction: Interaction) -> None:
        """Open the modal with the player's note (refused to anyone not seated)."""

        async def opened() -> None:
            note = await self.bot.rooms.notes.of_game(interaction.user.id, self.game_id)
            await interaction.response.send_modal(NotesModal(interaction, note))

        await guarded(interaction, opened)


def submitted_note(data: Mapping[str, Any]) -> tuple[int, str] | None:
    """The game and text of a notes modal's submission (``interaction.data``), or None for
    another modal or a submission without its text input."""
    fields = NOTES.parse(str(data.get("custom_id", "")))
    if fields is None:
        return None
    for component in _components(data.get("components", [])):
        if component.get("custom_id") == TEXT:
            return int(fields["game"]), str(component.get("value") or "")
    return None


def _components(nodes: Any) -> Iterator[Mapping[str, Any]]:
    """Every component of a modal's submission, in rows or labels, depth first."""
    for node in nodes if isinstance(nodes, list) else []:
        if isinstance(node, Mapping):
            yield node
            yield from _components(node.get("components"))
            if isinstance(node.get("component"), Mapping):
                yield from _components([node["component"]])


NOTES_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (NotesButton,)
