"""The queue (issue 39 item 1): players wait for a game in a server (``/queue join``); when
enough of them fit each other (``queue_matching``), the group is matched and its game opened
in the server's queue channel. No Discord here: the queue runner posts and makes the thread.

A match is written in the same transaction that takes its players' entries out of the queue,
so two processes (or two joins at once) never match a player twice; a match that lost that
race reads the queue again. An entry lasts a week; then its player is told and it goes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from bot.store import GameSettings, QueueEntry, QueueMatch, QueueMoved, QueueStore, UserSettings
from bot.store.interface import SettingsStore
from engine import games

from .errors import ServiceError
from .limits import LimitBook, at_limit
from .playing import PlayService
from .queue_matching import pick, waiters
from .reading import ReadingService
from .results import Created
from .tables import Clock

#: How long a player waits in the queue before their entry expires (they are told).
WEEK = 7 * 24 * 3600
#: "3", "2-4" (a hyphen or a dash, spaces allowed): the player counts a waiter accepts.
_COUNTS = re.compile(r"\s*([0-9]{1,2})\s*(?:[-\u2013\u2014]\s*([0-9]{1,2})\s*)?")


class QueueBook(QueueStore, SettingsStore, LimitBook, Protocol):
    """The store calls the queue makes: its own, the players' settings (waking hours) and the
    server's limit on games."""


@dataclass(frozen=True, kw_only=True)
class Joined:
    """A player put in the queue: their entry and how many wait for that game there now."""

    entry: QueueEntry
    waiting: int


def player_counts(typed: str | None, game_key: str) -> tuple[int, int]:
    """The player counts typed (``3`` or ``2-4``; none: all the game allows), within the
    game's: ``queue.bad_players`` otherwise, with what is allowed."""
    rules = games.rules_for(game_key)
    if typed is None or not typed.strip():
        return rules.min_players, rules.max_players
    found = _COUNTS.fullmatch(typed)
    fewest = int(found[1]) if found else 0
    most = int(found[2] or found[1]) if found else 0
    if not rules.min_players <= fewest <= most <= rules.max_players:
        raise ServiceError(
            "queue.bad_players",
            typed=typed.strip()[:20],
            game=rules.display_name,
            min=rules.min_players,
            max=rules.max_players,
        )
    return fewest, most


def counts(entry: QueueEntry) -> str:
    """The player counts a waiter accepts, as typed: ``3`` or ``2-4``."""
    return str(entry.fewest) if entry.fewest == entry.most else f"{entry.fewest}-{entry.most}"


class QueueService:
    """Joining and leaving the queue, matching the waiting players, opening a match's game."""

    def __init__(
        self, store: QueueBook, *, playing: PlayService, reading: ReadingService, clock: Clock
    ) -> None:
        self.store = store
        self.playing = playing
        self.reading = reading
        self.clock = clock

    def now(self) -> int:
        """The current time in UTC unix seconds."""
        return int(self.clock())

    async def join(
        self,
        *,
        guild_id: int,
        user_id: int,
        name: str,
        game_key: str,
        players: str | None,
        channel_id: int,
    ) -> Joined:
        """Put the player in the server's queue for a game (joining again replaces their
        entry and starts its week anew)."""
        if game_key not in games.GAMES:
            raise ServiceError("queue.bad_game", game=game_key[:40])
        fewest, most = player_counts(players, game_key)
        now = self.now()
        entry = QueueEntry(
            guild_id=guild_id,
            user_id=user_id,
            game_key=game_key,
            name=name[:100],
            fewest=fewest,
            most=most,
            channel_id=channel_id,
            joined_at=now,
            expires_at=now + WEEK,
        )
        await self.store.join_queue(entry)
        waiting = [e for e in await self.waiting(guild_id) if e.game_key == game_key]
        return Joined(entry=entry, waiting=len(waiting))

    async def leave(self, guild_id: int, user_id: int) -> int:
        """Take the player out of the server's queue (``queue.not_waiting`` if not in it)."""
        left = await self.store.leave_queue(guild_id, user_id)
        if not left:
            raise ServiceError("queue.not_waiting")
        return left

    async def waiting(self, guild_id: int) -> list[QueueEntry]:
        """Who waits in the server's queue now (expired entries not told yet left out)."""
        now = self.now()
        return [e for e in await self.store.queue_of(guild_id) if e.expires_at > now]

    async def match(self, guild_id: int, language: str | None) -> list[QueueMatch]:
        """Match every group that fits in the server's queue now (``language``: of the
        games opened); each match is recorded with its players taken out of the queue."""
        matched: list[QueueMatch] = []
        while (group := await self._next_group(guild_id)) is not None:
            channel = await self.store.queue_channel(guild_id) or group[0].channel_id
            try:
                found = await self.store.match_queue(
                    group, channel_id=channel, language=language, now=self.now()
                )
            except QueueMoved:
                continue  # someone left or was matched meanwhile: read the queue again
            matched.append(found)
        return matched

    async def _next_group(self, guild_id: int) -> tuple[QueueEntry, ...] | None:
        """The next group to match in the server's queue, of any game, or None."""
        entries = await self.store.queue_of(guild_id)
        full = await at_limit(self.store, guild_id, {e.user_id for e in entries})
        entries = [e for e in entries if e.user_id not in full]  # they wait on
        now = self.now()
        settings = await self._settings({e.user_id for e in entries})
        for game_key in sorted({e.game_key for e in entries}):
            of_game = [e for e in entries if e.game_key == game_key]
            group = pick(waiters(of_game, settings, now))
            if group is not None:
                return group
        return None

    async def _settings(self, users: set[int]) -> Mapping[int, UserSettings]:
        found = {}
        for user in sorted(users):
            stored = await self.store.load_user_settings(user)
            if stored is not None:
                found[user] = stored
        return found

    async def open_game(
        self,
        match: QueueMatch,
        thread_id: int,
        *,
        settings: GameSettings,
        options: Mapping[str, str],
    ) -> Created | None:
        """Start a match's game in its thread (or find the one an interrupted try started),
        and record it with the match: the new game, or None if the thread had it already."""
        existing = await self.reading.active_game_id(thread_id)
        created = None
        if existing is None:
            created = await self.playing.create_game(
                guild_id=match.guild_id,
                channel_id=match.channel_id,
                thread_id=thread_id,
                players=[(user, name) for user, name in match.players],
                game_key=match.game_key,
                options=options,
                settings=settings,
            )
            existing = created.game_id
        await self.store.set_match_game(match.id, thread_id, existing)
        return created

    async def record_message(self, match: QueueMatch, message_id: int) -> None:
        """Record the message a match's thread starts from."""
        await self.store.set_match_message(match.id, message_id)

    async def owed(self) -> list[QueueMatch]:
        """The matches whose game is not open yet, oldest first."""
        return await self.store.owed_matches()

    async def expired(self) -> list[QueueEntry]:
        """The entries whose week is over, to tell their players and drop."""
        return await self.store.expired_queue(self.now())

    async def drop(self, entry: QueueEntry) -> None:
        """Remove an expired entry once its player was told (a newer join stays)."""
        await self.store.drop_queue_entry(entry)

    async def guilds(self) -> list[int]:
        """The servers where someone waits."""
        return await self.store.queue_guilds()

    async def channel(self, guild_id: int) -> int | None:
        """The server's queue channel (None: where the oldest matched player joined)."""
        return await self.store.queue_channel(guild_id)

    async def set_channel(self, guild_id: int, channel_id: int | None, *, by: int) -> None:
        """Set (or clear, None) the server's queue channel."""
        await self.store.set_queue_channel(guild_id, channel_id, by=by, now=self.now())
