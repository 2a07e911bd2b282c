"""The queue in the background (issue 39 item 1): match the waiting players of a server, open
each match's game, tell the players whose week in the queue ended.

``kick(guild)`` runs a pass for the server (after a ``/queue join``; the bot's sweep kicks every
server with someone waiting or a match owed, after a restart or a lost call). A pass matches what
fits (``QueueService.match``: written with its entries taken out, so nobody is matched twice,
whichever process matches), then opens every owed match of the server as the league opens its
tables: a message in the queue channel that pings the players (one nonce per match), recorded;
a thread from it; the game, recorded with the match; its opening board (``door.settle``). Every
step is recorded before the next, so a pass after a crash finishes what is missing and never
opens a match twice. An expired entry: its player is pinged where they joined (one nonce per
entry), then the entry goes. Failures are logged; the next sweep tries again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import Literal

import discord

from bot.context import Himiko
from bot.lobby_state import LobbyState
from bot.present import server_language, users
from bot.store import QueueEntry, QueueMatch
from bot.thread.door import settle
from bot.thread.threads import fetch_thread
from engine import games

log = logging.getLogger(__name__)

ARCHIVE_MINUTES: Literal[10080] = 10080  # a game's thread archives after a week without messages


def nonce(*parts: object) -> str:
    """A message nonce that is the same on every retry of one queue post."""
    key = ":".join(str(p) for p in ("himiko-queue", *parts))
    return hashlib.sha256(key.encode()).hexdigest()[:25]


class QueueRunner:
    """Moves each server's queue on in the background: one task per server at a time."""

    def __init__(self, bot: Himiko) -> None:
        self.bot = bot
        self._tasks: dict[int, asyncio.Task[None]] = {}  # guild -> its pass
        self._again: set[int] = set()  # kicked while its pass ran: one more pass
        self._stopped = False

    def kick(self, guild_id: int) -> None:
        """Make sure the server's queue gets a pass (one more, if one is under way)."""
        if self._stopped:
            return
        if guild_id in self._tasks:
            self._again.add(guild_id)
            return
        self._tasks[guild_id] = asyncio.create_task(self._run(guild_id), name=f"queue-{guild_id}")

    async def sweep(self) -> None:
        """Kick every served server with someone waiting, a match owed or an entry expired."""
        queue = self.bot.rooms.queue
        guilds = set(await queue.guilds())
        guilds |= {m.guild_id for m in await queue.owed()}
        shards = self.bot.served_shards
        for guild_id in sorted(guilds):
            if shards is None or shards.owns(guild_id):
                self.kick(guild_id)

    async def idle(self) -> None:
        """Wait until no queue work runs (for tests)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel the passes under way; later kicks start nothing."""
        self._stopped = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()

    async def _run(self, guild_id: int) -> None:
        try:
            while True:
                self._again.discard(guild_id)
                try:
                    await self._pass(guild_id)
                except Exception:
                    if guild_id not in self._again:
                        raise
                    # kicked while it failed (a join): once more now, not at the next sweep
                    log.warning("queue of server %s: a pass failed; once more", guild_id)
                    continue
                if guild_id not in self._again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning(
                "queue of server %s: a pass failed; the sweep retries", guild_id, exc_info=True
            )
        finally:
            self._tasks.pop(guild_id, None)

    async def _pass(self, guild_id: int) -> None:
        """Match what fits, open what is owed, tell who expired: this server's."""
        queue = self.bot.rooms.queue
        await queue.match(guild_id, await self._language(guild_id))
        for match in await queue.owed():
            if match.guild_id != guild_id:
                continue
            try:
                await self._open(match)
            except (discord.NotFound, discord.Forbidden, TypeError) as failed:  # its channel
                log.warning(
                    "queue match %s: cannot open its game (%s); next sweep", match.id, failed
                )
        for entry in await queue.expired():
            if entry.guild_id == guild_id:
                await self._tell_expired(entry)

    async def _language(self, guild_id: int) -> str | None:
        """The server's language (its default, else its locale if the bot speaks it)."""
        guild = self.bot.client.get_guild(guild_id)
        return await server_language(self.bot, guild_id, guild.preferred_locale if guild else None)

    async def _open(self, match: QueueMatch) -> None:
        """Post the match's message, start its thread and game, post the opening board."""
        channel = await fetch_thread(self.bot, match.channel_id)
        if isinstance(channel, discord.Thread):  # joined in a thread before joins said its parent
            channel = await fetch_thread(self.bot, channel.parent_id)
        if not isinstance(channel, discord.TextChannel):  # /server queue-channel refuses others
            raise TypeError(f"queue match {match.id}: channel {match.channel_id} has no threads")
        say = self.bot.catalog.text
        rules = games.rules_for(match.game_key)
        user_ids = [user for user, _ in match.players]
        message: discord.Message | discord.PartialMessage
        if match.message_id is None:
            message = await channel.send(
                say(
                    "queue.matched",
                    match.language,
                    game=rules.display_name,
                    players=", ".join(f"<@{user}>" for user in user_ids),
                ),
                nonce=nonce(match.id),
                allowed_mentions=users(user_ids),
            )
            await self.bot.rooms.queue.record_message(match, message.id)
        else:
            message = channel.get_partial_message(match.message_id)
        names = ", ".join(name for _, name in match.players)
        thread_name = say(
            "lobby.thread_name", match.language, game=rules.display_name, players=names
        )
        thread: discord.abc.Messageable
        try:  # a thread started from a message has the message's id: started by an earlier try
            thread = await fetch_thread(self.bot, message.id)
        except discord.NotFound:
            thread = await message.create_thread(
                name=thread_name[:100], auto_archive_duration=ARCHIVE_MINUTES
            )
        lobby = LobbyState(
            match.game_key,
            len(match.players),
            False,
            tuple(user_ids),
            tuple(name for _, name in match.players),
            language=match.language,
        )
        created = await self.bot.rooms.queue.open_game(
            match,
            message.id,
            settings=lobby.settings,
            options=lobby.setup_options(self.bot.rooms.seeds),
        )
        game_id = (
            created.game_id if created else await self.bot.rooms.reading.active_game_id(message.id)
        )
        if game_id:
            await settle(self.bot, game_id, computers=True, known=created, thread=thread)

    async def _tell_expired(self, entry: QueueEntry) -> None:
        """Ping the player where they joined that their week is over, then drop the entry."""
        try:
            channel = await fetch_thread(self.bot, entry.channel_id)
            await channel.send(
                self.bot.catalog.text(
                    "queue.expired",
                    await self._language(entry.guild_id),
                    player=f"<@{entry.user_id}>",
                    game=games.rules_for(entry.game_key).display_name,
                ),
                nonce=nonce(
                    "expired", entry.guild_id, entry.user_id, entry.game_key, entry.joined_at
                ),
                allowed_mentions=users([entry.user_id]),
            )
        except (discord.NotFound, discord.Forbidden):  # the channel is gone or closed to us
            log.info("queue: user %s's expired entry could not be told", entry.user_id)
        await self.bot.rooms.queue.drop(entry)
