"""The reminder scheduler: every ``SCHEDULER_INTERVAL_S`` it sends the reminders that are due.

The schedule lives in the store (``reminders``, migration 0005), so nothing is lost across a
restart. A tick claims the due rows with one atomic UPDATE that gives them a lease, sends one
message per (game, player) however many of their reminders were overdue (after downtime they
collapse into one), then marks them sent. A reminder whose turn was already played is cancelled,
not sent. If the process dies or Discord fails between the claim and the send, the lease runs
out and a later tick sends it; once sent it is recorded in-process before the store is told, so
a failed "mark sent" is retried without a second message. A process killed between the send and
the record leaves rows that a later claim finds claimed before (``Reminder.claims``): their
message may be in the thread already, so the thread's recent messages are read first and, if the
bot's message with that very text is there, the rows are only recorded as sent. The message's
nonce (the same on every retry of the same rows) covers the rest: a retry by another process
while the first is still sending, which Discord drops within its few minutes.

What a message says is decided by the service in one call (``rooms.deadlines.due``: one read of
the game) before the thread is reached: whether the turn is still due, the language, how the
player is told, and at a deadline either the other players' two votes (skip the turn, hand the
seat to the computer) or, in a game with the take-over option, the take-over: the seat goes to
the computer at once, stored first (D180), then the thread is told and the runner plays. If the
process dies between the two, the sweep plays the seat and its turn message says the computer
played for the away player.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import defaultdict
from typing import Any

import discord

from bot.background.loops import Every
from bot.context import Himiko
from bot.present import NO_MENTIONS, clip, only
from bot.store import Reminder
from bot.thread.threads import fetch_thread, game_locale, send_dm

log = logging.getLogger(__name__)

LEASE = 300  # seconds a claimed reminder is left to its sender before another tick may retry
RECENT = 50  # the thread's latest messages searched for a reminder a dead claim may have sent
STOP_GRACE = 3.0  # seconds a tick under way may take to finish when the bot stops


def reminder_nonce(reminder_ids: list[int]) -> str:
    """The nonce of the message for these reminders: the same on every retry (25 characters)."""
    key = ",".join(str(i) for i in sorted(reminder_ids))
    return hashlib.sha256(f"himiko:reminder:{key}".encode()).hexdigest()[:25]


class ReminderScheduler:
    """Sends due reminders from the store, at most once each (see the module docstring)."""

    def __init__(self, bot: Himiko, interval: float, *, lease: int = LEASE) -> None:
        self.bot = bot
        self.interval = interval
        self.lease = lease
        self._sent: set[int] = set()  # sent by this process, not yet recorded in the store
        self._lock = asyncio.Lock()
        self._loop = Every(self._round, lambda: self.interval, name="himiko-reminders")
        self.first_tick_done = asyncio.Event()  # set once the start-up tick has run

    async def tick(self) -> int:
        """Send what is due now; how many messages were sent. Failures are logged, not raised."""
        async with self._lock:
            try:
                claimed = await self.bot.rooms.deadlines.claim_due_reminders(
                    lease=self.lease, shards=self.bot.served_shards
                )
            except Exception:
                log.warning("reminders: could not read the schedule", exc_info=True)
                return 0
            groups: dict[tuple[int, int], list[Reminder]] = defaultdict(list)
            for reminder in claimed:
                groups[(reminder.game_id, reminder.user_id)].append(reminder)
            sent = 0
            for rows in groups.values():
                try:
                    sent += await self._deliver(rows)
                except Exception:  # the lease runs out and a later tick tries again
                    log.warning(
                        "reminders: game %s: could not remind, retrying later",
                        rows[0].game_id,
                        exc_info=True,
                    )
            return sent

    async def _deliver(self, rows: list[Reminder]) -> int:
        """One message for one player's due reminders in one game; 1 if it was sent now."""
        deadlines = self.bot.rooms.deadlines
        ids = [r.id for r in rows]
        if all(i in self._sent for i in ids):  # sent by this process: only the record is owed
            await deadlines.sent(ids)
            self._sent.difference_update(ids)
            return 0
        due = await deadlines.due(rows)  # the game read once; a take-over stored here
        if due.thread_id is None:  # the turn was played (or the game ended) before it was due
            return 0
        try:
            channel = await fetch_thread(self.bot, due.thread_id)
        except (discord.NotFound, discord.Forbidden):  # gone or closed to the bot: drop them
            log.warning("reminders: thread %s is gone or closed; dropped", due.thread_id)
            await deadlines.drop(ids)
            return 0
        locale = game_locale(due.language, channel)
        text = self.bot.catalog.text(
            "reminder.takeover" if due.handed else f"reminder.{due.kind}",
            locale,
            mention=f"<@{due.user_id}>",
            when=f"<t:{due.deadline_at}:R>",
        )
        extra: dict[str, Any] = {}
        if due.vote_turn is not None:  # the others vote: skip, or hand over
            extra["view"] = self.bot.buttons.skip_view(due.game_id, due.vote_turn, locale)
        elif due.more_turn is not None:  # before the deadline: the player may ask for more
            extra["view"] = self.bot.buttons.more_time_view(due.game_id, due.more_turn, locale)
        # claimed before: that claim may have sent it
        if due.retried and await self._posted(channel, clip(text)):
            log.info("reminders: game %s: already in the thread, recorded", due.game_id)
            await deadlines.sent(ids)
            return 0
        how = due.delivery
        await channel.send(
            clip(text),
            allowed_mentions=only(due.user_id) if how and how.ping else NO_MENTIONS,
            nonce=reminder_nonce(ids),
            **extra,
        )
        self._sent.update(ids)  # sent: never again from this process, whatever follows
        if due.handed is not None:
            self.bot.runner.kick(due.game_id)
        if how is not None and how.dm:  # best effort: a closed inbox is logged, the thread has it
            dm = self.bot.catalog.text(
                "dm.reminder", locale, reminder=text, thread=f"<#{due.thread_id}>"
            )
            await send_dm(self.bot, due.user_id, dm)
        await deadlines.sent(ids)
        self._sent.difference_update(ids)
        return 1

    async def _posted(self, channel: discord.abc.Messageable, text: str) -> bool:
        """Whether the bot's message with this text is among the thread's recent messages.

        A thread the bot may not read counts as not posted (sent again: at worst twice, as
        before this check).
        """
        me = self.bot.client.user
        try:
            async for message in channel.history(limit=RECENT):
                if me is not None and message.author.id == me.id and message.content == text:
                    return True
        except discord.Forbidden:
            log.warning("reminders: cannot read the thread; sending again", exc_info=True)
        return False

    async def _round(self) -> None:
        await self.tick()
        self.first_tick_done.set()

    def start(self) -> None:
        """Tick at once (what fell due while the bot was down), then every ``interval``, in the
        background (once)."""
        self._loop.start()

    async def stop(self, grace: float = STOP_GRACE) -> None:
        """Stop between two ticks: a tick under way gets ``grace`` seconds to finish.

        A tick cut short loses nothing: its claimed reminders are sent by a later tick (of
        this or another process) once their lease runs out, with the same nonce.
        """
        if not self._loop.running:
            return
        try:
            await asyncio.wait_for(self._lock.acquire(), grace)
        except TimeoutError:
            log.info("reminders: stopping in the middle of a tick; its lease covers the rest")
        else:
            self._lock.release()
        await self._loop.stop()
