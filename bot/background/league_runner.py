"""League work in the background: one task per league that moves it on and posts what it owes.

A game's end is told with ``after_game`` (by the door and the computer runner, once they know
it; it only schedules): the finished games are rated and the game's league, if any, is kicked.
The bot's sweep kicks every running league of its shards now and then (after a restart, a lost
call). A league's task asks the league room once what is owed (``LeagueService.owed``: the next
round seated or the season finished), posts the standings of a round that ended (one nonce per
round, then marked posted) and opens the round's tables: a message in the league's channel, a
thread from it, the table's game, its opening board (``door.settle``). Every step is recorded
before the next (message, then game), so a pass after a crash finishes what is missing and
never opens a table twice. No command waits for this work, except ``/league start`` through
``settle`` (its reply says whether every table opened).

Transient Discord, network or database failures are retried with a growing pause, as the
computer runner's (``bot.background.runner.transient``); after ``attempts`` the task stops with
a warning and the next sweep kicks the league again. A league channel gone or closed to the bot
stops its task with a warning.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Iterable
from typing import Any, Literal

import discord

from bot.background.runner import ATTEMPTS, FIRST_RETRY, MAX_RETRY, transient
from bot.context import Himiko
from bot.league_picture import standings_png
from bot.names import league_name
from bot.present import picture, server_language, users
from bot.service.league_results import LeagueStandings, TableToOpen
from bot.store import League
from bot.thread.door import settle
from bot.thread.threads import fetch_thread

log = logging.getLogger(__name__)

ARCHIVE_MINUTES: Literal[10080] = 10080  # a table's thread archives after a week without messages


def nonce(*parts: object) -> str:
    """A message nonce that is the same on every retry of one league post."""
    key = ":".join(str(p) for p in ("himiko-league", *parts))
    return hashlib.sha256(key.encode()).hexdigest()[:25]


def _guild(channel: discord.abc.Messageable) -> discord.Guild | None:
    """The server a league's channel is in (None for a channel outside one)."""
    return channel.guild if isinstance(channel, discord.abc.GuildChannel) else None


def _done(waiting: Iterable[asyncio.Future[None]]) -> None:
    """Let whoever waits on a league's pass go on."""
    for future in waiting:
        if not future.done():
            future.set_result(None)


class LeagueRunner:
    """Moves leagues on in the background: one task per league, its passes one at a time."""

    def __init__(
        self,
        bot: Himiko,
        *,
        first_retry: float = FIRST_RETRY,
        max_retry: float = MAX_RETRY,
        attempts: int = ATTEMPTS,
    ) -> None:
        self.bot = bot
        self.first_retry, self.max_retry, self.attempts = first_retry, max_retry, attempts
        self._tasks: dict[int, asyncio.Task[None]] = {}  # league -> its task
        self._again: set[int] = set()  # leagues kicked while their task ran: one more pass
        self._ends: set[asyncio.Task[None]] = set()  # games' ends being told to their league
        self._waiting: dict[int, list[asyncio.Future[None]]] = {}  # settle: the next pass
        self._stopped = False  # once stopped (the bot closing), nothing starts

    def kick(self, league_id: int) -> None:
        """Make sure the league's task runs a pass (one more, if one is under way)."""
        if self._stopped:
            return
        if league_id in self._tasks:
            self._again.add(league_id)
            return
        task = asyncio.create_task(self._run(league_id), name=f"league-{league_id}")
        self._tasks[league_id] = task

    def after_game(self, game_id: int) -> None:
        """A game ended: rate it and kick its league, if any, in the background."""
        if self._stopped:
            return
        task = asyncio.create_task(self._ended(game_id), name=f"league-game-{game_id}")
        self._ends.add(task)
        task.add_done_callback(self._ends.discard)

    async def settle(self, league_id: int) -> None:
        """Run a pass of the league's work now and wait for it (done, or failed and left to
        the retries): what a command that changed the league shows depends on it."""
        if self._stopped:
            return
        waiting = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(league_id, []).append(waiting)
        self.kick(league_id)
        await waiting

    async def _ended(self, game_id: int) -> None:
        try:
            league_id = await self.bot.rooms.leagues.game_ended(game_id)
        except Exception:
            log.warning(
                "game %s: its end was not rated yet; the sweep does it", game_id, exc_info=True
            )
            return
        if league_id is not None:
            self.kick(league_id)

    async def _run(self, league_id: int) -> None:
        try:
            await self._loop(league_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("league %s: moving it on failed", league_id)
        finally:
            self._tasks.pop(league_id, None)
            _done(self._waiting.pop(league_id, []))

    async def _loop(self, league_id: int) -> None:
        delay, failures = self.first_retry, 0
        while True:
            self._again.discard(league_id)
            waiting = self._waiting.pop(league_id, [])
            error: Exception | None = None
            try:
                opened = await self._pass(league_id)
            except (discord.NotFound, discord.Forbidden) as gone:
                log.warning("league %s: cannot post in its channel (%s); stopping", league_id, gone)
                return
            except Exception as failed:
                if not transient(failed):
                    raise
                error = failed
            finally:
                _done(waiting)  # a retry goes on in the background
            if error is None:
                delay, failures = self.first_retry, 0
                # a table opened may have ended at once (a forfeit): its round is looked at again
                if not opened and league_id not in self._again:
                    return
                continue
            failures += 1
            if failures >= self.attempts:
                if league_id in self._again:  # kicked during this pass (a sweep): once more
                    continue
                log.warning(
                    "league %s: still failing (%s); the next sweep retries", league_id, error
                )
                return
            log.warning(
                "league %s: posting failed (attempt %d), retrying in %.0f s: %s",
                league_id,
                failures,
                delay,
                error,
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.max_retry)

    async def _pass(self, league_id: int) -> bool:
        """Move the league on and post what it owes; whether tables were opened."""
        owed = await self.bot.rooms.leagues.owed(league_id)
        if owed is None:
            return False
        if owed.standings is not None:
            await self._post_standings(owed.league, owed.standings)
        for table in owed.tables:
            await self._open_table(table)
        return bool(owed.tables)

    async def _language(self, channel: discord.abc.Messageable) -> str | None:
        """The language of the league's posts: the server's (its default, else its locale)."""
        guild = _guild(channel)
        if guild is None:
            return None
        return await server_language(self.bot, guild.id, guild.preferred_locale)

    async def _post_standings(self, league: League, standings: LeagueStandings) -> None:
        """Post a round's standings (a picture) in the league's channel, then mark them posted."""
        channel = await fetch_thread(self.bot, league.channel_id)
        locale = await self._language(channel)

        def say(key: str, **params: Any) -> str:
            return self.bot.catalog.text(key, locale, **params)

        png = await asyncio.to_thread(standings_png, say, standings, locale)
        done = standings.rounds_done
        key = "league.season_over_post" if league.status == "finished" else "league.round_over"
        await channel.send(
            say(key, name=league_name(league.name), round=done),
            file=picture(png, "standings.png"),
            nonce=nonce(league.id, "round", done),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.bot.rooms.leagues.mark_posted(league, done)

    async def _open_table(self, table: TableToOpen) -> None:
        """Post the table's message, start its thread and game, post the opening board."""
        league, seated = table.league, table.table
        channel = await fetch_thread(self.bot, league.channel_id)
        if not isinstance(channel, discord.TextChannel):  # /league create refuses the others
            raise TypeError(f"league {league.id}: channel {league.channel_id} has no threads")
        locale = await self._language(channel)
        mentions = " ".join(f"<@{p.user_id}>" for p in table.players)
        say = self.bot.catalog.text
        params = {"round": seated.round, "table": seated.table_no}
        leagues = self.bot.rooms.leagues
        message: discord.Message | discord.PartialMessage
        if seated.message_id is None:
            message = await channel.send(
                say(
                    "league.table_post",
                    locale,
                    players=mentions,
                    name=league_name(league.name),
                    **params,
                ),
                nonce=nonce(league.id, seated.round, seated.table_no),
                allowed_mentions=users([p.user_id for p in table.players]),
            )
            await leagues.table_message(table, message.id)
        else:
            message = channel.get_partial_message(seated.message_id)
        thread_name = say("league.thread_name", locale, name=league.name, **params)[:100]
        # a thread started from a message has the message's id
        thread: discord.abc.Messageable
        try:  # started by an earlier try
            thread = await fetch_thread(self.bot, message.id)
        except discord.NotFound:
            thread = await message.create_thread(
                name=thread_name, auto_archive_duration=ARCHIVE_MINUTES
            )
        created = await leagues.open_table(table, message.id, locale)
        if created is not None:
            game_id: int | None = created.game_id
        else:  # opened by an earlier try: its opening may still be owed
            game_id = await self.bot.rooms.reading.active_game_id(message.id)
        if game_id:
            await settle(self.bot, game_id, computers=True, known=created, thread=thread)

    async def idle(self) -> None:
        """Wait until no league work runs (for tests)."""
        while self._tasks or self._ends:
            await asyncio.gather(*self._tasks.values(), *self._ends, return_exceptions=True)

    async def stop(self) -> None:
        """Cancel the league work under way; later kicks start nothing."""
        self._stopped = True
        tasks = [*self._tasks.values(), *self._ends]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        for waiting in self._waiting.values():
            _done(waiting)
        self._waiting.clear()
