"""Buttons around playing: open the turn panel, confirm a previewed sequence, resign.

Custom ids: ``himiko:open:<game>:<round>.<seat>:<version>`` (public turn message: open my
panel while that turn lasts; older buttons lack ``<round>.<seat>:`` and need the exact version),
``himiko:seq:<ok|no>:<game>:<version>:<user>:<crc32>`` (preview Confirm / Cancel; the sequence
itself is in the preview message, the checksum guards it), and
``himiko:resign:<ok|no>:<game>:<version>:<user>`` (resignation Confirm / Cancel), and
``himiko:abandon:<ok|no>:<game>:<version>:<user>`` (abandoning a stuck game: Confirm / Cancel),
and ``himiko:mygame:<game>`` (a game's button on the ``/mygames`` card: open my panel of it).
"""

from __future__ import annotations

import re
import zlib
from typing import ClassVar, Self

import discord
from discord import ui

from bot.context import Himiko
from bot.custom_ids import ABANDON, MY_GAME, OPEN_PANEL, RESIGN, SEQUENCE
from bot.internals import Interaction
from bot.present import after_save, guarded, member_of, played_text, t
from bot.service import ServiceError, TurnId, TurnKey
from bot.thread.door import announce, settle
from bot.views.base import OkNoButton, OneGameButton, PersistentItem, button
from bot.views.panel import open_panel
from bot.views.step_picture import follow_picture

#: A preview's sequence: the last line's code (its notation, after the words), or the code
#: block that previews posted before it said the words first (still confirmable).
_SEQUENCE = re.compile(r"`(?P<text>[^`\n]+)`[^`\n]*\Z|```\n(?P<block>.*?)\n```", re.DOTALL)


def checksum(text: str) -> str:
    """A short checksum of a sequence's text (8 hex digits)."""
    return f"{zlib.crc32(text.encode('utf-8')):08x}"


class OpenPanelButton(
    ui.DynamicItem[ui.Button[ui.View]],
    template=OPEN_PANEL.template,
):
    """On a turn message: the pinged player opens their panel, for as long as that turn lasts."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(
        self, game_id: int, version: int, turn: TurnKey | None, label: str = "Take your turn"
    ) -> None:
        self.game_id, self.version, self.turn = game_id, version, turn
        key = None if turn is None else f"{turn[0]}.{turn[1]}"
        custom_id = OPEN_PANEL.format(game=game_id, turn=key, version=version)
        super().__init__(button(custom_id, label, discord.ButtonStyle.primary))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click (buttons made before turn keys carry only the version)."""
        key = match["turn"]
        turn = None if key is None else (int(key.split(".")[0]), int(key.split(".")[1]))
        return cls(int(match["game"]), int(match["version"]), turn)

    async def callback(self, interaction: Interaction) -> None:
        """Open the current panel while this button's turn is still being played."""
        await guarded(
            interaction,
            lambda: open_panel(
                self.bot, interaction, game_id=self.game_id, version=self.version, turn=self.turn
            ),
        )


class MyGameButton(OneGameButton, ui.DynamicItem[ui.Button[ui.View]], template=MY_GAME.template):
    """On the ``/mygames`` card: the clicker's panel of that game, as it is now (refused, as
    the turn message's button is, to whoever has no seat or whose turn it is not)."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, game_id: int, label: str = "Open", mine: bool = False) -> None:
        self.game_id = game_id
        style = discord.ButtonStyle.primary if mine else discord.ButtonStyle.secondary
        super().__init__(button(MY_GAME.format(game=game_id), label, style))

    async def callback(self, interaction: Interaction) -> None:
        """Open the game's current panel in a new private message (the list stays)."""
        await guarded(interaction, lambda: open_panel(self.bot, interaction, game_id=self.game_id))


def turn_button_view(
    bot: Himiko, game_id: int, version: int, turn: TurnId | None, locale: str | None
) -> ui.View:
    """The view of a public turn message: one button to open the turn panel."""
    view = ui.View(timeout=None)
    label = bot.catalog.text("game.take_turn", locale)
    key = None if turn is None else turn.key
    view.add_item(bot.bound(OpenPanelButton)(game_id, version, key, label))
    return view


class SequenceButton(
    OkNoButton,
    ui.DynamicItem[ui.Button[ui.View]],
    template=SEQUENCE.template,
):
    """Confirm or Cancel under a previewed sequence."""

    spec = SEQUENCE
    ok_style = discord.ButtonStyle.success

    def __init__(
        self, ok: bool, game_id: int, version: int, user_id: int, crc: str, label: str = ""
    ) -> None:
        self.crc = crc
        super().__init__(ok, game_id, version, user_id, label, crc=crc)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(
            match["ok"] == "ok",
            int(match["game"]),
            int(match["version"]),
            int(match["user"]),
            match["crc"],
        )

    async def cancel(self, interaction: Interaction) -> None:
        """Drop the sequence."""
        await interaction.response.edit_message(
            content=t(interaction, "play.cancelled"), embed=None, attachments=[], view=None
        )

    async def confirm(self, interaction: Interaction) -> None:
        """Save the whole sequence."""
        text = sequence_in(interaction.message)
        if text is None or checksum(text) != self.crc:
            raise ServiceError("error.preview_lost")
        await interaction.response.defer()
        bot = self.bot
        result = await bot.rooms.playing.play(
            self.user_id, text, game_id=self.game_id, version=self.version
        )
        with after_save():
            posted = await announce(bot, result)
            # the preview (its embed and picture) is history now: mid-turn, the board follows
            await interaction.edit_original_response(
                content=played_text(interaction, result, posted),
                embed=None,
                attachments=[],
                view=None,
            )
        follow_picture(bot, interaction, result.game_id, result.picture_order)


def sequence_in(message: discord.Message | None) -> str | None:
    """The sequence text written in a preview message's embed."""
    if message is None or not message.embeds:
        return None
    found = _SEQUENCE.search(message.embeds[0].description or "")
    return None if found is None else found["text"] or found["block"]


def preview_view(
    bot: Himiko, interaction: Interaction, game_id: int, version: int, text: str
) -> ui.View:
    """Confirm / Cancel for a previewed sequence."""
    crc, user, sequence = checksum(text), interaction.user.id, bot.bound(SequenceButton)
    view = ui.View(timeout=None)
    view.add_item(sequence(True, game_id, version, user, crc, t(interaction, "play.confirm")))
    view.add_item(sequence(False, game_id, version, user, crc, t(interaction, "play.cancel")))
    return view


class ResignButton(
    OkNoButton,
    ui.DynamicItem[ui.Button[ui.View]],
    template=RESIGN.template,
):
    """Confirm or cancel a resignation."""

    spec = RESIGN
    ok_style = discord.ButtonStyle.danger

    async def cancel(self, interaction: Interaction) -> None:
        """Keep playing."""
        await interaction.response.edit_message(content=t(interaction, "resign.kept"), view=None)

    async def confirm(self, interaction: Interaction) -> None:
        """Resign: the computer plays the seat on, or the game ended (an owed message then)."""
        from bot.views.deadline import tell_thread

        bot = self.bot
        resigned = await bot.rooms.endings.resign(
            self.user_id, game_id=self.game_id, version=self.version
        )
        try:
            with after_save():
                await interaction.response.edit_message(
                    content=t(interaction, "resign.done"), view=None
                )
        finally:
            if resigned.ended:  # the last message is owed: retried by the runner if it fails
                await settle(bot, resigned.game_id)
            else:  # best effort: the next turn message and the picture show it too
                if resigned.computers_next:
                    bot.runner.kick(resigned.game_id)
                await tell_thread(bot, resigned.thread_id, "resign.public", resigned.player.name)


def resign_view(bot: Himiko, interaction: Interaction, game_id: int, version: int) -> ui.View:
    """Resign / Keep playing buttons."""
    return ResignButton.pair(bot, interaction, game_id, version, "resign.yes", "resign.no")


class AbandonButton(
    OkNoButton,
    ui.DynamicItem[ui.Button[ui.View]],
    template=ABANDON.template,
):
    """Confirm or cancel abandoning a stuck game (``bot/service/rights.py``: its host, a league
    game's organisers, or a member who manages threads)."""

    spec = ABANDON
    ok_style = discord.ButtonStyle.danger

    async def cancel(self, interaction: Interaction) -> None:
        """Keep the game."""
        await interaction.response.edit_message(content=t(interaction, "abandon.kept"), view=None)

    async def confirm(self, interaction: Interaction) -> None:
        """Abandon: the game ends (a league game ranked as it stood); the thread is told who
        did it (owed)."""
        bot = self.bot
        await bot.rooms.endings.abandon(member_of(interaction), game_id=self.game_id)
        try:
            with after_save():
                await interaction.response.edit_message(
                    content=t(interaction, "abandon.done"), view=None
                )
        finally:
            await settle(bot, self.game_id)


def abandon_view(bot: Himiko, interaction: Interaction, game_id: int, version: int) -> ui.View:
    """Confirm / Keep the game buttons."""
    return AbandonButton.pair(bot, interaction, game_id, version, "abandon.yes", "abandon.no")


PLAY_ITEMS: tuple[type[PersistentItem], ...] = (
    OpenPanelButton,
    MyGameButton,
    SequenceButton,
    ResignButton,
    AbandonButton,
)
