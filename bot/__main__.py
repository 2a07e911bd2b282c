"""``python -m bot`` / ``himiko``: start the bot with settings from the environment or .env."""

from __future__ import annotations

import asyncio
import logging
import sys

import aiohttp
import discord

from bot.settings import Settings, SettingsError, load_settings, redact_logs

EXIT_OK = 0
EXIT_SETTINGS = 2
EXIT_DATABASE = 2  # like settings: the bot cannot start until someone fixes its configuration
EXIT_LOGIN = 3
EXIT_CONNECTION = 4


def _configure_logging(settings: Settings) -> None:
    discord.utils.setup_logging(level=getattr(logging, settings.log_level), root=True)
    redact_logs(settings.token)


def _fail(message: str, code: int) -> int:
    print(f"himiko: {' '.join(message.split())}", file=sys.stderr)
    return code


def main() -> int:
    """Load settings, run the bot, and turn expected failures into a message and an exit code."""
    try:
        settings = load_settings()
    except SettingsError as error:
        return _fail(error.message, EXIT_SETTINGS)
    _configure_logging(settings)
    from bot.app import run
    from bot.store import StoreError

    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:
        return EXIT_OK
    except discord.LoginFailure:
        return _fail(
            "Discord rejected DISCORD_TOKEN. Copy the bot token again from the developer "
            "portal (Bot -> Reset Token) into the environment or .env.",
            EXIT_LOGIN,
        )
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord requires a privileged intent that this bot does not use.", EXIT_LOGIN)
    except (aiohttp.ClientError, discord.GatewayNotFound, OSError) as error:
        return _fail(f"Cannot reach Discord: {error}", EXIT_CONNECTION)
    except discord.HTTPException as error:
        return _fail(
            f"Discord refused a request at start-up: {error.status} {error.text}", EXIT_CONNECTION
        )
    except StoreError as error:
        return _fail(f"Database {settings.database_label}: {error.message}", EXIT_DATABASE)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
