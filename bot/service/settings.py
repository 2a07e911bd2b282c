"""User and server settings: notifications, quiet hours, vacations, languages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, replace
from typing import Any

from bot.store import LANGUAGES, UserSettings
from bot.store.interface import SettingsStore

from .errors import ServiceError
from .notify import NOTIFY_MODES, Delivery, check_zone, delivery, vacation_end


class SettingsService:
    """A user's settings (/settings) and a server's (/server)."""

    def __init__(self, repo: SettingsStore, clock: Callable[[], float]) -> None:
        self.repo = repo
        self.clock = clock

    def now(self) -> int:
        """The current time in UTC unix seconds."""
        return int(self.clock())

    async def user_settings(self, user_id: int) -> UserSettings:
        """A user's settings (the defaults if they never set any)."""
        return await self.repo.load_user_settings(user_id) or UserSettings(user_id)

    async def set_notify(self, user_id: int, mode: str) -> UserSettings:
        """How the user is told it is their turn: ping, dm, both or none."""
        if mode not in NOTIFY_MODES:
            raise ServiceError("settings.bad_mode")
        settings = replace(await self.user_settings(user_id), notify=mode)
        await self.repo.save_user_settings(settings, now=self.now())
        return settings

    async def set_quiet(self, user_id: int, zone: str, start: int, end: int) -> UserSettings:
        """Quiet hours from ``start`` to ``end`` o'clock in an IANA zone (start = end: none)."""
        if not (0 <= start <= 23 and 0 <= end <= 23):
            raise ServiceError("settings.bad_hours")
        zone = check_zone(zone)
        quiet = (None, None) if start == end else (start, end)
        settings = replace(
            await self.user_settings(user_id),
            time_zone=zone,
            quiet_start=quiet[0],
            quiet_end=quiet[1],
        )
        await self.repo.save_user_settings(settings, now=self.now())
        return settings

    async def set_vacation(self, user_id: int, until: str) -> UserSettings:
        """On vacation to the end of ``until`` (YYYY-MM-DD, in the user's time zone, else UTC)."""
        settings = await self.user_settings(user_id)
        end = vacation_end(until, settings.time_zone, self.now())
        settings = replace(settings, vacation_until=end)
        await self.repo.save_user_settings(settings, now=self.now())
        return settings

    async def end_vacation(self, user_id: int) -> UserSettings:
        """Back from vacation now (``settings.no_vacation`` if there was none)."""
        settings = await self.user_settings(user_id)
        if (settings.vacation_until or 0) <= self.now():
            raise ServiceError("settings.no_vacation")
        settings = replace(settings, vacation_until=None)
        await self.repo.save_user_settings(settings, now=self.now())
        return settings

    async def export_settings(self, user_id: int) -> dict[str, Any]:
        """Everything stored about the user's settings (empty if nothing is)."""
        stored = await self.repo.load_user_settings(user_id)
        return {} if stored is None else asdict(stored)

    async def delete_settings(self, user_id: int) -> bool:
        """Delete the user's stored settings; False if there were none."""
        return await self.repo.delete_user_settings(user_id)

    async def server_language(self, guild_id: int) -> str | None:
        """The server's default language for new games and league posts (None: none set)."""
        return await self.repo.guild_language(guild_id)

    async def set_server_language(self, guild_id: int, language: str | None, *, by: int) -> None:
        """Set (or with None clear) the server's default language; an unknown one is refused."""
        if language is not None and language not in LANGUAGES:
            raise ServiceError("server.language_unknown", allowed=", ".join(LANGUAGES))
        await self.repo.set_guild_language(guild_id, language, by=by, now=self.now())

    async def delivery(self, user_id: int) -> Delivery:
        """How to tell the user now (ping, direct message) per their settings and quiet hours."""
        return delivery(await self.user_settings(user_id), self.now())
