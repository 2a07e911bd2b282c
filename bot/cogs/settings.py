"""``/settings``: each player's notification settings (private answers, stored per user)."""

from __future__ import annotations

import json

from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.context import Himiko
from bot.internals import Interaction
from bot.present import send, t, thread_of
from bot.service import UserSettings
from bot.service.game_pings import PING_MODES
from bot.service.notify import NOTIFY_MODES, zone_choices
from bot.translator import text


def settings_text(interaction: Interaction, settings: UserSettings) -> str:
    """The user's settings in words."""
    mode = t(interaction, f"settings.mode.{settings.notify}")
    if settings.quiet_start is None or settings.quiet_end is None or settings.time_zone is None:
        quiet = t(interaction, "settings.quiet_none")
    else:
        quiet = t(
            interaction,
            "settings.quiet_hours",
            start=settings.quiet_start,
            end=settings.quiet_end,
            zone=settings.time_zone,
        )
    shown = t(interaction, "settings.show", mode=mode, quiet=quiet)
    if settings.vacation_until is None:
        vacation = t(interaction, "settings.vacation_none")
    else:
        when = f"<t:{settings.vacation_until}:f>"
        vacation = t(interaction, "settings.vacation_until", when=when)
    return shown + "\n" + t(interaction, "settings.vacation", vacation=vacation)


class SettingsCog(commands.GroupCog, group_name="settings", group_description=text("cmd.settings")):
    """How each player is told it is their turn; exported and deleted on request."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="show", description=text("cmd.settings.show"))
    async def show(self, interaction: Interaction) -> None:
        """My settings."""
        settings = await self.bot.rooms.settings.user_settings(interaction.user.id)
        await send(interaction, settings_text(interaction, settings))

    @app_commands.command(name="notify", description=text("cmd.settings.notify"))
    @app_commands.describe(mode=text("cmd.settings.notify.mode"))
    @app_commands.choices(
        mode=[Choice(name=text(f"settings.mode.{m}"), value=m) for m in NOTIFY_MODES]
    )
    async def notify(self, interaction: Interaction, mode: Choice[str]) -> None:
        """Ping in the thread, direct message, both or neither."""
        settings = await self.bot.rooms.settings.set_notify(interaction.user.id, mode.value)
        await send(interaction, settings_text(interaction, settings))

    @app_commands.command(name="quiet", description=text("cmd.settings.quiet"))
    @app_commands.describe(
        time_zone=text("cmd.settings.quiet.time_zone"),
        start=text("cmd.settings.quiet.start"),
        end=text("cmd.settings.quiet.end"),
    )
    async def quiet(
        self,
        interaction: Interaction,
        time_zone: app_commands.Range[str, 1, 64],
        start: app_commands.Range[int, 0, 23],
        end: app_commands.Range[int, 0, 23],
    ) -> None:
        """Quiet hours in my time zone (start = end turns them off)."""
        settings = await self.bot.rooms.settings.set_quiet(
            interaction.user.id, time_zone, start, end
        )
        await send(interaction, settings_text(interaction, settings))

    @quiet.autocomplete("time_zone")
    async def quiet_zone(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        """IANA time zone names containing what was typed, common ones first."""
        return [Choice(name=z, value=z) for z in zone_choices(current)]

    @app_commands.command(name="vacation", description=text("cmd.settings.vacation"))
    @app_commands.describe(until=text("cmd.settings.vacation.until"))
    async def vacation(
        self, interaction: Interaction, until: app_commands.Range[str, 1, 20]
    ) -> None:
        """On vacation to the end of a day: the computer plays my turns; no reminders, no DMs."""
        settings = await self.bot.rooms.settings.set_vacation(interaction.user.id, until)
        for game_id in await self.bot.rooms.computers.pending_computer_games():
            self.bot.runner.kick(game_id)  # my turns now waiting are played at once
        await send(interaction, settings_text(interaction, settings))

    @app_commands.command(name="vacation_end", description=text("cmd.settings.vacation_end"))
    async def vacation_end(self, interaction: Interaction) -> None:
        """Back from vacation now."""
        settings = await self.bot.rooms.settings.end_vacation(interaction.user.id)
        await send(interaction, settings_text(interaction, settings))

    @app_commands.command(name="this_game", description=text("cmd.settings.this_game"))
    @app_commands.describe(mode=text("cmd.settings.this_game.mode"))
    @app_commands.choices(mode=[Choice(name=text(f"pings.mode.{m}"), value=m) for m in PING_MODES])
    async def this_game(self, interaction: Interaction, mode: Choice[str]) -> None:
        """In this thread's game: pinged on my turn, on every turn, or only by reminders."""
        chosen = await self.bot.rooms.pings.choose(
            interaction.user.id, thread_of(interaction), mode.value
        )
        await send(interaction, t(interaction, f"pings.set.{chosen.mode}"))

    @app_commands.command(name="export", description=text("cmd.settings.export"))
    async def export(self, interaction: Interaction) -> None:
        """Everything stored about my settings, as JSON (with my per-game pings)."""
        user = interaction.user.id
        data = await self.bot.rooms.settings.export_settings(user)
        games = await self.bot.rooms.pings.of_user(user)
        if games:
            data["game_pings"] = {str(game): mode for game, mode in games.items()}
        body = json.dumps(data, indent=2, sort_keys=True)
        await send(interaction, t(interaction, "settings.export", data=f"```json\n{body}\n```"))

    @app_commands.command(name="delete", description=text("cmd.settings.delete"))
    async def delete(self, interaction: Interaction) -> None:
        """Delete my stored settings (the defaults apply again)."""
        forgotten = await self.bot.rooms.pings.forget_user(interaction.user.id)
        deleted = await self.bot.rooms.settings.delete_settings(interaction.user.id)
        deleted = deleted or forgotten > 0
        await send(interaction, t(interaction, "settings.deleted" if deleted else "settings.none"))
