"""The settings part of the repository: per-user and per-server settings."""

from __future__ import annotations

from . import queries as q
from .base import StoreBase
from .models import UserSettings, check_int64, check_language
from .rows import only, user_settings_from_row


class SettingsPart(StoreBase):
    """A user's settings (/settings) and a server's (/server)."""

    # -- per-user settings -------------------------------------------------------------------

    async def load_user_settings(self, user_id: int) -> UserSettings | None:
        """A user's stored settings, or None if they never set any."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_USER_SETTINGS, (user_id,))
        return user_settings_from_row(rows[0]) if rows else None

    async def save_user_settings(self, settings: UserSettings, *, now: int) -> None:
        """Store a user's settings (replacing what was stored)."""
        check_int64("user_id", settings.user_id)
        async with self._write() as conn:
            await conn.execute(
                q.UPSERT_USER_SETTINGS,
                (
                    settings.user_id,
                    settings.notify,
                    settings.time_zone,
                    settings.quiet_start,
                    settings.quiet_end,
                    settings.vacation_until,
                    now,
                ),
            )

    async def delete_user_settings(self, user_id: int) -> bool:
        """Delete a user's stored settings; False if there were none."""
        async with self._write() as conn:
            cursor = await conn.execute(q.DELETE_USER_SETTINGS, (user_id,))
            return cursor.rowcount == 1

    # -- per-server settings -----------------------------------------------------------------

    async def guild_language(self, guild_id: int) -> str | None:
        """The server's default language (/server language), or None if none is set."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(q.SELECT_GUILD_LANGUAGE, (guild_id,))
        language = only(rows, "language")
        return None if language is None else str(language)

    async def set_guild_language(
        self, guild_id: int, language: str | None, *, by: int, now: int
    ) -> None:
        """Store the server's default language (None: no default), and who set it when."""
        check_int64("guild_id", guild_id)
        check_int64("updated_by", by)
        check_language(language)
        async with self._write() as conn:
            await conn.execute(q.UPSERT_GUILD_LANGUAGE, (guild_id, language, by, now))
