"""Commands of the players in a game: ``/play``, ``/turn``, ``/undo``, ``/resign``, ``/back``
and ``/abandon`` (a casual game's host, a league game's organisers, or a moderator)."""

from __future__ import annotations

import logging
from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from bot.catalog import default_catalog
from bot.context import Himiko
from bot.internals import Interaction
from bot.names import short_name
from bot.present import (
    after_save,
    error_text,
    member_of,
    plain,
    played_text,
    send,
    t,
    thread_of,
    undone_text,
)
from bot.service import PlayPreview, ServiceError, normalize_actions, split_actions
from bot.service.suggest import MAX_VALUE, Suggestions, fit_choice
from bot.summary import Summary
from bot.thread.door import announce
from bot.translator import text
from bot.views.deadline import tell_thread
from bot.views.panel import open_panel
from bot.views.play import abandon_view, preview_view, resign_view
from bot.views.step_picture import follow_picture
from bot.views.words import choice_label

log = logging.getLogger(__name__)


def preview_embed(interaction: Interaction, preview: PlayPreview) -> discord.Embed:
    """The preview's summary, said to the player ("you took fleet 2", D244), and its exact
    sequence (read back on Confirm)."""
    summary = Summary(default_catalog(), str(interaction.locale), preview.game)
    names = [p.name for p in preview.players]
    words = summary.yours(preview.events, names, played=preview.actions)
    lines = [t(interaction, "play.preview", summary=words)]
    if preview.ends_turn:
        lines.append(t(interaction, "play.preview_ends_turn"))
    lines.append(t(interaction, "play.preview_actions", text=preview.text))
    return discord.Embed(description="\n".join(lines))


def choice_name(interaction: Interaction, found: Suggestions, value: str) -> str:
    """A suggestion in the user's words (its value stays the notation, D220): a sequence's
    actions each in words, or its last one after an ellipsis when they do not fit."""
    if not found.game:
        return fit_choice(value)
    parts = split_actions(value)
    words = [choice_label(interaction, found.game, found.view, p) for p in parts]
    said = "; ".join(words)
    if len(said) <= MAX_VALUE:
        return said
    return fit_choice("… " + words[-1] if len(parts) > 1 else words[-1])


class PlayCog(commands.Cog):
    """Acting in a game thread."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot

    @app_commands.command(name="play", description=text("cmd.play"))
    @app_commands.describe(action=text("cmd.play.action"))
    @app_commands.guild_only()
    async def play(
        self, interaction: Interaction, action: app_commands.Range[str, 1, 2000]
    ) -> None:
        """One action at once; a sequence as a preview with Confirm / Cancel."""
        thread = thread_of(interaction)
        text = normalize_actions(action)
        if not text:
            raise await self.empty_action(interaction, thread)
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user.id
        if len(split_actions(text)) == 1:
            result = await self.bot.rooms.playing.play(user, text, thread_id=thread, typed=True)
            with after_save():
                posted = await announce(self.bot, result)
                await send(interaction, played_text(interaction, result, posted))
            # mid-turn the board follows; an ended turn's picture is its thread message's
            follow_picture(self.bot, interaction, result.game_id, result.picture_order)
            return
        preview = await self.bot.rooms.playing.preview(user, text, thread_id=thread, typed=True)
        await send(
            interaction,
            embed=preview_embed(interaction, preview),
            png=preview.picture,
            view=preview_view(
                self.bot, interaction, preview.game_id, preview.version, preview.text
            ),
        )

    async def empty_action(self, interaction: Interaction, thread: int) -> ServiceError:
        """The refusal of a ``/play`` with no action: an example of the thread's game, in
        the player's words (``<game>.play.example``), or that no game is played here."""
        game = await self.bot.rooms.reading.game_in_thread(thread)
        if game is None:
            return ServiceError("error.no_game")
        example = f"{game}.play.example"
        if not default_catalog().has(example):  # a game without one: the suggestions
            example = "play.example"
        return ServiceError("error.empty_action", example=t(interaction, example))

    @play.autocomplete("action")
    async def play_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal actions now matching what is typed (the last part of a sequence)."""
        if interaction.channel_id is None:
            return []
        try:
            found = await self.bot.rooms.playing.suggest(
                interaction.user.id,
                current,
                thread_id=interaction.channel_id,
                named=partial(choice_label, interaction),
            )
        except Exception:  # suggestions are a convenience: log and offer none
            log.exception("autocomplete failed for %r in %s", current, interaction.channel_id)
            return []
        if isinstance(found.refusal, ServiceError):  # one choice that says why (whose turn)
            said = error_text(default_catalog(), found.refusal, str(interaction.locale))
            name = fit_choice(plain(said.split("\n")[0]))
            return [app_commands.Choice(name=name, value=current[:MAX_VALUE] or name)]
        if found.too_long and len(current) <= MAX_VALUE:  # picking it keeps what was typed
            return [
                app_commands.Choice(name=t(interaction, "play.autocomplete_none"), value=current)
            ]
        return [
            app_commands.Choice(name=choice_name(interaction, found, v), value=v) for v in found
        ]

    @app_commands.command(name="turn", description=text("cmd.turn"))
    @app_commands.guild_only()
    async def turn(self, interaction: Interaction) -> None:
        """The ephemeral turn panel."""
        await open_panel(self.bot, interaction, thread_id=thread_of(interaction))

    @app_commands.command(name="undo", description=text("cmd.undo"))
    @app_commands.guild_only()
    async def undo(self, interaction: Interaction) -> None:
        """Take back the last action of the current turn."""
        thread = thread_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self.bot.rooms.playing.undo(interaction.user.id, thread_id=thread)
        said = undone_text(interaction, result)
        if result.step:  # where the turn stands now, as /play's answer says it
            said += " " + t(interaction, "play.step", step=t(interaction, result.step))
        await send(interaction, said)
        follow_picture(self.bot, interaction, result.game_id, result.picture_order)

    @app_commands.command(name="resign", description=text("cmd.resign"))
    @app_commands.guild_only()
    async def resign(self, interaction: Interaction) -> None:
        """Ask for confirmation, then end the game."""
        game_id, version = await self.bot.rooms.reading.seated(
            interaction.user.id, thread_id=thread_of(interaction)
        )
        view = resign_view(self.bot, interaction, game_id, version)
        await send(interaction, t(interaction, "resign.confirm"), view=view)

    @app_commands.command(name="back", description=text("cmd.back"))
    @app_commands.guild_only()
    async def back(self, interaction: Interaction) -> None:
        """Play my seats again: this thread's game if I am away in it, else all my games."""
        user = interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        back = await self.bot.rooms.deadlines.back(user.id, thread_id=interaction.channel_id)
        name = short_name(user.display_name)
        for _, thread in back.games:  # the change is stored; the notices are best effort
            await tell_thread(self.bot, thread, "back.public", name)
        threads = ", ".join(f"<#{thread}>" for _, thread in back.games)
        await send(interaction, t(interaction, "back.done", threads=threads))

    @app_commands.command(name="abandon", description=text("cmd.abandon"))
    @app_commands.guild_only()
    async def abandon(self, interaction: Interaction) -> None:
        """Ask for confirmation, then end the thread's game (a league game is ranked as it
        stood)."""
        game_id, version, league = await self.bot.rooms.endings.may_abandon(
            member_of(interaction), thread_id=thread_of(interaction)
        )
        view = abandon_view(self.bot, interaction, game_id, version)
        if league is None:
            question = t(interaction, "abandon.confirm")
        else:
            question = t(interaction, "abandon.confirm_league", name=league)
        await send(interaction, question, view=view)
