"""The outbox of thread messages: post a game's message, then record it as announced.

A saved turn whose message was lost (a failed request, a killed process) is found again through
the store's ``announced_version`` and posted by ``flush``: one message for the latest state.

Each message carries a nonce made from (game id, version) and Discord de-duplicates it
(``enforce_nonce``), so a post whose answer was lost and is sent again stays one message. A post
that went through but could not be recorded is remembered in-process and only recorded on the
next try (``NotRecorded``); it is never posted twice by this process. The end of a game also
owes a line in the lobby's channel (its own nonce) and an edit of the lobby message
(idempotent); the version is recorded once all three are done, each done once per process.

A turn message is posted in words; its picture follows (D89): the version is recorded with the
message's id, the picture queued (``bot.thread.picture_queue``) and attached by an edit once
drawn, then cleared. A picture still owed after a restart is found by ``redraw_owed`` (the sweep).

What a message needs from the services is asked in one call before it is posted
(``rooms.messages.prepare``: the message, its deadline, how the next player is told, a last
message's extras) and one after (``rooms.messages.posted``: the turn begins, the version is
recorded); the picture queue makes its own two (draw, attached).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from functools import partial

import discord

from bot.context import Himiko, Owed
from bot.locks import KeyedLocks
from bot.service import Created, Ended, TurnReport
from bot.service.messages import CardExtras, FinalExtras, Prepared
from bot.thread.picture_queue import Delivery, PictureQueue
from bot.thread.turn_cards import CardPictures, post_ending, post_opening, turn_card
from bot.thread.turns import (
    NotRecorded,
    Step,
    dress_message,
    ending_steps,
    fetch_thread,
    game_locale,
    pinged,
    post_turn,
    result_steps,
)

log = logging.getLogger(__name__)


class Outbox:
    """Posts thread messages at least once and, within this process, once per version."""

    def __init__(self, bot: Himiko, picture_workers: int = 1) -> None:
        self.bot = bot
        self._locks = KeyedLocks()  # one message at a time per game
        # game -> (the message posted but not recorded yet, as prepared for its post; its id
        # if it owes its picture)
        self._posted: dict[int, tuple[Prepared, int | None]] = {}
        self._steps: set[tuple[int, int, str]] = set()  # (game, version, step) done, unrecorded
        # pictures drawn at once: one per render worker
        self.pictures = PictureQueue(workers=max(1, picture_workers))
        # game -> version -> a turn message queued to become its card (its report, id, extras)
        self._in_words: dict[int, dict[int, tuple[TurnReport, int, CardExtras]]] = {}

    async def _post(
        self,
        prepared: Prepared,
        send: Callable[[], Awaitable[int | None]],
        steps: Sequence[Step] = (),
    ) -> int | None:
        """Send (unless this process already did), then record; NotRecorded if that fails.

        ``steps`` (the end of a game: the lobby channel's line, the lobby edit) follow the
        thread message, each once per process; then the message is recorded as posted
        (``rooms.messages.posted``: the turn it shows begins, as prepared for the post that
        went through: its reminders, its time bank turn, stored once; then its version), with
        the message's id when it still owes its picture (returned then). A message posted
        counts as posted: a failure to store what follows it is retried without posting again.
        """
        game_id, version = prepared.game_id, prepared.version
        posted = self._posted.get(game_id)
        if posted is None or posted[0].version < version:
            posted = (prepared, await send())
            self._posted[game_id] = posted
        first, owed = posted
        for name, step in steps:
            if (game_id, version, name) not in self._steps:
                await step()
                self._steps.add((game_id, version, name))
        try:
            await self.bot.rooms.messages.posted(first, picture_message=owed)
        except Exception as error:
            raise NotRecorded(f"game {game_id} version {version}") from error
        self._steps -= {(game_id, version, name) for name, _ in steps}
        kept = self._posted.get(game_id)
        if kept is not None and kept[0].version <= version:
            del self._posted[game_id]
        return owed

    # A turn begins when its message is posted (D156): the message states the deadline counted
    # from the try that posts it (``prepare``), and the turn's reminders and time bank turn are
    # stored from that moment once it went through (``posted``, run by ``_post`` with what was
    # prepared for that try). A failed try stores nothing of the turn (the next try counts from
    # its own post); the turn played before stops at the first try.

    async def flush(
        self,
        game_id: int,
        known: Owed | None = None,
        channel: discord.abc.Messageable | None = None,
    ) -> bool:
        """Post the message a game still owes, if any; True if one was posted.

        What is owed is read from the store, unless the change just made it (``known``: a
        completed turn, a new game's opening), then it is posted unless already announced;
        ``channel``: the opening's thread, in hand.
        """
        async with self._locks.hold(game_id):
            prepared = await self.bot.rooms.messages.prepare(game_id, known)
            if prepared is None:
                return False
            pending = prepared.message
            steps = (
                result_steps(self.bot, pending)
                if isinstance(pending, TurnReport)
                else ending_steps(self.bot, pending)
                if isinstance(pending, Ended)
                else []
            )
            owed = await self._post(prepared, lambda: self._send(prepared, channel), steps)
        if owed is not None and isinstance(pending, TurnReport):
            self._queue_picture(pending, owed, prepared.card)
        return True

    async def _send(
        self, prepared: Prepared, channel: discord.abc.Messageable | None
    ) -> int | None:
        """Post the prepared message: the id of a turn message posted before its picture, else
        None. The opening's thread may be in hand (``channel``)."""
        message = prepared.message
        if isinstance(message, Created):
            thread = channel or await fetch_thread(self.bot, message.thread_id)
            await post_opening(self.bot, thread, message, prepared.deadline)
            return None
        thread = await fetch_thread(self.bot, message.thread_id)
        if isinstance(message, Ended):
            await post_ending(self.bot, thread, message, prepared.final)
            return None
        posted = await post_turn(self.bot, thread, message, prepared)
        return posted.id  # its card follows, once its pictures are drawn

    # -- the card a turn message becomes once its pictures are drawn ----------------------------

    def _queue_picture(self, report: TurnReport, message_id: int, extras: CardExtras) -> bool:
        """Queue the drawing of a posted turn message's pictures, which turn it into its card
        (the newest of its game only: the messages it overtook become cards in words).

        Somebody waits on it when a human plays next or the game ended; a board between
        computer turns waits behind those, or is left to the sweep when the queue is full.
        """
        if report.picture_order is None:
            return False
        nxt = report.next_player
        waited = report.final is not None or (nxt is not None and not nxt.computer)
        job = partial(self._dress, report, message_id, extras)
        taken = self.pictures.put((report.game_id, "turn"), report.version, job, waited=waited)
        if taken:
            self._in_words.setdefault(report.game_id, {})[report.version] = (
                report,
                message_id,
                extras,
            )
        return taken

    async def _dress(
        self, report: TurnReport, message_id: int, extras: CardExtras
    ) -> Delivery | None:
        """Draw the card's pictures; its delivery edits the message into its card and records
        it, then turns the game's older messages whose pictures this one overtook (never drawn)
        into cards in words. Pictures that fail leave a card without them, still owed (the next
        sweep draws them again); a message that is gone is not tried again."""
        game_id, version, final = report.game_id, report.version, extras.final
        waiting = self._in_words.get(game_id, {})
        waiting.pop(version, None)
        overtaken = [waiting.pop(v) for v in sorted(waiting) if v < version]
        if not waiting:
            self._in_words.pop(game_id, None)
        reports = self.bot.rooms.reports
        try:
            pictures, drawn = await self._card_pictures(report, final), True
        except Exception:
            log.warning("game %s: could not draw its pictures; later", game_id, exc_info=True)
            pictures, drawn = CardPictures(recap=None if final is None else final.recap), False

        async def deliver() -> None:
            try:
                await self._put_card(report, message_id, extras, pictures)
            except (discord.NotFound, discord.Forbidden) as error:
                log.warning("game %s: turn message %s gone (%s)", game_id, message_id, error)
            except Exception:
                log.warning("game %s: could not edit its card; later", game_id, exc_info=True)
                return
            else:
                if not drawn:
                    return
            await reports.picture_attached(game_id, version)
            for older, older_id, older_extras in overtaken:
                try:
                    await self._put_card(older, older_id, older_extras, CardPictures())
                except Exception:  # an older turn's card in words: not tried again
                    log.warning("game %s: turn message %s stays in words", game_id, older_id)

        return deliver

    async def _put_card(
        self, report: TurnReport, message_id: int, extras: CardExtras, pictures: CardPictures
    ) -> None:
        """Edit a turn message into its card with ``pictures``."""
        channel = await fetch_thread(self.bot, report.thread_id)
        locale = game_locale(report.language, channel)
        view, files = turn_card(
            self.bot, report, locale, extras.deadline, pictures, final=extras.final
        )
        await dress_message(channel, message_id, view, files, pinged(report, extras.delivery))

    async def _card_pictures(self, report: TurnReport, final: FinalExtras | None) -> CardPictures:
        """A turn card's pictures: the phone-sized turn picture and the board, drawn side by
        side when there are workers for both; a last turn's board and recap."""
        draw = self.bot.rooms.reports.draw_picture
        assert report.picture_order is not None  # only such reports are queued
        if report.final is not None:
            board = await draw(report.picture_order)
            return CardPictures(board=board, recap=None if final is None else final.recap)
        if report.card_order is None:
            return CardPictures(board=await draw(report.picture_order))
        turn, board = await asyncio.gather(draw(report.card_order), draw(report.picture_order))
        return CardPictures(turn=turn, board=board)

    async def redraw_owed(self) -> int:
        """Queue the cards still owed by turn messages posted before a restart (each once:
        one being drawn is not queued again); how many were queued."""
        reports = self.bot.rooms.reports
        queued = 0
        for owed in await reports.owed_pictures(self.bot.served_shards):
            if self.pictures.holds((owed.game_id, "turn"), owed.version):
                continue
            report = await reports.owed_report(owed)
            if report is None or report.picture_order is None:  # superseded: never drawn
                await reports.picture_attached(owed.game_id, owed.version)
                continue
            extras = await self.bot.rooms.messages.card_extras(report)
            queued += self._queue_picture(report, owed.message_id, extras)
        return queued

    async def pending(self) -> list[int]:
        """Games of this process's shards that still owe their thread a message (turns,
        openings, endings)."""
        return await self.bot.rooms.reading.owing_games(self.bot.served_shards)
